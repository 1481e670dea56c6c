/* report_json.c: --format json. The reports a script reads (summary, fit, pareto, sensitivity,
 * query, predict, trend) as one JSON object, a member per report, from the same analysis and
 * the same planner functions as the text; the schema is the man page's (JSON OUTPUT). Numbers
 * are written with 17 significant digits, so they read back as the very doubles the text and
 * --print csv round; an absent number (NAN) is null, never a string. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench_reg.h"
#include "describe.h"
#include "fileio.h"
#include "planner.h"
#include "text.h"

#define JSON_SCHEMA 1

/* A number, or null when it is not finite. */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A count (N), or null when negative (none). */
static json_t *jcount(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Sets key of o to v, taking v's reference; a NULL v (out of memory) marks o failed. */
static void put(json_t *o, const char *key, json_t *v, bool *oom)
{
	if (!v || json_object_set_new(o, key, v) < 0)
		*oom = true;
}

static void push(json_t *arr, json_t *v, bool *oom)
{
	if (!v || json_array_append_new(arr, v) < 0)
		*oom = true;
}

/* A dataset row (a reference, a candidate) of a: its names, N and minutes, and in the
 * cross-round view the row standing for it when a carries it over (null when none); null for
 * -1. */
static json_t *j_drow(const struct dataset *ds, const struct analysis *a, long i, bool *oom)
{
	if (i < 0)
		return json_null();
	const struct row *d = &ds->rows[i];
	json_t *o = json_object();
	if (!o)
		return *oom = true, NULL;
	put(o, "round", jstr(d->round), oom);
	put(o, "submitter", jstr(d->submitter), oom);
	put(o, "system", jstr(d->system), oom);
	put(o, "family", jstr(d->family), oom);
	put(o, "accelerators", json_integer(d->accelerators), oom);
	put(o, "minutes", jnum(d->minutes), oom);
	if (a->all_rounds) {
		long s = analysis_carried_by(a, (size_t)i);
		json_t *by = s < 0 ? json_null() : json_object();
		if (by && s >= 0) {
			put(by, "round", jstr(ds->rows[s].round), oom);
			put(by, "submitter", jstr(ds->rows[s].submitter), oom);
			put(by, "system", jstr(ds->rows[s].system), oom);
		}
		put(o, "carried_over_of", by, oom);
	}
	return o;
}

/* One shown row: a dataset row's fields, T as analysed, and its metrics. */
static json_t *j_row(const struct dataset *ds, const struct analysis *a, const struct arow *r,
		     bool *oom)
{
	json_t *o = j_drow(ds, a, (long)r->row, oom);

	if (!o)
		return NULL;
	put(o, "minutes", jnum(r->T), oom); /* in place: the key keeps its position */
	put(o, "speedup", jnum(r->S), oom);
	put(o, "e_prime", jnum(r->Ep), oom);
	put(o, "acc_hours", jnum(r->A), oom);
	put(o, "kwh", jnum(r->kwh), oom);
	put(o, "cost_lo_usd", jnum(r->cost_lo), oom);
	put(o, "cost_hi_usd", jnum(r->cost_hi), oom);
	put(o, "reference", jstr(ds->rows[r->ref].system), oom);
	put(o, "is_reference", json_boolean(r->is_ref), oom);
	put(o, "pareto", json_boolean(r->pareto), oom);
	put(o, "gbs", jnum(r->gbs), oom);
	put(o, "charged_samples", jnum(r->Sc), oom);
	put(o, "throughput", jnum(r->X), oom);
	put(o, "e_thru", jnum(r->e_thru), oom);
	put(o, "e_conv", jnum(r->e_conv), oom);
	put(o, "e_conv_rcp", jnum(r->e_conv_rcp), oom);
	return o;
}

static const char *be_kind_name(enum be_kind k)
{
	switch (k) {
	case BE_EMPTY: return "empty";
	case BE_ONE_ROW: return "one_row";
	case BE_NONE: return "none";
	case BE_CENSORED: return "censored";
	case BE_BRACKET: return "bracket";
	}
	return "?";
}

static json_t *j_bracket(const struct be_bracket *b, bool *oom)
{
	json_t *o = json_object();
	char t[96];

	if (!o)
		return *oom = true, NULL;
	put(o, "kind", json_string(be_kind_name(b->kind)), oom);
	put(o, "lo", jcount(b->kind == BE_CENSORED || b->kind == BE_BRACKET ? b->lo : -1), oom);
	put(o, "hi", jcount(b->kind == BE_BRACKET ? b->hi : -1), oom);
	put(o, "text", json_string(describe_bracket(b, t, sizeof t)), oom);
	return o;
}

static json_t *j_range(long lo, long hi, bool *oom)
{
	json_t *o = json_object();

	if (!o)
		return *oom = true, NULL;
	put(o, "lo", jcount(lo < 0 || hi < 0 ? -1 : lo < hi ? lo : hi), oom);
	put(o, "hi", jcount(lo < 0 || hi < 0 ? -1 : lo < hi ? hi : lo), oom);
	return o;
}

static json_t *j_model(const struct fit_model *m, bool *oom)
{
	json_t *o = json_object();

	if (!o)
		return *oom = true, NULL;
	put(o, "lambda", jnum(m->lambda), oom);
	put(o, "sigma", jnum(m->sigma), oom);
	put(o, "kappa", jnum(m->kappa), oom);
	put(o, "se_lambda", jnum(m->se_lambda), oom);
	put(o, "se_sigma", jnum(m->se_sigma), oom);
	put(o, "se_kappa", jnum(m->se_kappa), oom);
	put(o, "sigma_at_bound", json_boolean(m->sigma_at_bound), oom);
	put(o, "kappa_at_bound", json_boolean(m->kappa_at_bound), oom);
	put(o, "r2", jnum(m->r2), oom);
	put(o, "sse", jnum(m->sse), oom);
	put(o, "converged", json_boolean(m->converged), oom);
	return o;
}

static json_t *j_fit(const struct fam_fit *ff, bool *oom)
{
	const struct fit *f = &ff->fit;
	json_t *o = json_object(), *v = json_object();
	char t[200];

	if (!o || !v) {
		json_decref(o);
		json_decref(v);
		return *oom = true, NULL;
	}
	put(o, "family", jstr(ff->family), oom);
	put(o, "state", json_string(fit_state_name(f->state)), oom);
	put(o, "reason", json_string(f->reason), oom);
	put(o, "points", json_integer((json_int_t)f->npoints), oom);
	put(o, "distinct_n", json_integer((json_int_t)f->ndistinct), oom);
	put(o, "n_min", jnum(f->n_ref), oom);
	put(o, "n_max", jnum(f->n_max), oom);
	put(o, "usl", fit_usable(f) ? j_model(&f->usl, oom) : json_null(), oom);
	put(o, "amdahl", fit_usable(f) ? j_model(&f->amdahl, oom) : json_null(), oom);
	put(o, "peak", jnum(ff->v.judged && ff->v.peak_ok ? f->peak : NAN), oom);
	put(v, "text", json_string(describe_verdict(ff, t, sizeof t)), oom);
	put(v, "judged", json_boolean(ff->v.judged), oom);
	put(v, "ok", json_boolean(ff->v.judged && ff->v.ok), oom);
	put(v, "worst_n", jnum(ff->v.judged ? ff->v.worst_n : NAN), oom);
	put(v, "worst_observed", jnum(ff->v.judged ? ff->v.worst_obs : NAN), oom);
	put(v, "worst_fitted", jnum(ff->v.judged ? ff->v.worst_fit : NAN), oom);
	put(v, "n_ref", jnum(ff->v.judged ? ff->v.n_ref : NAN), oom);
	put(v, "t_ref", jnum(ff->v.judged ? ff->v.t_ref : NAN), oom);
	put(v, "breakeven", jnum(ff->v.judged ? ff->v.be : NAN), oom);
	put(v, "extrapolated", json_boolean(ff->v.judged && ff->v.extrapolated), oom);
	put(v, "own_reference", json_boolean(ff->v.own_ref), oom);
	put(o, "verdict", v, oom);
	return o;
}

/* {"value", "lo", "hi"} */
static json_t *j_ci(double v, double lo, double hi, bool *oom)
{
	json_t *o = json_object();

	if (!o)
		return *oom = true, NULL;
	put(o, "value", jnum(v), oom);
	put(o, "lo", jnum(lo), oom);
	put(o, "hi", jnum(hi), oom);
	return o;
}

static json_t *j_pred(const char *family, const struct pred *p, bool *oom)
{
	json_t *o = json_object();

	if (!o)
		return *oom = true, NULL;
	if (family)
		put(o, "family", jstr(family), oom);
	put(o, "ok", json_boolean(p->ok), oom);
	put(o, "why", p->ok ? json_null() : json_string(p->why), oom);
	put(o, "verdict", json_string(p->verdict), oom);
	put(o, "poor", json_boolean(p->ok && p->poor), oom);
	put(o, "n", jnum(p->n), oom);
	put(o, "node", p->node > 0 ? json_integer(p->node) : json_null(), oom);
	put(o, "n_law", jnum(p->n_law), oom);
	put(o, "n_lo", jnum(p->n_lo), oom);
	put(o, "n_hi", jnum(p->n_hi), oom);
	put(o, "minutes", j_ci(p->t, p->t_lo, p->t_hi, oom), oom);
	put(o, "e_prime", j_ci(p->ep, p->ep_lo, p->ep_hi, oom), oom);
	put(o, "acc_hours", j_ci(p->a, p->a_lo, p->a_hi, oom), oom);
	put(o, "cost_lo_usd", jnum(p->cost_lo), oom);
	put(o, "cost_hi_usd", jnum(p->cost_hi), oom);
	put(o, "n_ref", jnum(p->n_ref), oom);
	put(o, "t_ref", jnum(p->t_ref), oom);
	put(o, "extrapolated", json_boolean(p->ok && p->extrapolated), oom);
	put(o, "law", json_string(p->split ? "throughput_rcp" : "time"), oom);
	put(o, "gbs", jnum(p->split ? p->gbs : NAN), oom);
	put(o, "rcp_mean", jnum(p->split ? p->s_rcp : NAN), oom);
	put(o, "rcp_unit", p->split ? json_string(p->rcp_unit) : json_null(), oom);
	put(o, "split_not_used", p->note[0] ? json_string(p->note) : json_null(), oom);
	put(o, "weak", json_boolean(p->ok && p->weak), oom);
	return o;
}

static json_t *j_sure(enum q_sure s)
{
	return s == QS_NONE ? json_null() : json_string(describe_sure(s));
}

/* The head every per-analysis report carries. */
static json_t *j_head(const struct analysis *a, const struct params *p, bool *oom)
{
	json_t *o = json_object();

	if (!o)
		return *oom = true, NULL;
	put(o, "round", jstr(a->round), oom);
	put(o, "workload", jstr(a->workload), oom);
	put(o, "label", jstr(workload_label(a->workload)), oom);
	put(o, "all_rounds", json_boolean(a->all_rounds), oom);
	put(o, "mode", json_string(ref_mode_name(a->mode)), oom);
	put(o, "theta", jnum(p->theta), oom);
	put(o, "rows_shown", json_integer((json_int_t)analysis_pooled(a)), oom);
	put(o, "rows_total", json_integer((json_int_t)a->total), oom);
	if (a->all_rounds) { /* listed besides the rows shown, counted in nothing */
		put(o, "rows_carried_over", json_integer((json_int_t)a->ncarried), oom);
		put(o, "rows_carried_over_total", json_integer((json_int_t)a->total_carried), oom);
	}
	return o;
}

static json_t *j_candidates(const struct dataset *ds, const struct analysis *a, const struct group *g,
			    bool *oom)
{
	json_t *arr = json_array();

	if (!arr)
		return *oom = true, NULL;
	for (size_t c = 0; c < g->ncand; c++) {
		json_t *o = j_drow(ds, a, (long)g->cand[c].row, oom);
		if (o)
			put(o, "bracket", j_bracket(&g->cand[c].b, oom), oom);
		push(arr, o, oom);
	}
	return arr;
}

static json_t *j_group(const struct dataset *ds, const struct analysis *a, size_t gi, bool *oom)
{
	const struct group *g = &a->groups[gi];
	json_t *o = json_object(), *fits = json_array(), *s = json_object();

	if (!o || !fits || !s) {
		json_decref(o);
		json_decref(fits);
		json_decref(s);
		return *oom = true, NULL;
	}
	put(o, "family", jstr(g->family), oom);
	put(o, "rows", json_integer((json_int_t)g->nrows), oom);
	put(o, "reference", j_drow(ds, a, g->ref, oom), oom);
	put(o, "bracket", j_bracket(&g->be, oom), oom);
	put(o, "bracket_row", j_drow(ds, a, g->be.kind == BE_ONE_ROW ? -1 : g->be_row, oom), oom);
	put(o, "firm", jcount(g->firm), oom);
	put(o, "loose", jcount(g->loose), oom);
	put(o, "range", j_range(g->range_lo, g->range_hi, oom), oom);
	put(s, "lo", jcount(g->sens_lo), oom);
	put(s, "hi", jcount(g->sens_hi), oom);
	put(s, "candidates", j_candidates(ds, a, g, oom), oom);
	put(o, "sensitivity", s, oom);
	for (size_t f = 0; f < a->nfits; f++)
		if (a->fits[f].group == gi)
			push(fits, j_fit(&a->fits[f], oom), oom);
	put(o, "fits", fits, oom);
	if (g->ref_slow) {
		json_t *w = json_object();
		char b[400];
		if (!w)
			*oom = true;
		put(w, "minutes", jnum(ds->rows[g->ref].minutes), oom);
		put(w, "candidates_median", jnum(g->cand_median), oom);
		put(w, "ratio", jnum(g->ref_ratio), oom);
		put(w, "candidates", json_integer((json_int_t)g->ncand), oom);
		put(w, "text", json_string(describe_ref_slow(ds, g, false, b, sizeof b)), oom);
		put(o, "reference_slow", w, oom);
	} else {
		put(o, "reference_slow", json_null(), oom);
	}
	put(o, "split", json_boolean(g->split), oom);
	put(o, "bracket_throughput", g->split ? j_bracket(&g->be_thru, oom) : json_null(), oom);
	put(o, "bracket_convergence", g->split ? j_bracket(&g->be_conv, oom) : json_null(), oom);
	return o;
}

static json_t *j_groups(const struct dataset *ds, const struct analysis *a, bool *oom)
{
	json_t *arr = json_array();

	if (!arr)
		return *oom = true, NULL;
	for (size_t g = 0; g < a->ngroups; g++)
		push(arr, j_group(ds, a, g, oom), oom);
	return arr;
}

static json_t *j_pareto_rows(const struct dataset *ds, const struct analysis *a, bool *oom)
{
	json_t *arr = json_array();
	size_t *idx = malloc((a->n ? a->n : 1) * sizeof *idx), n = 0;

	if (!arr || !idx) {
		json_decref(arr);
		free(idx);
		return *oom = true, NULL;
	}
	/* fastest first, as the text lists them */
	for (size_t i = 0; i < a->n; i++) {
		if (!a->rows[i].pareto)
			continue;
		size_t j = n++;
		while (j > 0 && a->rows[idx[j - 1]].T > a->rows[i].T) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
	for (size_t k = 0; k < n; k++)
		push(arr, j_row(ds, a, &a->rows[idx[k]], oom), oom);
	free(idx);
	return arr;
}

/* The cross-round view's carried-over rows in table order, each with the row standing for it. */
static json_t *j_carried(const struct dataset *ds, const struct analysis *a, bool *oom)
{
	json_t *arr = json_array();

	if (!arr)
		return *oom = true, NULL;
	for (size_t i = 0; i < a->n; i++)
		if (arow_carried(&a->rows[i]))
			push(arr, j_drow(ds, a, (long)a->rows[i].row, oom), oom);
	return arr;
}

static json_t *j_summary_one(const struct dataset *ds, const struct analysis *a,
			     const struct params *p, bool *oom)
{
	json_t *o = j_head(a, p, oom), *cl = json_object();

	if (!o || !cl) {
		json_decref(o);
		json_decref(cl);
		return *oom = true, NULL;
	}
	put(o, "reference", j_drow(ds, a, a->ref, oom), oom);
	put(o, "groups", j_groups(ds, a, oom), oom);
	put(o, "pareto", j_pareto_rows(ds, a, oom), oom);
	if (a->all_rounds)
		put(o, "carried_over", j_carried(ds, a, oom), oom);
	put(cl, "k", json_integer(a->k), oom);
	put(cl, "inertia", jnum(a->inertia), oom);
	put(cl, "silhouette", jnum(a->silhouette), oom);
	put(o, "clusters", cl, oom);
	put(o, "cross_family_rows", json_integer((json_int_t)a->ncross), oom);
	put(o, "skipped_input_rows", json_integer((json_int_t)ds->skipped), oom);
	return o;
}

/* The summary: one object per workload (every workload of the round without -w). */
static json_t *j_query(const struct dataset *ds, const struct analysis *a, const struct params *p,
		       const struct query *q, struct gs_err *err, bool *oom)
{
	struct q_result r = { 0 };
	json_t *o, *c, *fams, *unpriced, *noe;

	if (query_run(ds, a, q, &r, err) < 0)
		return NULL;
	o = j_head(a, p, oom);
	c = json_object();
	fams = json_array();
	unpriced = json_array();
	noe = json_array();
	if (!o || !c || !fams || !unpriced || !noe) {
		json_decref(o);
		json_decref(c);
		json_decref(fams);
		json_decref(unpriced);
		json_decref(noe);
		query_free(&r);
		return *oom = true, NULL;
	}
	put(c, "deadline_min", jnum(q->deadline), oom);
	put(c, "max_cost_usd", jnum(q->max_cost), oom);
	put(c, "max_acc_hours", jnum(q->max_acc_hours), oom);
	put(c, "max_kwh", jnum(q->max_kwh), oom);
	put(o, "constraints", c, oom);
	put(o, "minimize", json_string(q_obj_name(q->minimize)), oom);
	for (size_t k = 0; k < r.n; k++) {
		const struct q_answer *x = &r.ans[k];
		static const char *const st[] = { [QA_ROW] = "row", [QA_NONE] = "none",
						  [QA_UNPRICED] = "unpriced", [QA_NO_ENERGY] = "no_energy" };
		json_t *f = json_object();
		if (!f) {
			*oom = true;
			break;
		}
		put(f, "family", jstr(x->family), oom);
		put(f, "state", json_string(st[x->state]), oom);
		put(f, "rows", json_integer((json_int_t)x->nrows), oom);
		put(f, "meeting", json_integer((json_int_t)x->nmeet), oom);
		put(f, "row", x->row >= 0 ? j_row(ds, a, &a->rows[x->row], oom) : json_null(), oom);
		put(f, "cost_meets", x->row >= 0 && !isnan(q->max_cost) ? j_sure(x->cost) : json_null(), oom);
		put(f, "predicted", x->tried ? j_pred(NULL, &x->pred, oom) : json_null(), oom);
		put(f, "predicted_cost_meets", x->tried && x->pred.ok && !isnan(q->max_cost) ?
		    j_sure(x->pred_cost) : json_null(), oom);
		push(fams, f, oom);
		if (x->state == QA_UNPRICED)
			push(unpriced, json_string(x->family), oom);
		if (x->state == QA_NO_ENERGY)
			push(noe, json_string(x->family), oom);
	}
	put(o, "best_family", r.best >= 0 ? jstr(r.ans[r.best].family) : json_null(), oom);
	put(o, "best", r.best >= 0 ? j_row(ds, a, &a->rows[r.ans[r.best].row], oom) : json_null(), oom);
	put(o, "families", fams, oom);
	put(o, "left_out_unpriced", unpriced, oom);
	put(o, "left_out_no_energy", noe, oom);
	query_free(&r);
	return o;
}

static json_t *j_predict(const struct dataset *ds, const struct analysis *a, const struct params *p,
			 double n, double gbs, struct gs_err *err, bool *oom)
{
	json_t *o = j_head(a, p, oom), *arr = json_array();

	if (!o || !arr) {
		json_decref(o);
		json_decref(arr);
		return *oom = true, NULL;
	}
	put(o, "n", jnum(n), oom);
	put(o, "level", jnum(PRED_LEVEL), oom);
	put(o, "method", json_string("delta"), oom);
	for (size_t f = 0; f < a->nfits; f++) {
		struct pred pr;
		double lo, hi;
		planner_price(ds, a, a->fits[f].family, &lo, &hi);
		if (planner_predict(ds, a, &a->fits[f], n, gbs, lo, hi, &pr, err) < 0) {
			*oom = true;
			break;
		}
		push(arr, j_pred(a->fits[f].family, &pr, oom), oom);
	}
	put(o, "families", arr, oom);
	return o;
}

static json_t *j_trend(const struct dataset *ds, const struct params *p, struct gs_err *err,
		       bool *oom)
{
	struct trend t;
	json_t *o, *rounds, *fams;
	char span[160], txt[96];

	if (trend_run(ds, p, &t, err) < 0)
		return NULL;
	o = json_object();
	rounds = json_array();
	fams = json_array();
	if (!o || !rounds || !fams) {
		json_decref(o);
		json_decref(rounds);
		json_decref(fams);
		trend_free(&t);
		return *oom = true, NULL;
	}
	put(o, "workload", jstr(t.workload), oom);
	put(o, "label", jstr(workload_label(t.workload)), oom);
	put(o, "theta", jnum(p->theta), oom);
	put(o, "span", json_string(bench_reg_group_text(t.workload, t.rounds[t.cur], span, sizeof span)), oom);
	put(o, "current_round", jstr(t.rounds[t.cur]), oom);
	for (size_t r = 0; r < t.nrounds; r++)
		push(rounds, json_string(t.rounds[r]), oom);
	for (size_t f = 0; f < t.nfamilies && !*oom; f++) {
		json_t *row = json_object(), *cells = json_array();
		if (!row || !cells) {
			json_decref(row);
			json_decref(cells);
			*oom = true;
			break;
		}
		put(row, "family", jstr(t.families[f]), oom);
		for (size_t r = 0; r < t.nrounds; r++) {
			const struct trend_cell *c = trend_cell(&t, f, r);
			if (!c->has) {
				push(cells, json_null(), oom);
				continue;
			}
			json_t *co = json_object();
			if (!co) {
				*oom = true;
				break;
			}
			put(co, "bracket", j_bracket(&c->be, oom), oom);
			put(co, "n_ref", jcount(c->n_ref), oom);
			put(co, "rows", json_integer((json_int_t)c->nrows), oom);
			put(co, "text", json_string(describe_trend_cell(c, txt, sizeof txt)), oom);
			push(cells, co, oom);
		}
		put(row, "cells", cells, oom);
		push(fams, row, oom);
	}
	put(o, "rounds", rounds, oom);
	put(o, "families", fams, oom);
	trend_free(&t);
	return o;
}

/* One report (what) of one workload (p->workload) as its object; NULL with err or *oom. */
static json_t *j_report(const struct dataset *ds, const struct params *p, const struct report_opts *o,
			unsigned what, struct analysis *a, struct gs_err *err, bool *oom)
{
	json_t *v;

	if (what == PR_TREND) /* every round of the workload, each analysed on its own */
		return j_trend(ds, p, err, oom);
	if (analysis_run(ds, p, a, err) < 0)
		return NULL;
	switch (what) {
	case PR_SUMMARY:
		return j_summary_one(ds, a, p, oom);
	case PR_FIT: {
		json_t *arr = json_array();
		v = j_head(a, p, oom);
		for (size_t f = 0; f < a->nfits && arr; f++)
			push(arr, j_fit(&a->fits[f], oom), oom);
		if (v && arr)
			put(v, "families", arr, oom);
		else
			json_decref(arr), *oom = true;
		return v;
	}
	case PR_PARETO:
		v = j_head(a, p, oom);
		if (v) {
			put(v, "axis", json_string(a->pareto_cost ? "cost" : "acc_hours"), oom);
			put(v, "rows", j_pareto_rows(ds, a, oom), oom);
			put(v, "groups", j_groups(ds, a, oom), oom);
		}
		return v;
	case PR_SENSITIVITY:
		v = j_head(a, p, oom);
		if (v)
			put(v, "groups", j_groups(ds, a, oom), oom);
		return v;
	case PR_QUERY:
		return j_query(ds, a, p, o->query, err, oom);
	case PR_PREDICT:
		return j_predict(ds, a, p, o->predict_n, o->query ? o->query->gbs : NAN, err, oom);
	}
	return NULL;
}

int report_json(const struct dataset *ds, const struct params *p0, const struct report_opts *o,
		struct analysis *a, FILE *out, struct gs_err *err)
{
	static const struct { unsigned what; const char *key; } keys[] = {
		{ PR_SUMMARY, "summary" }, { PR_FIT, "fit" }, { PR_PARETO, "pareto" },
		{ PR_SENSITIVITY, "sensitivity" }, { PR_QUERY, "query" }, { PR_PREDICT, "predict" },
		{ PR_TREND, "trend" },
	};
	struct params p = *p0;
	json_t *doc = json_object();
	const char **wl = NULL, *one[1] = { p0->workload };
	size_t nwl = 1;
	bool oom = false;
	int rc = 0;

	p.fit = true;
	if (!doc) {
		err_oom(err, NULL, 0);
		return -1;
	}
	/* one rule for every report, as in text: without a workload asked for, each member is the
	 * list of every workload of the round; with one, a list of one */
	if (o->all_workloads && p.round && dataset_workload_list(ds, p.round, &wl, &nwl) < 0)
		oom = true;
	if (!wl) {
		wl = one;
		nwl = o->all_workloads && p.round ? 0 : 1;
	}
	put(doc, "schema", json_integer(JSON_SCHEMA), &oom);
	for (int k = 0; k < o->norder && !oom && rc == 0; k++) {
		const char *key = NULL;
		for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
			if (keys[j].what == o->order[k])
				key = keys[j].key;
		if (!key)
			continue;
		json_t *arr = json_array();
		if (!arr) {
			oom = true;
			break;
		}
		for (size_t i = 0; i < nwl && !oom && rc == 0; i++) {
			struct params q = p;
			q.workload = wl[i];
			/* a pinned system exists in some workloads only: elsewhere the paper rule */
			if (wl != one && q.mode == REF_PINNED && dataset_find(ds, q.round, q.workload, q.pinned) < 0)
				q.mode = REF_PAPER;
			if (i)
				analysis_drop_draws(a); /* no row of another workload comes back */
			json_t *v = j_report(ds, &q, o, o->order[k], a, err, &oom);
			if (!v && !oom)
				rc = -1; /* err is set */
			else
				push(arr, v, &oom);
		}
		put(doc, key, arr, &oom);
	}
	if (wl != one)
		free(wl);
	if (oom) {
		err_oom(err, NULL, 0);
		rc = -1;
	}
	if (rc == 0) {
		char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
		if (!text) {
			err_oom(err, NULL, 0);
			rc = -1;
		} else {
			fputs(text, out);
			fputc('\n', out);
			free(text);
		}
	}
	json_decref(doc);
	/* a failed write stops the reports: it is what to say, whatever failed after it */
	if ((rc == 0 || ferror(out)) && fileio_stream_check(out, out == stdout ? "standard output" : "the report", err) < 0)
		rc = -1;
	return rc;
}
