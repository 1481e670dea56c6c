/* report.c: the --print reports. They share the analysis and the rasterizer with the explorer,
 * so a script sees exactly the numbers the screen shows. */
#include "report.h"
#include "bench_reg.h"

#include "describe.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "csvw.h"
#include "fileio.h"
#include "fmt.h"
#include "plot.h"
#include "table.h"
#include "schema.h"

/* ------------------------------------------------------------------ table */

/* A line of cells: blanks are held back until text follows them, so no line ends in one. */
struct cells {
	FILE *out;
	int blanks;
};

/* Writes s in w display columns: cut with the one cut mark (text_cut), padded on the left when
 * right-aligned. */
static void put_cell(struct cells *l, const char *s, int w, bool right)
{
	char buf[1024];
	int cols = text_cut(s, w, buf, sizeof buf);

	if (right)
		l->blanks += w - cols;
	if (buf[0]) {
		fprintf(l->out, "%*s%s", l->blanks, "", buf);
		l->blanks = 0;
	}
	if (!right)
		l->blanks += w - cols;
}

/* Writes the ranked table a as aligned text, at most `width` columns (0: no limit), laid out
 * by table_plan's --print policy from v, measured for a. */
static void report_table(const struct table_view *v, const struct dataset *ds,
			 const struct analysis *a, FILE *out, int width, const bool *columns)
{
	int w[TC_COUNT];
	bool on[TC_COUNT];
	char buf[256];
	struct table_opts to = { TABLE_PRINT, 2, -1, columns };

	table_plan(v, &to, width, on, w);
	for (size_t pass = 0; pass <= a->n; pass++) {
		struct cells l = { out, 0 };
		bool first = true;
		for (int c = 0; c < TC_COUNT; c++) {
			if (!on[c])
				continue;
			if (!first)
				l.blanks += 2;
			first = false;
			if (pass == 0)
				put_cell(&l, table_cols[c]->head, w[c], table_cols[c]->right && c != TC_RANK);
			else
				put_cell(&l, table_cell(v, ds, a, pass - 1, (enum tcol)c, buf, sizeof buf), w[c],
					 table_cols[c]->right);
		}
		fputc('\n', out);
	}
	if (a->n == 0)
		fputs("(no rows: the filter hides every system)\n", out);
}

/* ------------------------------------------------------------------ csv */

/* One CSV column: its header and where its value comes from. Columns that are input columns
 * carry the loader's name and text, so that `--print csv` loads back as the rows it came from
 * and prints the same again; a new column is one line here. */
struct csv_row {
	const struct dataset *ds;
	const struct analysis *a;
	size_t i;                  /* rank - 1 */
	const struct arow *r;
	const struct row *d;
};

enum csv_kind {
	CK_TEXT,    /* const char * in struct row */
	CK_XTEXT,   /* const char * in the row's struct row_extra */
	CK_COUNT,   /* long long in struct row, empty when 0 (not given) */
	CK_RUNS,    /* int in struct row, empty when < 0 (not given) */
	CK_ROWNUM,  /* double in struct row */
	CK_NUM,     /* double in struct arow, empty when NAN */
	CK_FN,      /* written by fn */
	CK_REG,     /* the registry's column off (enum col): its csv name and value */
};

struct csv_col {
	const char *name;
	enum csv_kind kind;
	size_t off;
	void (*fn)(FILE *out, const struct csv_row *c);
};

/* a carried-over row (the cross-round view) has no rank and no cluster: both empty */
static void put_rank(FILE *out, const struct csv_row *c)
{
	char buf[32];

	if (!arow_carried(c->r))
		fputs(table_cell(NULL, c->ds, c->a, c->i, TC_RANK, buf, sizeof buf), out);
}
static void put_ref(FILE *out, const struct csv_row *c) { csvw_field(out, c->ds->rows[c->r->ref].system); }
static void put_is_ref(FILE *out, const struct csv_row *c) { putc('0' + c->r->is_ref, out); }
static void put_cluster(FILE *out, const struct csv_row *c)
{
	char b[8];

	if (!arow_carried(c->r))
		fputs(describe_cluster(c->r->cluster, b, sizeof b), out);
}
static void put_pareto(FILE *out, const struct csv_row *c) { putc('0' + c->r->pareto, out); }
static void put_breakeven(FILE *out, const struct csv_row *c)
{
	putc('0' + c->r->be, out);
}

