/* ui_plan.c: the planner in the explorer, no terminal: the query prompt (Q) and its answer rows
 * marked in plot and table, and the break-even trend overlay (W) with its cursor. The answers
 * and the matrix are the core's (query.c, trend.c), the words the describe layer's, so the
 * screen says what --print query and --print trend say. */
#include "ui_app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "planner.h"
#include "text.h"

struct ui_plan {
	struct query q;
	bool on;                   /* a query is set: its answer rows are marked */
	struct q_result res;
	struct trend t;
	bool trend_ok;
	size_t tf, tr;             /* the trend's cursor: family (line), round (column) */
};

static struct ui_plan *plan_of(struct app *app)
{
	if (!app->plan && (app->plan = calloc(1, sizeof *app->plan)) != NULL)
		query_init(&app->plan->q);
	return app->plan;
}

void ui_plan_free(struct app *app)
{
	if (!app->plan)
		return;
	query_free(&app->plan->res);
	trend_free(&app->plan->t);
	free(app->plan);
	app->plan = NULL;
}

/* ---- the query ---- */

/* The query's words: what 0..3 a constraint, 4 the objective. */
static const struct {
	const char *name;
	int what;
} q_words[] = {
	{ "deadline", 0 }, { "t", 0 }, { "max-cost", 1 }, { "cost", 1 }, { "max-acc-hours", 2 },
	{ "acc-hours", 2 }, { "a", 2 }, { "max-kwh", 3 }, { "kwh", 3 }, { "minimize", 4 },
	{ "min", 4 },
};
#define NQ_WORDS (sizeof q_words / sizeof q_words[0])

/* The word tok names (leading dashes skipped), as an index of q_words; -1: none. */
static int q_word(const char *tok)
{
	while (*tok == '-')
		tok++;
	for (size_t w = 0; w < NQ_WORDS; w++)
		if (ascii_casecmp(tok, q_words[w].name) == 0)
			return (int)w;
	return -1;
}

/* A positive finite number, the whole of s, into *v. */
static bool q_number(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end != s && !*end && isfinite(*v) && *v > 0;
}

/* Whether tok[i] is a unit of constraint what written after its value ("t 10 min", "cost 5
 * usd"). A unit that is also a word ("min", "kwh") is the word when a value of that word
 * follows: "t 10 min cost" minimizes cost, "t 10 min cost 500" has a unit and a budget. */
static bool q_unit(int what, char **tok, size_t ntok, size_t i)
{
	static const char *const units[4][4] = {
		{ "min", "mins", "minute", "minutes" }, { "usd", "$", NULL, NULL },
		{ "h", "acc-hours", "acc-h", NULL }, { "kwh", NULL, NULL, NULL },
	};
	bool unit = false;
	double v;
	int w;

	for (int u = 0; u < 4 && units[what][u] && !unit; u++)
		unit = ascii_casecmp(tok[i], units[what][u]) == 0;
	if (!unit || (w = q_word(tok[i])) < 0 || i + 1 >= ntok)
		return unit;
	if (q_words[w].what == 4)
		return q_obj_parse(tok[i + 1]) < 0 || (i + 2 < ntok && q_number(tok[i + 2], &v));
	return !q_number(tok[i + 1], &v);
}

int ui_plan_query_parse(const char *text, struct query *q, char *why, size_t n)
{
	static const char *const long_name[5] = { "deadline", "max-cost", "max-acc-hours", "max-kwh",
						  "minimize" };
	char buf[UI_SEARCH_MAX * 2], *save = NULL, *tok[UI_SEARCH_MAX];
	size_t ntok = 0;
	int given[5] = { -1, -1, -1, -1, -1 }; /* the word each part was given with */

	query_init(q);
	snprintf(buf, sizeof buf, "%s", text);
	for (char *c = buf; *c; c++)
		if (*c == '=' || *c == ',' || *c == '<')
			*c = ' ';
	for (char *t = strtok_r(buf, " ", &save); t && ntok < UI_SEARCH_MAX; t = strtok_r(NULL, " ", &save))
		tok[ntok++] = t;
	for (size_t i = 0; i < ntok; i++) {
		int w = q_word(tok[i]);
		if (w < 0) {
			snprintf(why, n, "query: '%s' is not deadline, max-cost, max-acc-hours, max-kwh "
				 "or minimize", tok[i]);
			return -1;
		}
		int what = q_words[w].what;
		/* as on the command line, a part given twice is refused: the last must not win
		 * silently */
		if (given[what] >= 0) {
			if (given[what] == w)
				snprintf(why, n, "query: %s given twice: it takes one value", q_words[w].name);
			else
				snprintf(why, n, "query: %s given twice (%s and %s are one word): it takes one value",
					 long_name[what], q_words[given[what]].name, q_words[w].name);
			return -1;
		}
		given[what] = w;
		if (++i >= ntok) {
			snprintf(why, n, "query: %s needs a value", q_words[w].name);
			return -1;
		}
		if (what == 4) {
			int o = q_obj_parse(tok[i]);
			if (o < 0) {
				snprintf(why, n, "query: minimize '%s' is not acc-hours, cost, kwh or minutes", tok[i]);
				return -1;
			}
			q->minimize = (enum q_obj)o;
			continue;
		}
		double v;
		if (!q_number(tok[i], &v)) {
			snprintf(why, n, "query: %s '%s' is not a positive number", q_words[w].name, tok[i]);
			return -1;
		}
		double *at[] = { &q->deadline, &q->max_cost, &q->max_acc_hours, &q->max_kwh };
		*at[what] = v;
		if (i + 1 < ntok && q_unit(what, tok, ntok, i + 1))
			i++;
	}
	return 0;
}

