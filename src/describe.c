/* describe.c: the shared sentences about an analysis (see describe.h). */
#include "describe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "text.h"

char *describe_bracket(const struct be_bracket *b, char *buf, size_t n)
{
	switch (b->kind) {
	case BE_EMPTY: snprintf(buf, n, "no rows"); break;
	case BE_ONE_ROW: snprintf(buf, n, "one row"); break;
	case BE_NONE: snprintf(buf, n, "none at theta"); break;
	case BE_CENSORED:
		if (b->beyond)
			snprintf(buf, n, "%ld+ (no N beyond %ld wholly below theta)", b->lo, b->lo);
		else
			snprintf(buf, n, "%ld+ (no row beyond %ld)", b->lo, b->lo);
		break;
	case BE_BRACKET: snprintf(buf, n, "%ld..<%ld", b->lo, b->hi); break;
	default: snprintf(buf, n, "?"); break;
	}
	return buf;
}

char *describe_bracket_short(const struct be_bracket *b, char *buf, size_t n)
{
	switch (b->kind) {
	case BE_EMPTY: snprintf(buf, n, "-"); break;
	case BE_ONE_ROW: snprintf(buf, n, "one row"); break;
	case BE_NONE: snprintf(buf, n, "none"); break;
	case BE_CENSORED: snprintf(buf, n, "%ld+", b->lo); break;
	case BE_BRACKET: snprintf(buf, n, "%ld..<%ld", b->lo, b->hi); break;
	default: snprintf(buf, n, "?"); break;
	}
	return buf;
}

char *describe_range(long lo, long hi, char *buf, size_t n)
{
	if (lo < 0 || hi < 0)
		snprintf(buf, n, "none");
	else if (lo == hi)
		snprintf(buf, n, "N %ld", lo);
	else
		snprintf(buf, n, "N %ld..%ld", lo < hi ? lo : hi, lo < hi ? hi : lo);
	return buf;
}

char *describe_cluster(int c, char *buf, size_t n)
{
	if (c >= 0 && c < MAX_K)
		snprintf(buf, n, "%d", c + 1);
	else
		snprintf(buf, n, "-");
	return buf;
}

const char *describe_group_name(const struct group *g)
{
	return g->family ? g->family : "all shown rows";
}

char *describe_verdict(const struct fam_fit *ff, char *buf, size_t n)
{
	const struct fit *f = &ff->fit;
	char o[32], p[32], c[32];

	if (!fit_usable(f)) {
		snprintf(buf, n, "%s (%s)", fit_state_name(f->state), f->reason);
	} else if (!ff->v.judged) {
		snprintf(buf, n, "not judged (no reference)");
	} else if (!ff->v.ok) {
		snprintf(buf, n, "poor fit: worst N=%s observed %s, fitted %s",
			 fmt_count(ff->v.worst_n, c, sizeof c), fmt_fixed(ff->v.worst_obs, 2, o, sizeof o),
			 fmt_fixed(ff->v.worst_fit, 2, p, sizeof p));
	} else if (f->state == FIT_WEAK) {
		snprintf(buf, n, "weak (%s)", f->reason);
	} else {
		snprintf(buf, n, "ok");
	}
	return buf;
}

char *describe_fit_be(const struct fam_fit *ff, char *buf, size_t n)
{
	char b[32];
	const struct fit_verdict *v = &ff->v;
	bool poor = v->judged && !v->ok;

	if (!v->judged || !isfinite(v->be)) {
		snprintf(buf, n, "- (%s)", !v->judged ? "no fit" : v->be_why);
		return buf;
	}
	fmt_sig(v->be, 3, b, sizeof b);
	int k;
	if (poor || v->extrapolated)
		k = snprintf(buf, n, "N %s (%s%s%s)", b, poor ? "poor fit" : "", poor && v->extrapolated ? ", " : "",
			     v->extrapolated ? "extrapolated" : "");
	else
		k = snprintf(buf, n, "N %s", b);
	/* the group's reference is of another family: say whose E' the break-even is of */
	if (v->own_ref && k >= 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, " on its family's own reference (N=%s)",
			 fmt_count(v->n_ref, b, sizeof b));
	return buf;
}