static void put_s_lo(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_spread(c->ds, c->r).s_lo); }
static void put_s_hi(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_spread(c->ds, c->r).s_hi); }
static void put_kf(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_kf(c->ds, c->r)); }
static void put_ep_lo(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_spread(c->ds, c->r).ep_lo); }
static void put_ep_hi(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_spread(c->ds, c->r).ep_hi); }
static void put_t_ci_lo(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_ci(c->a, c->r)->t_lo); }
static void put_t_ci_hi(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_ci(c->a, c->r)->t_hi); }
static void put_ep_ci_lo(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_ci(c->a, c->r)->ep_lo); }
static void put_ep_ci_hi(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_ci(c->a, c->r)->ep_hi); }

static void put_avail_class(FILE *out, const struct csv_row *c) { csvw_field(out, row_avail(c->d)); }

static void put_runs(FILE *out, const struct csv_row *c)
{
	if (c->d->run_n == 0)
		return; /* runs may be NULL when no row has a run list */
	const double *v = c->ds->runs + c->d->run_off;

	for (unsigned k = 0; k < c->d->run_n; k++) {
		if (k)
			putc(';', out);
		csvw_num(out, v[k]);
	}
}

/* run_samples in the order of run_minutes; empty when the row has none */
static void put_run_samples(FILE *out, const struct csv_row *c)
{
	if (c->d->run_n == 0 || !c->ds->run_samples || isnan(c->ds->run_samples[c->d->run_off]))
		return;
	const double *v = c->ds->run_samples + c->d->run_off;

	for (unsigned k = 0; k < c->d->run_n; k++) {
		if (k)
			putc(';', out);
		csvw_num(out, v[k]);
	}
}

#define ROW(name, kind, field) { name, kind, offsetof(struct row, field), NULL }
#define NUM(name, field) { name, CK_NUM, offsetof(struct arow, field), NULL }
#define FN(name, fn) { name, CK_FN, 0, fn }
#define REG(col) { NULL, CK_REG, col, NULL }
static const struct csv_col csv_cols[] = {
	FN("rank", put_rank),
	ROW("round", CK_TEXT, round),
	ROW("benchmark", CK_TEXT, benchmark),
	ROW("submitter", CK_TEXT, submitter),
	ROW("system", CK_TEXT, system),
	ROW("family", CK_TEXT, family),
	ROW("vendor", CK_TEXT, vendor),
	ROW("accelerator", CK_TEXT, accelerator),
	ROW("accelerators", CK_COUNT, accelerators),
	REG(COL_T),
	REG(COL_S),
	REG(COL_E),
	REG(COL_EP),
	REG(COL_A),
	FN("karp_flatt", put_kf),
	FN("reference", put_ref),
	FN("is_reference", put_is_ref),
	FN("cluster", put_cluster),
	FN("pareto", put_pareto),
	FN("break_even", put_breakeven),
	NUM("minutes_lo", t_lo),
	NUM("minutes_hi", t_hi),
	FN("speedup_lo", put_s_lo),
	FN("speedup_hi", put_s_hi),
	FN("e_prime_lo", put_ep_lo),
	FN("e_prime_hi", put_ep_hi),
	NUM("e_prime_fit", ep_fit),
	FN("minutes_ci_lo", put_t_ci_lo),
	FN("minutes_ci_hi", put_t_ci_hi),
	FN("e_prime_ci_lo", put_ep_ci_lo),
	FN("e_prime_ci_hi", put_ep_ci_hi),
	FN("availability_class", put_avail_class),
	ROW("collapsed_from", CK_TEXT, collapsed_from),
	ROW("carried_over_from", CK_TEXT, carried_from),
	REG(COL_KWH),
	NUM("cost_lo", cost_lo),
	NUM("cost_hi", cost_hi),
	/* then the rest of the schema's input columns (schema.h), so that the output loads back
	 * as its input */
};

static void put_thru_ci_lo(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_ci(c->a, c->r)->thru_lo); }
static void put_thru_ci_hi(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_ci(c->a, c->r)->thru_hi); }
static void put_conv_ci_lo(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_ci(c->a, c->r)->conv_lo); }
static void put_conv_ci_hi(FILE *out, const struct csv_row *c) { csvw_num(out, analysis_ci(c->a, c->r)->conv_hi); }

/* The split of E' (man gpuscale, CONVERGENCE), after the schema's columns: a line gains them at
 * its end. */
static const struct csv_col csv_split_cols[] = {
	REG(COL_SAMPLES),
	REG(COL_THRU),
	REG(COL_ETHRU),
	REG(COL_ECONV),
	REG(COL_ECONV_RCP),
	FN("e_thru_ci_lo", put_thru_ci_lo),
	FN("e_thru_ci_hi", put_thru_ci_hi),
	FN("e_conv_ci_lo", put_conv_ci_lo),
	FN("e_conv_ci_hi", put_conv_ci_hi),
};
#define NSPLIT (sizeof csv_split_cols / sizeof csv_split_cols[0])
#undef ROW
#undef NUM
#undef FN
#undef REG