const struct query *ui_plan_query(const struct app *app)
{
	return app->plan && app->plan->on ? &app->plan->q : NULL;
}

int ui_plan_query_set(struct app *app, const struct query *q)
{
	struct ui_plan *pl;

	if (!q) {
		if (app->plan)
			app->plan->on = false;
		return 0;
	}
	if (!(pl = plan_of(app)))
		return -1;
	pl->q = *q;
	pl->on = true;
	return 0;
}

const struct q_result *ui_plan_answer(const struct app *app)
{
	struct ui_plan *pl = app->plan;

	if (!pl || !pl->on || query_run(app->ds, &app->a, &pl->q, &pl->res, NULL) < 0)
		return NULL;
	return &pl->res;
}

/* Whether analysis row r is one of the answer's rows. */
static bool answers(const struct q_result *res, size_t r)
{
	for (size_t k = 0; k < res->n; k++)
		if (res->ans[k].row >= 0 && (size_t)res->ans[k].row == r)
			return true;
	return false;
}

bool ui_plan_marked(const struct app *app, const struct q_result *res, size_t i)
{
	return res && i < app->nvis && answers(res, app->vis[i]);
}

/* "; FAMILY law: ..." into buf: what family's fitted law predicts in answer r; "" when the
 * family has no shown row. */
static void law_text(const struct q_result *r, const struct query *q, const char *family,
		     char *buf, size_t n)
{
	char p[600];

	buf[0] = '\0';
	for (size_t k = 0; k < r->n; k++)
		if (strcmp(r->ans[k].family, family) == 0)
			snprintf(buf, n, "; %s law: %s", family, describe_q_pred(&r->ans[k], q, p, sizeof p));
}

unsigned ui_plan_query_accept(struct app *app)
{
	struct ui_plan *pl = plan_of(app);
	char why[UI_MSG_MAX], q[200], row[400], name[256];

	if (!pl) {
		ui_state_msg(app, true, "out of memory: no query");
		return UI_REDRAW;
	}
	if (!app->ed.input[0]) {
		pl->on = false;
		app->menu.ov = OV_NONE;
		ui_state_msg(app, false, "query cleared: no rows marked");
		return UI_REDRAW;
	}
	if (ui_plan_query_parse(app->ed.input, &pl->q, why, sizeof why) < 0) {
		ui_state_msg(app, true, "%s", why);
		return UI_REDRAW; /* the prompt stays open */
	}
	app->menu.ov = OV_NONE;
	pl->on = true;
	/* the answer's predictions come from the fits, which the screen keeps only with L on:
	 * made for this answer and dropped again (the marks, redrawn from the rows, need none) */
	bool fits = app->a.fits != NULL;
	if (!fits && analysis_fits_add(app->ds, &app->a, NULL) < 0)
		fits = true; /* out of memory: an answer without predictions, nothing to drop */
	const struct q_result *r = ui_plan_answer(app);
	char law[UI_MSG_MAX / 2] = "";
	if (r) {
		const char *fam = r->best >= 0 ? r->ans[r->best].family
			: app->nvis ? ui_state_row(app, app->sel)->family : NULL;
		if (fam)
			law_text(r, &pl->q, fam, law, sizeof law);
	}
	if (!fits)
		analysis_fits_drop(&app->a);
	if (!r) {
		ui_state_msg(app, true, "out of memory: no query");
		return UI_REDRAW;
	}
	describe_query(&pl->q, q, sizeof q);
	size_t nans = 0;
	for (size_t k = 0; k < r->n; k++)
		nans += r->ans[k].row >= 0;
	if (r->best < 0) {
		/* no row meets it: what the law says for the selected row's family */
		ui_state_msg(app, false, "query %s: no shown row meets it%s", q, law);
		return UI_REDRAW;
	}
	const struct q_answer *b = &r->ans[r->best];
	const struct arow *ar = &app->a.rows[b->row];
	/* the table's name (SUBMITTER/SYSTEM where the id is shared), the id when not shown */
	const char *nm = app->ds->rows[ar->row].system;
	for (size_t i = 0; i < app->nvis; i++)
		if (app->vis[i] == (size_t)b->row) {
			ui_state_select(app, (long)i);
			nm = ui_state_name(app, i, name, sizeof name);
		}
	describe_q_row(ar, nm, &pl->q, b->cost, row, sizeof row);
	/* the best row first: a narrow message line keeps the head */
	ui_state_msg(app, false, "best %s: %s; %zu famil%s marked @%s%s (%s)%s", b->family, row, nans,
		     nans == 1 ? "y" : "ies", r->nunpriced ? "; unpriced families left out" : "",
		     r->nno_energy ? "; families without energy left out" : "", q, law);
	return UI_REDRAW;
}

