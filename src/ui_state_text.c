/* ui_state_text.c: the text the explorer shows beyond the table: the detail overlay of the
 * selected row, the fit's part of the status line, and the help overlay (keys from the key
 * table, then "what you see"). Lines are built into caller buffers; no curses here. */
#include "ui_app.h"

#include "describe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_reg.h"
#include "fmt.h"
#include "olympic.h"
#include "text.h"

/* Appends a line, unmarked (mark may be NULL). */
#define ADD(...) do { \
		if (n < max) { \
			if (mark) \
				mark[n] = false; \
			snprintf(lines[n++], UI_LINE, __VA_ARGS__); \
		} \
	} while (0)

/* The olympic average drops, from the ascending successful runs, the fastest m and the slowest
 * m - d, failed runs counting as already-dropped slow ones (m = 4 for unet3d, else 1). */
static const char *run_note(const struct row *r, unsigned i, bool *dropped)
{
	size_t lo, hi, d = r->runs_failed > 0 ? (size_t)r->runs_failed : 0;

	*dropped = false;
	if (olympic_window(r->run_n, d, olympic_limit(r->benchmark), &lo, &hi) == 1)
		return "not scored (too many failed runs)";
	*dropped = i < lo || i >= hi;
	if (i < lo)
		return "dropped (fastest)";
	if (i >= hi)
		return "dropped (slowest)";
	return "averaged";
}

/* The runs: T and the spread are the olympic average and range of the raw run times times the
 * scaling factor, so each run shows both, and the failed runs are said to count as dropped. */
static void run_lines(const struct app *app, const struct row *r, char (*lines)[UI_LINE], bool *mark,
		      size_t max, size_t *np)
{
	size_t n = *np;
	double sf = isfinite(r->scaling_factor) && r->scaling_factor > 0 ? r->scaling_factor : 1.0;
	int m = (int)olympic_limit(r->benchmark), d = r->runs_failed > 0 ? r->runs_failed : 0;
	char b1[32], b2[32];

	fmt_sig(sf, 4, b1, sizeof b1);
	if (d > 0)
		ADD("runs          %d scored, %d failed: failed runs count as dropped slowest",
		    r->runs_scored, d);
	else if (r->runs_scored >= 0)
		ADD("runs          %d scored, 0 failed", r->runs_scored);
	ADD("average       drop %d fastest, %d slowest, mean x scaling factor %s = T", m, m, b1);
	if (r->run_n == 0) {
		ADD("  (no raw run times in the data)");
		*np = n;
		return;
	}
	ADD("  run       raw min   scaled min   (raw: unscaled)%s", *row_extra(r)->run_files ? "   log file" : "");
	const char *file = row_extra(r)->run_files;
	for (unsigned i = 0; i < r->run_n; i++) {
		double v = app->ds->runs[r->run_off + i];
		bool dropped;
		const char *note = run_note(r, i, &dropped);
		/* run_files lists the logs in run_minutes order, ';' between two */
		size_t fl = file ? strcspn(file, ";") : 0;
		ADD("  run %2u %10s %12s   %-18s %.*s", i + 1, fmt_fixed(v, 3, b1, sizeof b1),
		    fmt_fixed(v * sf, 3, b2, sizeof b2), note, (int)fl, fl ? file : "");
		file = file && file[fl] == ';' ? file + fl + 1 : NULL;
		if (mark && n > 0 && n <= max)
			mark[n - 1] = dropped; /* the dropped runs stand out */
	}
	*np = n;
}

/* The group of the selected row, or NULL. */
static const struct group *sel_group(const struct app *app)
{
	return app->nvis ? analysis_group(&app->a, app->vis[app->sel]) : NULL;
}

/* The fit whose prediction the status line gives: the selected row's family's, on the
 * reference of its group, so that it compares with that group's bracket. */
static const struct fam_fit *fit_shown(const struct app *app)
{
	const struct analysis *a = &app->a;

	if (app->nvis)
		return analysis_fam_fit_of(app->ds, a, a->rows[app->vis[app->sel]].row);
	return a->nfits ? &a->fits[0] : NULL;
}

char *ui_state_fit_text(const struct app *app, bool brief, char *buf, size_t n)
{
	const struct fam_fit *ff = app->p.fit ? fit_shown(app) : NULL;
	char b[96];

	if (n)
		buf[0] = '\0';
	if (!app->p.fit)
		return buf;
	if (!ff) {
		snprintf(buf, n, ", fit -");
		return buf;
	}
	describe_fit_be(ff, b, sizeof b);
	if (brief)
		snprintf(buf, n, ", fit %s", b);
	else
		snprintf(buf, n, ", %s fit %s", ff->family, b);
	return buf;
}