char *describe_peak(const struct fam_fit *ff, char *buf, size_t n)
{
	char b[32];
	const struct fit *f = &ff->fit;

	if (ff->v.peak_ok)
		snprintf(buf, n, "peak N* %s", fmt_sig(fit_round_sig(f->peak, 3), 3, b, sizeof b));
	else if (f->usl.kappa > 0 && f->peak_in_range)
		snprintf(buf, n, "no peak identified (kappa within 2 standard errors of 0)");
	else
		snprintf(buf, n, "%s", f->usl.kappa > 0 ? "no peak in range" : "no peak (kappa 0)");
	return buf;
}

/* Appends ", " (after the first) and s to buf when it fits in w columns with room kept for
 * the longest "+N more"; false when it does not. */
static bool add_entry(char *buf, size_t n, size_t *used, int *cols, const char *s, int w, int keep)
{
	int sw = text_columns(s) + (*used ? 2 : 0);

	if (*cols + sw + keep > w || *used + strlen(s) + 3 > n)
		return false;
	*used += (size_t)snprintf(buf + *used, n - *used, "%s%s", *used ? ", " : "", s);
	*cols += sw;
	return true;
}

/* describe_groups's list, the first group's entry with its split brackets when split; returns
 * how many groups it names. */
static size_t groups_list(const struct analysis *a, size_t first, int w, bool split, char *buf, size_t n)
{
	char e[256], br[96], more[32];
	size_t used = 0, shown = 0;
	int cols = 0;

	char sp[128];

	buf[0] = '\0';
	if (a->ngroups == 0) {
		snprintf(buf, n, "no rows");
		return 0;
	}
	if (a->ngroups == 1 && !a->groups[0].family) {
		/* the one entry too wide even alone: only the count, as a list of groups says it */
		describe_bracket_short(&a->groups[0].be, br, sizeof br);
		if (a->groups[0].ref_slow)
			snprintf(br + strlen(br), sizeof br - strlen(br), " (%s)",
				 describe_ref_slow(NULL, &a->groups[0], true, sp, sizeof sp));
		if (split)
			snprintf(br + strlen(br), sizeof br - strlen(br), " %s",
				 describe_split(&a->groups[0], true, sp, sizeof sp));
		snprintf(buf, n, "%s", text_columns(br) <= w ? br : "+1 more");
		return text_columns(br) <= w;
	}
	for (size_t k = 0; k <= a->ngroups; k++) {
		/* k = 0 is the first group, then every other in name order */
		size_t g = k == 0 ? first : k - 1;
		if (g >= a->ngroups || (k > 0 && g == first))
			continue;
		snprintf(e, sizeof e, "%s %s", describe_group_name(&a->groups[g]),
			 describe_bracket_short(&a->groups[g].be, br, sizeof br));
		if (a->groups[g].ref_slow)
			snprintf(e + strlen(e), sizeof e - strlen(e), " (%s)",
				 describe_ref_slow(NULL, &a->groups[g], true, sp, sizeof sp));
		if (split && k == 0)
			snprintf(e + strlen(e), sizeof e - strlen(e), " %s",
				 describe_split(&a->groups[g], true, sp, sizeof sp));
		size_t left = a->ngroups - shown - 1;
		int keep = left ? snprintf(more, sizeof more, ", +%zu more", left) : 0;
		if (!add_entry(buf, n, &used, &cols, e, w, keep))
			break;
		shown++;
	}
	if (shown < a->ngroups)
		snprintf(buf + used, n - used, "%s+%zu more", used ? ", " : "", a->ngroups - shown);
	return shown;
}