/* ---- the trend ---- */

/* The width of round r's column: its heading (the current round's with its '*') and cells. */
static int trend_cw(const struct ui_plan *pl, size_t r)
{
	char cell[64];
	int w = text_columns(pl->t.rounds[r]) + (r == pl->t.cur);

	for (size_t f = 0; f < pl->t.nfamilies; f++) {
		int cw = text_columns(describe_trend_cell(trend_cell(&pl->t, f, r), cell, sizeof cell));
		if (cw > w)
			w = cw;
	}
	return w;
}

/* The rounds shown, r0..r1-1 around the cursor's: from it leftwards while they fit, then
 * rightwards (so that moving right keeps the cursor's column last). Only the columns looked at
 * are measured: any number of rounds costs what the screen holds. An overlay holds the
 * screen's width less 6 (a line UI_LINE bytes); the family column is fw wide, " >" ends a
 * heading with more. */
static void trend_window(const struct app *app, const struct ui_plan *pl, int fw, size_t *r0, size_t *r1)
{
	int room = (app->scr.lay.cols - 6 < UI_LINE - 1 ? app->scr.lay.cols - 6 : UI_LINE - 1) - 2, used = fw + 2 + trend_cw(pl, pl->tr), w;

	*r0 = pl->tr;
	while (*r0 > 0 && used + 2 + (w = trend_cw(pl, *r0 - 1)) <= room) {
		used += 2 + w;
		--*r0;
	}
	*r1 = pl->tr + 1;
	while (*r1 < pl->t.nrounds && used + 2 + (w = trend_cw(pl, *r1)) <= room) {
		used += 2 + w;
		++*r1;
	}
}

static int trend_fw(const struct ui_plan *pl)
{
	int fw = 8; /* "family <" */

	for (size_t f = 0; f < pl->t.nfamilies; f++)
		if (text_columns(pl->t.families[f]) > fw)
			fw = text_columns(pl->t.families[f]);
	return fw;
}

unsigned ui_plan_trend_open(struct app *app, struct ui_press in)
{
	struct ui_plan *pl = plan_of(app);
	struct gs_err err = { 0 };

	(void)in;
	if (!pl) {
		ui_state_msg(app, true, "out of memory: no trend");
		return UI_REDRAW;
	}
	trend_free(&pl->t);
	pl->trend_ok = trend_run(app->ds, &app->p, &pl->t, &err) == 0;
	if (!pl->trend_ok) {
		ui_state_msg(app, true, "no trend: %s", err.msg);
		return UI_REDRAW;
	}
	pl->tr = pl->t.cur;
	pl->tf = 0;
	if (app->nvis) {
		const char *fam = ui_state_row(app, app->sel)->family;
		for (size_t f = 0; f < pl->t.nfamilies; f++)
			if (strcmp(pl->t.families[f], fam) == 0)
				pl->tf = f;
	}
	app->menu.ov = OV_TREND;
	app->menu.ov_scroll = 0; /* the lines fit the box: ui_plan_trend_lines windows them */
	return UI_REDRAW;
}