static void csv_put(FILE *out, const struct csv_col *col, const struct csv_row *c)
{
	const char *base = col->kind == CK_NUM ? (const char *)c->r :
			   col->kind == CK_XTEXT ? (const char *)row_extra(c->d) : (const char *)c->d;
	const void *at = base + col->off;
	long long n;
	int k;
	double v;

	switch (col->kind) {
	case CK_TEXT:
	case CK_XTEXT:
		memcpy(&base, at, sizeof base);
		csvw_field(out, base);
		break;
	case CK_COUNT:
		memcpy(&n, at, sizeof n);
		if (n)
			fprintf(out, "%lld", n);
		break;
	case CK_RUNS:
		memcpy(&k, at, sizeof k);
		if (k >= 0)
			fprintf(out, "%d", k);
		break;
	case CK_ROWNUM:
	case CK_NUM:
		memcpy(&v, at, sizeof v);
		csvw_num(out, v);
		break;
	case CK_FN:
		col->fn(out, c);
		break;
	case CK_REG:
		csvw_num(out, reg_col((enum col)col->off)->value(c->r));
		break;
	}
}

#define NFIXED (sizeof csv_cols / sizeof csv_cols[0])

/* The column of csv_cols written under the schema column's name, or NULL: the schema's other
 * columns follow csv_cols in the schema's order. */
static const struct csv_col *fixed_col(const char *name)
{
	for (size_t k = 0; k < NFIXED; k++) {
		const char *h = csv_cols[k].kind == CK_REG ? reg_col((enum col)csv_cols[k].off)->csv : csv_cols[k].name;
		if (strcmp(h, name) == 0)
			return &csv_cols[k];
	}
	return NULL;
}

/* The schema columns after csv_cols, as csv_cols entries; returns how many. */
static size_t tail_cols(struct csv_col *tail)
{
	static const enum csv_kind kinds[] = {
		[SK_TEXT] = CK_TEXT, [SK_COUNT] = CK_COUNT, [SK_RUNS] = CK_RUNS, [SK_NUM] = CK_ROWNUM,
		[SK_RUNLIST] = CK_FN, [SK_SAMPLELIST] = CK_FN,
	};
	size_t n = 0;

	for (int c = 0; c < SC_COUNT; c++) {
		const struct schema_column *sc = &schema_cols[c];
		if (fixed_col(sc->name))
			continue;
		tail[n++] = (struct csv_col){ sc->name, sc->flags & SF_EXTRA ? CK_XTEXT : kinds[sc->kind], sc->off,
					      sc->kind == SK_RUNLIST ? put_runs :
					      sc->kind == SK_SAMPLELIST ? put_run_samples : NULL };
	}
	return n;
}

int report_csv(const struct dataset *ds, const struct analysis *a, FILE *out)
{
	return report_csv_rows(ds, a, NULL, a->n, true, out);
}

/* Rows [0, n) of the table (positions in idx, or in a when idx is NULL) into out. */
static void csv_put_rows(const struct dataset *ds, const struct analysis *a, const size_t *idx, size_t n,
			 const struct csv_col *cols, size_t ncols, FILE *out)
{
	for (size_t j = 0; j < n; j++) {
		size_t i = idx ? idx[j] : j;
		if (i >= a->n)
			continue;
		const struct csv_row c = { ds, a, i, &a->rows[i], &ds->rows[a->rows[i].row] };
		for (size_t k = 0; k < ncols; k++) {
			if (k)
				putc(',', out);
			csv_put(out, &cols[k], &c);
		}
		putc('\n', out);
	}
}