char *describe_ref_slow(const struct dataset *ds, const struct group *g, bool compact, char *buf,
			size_t n)
{
	char t[32], m[32], x[32], c[32];

	if (n)
		buf[0] = '\0';
	if (!g->ref_slow || g->ref < 0)
		return buf;
	double ratio = g->ref_ratio;
	if (compact) {
		snprintf(buf, n, "ref %sx median", fmt_sig(ratio, 2, x, sizeof x));
		return buf;
	}
	const struct row *r = &ds->rows[g->ref];
	snprintf(buf, n, "reference %s min is %sx the median (%s min) of the %zu rows at N=%s it was "
		 "picked from: the group's E' are about %sx what a typical one gives",
		 fmt_fixed(r->minutes, 2, t, sizeof t), fmt_sig(ratio, 3, x, sizeof x),
		 fmt_fixed(g->cand_median, 2, m, sizeof m), g->ncand,
		 fmt_count((double)r->accelerators, c, sizeof c), x);
	return buf;
}

char *describe_split(const struct group *g, bool compact, char *buf, size_t n)
{
	char t[64], c[64];

	if (!g->split) {
		snprintf(buf, n, "%s", compact ? "" : "no convergence data");
		return buf;
	}
	describe_bracket_short(&g->be_thru, t, sizeof t);
	describe_bracket_short(&g->be_conv, c, sizeof c);
	snprintf(buf, n, compact ? "thr %s conv %s" : "throughput %s, convergence %s", t, c);
	return buf;
}

char *describe_groups(const struct analysis *a, size_t first, int w, char *buf, size_t n)
{
	char *wide;
	size_t plain;
	size_t f = first < a->ngroups ? first : 0;

	if (n == 0)
		return buf;
	plain = groups_list(a, first, w, false, buf, n);
	/* the first group's split brackets only where they cost no other group its place */
	if (a->ngroups == 0 || !a->groups[f].split || !(wide = malloc(n)))
		return buf;
	if (groups_list(a, first, w, true, wide, n) >= plain && plain > 0)
		memcpy(buf, wide, n);
	free(wide);
	return buf;
}

size_t describe_cand_order(const struct group *g, size_t *ord)
{
	size_t k = 0, ends, lo = g->ncand, hi = g->ncand;

	for (size_t c = 0; c < g->ncand; c++) {
		if (lo == g->ncand && g->sens_lo >= 0 && g->cand[c].b.lo == g->sens_lo)
			lo = c;
		if (hi == g->ncand && g->sens_hi != g->sens_lo && g->cand[c].b.lo == g->sens_hi)
			hi = c;
	}
	if (lo < g->ncand)
		ord[k++] = lo;
	if (hi < g->ncand)
		ord[k++] = hi;
	ends = k;
	for (size_t c = 0; c < g->ncand; c++)
		if (c != lo && c != hi)
			ord[k++] = c;
	return ends;
}

char *describe_row(const struct table_view *v, const struct dataset *ds, const struct analysis *a,
		   size_t i, char *buf, size_t n)
{
	char name[512];
	const char *t = table_row_name(v, ds, &a->rows[i], name, sizeof name);

	if (a->all_rounds)
		snprintf(buf, n, "%s %s", ds->rows[a->rows[i].row].round, t);
	else
		snprintf(buf, n, "%s", t);
	return buf;
}

char *describe_cand(const struct dataset *ds, const struct analysis *a, const struct be_cand *c,
		    char *buf, size_t n)
{
	const struct row *r = &ds->rows[c->row];
	char name[512], t[32], br[96];

	snprintf(buf, n, "%s%s%s (%s min) -> %s", a->all_rounds ? r->round : "", a->all_rounds ? " " : "",
		 describe_row_name(r, name, sizeof name),
		 fmt_fixed(r->minutes, 2, t, sizeof t), describe_bracket_short(&c->b, br, sizeof br));
	return buf;
}

char *describe_fit(const struct fam_fit *ff, double theta, char *buf, size_t n)
{
	char v[160], p[96], b[96];
	struct fit_words w = { describe_verdict(ff, v, sizeof v), NULL, NULL };

	if (ff->v.judged) {
		w.peak = describe_peak(ff, p, sizeof p);
		w.breakeven = describe_fit_be(ff, b, sizeof b);
	}
	return fit_describe_as(ff->family, &ff->fit, theta, &w, buf, n);
}

char *describe_row_name(const struct row *r, char *buf, size_t n)
{
	return text_row_name(r->submitter, r->system, true, buf, n);
}