unsigned ui_plan_trend_move(struct app *app, struct ui_press in)
{
	struct ui_plan *pl = app->plan;

	if (!pl || !pl->trend_ok || !pl->t.nfamilies)
		return UI_REDRAW;
	if (in.arg == 1 || in.arg == -1) {
		long f = (long)pl->tf + in.arg;
		if (f >= 0 && (size_t)f < pl->t.nfamilies)
			pl->tf = (size_t)f;
	} else {
		/* 2: a round; 3: the rounds shown (a page); 4: to the first or last */
		size_t r0, r1, by = 1, a = (size_t)labs(in.arg);
		if (a == 3) {
			trend_window(app, pl, trend_fw(pl), &r0, &r1);
			by = r1 - r0 > 1 ? r1 - r0 - 1 : 1;
		}
		if (a == 4)
			pl->tr = in.arg > 0 ? pl->t.nrounds - 1 : 0;
		else if (in.arg > 0)
			pl->tr = pl->tr + by < pl->t.nrounds ? pl->tr + by : pl->t.nrounds - 1;
		else
			pl->tr = pl->tr > by ? pl->tr - by : 0;
	}
	return UI_REDRAW;
}

unsigned ui_plan_trend_enter(struct app *app, struct ui_press in)
{
	struct ui_plan *pl = app->plan;
	struct filter *f = &app->p.filter;

	(void)in;
	if (!pl || !pl->trend_ok || !pl->t.nfamilies)
		return UI_REDRAW;
	const char *fam = pl->t.families[pl->tf], *round = pl->t.rounds[pl->tr];
	if (!trend_cell(&pl->t, pl->tf, pl->tr)->has) {
		ui_state_msg(app, true, "%s has no rows in %s", fam, round);
		return UI_REDRAW;
	}
	size_t i = name_find(app->rounds, app->nrounds, round, false);
	if (i >= app->nrounds)
		return UI_REDRAW;
	if (app->menu.famsel_cap < 1) {
		const char **s = realloc(app->menu.famsel, sizeof *s);
		if (!s) {
			ui_state_msg(app, true, "out of memory: the family filter is unchanged");
			return UI_REDRAW;
		}
		app->menu.famsel = s;
		app->menu.famsel_cap = 1;
	}
	if (i != app->round_i)
		ui_state_set_round(app, i);
	app->menu.famsel[0] = fam;
	f->families = app->menu.famsel;
	f->nfamilies = 1;
	app->menu.ov = OV_NONE;
	ui_state_msg(app, false, "%s %s: break-even %s (F clears the filter)", round, fam,
		     describe_trend_cell(trend_cell(&pl->t, pl->tf, pl->tr), (char[64]){ 0 }, 64));
	return UI_RECOMPUTE;
}

char *ui_plan_trend_title(const struct app *app, char *buf, size_t n)
{
	const struct ui_plan *pl = app->plan;

	if (!pl || !pl->trend_ok)
		snprintf(buf, n, " break-even by round ");
	else
		snprintf(buf, n, " break-even by round: %s, theta %g, bracket @ reference N ",
			 workload_label(pl->t.workload), app->p.theta);
	return buf;
}

/* With more rounds than the screen holds, which are shown and where the current one is, into
 * lines (one, or two when one line would be wider than the box); returns how many. */
static size_t trend_more(const struct app *app, const struct ui_plan *pl, size_t r0, size_t r1,
			 char (*lines)[UI_LINE])
{
	size_t nr = pl->t.nrounds, n = 0, room = (size_t)(app->scr.lay.cols > 8 ? app->scr.lay.cols - 8 : 1);
	char cur[UI_LINE] = "";
	int at;

	if (r0 == 0 && r1 == nr)
		return 0;
	at = snprintf(lines[n], UI_LINE, "rounds %zu-%zu of %zu", r0 + 1, r1, nr);
	if (r0 > 0)
		at += snprintf(lines[n] + at, (size_t)(UI_LINE - at), ", %zu more <", r0);
	if (r1 < nr)
		snprintf(lines[n] + at, (size_t)(UI_LINE - at), ", %zu more >", nr - r1);
	if (pl->t.cur < r0 || pl->t.cur >= r1)
		snprintf(cur, sizeof cur, "current %s* %s", pl->t.rounds[pl->t.cur], pl->t.cur < r0 ? "<" : ">");
	if (!cur[0])
		return 1;
	if (strlen(lines[n]) + 2 + strlen(cur) <= room && strlen(lines[n]) + 2 + strlen(cur) < UI_LINE) {
		strcat(lines[n], "; ");
		strcat(lines[n], cur);
		return 1;
	}
	snprintf(lines[++n], UI_LINE, "%s", cur);
	return 2;
}