int report_csv_rows(const struct dataset *ds, const struct analysis *a, const size_t *idx, size_t n,
		    bool head, FILE *out)
{
	struct csv_col cols[NFIXED + SC_COUNT + NSPLIT];
	size_t ncols = NFIXED;

	memcpy(cols, csv_cols, sizeof csv_cols);
	ncols += tail_cols(cols + NFIXED);
	memcpy(cols + ncols, csv_split_cols, sizeof csv_split_cols);
	ncols += NSPLIT;
	for (size_t k = 0; head && k < ncols; k++) {
		if (k)
			putc(',', out);
		fputs(cols[k].kind == CK_REG ? reg_col((enum col)cols[k].off)->csv : cols[k].name, out);
	}
	if (head)
		putc('\n', out);
	csv_put_rows(ds, a, idx, n, cols, ncols, out);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------ plot */

static int report_plot(const struct dataset *ds, const struct analysis *a, const struct params *p,
		      const struct report_opts *o, FILE *out, struct gs_err *err)
{
	struct plot_point *pts = calloc(a->n ? a->n : 1, sizeof *pts);
	struct plot_grid g = { 0 };
	struct plot_spec spec;
	int rc = -1;

	if (!pts) {
		err_oom(err, NULL, 0);
		return -1;
	}
	struct chart_opts co = { .metric = o->y_metric, .theta = p->theta, .log_y = o->log_y,
				 .show_pareto = true, .width = o->width, .height = o->height,
				 .group = chart_group_of(p) };

	/* with fit among the reports, the plot draws each family's law too */
	struct plot_curve curves[MAX_K];
	double xy[MAX_K * 2 * CHART_FIT_SAMPLES];

	chart_points(ds, a, &co, -1, pts);
	chart_spec(ds, a, &co, &spec);
	spec.curves = curves;
	spec.ncurves = chart_fit_curves(ds, a, &co, curves, MAX_K, xy);
	if (plot_render(pts, a->n, &spec, &g, err) == 0) {
		size_t need = plot_to_text(&g, NULL, 0);
		char *text = malloc(need + 1);
		if (text) {
			plot_to_text(&g, text, need + 1);
			char more[64];
			fprintf(out, "%s vs accelerators (log2): %s %s, %zu rows%s\n", metric_name(o->y_metric),
				a->round, workload_label(a->workload), analysis_pooled(a),
				describe_carried_count(a->ncarried, more, sizeof more));
			fputs(text, out);
			if (need && text[need - 1] != '\n')
				fputc('\n', out);
			free(text);
			rc = 0;
		} else {
			err_oom(err, NULL, 0);
		}
	}
	plot_free(&g);
	free(pts);
	return rc;
}

/* ------------------------------------------------------------------ clusters, pareto */

static void report_ref(const struct dataset *ds, const struct analysis *a, FILE *out)
{
	char buf[800];

	fputs(describe_ref(ds, a, false, buf, sizeof buf), out);
}

/* "ROUND WORKLOAD  reference: ...  rows n/total" ("all rounds" for the round in the
 * cross-round view), cut to width (0: whole). */
static void report_table_title(const struct dataset *ds, const struct analysis *a,
			      const struct params *p, FILE *out, int width)
{
	char *text = NULL, filt[160];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	fprintf(m, "%s %s  reference: ", a->all_rounds ? "all rounds" : a->round, workload_label(a->workload));
	report_ref(ds, a, m);
	if (!filter_empty(&p->filter))
		fprintf(m, "  filter %s", describe_filter(&p->filter, filt, sizeof filt));
	fprintf(m, "  rows %zu/%zu%s", analysis_pooled(a), a->total,
		describe_carried_count(a->ncarried, filt, sizeof filt));
	if (fclose(m) == 0 && text) {
		if (width > 0) {
			char cut[1024];
			text_cut(text, width, cut, sizeof cut);
			fprintf(out, "%s\n", cut);
		} else {
			fprintf(out, "%s\n", text);
		}
	}
	free(text);
}

static void report_clusters(const struct analysis *a, const struct params *p, FILE *out)
{
	char b1[32], b2[32], b3[32], b4[32];

	fprintf(out, "k=%d (%s)  inertia %s  silhouette %s\n", a->k, feat_set_name(p->feats),
		fmt_sig(a->inertia, 4, b1, sizeof b1), fmt_fixed(a->silhouette, 3, b2, sizeof b2));
	for (int c = 0; c < a->k && c < MAX_K; c++) {
		const struct cluster_sum *s = &a->clusters[c];
		char nm[8];
		fprintf(out, "  cluster %-2s  %3zu %-7s  N %s", describe_cluster(c, nm, sizeof nm), s->n,
			s->n == 1 ? "system" : "systems", fmt_count(s->n_min, b1, sizeof b1));
		if (s->n_max != s->n_min)
			fprintf(out, "-%s", fmt_count(s->n_max, b2, sizeof b2));
		fprintf(out, "  E' %s +- %s\n", fmt_sig(s->ep_mean, 3, b3, sizeof b3),
			fmt_sig(s->ep_sd, 2, b4, sizeof b4));
	}
}

/* The name of shown row i in reports: describe_row's (SUBMITTER/SYSTEM when ids collide, the
 * round first in the cross-round view). */
static const char *row_label(const struct table_view *v, const struct dataset *ds,
			     const struct analysis *a, size_t i, char *buf, size_t n)
{
	return describe_row(v, ds, a, i, buf, n);
}

/* Indices of the Pareto rows of a, fastest first, equal T in the ranking's order (p's sort,
 * which a summary's rows, left unranked, do not show); returns how many (caller frees *idx;
 * 0 when out of memory). */
static size_t pareto_rows(const struct dataset *ds, const struct analysis *a, const struct params *p,
			  size_t **idx)
{
	size_t n = 0;

	*idx = malloc((a->n ? a->n : 1) * sizeof **idx);
	if (!*idx)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->rows[i].pareto)
			(*idx)[n++] = i;
	if (analysis_sort_by_t(ds, a, p->sort, p->desc, *idx, n) < 0)
		n = 0;
	return n;
}