char *ui_state_rows_text(const struct app *app, char *buf, size_t n)
{
	char cut[UI_SEARCH_MAX * 4];

	size_t nc = ui_state_carried(app); /* listed, counted in no count */
	char more[48];

	describe_carried_count(nc, more, sizeof more);
	/* the filter's text cut in the middle as names are, so that the groups keep their room */
	if (app->rowfilt[0])
		snprintf(buf, n, "%zu/%zu rows ~ %s%s", app->nvis - nc, app->a.total,
			 ui_text_cut(app->rowfilt, 16, app->scr.utf8, cut, sizeof cut), more);
	else
		snprintf(buf, n, "%zu/%zu rows%s", app->nvis - nc, app->a.total, more);
	return buf;
}

/* The detail's fit line: the row against its family's law. */
static void fit_line(const struct app *app, const struct arow *ar, char *buf, size_t n)
{
	const struct fit *f = analysis_fit_of(app->ds, &app->a, ar->row);
	char b1[32], b2[32], b3[32];

	if (!f)
		snprintf(buf, n, "-");
	else if (!fit_usable(f))
		snprintf(buf, n, "- (family %s: %s)", fit_state_name(f->state), f->reason);
	else
		snprintf(buf, n, "residual %+.4f on ln X (T %s min, law %s min), fitted E' %s on its "
			 "reference%s", ar->fit_resid, fmt_fixed(ar->T, 2, b1, sizeof b1),
			 fmt_fixed(fit_t(f, ar->N), 2, b2, sizeof b2), fmt_sig(ar->ep_fit, 4, b3, sizeof b3),
			 f->state == FIT_WEAK ? " (weak fit)" : "");
}

/* The selected row's group: its bracket, range and the reference sensitivity with its
 * candidates (those setting the ends first), and its family's fit verdict. */
static void break_lines(const struct app *app, char (*lines)[UI_LINE], size_t max, size_t *np)
{
	const struct analysis *a = &app->a;
	const struct group *g = sel_group(app);
	const struct fam_fit *ff = app->p.fit ? fit_shown(app) : NULL;
	bool *mark = NULL;
	size_t n = *np;
	char b1[32], b2[96], b3[160], b4[96];

	if (!g) {
		*np = n;
		return;
	}
	if (g->range_open)
		snprintf(b4, sizeof b4, "(drawing run-to-run intervals)");
	else
		describe_range(g->range_lo, g->range_hi, b4, sizeof b4);
	ADD("break-even    theta %s, %s: %s, range %s (interval wholly above .. reaching)",
	    fmt_short(app->p.theta, b1, sizeof b1), describe_group_name(g),
	    describe_bracket(&g->be, b2, sizeof b2), b4);
	if (g->split)
		ADD("split         %s", describe_split(g, false, b3, sizeof b3));
	if (g->ncand > 1) {
		size_t shown = 0, need;
		size_t *all = malloc(g->ncand * sizeof *all);
		if (all) {
			need = describe_cand_order(g, all);
			ADD("sensitivity   %s with each of the %zu fewest-accelerator rows as reference:",
			    g->sens_lo < 0 ? "none" : describe_range(g->sens_lo, g->sens_hi, b2, sizeof b2),
			    g->ncand);
			/* the detail scrolls: every candidate, up to a page of them, the ends first */
			for (size_t i = 0; i < g->ncand && (i < 40 || i < need); i++, shown++)
				ADD("              %s", describe_cand(app->ds, a, &g->cand[all[i]], b3, sizeof b3));
			if (shown < g->ncand)
				ADD("              and %zu more", g->ncand - shown);
			free(all);
		}
	}
	if (ff) {
		ADD("fit verdict   %s: %s", ff->family, describe_verdict(ff, b3, sizeof b3));
		ADD("fit predicts  break-even %s; %s", describe_fit_be(ff, b2, sizeof b2),
		    describe_peak(ff, b4, sizeof b4));
	}
	*np = n;
}

/* After the runs: the run-to-run interval, energy and cost, the break-even range and
 * sensitivity, and what makes a comparison suspect. */