char *describe_ref_row(const struct row *r, char *buf, size_t n)
{
	char name[512], b1[32], b2[32];

	snprintf(buf, n, "%s (N=%s, %s min)", describe_row_name(r, name, sizeof name),
		 fmt_count((double)r->accelerators, b1, sizeof b1), fmt_fixed(r->minutes, 2, b2, sizeof b2));
	return buf;
}

char *describe_view_name(const struct dataset *ds, const struct analysis *a, size_t row, char *buf,
			 size_t n)
{
	char name[512];

	describe_row_name(&ds->rows[row], name, sizeof name);
	if (a->all_rounds)
		snprintf(buf, n, "%s %s", ds->rows[row].round, name);
	else
		snprintf(buf, n, "%s", name);
	return buf;
}

char *describe_view_ref(const struct dataset *ds, const struct analysis *a, size_t row, char *buf,
			size_t n)
{
	char name[600], other[600], by[640], b1[32], b2[32];
	const struct row *r = &ds->rows[row];
	long s = analysis_carried_by(a, row);

	if (!a->all_rounds)
		return describe_ref_row(r, buf, n);
	describe_view_name(ds, a, row, name, sizeof name);
	by[0] = '\0';
	if (s >= 0)
		snprintf(by, sizeof by, ", carried over: the runs of %s",
			 describe_view_name(ds, a, (size_t)s, other, sizeof other));
	snprintf(buf, n, "%s (N=%s, %s min%s)", name, fmt_count((double)r->accelerators, b1, sizeof b1),
		 fmt_fixed(r->minutes, 2, b2, sizeof b2), by);
	return buf;
}

char *describe_carried(const struct dataset *ds, const struct analysis *a, size_t i, char *buf,
		       size_t n)
{
	char name[600];
	const struct arow *o = &a->rows[i];

	if (!arow_carried(o))
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, "the runs of %s",
			 describe_view_name(ds, a, o->same_as - 1, name, sizeof name));
	return buf;
}

char *describe_carried_list(const struct dataset *ds, const struct analysis *a, char *buf, size_t n)
{
	char name[700], what[700];
	size_t listed = 0, at;

	snprintf(buf, n, "%zu shown (%zu before filters), listed and counted in nothing: each the same "
		 "accelerators and runs as a row of an earlier round, which stands for them",
		 a->ncarried, a->total_carried);
	for (size_t i = 0; i < a->n; i++) {
		if (!arow_carried(&a->rows[i]) || listed++ >= DESCRIBE_CARRIED_LISTED)
			continue;
		at = strlen(buf);
		snprintf(buf + at, n - at, "%s %s (%s)", listed > 1 ? "," : ":",
			 describe_view_name(ds, a, a->rows[i].row, name, sizeof name),
			 describe_carried(ds, a, i, what, sizeof what));
	}
	at = strlen(buf);
	if (listed > DESCRIBE_CARRIED_LISTED)
		snprintf(buf + at, n - at, ", and %zu more", listed - DESCRIBE_CARRIED_LISTED);
	return buf;
}

char *describe_carried_count(size_t k, char *buf, size_t n)
{
	if (k)
		snprintf(buf, n, " +%zu carried over", k);
	else
		snprintf(buf, n, "%s", "");
	return buf;
}

char *describe_ref_mode(enum ref_mode mode, enum ref_rule rule, bool brief, char *buf, size_t n)
{
	if (mode == REF_FAMILY && brief)
		snprintf(buf, n, "per family (%s rule in each)", rule == RULE_SLOWEST ? "paper" : ref_rule_name(rule));
	else if (mode == REF_FAMILY && rule == RULE_SLOWEST)
		snprintf(buf, n, "per family (each family's fewest accelerators, ties to the slowest)");
	else if (mode == REF_FAMILY)
		snprintf(buf, n, "per family (each family's fewest accelerators, the %s)", ref_rule_name(rule));
	else if (mode == REF_PAPER && rule != RULE_SLOWEST) /* the rule shows when it is not the paper's */
		snprintf(buf, n, "%s, %s", ref_mode_name(mode), ref_rule_name(rule));
	else
		snprintf(buf, n, "%s", ref_mode_name(mode));
	return buf;
}