size_t ui_plan_trend_lines(const struct app *app, char (*lines)[UI_LINE], size_t max, int *hl_line,
			   int *hl_col, int *hl_w)
{
	const struct ui_plan *pl = app->plan;
	char cell[64];
	int fw, cw[UI_LINE / 3];
	size_t n = 0, r0, r1, nr;

	*hl_line = *hl_col = *hl_w = -1;
	if (!pl || !pl->trend_ok || max < 3 || !pl->t.nrounds)
		return 0;
	nr = pl->t.nrounds;
	fw = trend_fw(pl);
	trend_window(app, pl, fw, &r0, &r1);
	/* a column takes 3 columns at least: a line holds no more than UI_LINE / 3 */
	if (r1 - r0 > UI_LINE / 3)
		r1 = r0 + UI_LINE / 3;
	for (size_t r = r0; r < r1; r++)
		cw[r - r0] = trend_cw(pl, r);
	/* the heading marks the current round with '*', more rounds either side with < and > */
	int at = snprintf(lines[n], UI_LINE, "%-*s", fw, r0 ? "family <" : "family");
	for (size_t r = r0; r < r1 && at < UI_LINE; r++) {
		char head[48];
		snprintf(head, sizeof head, "%s%s", pl->t.rounds[r], r == pl->t.cur ? "*" : "");
		at += snprintf(lines[n] + at, (size_t)(UI_LINE - at), "  %-*s", cw[r - r0], head);
	}
	if (r1 < nr && at < UI_LINE)
		snprintf(lines[n] + at, (size_t)(UI_LINE - at), " >");
	n++;
	/* more families than the box holds: the cursor's among those shown, a line each side
	 * saying how many more lie above and below; the heading stays */
	size_t nf = pl->t.nfamilies, f0 = 0, f1 = nf, vis = (size_t)(app->scr.lay.rows > 10 ? app->scr.lay.rows - 7 : 3);
	char more[2][UI_LINE];
	size_t nmore = trend_more(app, pl, r0, r1, more);
	size_t area = (vis < max ? vis : max) - 1 - nmore;
	if (area < 3)
		area = 3;
	if (nf > area) {
		if (pl->tf + 1 < area) {
			f1 = area - 1;
		} else {
			f1 = pl->tf + 1;
			f0 = f1 - (area - 1 - (f1 < nf));
		}
		if (f0)
			snprintf(lines[n++], UI_LINE, "^ %zu more famil%s above", f0, f0 == 1 ? "y" : "ies");
	}
	for (size_t f = f0; f < f1; f++, n++) {
		const char *fam = pl->t.families[f];
		at = snprintf(lines[n], UI_LINE, "%s%*s", fam, fw - text_columns(fam), "");
		int col = fw;
		for (size_t r = r0; r < r1 && at < UI_LINE; r++) {
			describe_trend_cell(trend_cell(&pl->t, f, r), cell, sizeof cell);
			if (f == pl->tf && r == pl->tr) {
				*hl_line = (int)n;
				*hl_col = col + 2;
				*hl_w = cw[r - r0];
			}
			at += snprintf(lines[n] + at, (size_t)(UI_LINE - at), "  %-*s", cw[r - r0], cell);
			col += 2 + cw[r - r0];
		}
	}
	if (f1 < nf)
		snprintf(lines[n++], UI_LINE, "v %zu more famil%s below", nf - f1, nf - f1 == 1 ? "y" : "ies");
	for (size_t i = 0; i < nmore; i++)
		memcpy(lines[n++], more[i], UI_LINE);
	return n;
}

size_t ui_plan_plot_marks(const struct app *app, int *cells, size_t max)
{
	const struct q_result *res = ui_plan_answer(app);
	size_t n = 0, np = app->pc.npts < app->nvis ? app->pc.npts : app->nvis;
	int *all;

	if (!res || !app->pc.grid_ok || np == 0)
		return 0;
	all = malloc(np * sizeof *all);
	if (all && plot_locate(app->pc.pts, np, &app->pc.spec, all, NULL) == 0)
		for (size_t j = 0; j < np && n < max; j++)
			if (all[j] >= 0 && answers(res, app->vis[j]))
				cells[n++] = all[j];
	free(all);
	return n;
}