static void more_lines(const struct app *app, const struct arow *ar, const struct row *r,
		       char (*lines)[UI_LINE], size_t max, size_t *np)
{
	bool *mark = NULL;
	size_t n = *np;
	char b1[32], b2[32], b3[32], b4[32];

	const struct aci *ci = analysis_ci(&app->a, ar);

	if (ci->runs)
		ADD("interval      T %s .. %s min, E' %s .. %s (90%% bootstrap of %u runs)",
		    fmt_fixed(ci->t_lo, 2, b1, sizeof b1), fmt_fixed(ci->t_hi, 2, b2, sizeof b2),
		    fmt_sig(ci->ep_lo, 3, b3, sizeof b3), fmt_sig(ci->ep_hi, 3, b4, sizeof b4),
		    ci->runs);
	else
		ADD("interval      - (fewer than 3 runs)");
	{
		char sp[UI_LINE];
		if (!isnan(ar->e_conv))
			ADD("split         %s", describe_split_row(app->ds, ar, sp, sizeof sp));
	}
	if (!isnan(ar->kwh))
		snprintf(b3, sizeof b3, "%s kWh%s%s", fmt_sig(ar->kwh, 4, b1, sizeof b1),
			 *row_extra(r)->power_measurement ? " " : "", row_extra(r)->power_measurement);
	else
		snprintf(b3, sizeof b3, "-");
	if (!isnan(ar->cost_lo))
		snprintf(b4, sizeof b4, "$%s..", fmt_sig(ar->cost_lo, 3, b1, sizeof b1));
	ADD("energy        %s%s%s%s   cost %s%s%s", b3,
	    isnan(ar->kwh) ? "" : ", ratio ",
	    isnan(ar->kwh) ? "" : isnan(ar->energy_ratio) ? "- " : fmt_sig(ar->energy_ratio, 3, b1, sizeof b1),
	    isnan(ar->kwh) || !isnan(ar->energy_ratio) ? "" : er_why_text(ar->er_why),
	    isnan(ar->cost_lo) ? "- (no price for " : b4,
	    isnan(ar->cost_lo) ? r->family : fmt_sig(ar->cost_hi, 3, b2, sizeof b2),
	    isnan(ar->cost_lo) ? ")" : " (A x on-demand price range)");
	*np = n;
	break_lines(app, lines, max, np);
	n = *np;
	if (ascii_casecmp(r->division, "open") == 0)
		ADD("open division: not bound by the closed rules, not like for like with closed rows");
	if (r->avail == AVAIL_PREVIEW || r->avail == AVAIL_RESEARCH)
		ADD("%s: not yet buyable (v hides such rows)", row_avail(r));
	if (*r->collapsed_from)
		ADD("stands for    %s (identical runs, collapsed: d shows each)", r->collapsed_from);
	if (arow_carried(ar)) {
		char b5[640];
		ADD("carried over  %s, which stands for them: listed, counted in nothing",
		    describe_carried(app->ds, &app->a, (size_t)(ar - app->a.rows), b5, sizeof b5));
	} else if (*r->carried_from) {
		ADD("carried over  from %s (identical runs there)%s", r->carried_from,
		    app->a.all_rounds ? "; that row is not shown: this one stands for them" : "");
	}
	*np = n;
}