char *describe_ref(const struct dataset *ds, const struct analysis *a, bool brief, char *buf, size_t n)
{
	char row[1400], mode[96];

	describe_ref_mode(a->mode, a->rule, brief, mode, sizeof mode);
	if (a->mode == REF_FAMILY)
		snprintf(buf, n, "%s", mode);
	else if (a->ref < 0)
		snprintf(buf, n, "none (no rows shown)");
	else {
		describe_view_ref(ds, a, (size_t)a->ref, row, sizeof row);
		/* "NAME (N=8, 20.31 min" + ", paper)" */
		row[strlen(row) - 1] = '\0';
		snprintf(buf, n, "%s, %s%s)", row, mode, a->ref_hidden ? ", hidden by the filter" : "");
	}
	return buf;
}

char *describe_filter(const struct filter *f, char *buf, size_t n)
{
	size_t others = f->nvendors + f->navailability + f->ndivisions;

	if (f->nfamilies == 0 && others == 0)
		snprintf(buf, n, "all");
	else if (f->nfamilies == 0)
		snprintf(buf, n, "%zu other", others);
	else if (f->nfamilies + others == 1)
		snprintf(buf, n, "%s", f->families[0]);
	else
		snprintf(buf, n, "%s +%zu", f->families[0], f->nfamilies + others - 1);
	return buf;
}

char *describe_bracket_split(const struct group *g, char *buf, size_t n)
{
	char b[96], s[128];

	describe_bracket_short(&g->be, b, sizeof b);
	if (g->split)
		snprintf(buf, n, "%s (%s)", b, describe_split(g, false, s, sizeof s));
	else
		snprintf(buf, n, "%s", b);
	return buf;
}

/* A count of samples as the sentence shows it: whole with thousands separated ("7,296") from
 * 1000 on, else four significant digits (epochs: "35", "0.7499"). */
static char *samples_text(double v, char *buf, size_t n)
{
	char d[48];
	size_t len, at = 0, lead;

	if (!isfinite(v) || fabs(v) >= 1e15 || fabs(v) < 1000)
		return fmt_sig(v, 4, buf, n);
	snprintf(d, sizeof d, "%.0f", v);
	len = strlen(d);
	lead = len % 3 ? len % 3 : 3;
	for (size_t i = 0; i < len && at + 2 < n; i++) {
		if (i && i >= lead && (i - lead) % 3 == 0)
			buf[at++] = ',';
		buf[at++] = d[i];
	}
	buf[at] = '\0';
	return buf;
}

char *describe_split_row(const struct dataset *ds, const struct arow *o, char *buf, size_t n)
{
	const struct row *r = &ds->rows[o->row], *f = &ds->rows[o->ref];
	char ep[32], th[32], cv[32], g0[32], g1[32], s0[48], s1[48], rc[48];
	int w;

	if (isnan(o->e_conv)) {
		snprintf(buf, n, "no convergence data");
		return buf;
	}
	w = snprintf(buf, n, "E' %s = throughput %s x convergence %s (GBS %s -> %s; samples %s -> %s",
		     fmt_fixed(o->Ep, 2, ep, sizeof ep), fmt_fixed(o->e_thru, 2, th, sizeof th),
		     fmt_fixed(o->e_conv, 2, cv, sizeof cv), fmt_count(f->gbs, g0, sizeof g0),
		     fmt_count(r->gbs, g1, sizeof g1), samples_text(f->stc, s0, sizeof s0),
		     samples_text(r->stc, s1, sizeof s1));
	if (w < 0 || (size_t)w >= n)
		return buf;
	if (isfinite(r->rcp_samples) && r->rcp_samples > 0)
		snprintf(buf + w, n - (size_t)w, "; RCP at GBS %s: %s)", g1, samples_text(r->rcp_samples, rc, sizeof rc));
	else
		snprintf(buf + w, n - (size_t)w, ")");
	return buf;
}