static void report_pareto(const struct table_view *v, const struct dataset *ds,
			  const struct analysis *a, const struct params *p, FILE *out)
{
	size_t *idx, n = pareto_rows(ds, a, p, &idx);
	char b1[32], b2[32], b3[32], b4[32], name[1024];

	int sw = 6;

	for (size_t k = 0; k < n; k++) {
		int l = text_columns(row_label(v, ds, a, idx[k], name, sizeof name));
		if (l > sw)
			sw = l;
	}
	fprintf(out, "Pareto frontier on (T, %s): %zu of %zu rows, fastest first\n",
		a->pareto_cost ? "cost to train" : "A", n, analysis_pooled(a));
	for (size_t k = 0; k < n; k++) {
		const struct arow *r = &a->rows[idx[k]];
		struct cells l = { out, 2 };
		put_cell(&l, row_label(v, ds, a, idx[k], name, sizeof name), sw, false);
		fprintf(out, "%*s  N=%-6s T=%-9s A=%-9s E'=%s\n", l.blanks, "", fmt_count(r->N, b1, sizeof b1), fmt_fixed(r->T, 2, b2, sizeof b2),
			fmt_sig(r->A, 3, b3, sizeof b3), fmt_sig(r->Ep, 3, b4, sizeof b4));
	}
	free(idx);
}

/* Candidates of a sensitivity range listed by name beyond those that set its ends. */
#define MAX_LISTED 8

/* "16..<32  nebius_b200_n4  3.10 min  E' 0.814": group g's bracket and the row giving its lower
 * end, or the bracket alone when it has none. */
static void report_bracket(const struct table_view *v, const struct dataset *ds,
			   const struct analysis *a, const struct group *g, FILE *out)
{
	char b1[32], b2[32], br[96], name[1024];
	long i = analysis_be_index(a, g);

	fputs(describe_bracket(&g->be, br, sizeof br), out);
	if (i >= 0 && g->be.kind != BE_ONE_ROW) {
		const struct arow *r = &a->rows[i];
		fprintf(out, "  %s  %s min  E' %s", row_label(v, ds, a, (size_t)i, name, sizeof name),
			fmt_fixed(r->T, 2, b1, sizeof b1), fmt_sig(r->Ep, 3, b2, sizeof b2));
	}
	fputc('\n', out);
}

/* "theta 0.8 -> " and the one group's bracket (paper and pinned mode), or every group's. */
static void report_breakeven(const struct table_view *v, const struct dataset *ds,
			     const struct analysis *a, const struct params *p, FILE *out)
{
	char b1[32];

	fprintf(out, "theta %s -> ", fmt_short(p->theta, b1, sizeof b1));
	if (a->ngroups == 0) {
		fputs("none (no rows shown)\n", out);
		return;
	}
	if (a->ngroups == 1 && !a->groups[0].family) {
		report_bracket(v, ds, a, &a->groups[0], out);
		return;
	}
	fputc('\n', out);
	for (size_t k = 0; k < a->ngroups; k++) {
		fprintf(out, "  %s: ", describe_group_name(&a->groups[k]));
		report_bracket(v, ds, a, &a->groups[k], out);
	}
}

/* The group's sensitivity line: the range over its candidates, those that set its ends first. */
static void report_sensitivity(const struct dataset *ds, const struct analysis *a, const struct group *g,
			       const char *lead, FILE *out)
{
	char b1[48], e[1024];
	size_t *ord = malloc((g->ncand ? g->ncand : 1) * sizeof *ord);
	size_t nends, shown;

	if (!ord)
		return;
	nends = describe_cand_order(g, ord);
	fprintf(out, "%s%s  over %zu candidate%s of the fewest accelerators:", lead,
		g->sens_lo < 0 ? "none" : describe_range(g->sens_lo, g->sens_hi, b1, sizeof b1),
		g->ncand, g->ncand == 1 ? "" : "s");
	for (shown = 0; shown < g->ncand && (shown < nends || shown < MAX_LISTED); shown++)
		fprintf(out, "%s %s", shown ? "," : "", describe_cand(ds, a, &g->cand[ord[shown]], e, sizeof e));
	if (shown < g->ncand)
		fprintf(out, ", and %zu more", g->ncand - shown);
	fputc('\n', out);
	free(ord);
}