size_t ui_state_detail(const struct app *app, char (*lines)[UI_LINE], bool *mark, size_t max)
{
	const struct arow *ar;
	const struct row *r, *ref;
	char b1[32], b2[32], b3[32], b4[32];
	size_t n = 0;

	if (app->nvis == 0) {
		ADD("no row selected");
		return n;
	}
	ar = ui_state_arow(app, app->sel);
	r = ui_state_row(app, app->sel);
	ref = &app->ds->rows[ar->ref];
	ADD("system        %s", r->system);
	ADD("name          %s", r->system_name);
	ADD("submitter     %s", r->submitter);
	ADD("round         %s   benchmark %s (%s)", r->round, workload_label(r->benchmark), r->benchmark);
	{
		/* the span of rounds the cross-round view pools this row with */
		char span[64];
		ADD("comparable    %s (MLCommons' compatibility table)",
		    bench_reg_group_text(r->benchmark, r->round, span, sizeof span));
	}
	if (*r->availability)
		ADD("division      %s   availability %s (published \"%s\")", r->division, row_avail(r),
		    r->availability);
	else
		ADD("division      %s   availability not in the data", *r->division ? r->division : "-");
	ADD("accelerator   %s", r->accelerator);
	ADD("family        %s (%s)", r->family, r->vendor);
	if (r->nodes > 0 && r->per_node > 0)
		ADD("nodes x per   %lld x %lld = %lld accelerators%s", r->nodes, r->per_node, r->accelerators,
		    strstr(r->family, "TPU") ? " (TPU chips)" : "");
	else
		ADD("accelerators  %lld%s (nodes not in the data)", r->accelerators,
		    strstr(r->family, "TPU") ? " TPU chips" : "");
	ADD("framework     %s", r->framework);
	ADD("source        %s:%ld", r->file, r->line);
	if (*row_extra(r)->source)
		ADD("results tree  %s", row_extra(r)->source);
	if (*row_extra(r)->failed_files)
		ADD("failed logs   %s", row_extra(r)->failed_files);
	ADD("%s", "");
	ADD("minutes T     %s    accelerator-hours A %s", fmt_fixed(ar->T, 2, b1, sizeof b1),
	    fmt_sig(ar->A, 4, b2, sizeof b2));
	ADD("reference     %s%s (N=%s, %s min)", ref->system, ar->is_ref ? " (this row)" : "",
	    fmt_count((double)ref->accelerators, b1, sizeof b1), fmt_fixed(ref->minutes, 2, b2, sizeof b2));
	const struct group *grp = analysis_group(&app->a, app->vis[app->sel]);
	if (grp && grp->ref_slow) {
		char slow[UI_LINE - 16];
		ADD("warning       %s", describe_ref_slow(app->ds, grp, false, slow, sizeof slow));
	}
	ADD("speedup S     %s    E %s    E' %s%s", fmt_sig(ar->S, 4, b1, sizeof b1),
	    fmt_sig(arow_e(ar), 4, b2, sizeof b2), fmt_sig(ar->Ep, 4, b3, sizeof b3),
	    ar->cross_family ? "  (mixes families: f or m compares within one)" : "");
	double kf = analysis_kf(app->ds, ar);
	ADD("Karp-Flatt e  %s%s", isfinite(kf) ? fmt_sig(kf, 4, b1, sizeof b1) : "- ",
	    isfinite(kf) ? "" : kf_why_text(ar->kf_why));
	ADD("spread T      %s .. %s min (scaled)", fmt_fixed(ar->t_lo, 2, b1, sizeof b1),
	    fmt_fixed(ar->t_hi, 2, b2, sizeof b2));
	struct spread sp = analysis_spread(app->ds, ar);
	ADD("spread S, E'  %s .. %s,  %s .. %s", fmt_sig(sp.s_lo, 4, b1, sizeof b1),
	    fmt_sig(sp.s_hi, 4, b2, sizeof b2), fmt_sig(sp.ep_lo, 4, b3, sizeof b3),
	    fmt_sig(sp.ep_hi, 4, b4, sizeof b4));
	ADD("cluster       %s    Pareto %s    %s",
	    arow_carried(ar) ? "-" : describe_cluster(ar->cluster, b1, sizeof b1),
	    ar->pareto ? "yes" : "no",
	    app->a.rows[app->vis[app->sel]].be ? "break-even row" : "");
	if (app->p.fit) {
		char fl[UI_LINE - 16];
		fit_line(app, ar, fl, sizeof fl);
		ADD("fit           %s", fl);
		/* the law of the family at the row's N and at twice its largest, with the interval
		 * --predict gives (a poor fit or none: why not, once) */
		const struct fam_fit *ff = analysis_fam_fit_of(app->ds, &app->a, ar->row);
		double plo, phi, at[2] = { ar->N, ff ? 2 * ff->fit.n_max : NAN };
		struct pred pr;
		if (ff)
			planner_price(app->ds, &app->a, ff->family, &plo, &phi);
		for (int k = 0; ff && k < 2; k++) {
			if (planner_predict(app->ds, &app->a, ff, at[k], NAN, plo, phi, &pr, NULL) < 0)
				break;
			ADD("predicted     %s", describe_pred(&pr, fl, sizeof fl));
			if (!pr.ok)
				break;
		}
	}
	run_lines(app, r, lines, mark, max, &n);
	more_lines(app, ar, r, lines, max, &n);
	return n;
}

/* "What you see": every mark, heading and status field, in the words of the key help. The
 * first column is looked up by the tests: each mark the table or the plot draws must have its
 * line here. The table's columns, with their help from the registry, follow "columns". */