/* The group's reference: "SUBMITTER/SYSTEM (N=8, 20.31 min)" (describe_view_ref). */
static void report_group_ref(const struct dataset *ds, const struct analysis *a,
			     const struct group *g, FILE *out)
{
	char buf[1400];

	fprintf(out, "%s\n", g->ref < 0 ? "none" : describe_view_ref(ds, a, (size_t)g->ref, buf, sizeof buf));
}

/* The fit lines of a group: its family's verdict and prediction (family mode), or each
 * family's (one group of every row). */
static void report_group_fit(const struct analysis *a, const struct group *g, size_t gi,
			     const char *lead, FILE *out)
{
	char b1[160], b2[96], b3[96];

	for (size_t f = 0; f < a->nfits; f++) {
		const struct fam_fit *ff = &a->fits[f];
		if (ff->group != gi)
			continue;
		fprintf(out, "%s%s%s%s", lead, g->family ? "" : ff->family, g->family ? "" : ": ",
			describe_verdict(ff, b1, sizeof b1));
		if (ff->v.judged)
			fprintf(out, "; predicted break-even %s; %s", describe_fit_be(ff, b2, sizeof b2),
				describe_peak(ff, b3, sizeof b3));
		fputc('\n', out);
	}
}

/* The summary's break-even: in paper and pinned mode the one group's bracket, range,
 * sensitivity and fits; in family mode a block per family. Then the cross-family warning. */
static void report_be_more(const struct table_view *v, const struct dataset *ds,
			   const struct analysis *a, const struct params *p, FILE *out)
{
	char b1[400], b2[32];

	fprintf(out, "  break-even  theta %s", fmt_short(p->theta, b2, sizeof b2));
	if (a->ngroups == 0) {
		fputs(" -> none (no rows shown)\n", out);
		return;
	}
	if (a->ngroups == 1 && !a->groups[0].family) {
		const struct group *g = &a->groups[0];
		fputs(" -> ", out);
		report_bracket(v, ds, a, g, out);
		if (g->split)
			fprintf(out, "  split       %s\n", describe_split(g, false, b1, sizeof b1));
		fprintf(out, "  range       %s  (firm..loose: 90%% run-to-run intervals wholly above / "
			"reaching theta)\n", describe_range(g->range_lo, g->range_hi, b1, sizeof b1));
		if (g->ncand)
			report_sensitivity(ds, a, g, "  sensitivity ", out);
		report_group_fit(a, g, 0, "  fit         ", out);
		if (g->ref_slow)
			fprintf(out, "  warning     %s\n", describe_ref_slow(ds, g, false, b1, sizeof b1));
	} else {
		fprintf(out, ", per family (range: firm..loose, 90%% run-to-run intervals wholly above / "
			"reaching theta)\n");
		for (size_t k = 0; k < a->ngroups; k++) {
			const struct group *g = &a->groups[k];
			fprintf(out, "  family      %s\n    reference   ", g->family);
			report_group_ref(ds, a, g, out);
			fputs("    bracket     ", out);
			report_bracket(v, ds, a, g, out);
			if (g->split)
				fprintf(out, "    split       %s\n", describe_split(g, false, b1, sizeof b1));
			if (g->be.kind != BE_ONE_ROW)
				fprintf(out, "    range       %s\n",
					describe_range(g->range_lo, g->range_hi, b1, sizeof b1));
			if (g->ncand > 1)
				report_sensitivity(ds, a, g, "    sensitivity ", out);
			report_group_fit(a, g, k, "    fit         ", out);
			if (g->ref_slow)
				fprintf(out, "    warning     %s\n", describe_ref_slow(ds, g, false, b1, sizeof b1));
		}
	}
	if (a->ncross)
		fprintf(out, "  warning     E' mixes %s and %s: --mode family compares within a family "
			"(%zu row%s against a reference of another family)\n", a->cross_ref_fam,
			a->cross_row_fam, a->ncross, a->ncross == 1 ? "" : "s");
}

static void report_summary_one(const struct table_view *v, const struct dataset *ds,
			       const struct analysis *a, const struct params *p, FILE *out)
{
	size_t *idx, n;
	char b1[32], b2[32], name[1024], notice[600];

	if (a->all_rounds)
		fprintf(out, "%s (%s), all rounds\n", workload_label(a->workload), a->workload);
	else
		fprintf(out, "%s (%s), round %s\n", workload_label(a->workload), a->workload, a->round);
	fputs("  reference   ", out);
	report_ref(ds, a, out);
	if (!filter_empty(&p->filter))
		fprintf(out, "\n  filter      %s", describe_filter(&p->filter, name, sizeof name));
	fprintf(out, "\n  rows        %zu shown of %zu\n", analysis_pooled(a), a->total);
	if (a->ncarried || a->total_carried) {
		char *list = malloc(CARRIED_TEXT);
		if (list)
			fprintf(out, "  carried over %s\n", describe_carried_list(ds, a, list, CARRIED_TEXT));
		free(list);
	}
	if (ds->skipped)
		fprintf(out, "  skipped     %zu bad row%s of the input, not in any count (the first: %s)\n",
			ds->skipped, ds->skipped == 1 ? "" : "s", ds->skip_first);
	if (a->all_rounds)
		fprintf(out, "  pooled      %s: the rounds MLCommons' compatibility table compares\n",
			bench_reg_group_text(a->workload, a->round, notice, sizeof notice));
	if (bench_reg_notice(ds, a->round, a->workload, a->all_rounds, notice, sizeof notice))
		fprintf(out, "  left out    %s\n", notice);
	fprintf(out, "  clusters    k=%d  inertia %s  silhouette %s\n", a->k,
		fmt_sig(a->inertia, 4, b1, sizeof b1), fmt_fixed(a->silhouette, 3, b2, sizeof b2));
	report_be_more(v, ds, a, p, out);
	n = pareto_rows(ds, a, p, &idx);
	fprintf(out, "  pareto      %zu:", n);
	for (size_t k = 0; k < n; k++)
		fprintf(out, "%s %s (N=%s)", k ? "," : "", row_label(v, ds, a, idx[k], name, sizeof name),
			fmt_count(a->rows[idx[k]].N, b1, sizeof b1));
	fputc('\n', out);
	free(idx);
}

/* ------------------------------------------------------------------ fit */

/* One line per family of the shown rows (fit_describe), under a title. */
static void report_fit(const struct analysis *a, const struct params *p, FILE *out)
{
	char th[32], line[1024];

	fprintf(out, "%s (%s), round %s, theta %s: USL X(N) = lambda*N/(1 + sigma*(N-1) + "
		"kappa*N*(N-1)), X = 60/T, least squares on ln X, per family\n",
		workload_label(a->workload), a->workload, a->round, fmt_short(p->theta, th, sizeof th));
	for (size_t i = 0; i < a->nfits; i++)
		fprintf(out, "  %s\n", describe_fit(&a->fits[i], p->theta, line, sizeof line));
	if (!a->nfits)
		fputs("  no rows shown\n", out);
}

/* Every group's sensitivity line, under a title. */
static void report_sens_all(const struct dataset *ds, const struct analysis *a,
			    const struct params *p, FILE *out)
{
	char th[32], lead[300];

	fprintf(out, "%s (%s), round %s, theta %s: the bracket's lower end with each of the group's "
		"fewest-accelerator rows as reference\n", workload_label(a->workload), a->workload,
		a->round, fmt_short(p->theta, th, sizeof th));
	for (size_t k = 0; k < a->ngroups; k++) {
		snprintf(lead, sizeof lead, "  %s: ", describe_group_name(&a->groups[k]));
		report_sensitivity(ds, a, &a->groups[k], lead, out);
	}
	if (!a->ngroups)
		fputs("  no rows shown\n", out);
}

/* ------------------------------------------------------------------ entry */

/* Summary of every workload of the round (or only p's): each with its own analysis. */
static int report_summary(const struct dataset *ds, const struct params *p,
			  const struct report_opts *o, FILE *out, struct analysis *a,
			  struct table_view *v, struct gs_err *err)
{
	const char **wl = NULL, *one[1] = { p->workload };
	const char *round = p->round;
	size_t n = 1;
	int rc = 0;

	if (!round) {
		const char *r[1];
		round = dataset_rounds(ds, r, 1) ? r[0] : NULL;
	}
	if (o->all_workloads && round && dataset_workload_list(ds, round, &wl, &n) < 0) {
		err_oom(err, NULL, 0);
		return -1;
	}
	if (!wl) {
		wl = one;
		n = o->all_workloads && round ? 0 : 1;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct params q = *p;
		q.round = round;
		q.workload = wl[i];
		q.unranked = true; /* a summary ranks nothing */
		/* a pinned system exists in some workloads only: elsewhere the paper rule */
		if (q.mode == REF_PINNED && o->all_workloads && dataset_find(ds, round, wl[i], q.pinned) < 0)
			q.mode = REF_PAPER;
		/* no row of another workload comes back: its resamples' memory serves this one's */
		if (i)
			analysis_drop_draws(a);
		if (analysis_run(ds, &q, a, err) < 0) {
			rc = -1;
			break;
		}
		if (table_names(v, ds, a) < 0) {
			err_oom(err, NULL, 0);
			rc = -1;
			break;
		}
		if (i)
			fputc('\n', out);
		report_summary_one(v, ds, a, &q, out);
	}
	if (wl != one)
		free(wl);
	return rc;
}