const char *const ui_state_legend[][2] = {
	{ "table marks (P)", "" },
	{ "R", "the reference row: S, E' and the break-even are measured against it" },
	{ "*", "Pareto: no other row is both faster (min) and cheaper (A)" },
	{ ">", "the break-even row: the fastest row with E' >= theta (its N is the break-even)" },
	{ "v", "Preview or Research: not yet buyable" },
	{ "o", "open division" },
	{ "c", "carried over: an earlier round's runs; across rounds (A) listed, counted in nothing" },
	{ "x", "E' against a reference of another family" },
	{ "plot marks", "" },
	{ "a b c ...", "a point of the family (family mode) or round (all rounds) the legend names" },
	{ "", "beside it; paper and pinned modes: of cluster 1, 2, 3 ... (a is cluster 1)" },
	{ "A B C ...", "upper case: a Pareto point of that letter (p turns the marks off)" },
	{ "R ", "the reference point" },
	{ "2..9", "that many points share the cell" },
	{ "#", "ten or more points share the cell" },
	{ "---", "the theta line (E' only), with its value" },
	{ ".", "a point without a letter (more families or rounds than letters)" },
	{ "reverse video", "the selected row and its point, labelled with its name" },
	{ "1[BERT]", "a tab: its digit key (the same workload in every round), the active one in []" },
	{ "<  >", "in the tabs: more workloads off that side" },
	{ "columns", "" },
	{ "v ^", "after a heading: the sort column, descending (v) or ascending (^)" },
	{ "status lines", "" },
	{ "clusters", "k-means clusters, numbered 1 2 3 (never lettered) as in the cluster column" },
	{ "k=3 auto", "clusters, and whether auto-k chose k (best silhouette)" },
	{ "I", "k-means inertia: the summed squared distance to the centroids (lower: tighter)" },
	{ "sil", "mean silhouette, -1..1: near 1 the clusters are well apart" },
	{ "16..<32", "after theta: each group's break-even (B200 16..<32), the selected row's "
	  "first: from N of the fastest row with E' >= theta to below the next N where every row is "
	  "under theta; 8+: none such observed; none: no row reaches theta; +3 more: no room" },
	{ "fit N 24", "with L on: the break-even the selected row's family's scaling law predicts" },
	{ "3/7 rows", "rows shown / rows of the workload (filters hide the rest)" },
	{ "+2 carried over", "across rounds (A): rows listed with an earlier round's runs, in no count" },
	{ "rows ~ text", "the row filter (|) shows only rows whose names contain text (the analysis "
	  "keeps every row the family filter shows); Esc clears it" },
	{ "last line", "messages and answers; a longer one wraps over the lines above, whole," },
	{ "", "and stays until the next key" },
	{ "ref (mode)", "the reference and how it was chosen: paper, pinned, family" },
	{ "formulas", "" },
	{ "T", "minutes; N accelerators; A = N x T / 60" },
	{ "S, E, E'", "S = T_ref/T; E = S/N; E' = S/(N/N_ref)" },
	{ "Karp-Flatt e", "(1/S - 1/p) / (1 - 1/p) with p = N/N_ref > 1 (detail)" },
	{ "e_conv", "E' = e_thru x e_conv; e_conv = S'_ref/S', S' the samples to converge x scaling" },
	{ "e_thru", "(X/N)/(X_ref/N_ref), X = S'/T samples per minute: the throughput per accelerator" },
	{ "thr conv", "status line: the break-even rule on e_thru and on e_conv (where room is left)" },
	{ NULL, NULL },
};

/* One help or legend entry, its meaning wrapped at blanks to UI_LEGEND_W columns so that the page
 * reads whole in an 80-column box; continuation lines are indented under the meaning. */
#define UI_LEGEND_W 54
static void legend_line(int indent, const char *what, const char *text, int legw,
			char (*lines)[UI_LINE], bool *mark, size_t max, size_t *np)
{
	size_t n = *np;
	bool first = true;

	while (*text) {
		int len = (int)strlen(text);
		if (len > UI_LEGEND_W) {
			len = UI_LEGEND_W;
			while (len > 0 && text[len] != ' ')
				len--;
			if (len == 0)
				len = UI_LEGEND_W;
		}
		ADD("%*s%-*s  %.*s", indent, "", legw, first ? what : "", len, text);
		first = false;
		text += len;
		while (*text == ' ')
			text++;
	}
	*np = n;
}