/* One report of one workload (q's), not the summary: its own analysis. 0, or -1 with err. */
static int report_one(const struct dataset *ds, const struct params *q, const struct report_opts *o,
		      unsigned what, bool titled, bool csv_head, struct analysis *a,
		      struct table_view *v, FILE *out, struct gs_err *err)
{
	if (what == PR_TREND) /* every round of the workload, each analysed on its own */
		return report_trend(ds, q, out, err);
	if (analysis_run(ds, q, a, err) < 0)
		return -1;
	/* the widths cost a pass over every cell: only for the table */
	if ((what == PR_TABLE ? table_measure(v, ds, a) : table_names(v, ds, a)) < 0) {
		err_oom(err, NULL, 0);
		return -1;
	}
	/* clusters and pareto do not name their workload: among several, a title does */
	if (titled && (what & (PR_CLUSTERS | PR_PARETO)))
		fprintf(out, "%s (%s), round %s\n", workload_label(a->workload), a->workload,
			a->all_rounds ? "all" : a->round);
	switch (what) {
	case PR_TABLE:
		report_table_title(ds, a, q, out, o->table_width);
		report_table(v, ds, a, out, o->table_width, o->columns);
		break;
	case PR_PLOT:
		return report_plot(ds, a, q, o, out, err);
	case PR_CLUSTERS:
		report_clusters(a, q, out);
		break;
	case PR_PARETO:
		report_pareto(v, ds, a, q, out);
		fputs("break-even: ", out);
		report_breakeven(v, ds, a, q, out);
		break;
	case PR_CSV:
		/* above a few thousand rows the run leaves intervals to be asked for */
		if (analysis_intervals(ds, a, 0, a->n, err) < 0)
			return -1;
		return report_csv_rows(ds, a, NULL, a->n, csv_head, out);
	case PR_FIT:
		report_fit(a, q, out);
		break;
	case PR_SENSITIVITY:
		report_sens_all(ds, a, q, out);
		break;
	case PR_QUERY:
		return report_query(ds, a, o->query, v, out, err);
	case PR_PREDICT:
		return report_predict(ds, a, o->predict_n, o->query ? o->query->gbs : NAN, out, err);
	}
	return 0;
}

int report_run(const struct dataset *ds, const struct params *p, const struct report_opts *o,
	       struct analysis *a, FILE *out, struct gs_err *err)
{
	struct params q = *p;
	struct table_view v = { 0 };
	const char **wl = NULL, *one[1] = { p->workload };
	size_t nwl = 1;
	int rc = 0;

	if (o->json)
		return report_json(ds, p, o, a, out, err);
	/* the fit costs a little per family: only when a report shows it */
	for (int k = 0; k < o->norder; k++)
		q.fit |= (o->order[k] & (PR_FIT | PR_CSV | PR_SUMMARY | PR_QUERY | PR_PREDICT)) != 0;
	/* one rule for every report: without a workload asked for, each covers every workload of
	 * the round, in the round's order (the CSV under one header) */
	if (o->all_workloads && p->round && dataset_workload_list(ds, p->round, &wl, &nwl) < 0) {
		err_oom(err, NULL, 0);
		return -1;
	}
	if (!wl || nwl == 0) {
		free(wl);
		wl = one;
		nwl = 1;
	}
	/* reports come out in the order asked for */
	for (int k = 0; k < o->norder && rc == 0; k++) {
		unsigned what = o->order[k];
		if (k)
			fputc('\n', out);
		if (what == PR_SUMMARY) {
			rc = report_summary(ds, &q, o, out, a, &v, err);
			continue;
		}
		for (size_t i = 0; i < nwl && rc == 0; i++) {
			struct params w = q;
			w.workload = wl[i];
			/* a pinned system exists in some workloads only: elsewhere the paper rule */
			if (wl != one && w.mode == REF_PINNED && dataset_find(ds, w.round, w.workload, w.pinned) < 0)
				w.mode = REF_PAPER;
			if (i && what != PR_CSV)
				fputc('\n', out);
			if (i)
				analysis_drop_draws(a); /* as in the summary */
			rc = report_one(ds, &w, o, what, nwl > 1, i == 0, a, &v, out, err);
		}
	}
	if (wl != one)
		free(wl);
	table_view_free(&v);
	/* a failed write stops the reports: it is what to say, whatever failed after it */
	if ((rc == 0 || ferror(out)) && fileio_stream_check(out, out == stdout ? "standard output" : "the report", err) < 0)
		rc = -1;
	return rc;
}