size_t ui_state_help(const struct app *app, char (*lines)[UI_LINE], bool *head)
{
	size_t n = 0, max = UI_HELP_LINES;
	bool *mark = head;
	int keyw = 0, legw = 0;

	for (size_t i = 0; i < app->scr.nhelp; i++) {
		int w = (int)strlen(app->scr.help[i].keys);
		if (w > keyw)
			keyw = w;
	}
	for (size_t i = 0; i < app->scr.nhelp; i++) {
		const struct ui_help_line *h = &app->scr.help[i];
		if (i == 0 || h->ctx != app->scr.help[i - 1].ctx) {
			if (i > 0)
				ADD("%s", "");
			ADD("%s", ui_keys_ctx_name(h->ctx));
			if (head)
				head[n - 1] = true; /* a section title */
		}
		legend_line(2, h->keys, h->help, keyw, lines, mark, max, &n);
	}
	for (size_t i = 0; ui_state_legend[i][0]; i++) {
		int w = (int)strlen(ui_state_legend[i][0]);
		if (ui_state_legend[i][1][0] && w > legw)
			legw = w;
	}
	for (int c = 0; c < TC_COUNT; c++)
		if ((int)strlen(table_cols[c]->head) > legw)
			legw = (int)strlen(table_cols[c]->head);
	ADD("%s", "");
	ADD("what you see");
	if (head)
		head[n - 1] = true;
	for (size_t i = 0; ui_state_legend[i][0]; i++) {
		if (!ui_state_legend[i][1][0]) {
			ADD("  %s", ui_state_legend[i][0]);
			if (head)
				head[n - 1] = true;
			for (int c = 0; strcmp(ui_state_legend[i][0], "columns") == 0 && c < TC_COUNT; c++)
				legend_line(4, table_cols[c]->head, table_cols[c]->help, legw, lines, mark, max, &n);
			continue;
		}
		legend_line(4, ui_state_legend[i][0], ui_state_legend[i][1], legw, lines, mark, max, &n);
	}
	/* the plot's letters in this view, each named here even where the plot's legend is cut */
	struct plot_spec ps;
	ui_state_plot_spec(app, app->scr.lay.plot.w, app->scr.lay.plot.h, &ps);
	if (ps.nkeys) {
		ADD("%s", "");
		ADD("the plot's letters in this view");
		if (head)
			head[n - 1] = true;
		for (size_t k = 0; k < ps.nkeys; k++) {
			char g[2] = { ps.keys[k].glyph, '\0' };
			legend_line(4, g, ps.keys[k].text ? ps.keys[k].text : "-", legw, lines, mark, max, &n);
		}
	}
	return n;
}

/* Appends s (cut to fit UI_LINE) to out[*n] when there is room. */
static void wrap_put(char (*out)[UI_LINE], bool *omark, size_t *n, size_t max, const char *s, size_t len,
		     bool mark, int indent)
{
	if (*n >= max)
		return;
	snprintf(out[*n], UI_LINE, "%*s%.*s", indent, "", (int)len, s);
	if (omark)
		omark[*n] = mark;
	(*n)++;
}

size_t ui_state_detail_wrapped(const struct app *app, char (*lines)[UI_LINE], bool *mark, size_t max)
{
	/* values start after the 14-column labels ("speedup S     "): continuations go under them */
	enum { INDENT = 14 };
	static char raw[UI_MAX_DETAIL][UI_LINE];
	static bool rmark[UI_MAX_DETAIL];
	struct ui_rect box = ui_layout_overlay(&app->scr.lay, 1, 1 << 20);
	int width = box.w - 4;
	size_t nraw = ui_state_detail(app, raw, rmark, max < UI_MAX_DETAIL ? max : UI_MAX_DETAIL), n = 0;

	for (size_t i = 0; i < nraw; i++) {
		const char *s = raw[i];
		int indent = 0;
		size_t len = strlen(s);
		while (width > INDENT + 10 && ui_text_width(s, app->scr.utf8) > width - indent) {
			size_t cut, at;
			ui_text_fit(s, width - indent, app->scr.utf8, &cut);
			if (cut == 0)
				break; /* not one character fits: the rest is cut when drawn */
			/* at a blank in the last third of the room, else where the room ends */
			for (at = cut; at > cut * 2 / 3 && s[at] != ' '; at--)
				;
			if (at <= cut * 2 / 3)
				at = cut;
			wrap_put(lines, mark, &n, max, s, at, rmark[i], indent);
			s += at;
			while (*s == ' ')
				s++;
			len = strlen(s);
			indent = INDENT;
		}
		if (*s || indent == 0)
			wrap_put(lines, mark, &n, max, s, len, rmark[i], indent);
	}
	return n;
}
