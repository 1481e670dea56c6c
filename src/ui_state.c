/* ui_state.c: the explorer's model on top of the analysis core: rounds and workloads, the
 * analysis and its recompute, the shown rows (row filter) and the selection kept across both,
 * messages, and the family menu. The plot's state is in ui_state_plot.c, the overlays' text in
 * ui_state_text.c, what is typed in ui_prompt.c. No curses here: every function works without
 * a terminal, so the loop can recompute and the draw code only reads. Names compare under the
 * one ASCII case-folding rule (ascii_fold), the same in every locale. */
#include "ui_app.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmt.h"
#include "text.h"

static bool env_set(const char *name)
{
	const char *v = getenv(name);
	return v && *v;
}

long long ui_state_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Makes room for n entries of size bytes in *p (of *cap entries); false when memory runs out
 * (*p is then as it was). */
static bool grow_to(void **p, size_t *cap, size_t n, size_t size)
{
	void *q;

	if (n <= *cap && *p)
		return true;
	q = realloc(*p, (n ? n : 1) * size);
	if (!q)
		return false;
	*p = q;
	*cap = n ? n : 1;
	return true;
}

/* Grows *list (of *cap pointers) until a query that fills at most cap entries leaves room:
 * the lists have no fixed limit. Returns the count (a full list when memory runs out). */
static size_t fill_names(const char ***list, size_t *cap,
			 size_t (*query)(const struct dataset *, const char *, const char **, size_t),
			 const struct dataset *ds, const char *arg)
{
	size_t n = 0;

	for (size_t want = 64;; want = *cap * 2) {
		if (!grow_to((void **)list, cap, want, sizeof **list))
			return n;
		n = query(ds, arg, *list, *cap);
		if (n < *cap)
			return n;
	}
}

static size_t rounds_query(const struct dataset *ds, const char *unused, const char **out, size_t max)
{
	(void)unused;
	return dataset_rounds(ds, out, max);
}

/* Rounds in version order: "v4.0" < "v4.1" < "v5.0" < "v10.0". */
static int round_cmp(const void *x, const void *y)
{
	return text_version_cmp(*(const char *const *)x, *(const char *const *)y);
}

static void load_works(struct app *app)
{
	app->nworks = fill_names(&app->works, &app->works_cap, dataset_workloads, app->ds, app->p.round);
}

void ui_state_init(struct app *app, struct dataset *ds, const struct params *p,
		   const struct ui_opts *o)
{
	size_t cap = 0, i;

	memset(app, 0, sizeof *app);
	app->ds = ds;
	app->p = *p;
	app->ymet = o->y_metric < MET_COUNT ? o->y_metric : MET_EP;
	app->log_y = o->log_y;
	app->pareto_marks = true;
	app->export_dir = o->export_dir;
	if (o->mouse == MOUSE_AUTO)
		app->mouse = !env_set("SSH_CONNECTION") && !env_set("SSH_TTY");
	else
		app->mouse = o->mouse == MOUSE_ON;

	app->nrounds = fill_names(&app->rounds, &cap, rounds_query, ds, NULL);
	qsort(app->rounds, app->nrounds, sizeof *app->rounds, round_cmp);
	/* the newest round opens, unless one was asked for */
	i = p->round ? name_find(app->rounds, app->nrounds, p->round, true) : app->nrounds;
	app->round_i = i < app->nrounds ? i : (app->nrounds ? app->nrounds - 1 : 0);
	if (app->nrounds)
		app->p.round = app->rounds[app->round_i];
	load_works(app);
	i = p->workload ? name_find(app->works, app->nworks, p->workload, true) : 0;
	app->work_i = i < app->nworks ? i : 0;
	if (app->nworks)
		app->p.workload = app->works[app->work_i];
	/* what the loader skipped must not go unnoticed on the first screen */
	if (ds->warn.total > 0)
		ui_state_msg(app, true, "%zu load warning%s; first: %s", ds->warn.total,
			     ds->warn.total == 1 ? "" : "s", ds->warn.n ? ds->warn.items[0] : "-");
	else if (ds->unmatched > 0)
		ui_state_msg(app, false, "%zu rows matched no family rule (their accelerator is the family)",
			     ds->unmatched);
}

void ui_state_free(struct app *app)
{
	analysis_free(&app->a);
	analysis_free(&app->spare);
	plot_free(&app->pc.grid);
	free(app->pc.pts);
	free(app->rounds);
	free(app->works);
	free(app->menu.fam);
	free(app->menu.famsel);
	free(app->vis);
	free(app->collide);
	free(app->ed.hits);
	app->ed.hits = NULL;
	app->ed.hits_ok = false;
	app->pc.pts = NULL;
	app->rounds = app->works = NULL;
	app->menu.fam = NULL;
	app->vis = NULL;
	app->collide = NULL;
	app->pc.pts_cap = app->works_cap = app->menu.fam_cap = app->vis_cap = app->collide_cap = 0;
	app->nrounds = app->nworks = app->menu.nfam = app->nvis = 0;
}

void ui_state_msg(struct app *app, bool is_err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof app->msg, fmt, ap);
	va_end(ap);
	app->msg_err = is_err;
	app->msg_at = ui_state_now();
	app->msg_seq++;
}

unsigned ui_state_tick(struct app *app, long long now)
{
	if (app->msg[0] && now - app->msg_at >= UI_MSG_MS) {
		app->msg[0] = '\0';
		return UI_REDRAW;
	}
	return 0;
}

const struct arow *ui_state_arow(const struct app *app, size_t i)
{
	return &app->a.rows[app->vis[i]];
}

const struct row *ui_state_row(const struct app *app, size_t i)
{
	return &app->ds->rows[app->a.rows[app->vis[i]].row];
}

const char *ui_state_name(const struct app *app, size_t i, char *buf, size_t n)
{
	const struct row *r = ui_state_row(app, i);
	size_t ai = app->vis[i];

	if (ai < app->collide_cap && app->collide[ai])
		return text_row_name(r->submitter, r->system, true, buf, n);
	return r->system;
}

/* ---- the shown rows ---- */

/* Name widths and id collisions, once per analysis (the table reads them every frame). */
static int width_of(const struct app *app, const char *s)
{
	return ui_text_width(s, app->utf8);
}

/* A row of a.rows by its names, pooled: equal names are one pointer, so grouping by them needs
 * no string comparison. */
struct byid {
	uintptr_t sys, sub;
	size_t i;
};

static int byid_cmp(const void *x, const void *y)
{
	const struct byid *a = x, *b = y;

	if (a->sys != b->sys)
		return a->sys < b->sys ? -1 : 1;
	if (a->sub != b->sub)
		return a->sub < b->sub ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static const struct row *row_of(const struct app *app, size_t i)
{
	return &app->ds->rows[app->a.rows[i].row];
}

/* Raises *w to the display width of s; a string no longer in bytes than *w is not measured
 * (no character is wider than its bytes). */
static void widen(const struct app *app, int *w, const char *s)
{
	if (strlen(s) > (size_t)*w) {
		int sw = width_of(app, s);
		if (sw > *w)
			*w = sw;
	}
}

/* At 10^5 rows this took 80 ms of a recompute's 215 ms (every name measured, names sorted by
 * strcmp, each colliding pair marked by a pass over all rows); 4 ms now. */
static void measure(struct app *app)
{
	size_t n = app->a.n;
	struct byid *byid;

	app->w_sys = app->w_sub = app->w_fam = 0;
	app->has_kwh = app->has_cost = false;
	for (size_t i = 0; i < n; i++) {
		app->has_kwh |= isfinite(app->a.rows[i].kwh);
		app->has_cost |= isfinite(app->a.rows[i].cost_lo);
	}
	if (!grow_to((void **)&app->collide, &app->collide_cap, n, sizeof *app->collide))
		return;
	memset(app->collide, 0, app->collide_cap * sizeof *app->collide);
	byid = malloc((n ? n : 1) * sizeof *byid);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = row_of(app, i);
		widen(app, &app->w_sys, r->system);
		widen(app, &app->w_sub, r->submitter);
		widen(app, &app->w_fam, r->family);
		if (byid)
			byid[i] = (struct byid){ (uintptr_t)r->system, (uintptr_t)r->submitter, i };
	}
	if (!byid)
		return;
	qsort(byid, n, sizeof *byid, byid_cmp);
	/* one system id under several submitters: all its rows are named SUBMITTER/SYSTEM */
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && byid[j].sys == byid[i].sys; j++)
			;
		if (byid[j - 1].sub == byid[i].sub)
			continue;
		for (size_t k = i; k < j; k++) {
			const struct row *r = row_of(app, byid[k].i);
			int w = width_of(app, r->system) + width_of(app, r->submitter) + 1;
			app->collide[byid[k].i] = true;
			if (w > app->w_sys)
				app->w_sys = w;
		}
	}
	free(byid);
}

/* The selection follows the system, not the position: after a recompute, a re-sort or a new
 * row filter the same system stays selected when it is still shown. */
static void reselect(struct app *app)
{
	size_t i;

	if (app->nvis == 0) {
		app->sel = 0;
		return;
	}
	for (i = 0; i < app->nvis; i++)
		if (app->sel_sys && ui_state_row(app, i)->system == app->sel_sys &&
		    ui_state_row(app, i)->submitter == app->sel_sub)
			break;
	if (i == app->nvis)
		i = app->sel < app->nvis ? app->sel : app->nvis - 1;
	ui_state_select(app, (long)i);
}

void ui_state_view(struct app *app)
{
	size_t n = 0;

	app->pc.gen++;
	if (!grow_to((void **)&app->vis, &app->vis_cap, app->a.n, sizeof *app->vis)) {
		app->nvis = 0;
		return;
	}
	for (size_t i = 0; i < app->a.n; i++) {
		app->vis[n] = i;
		if (!app->rowfilt[0] || ui_prompt_matches(app, n, app->rowfilt))
			n++;
	}
	app->nvis = n;
	reselect(app);
}

size_t ui_state_set_rowfilt(struct app *app, const char *text)
{
	snprintf(app->rowfilt, sizeof app->rowfilt, "%s", text ? text : "");
	ui_state_view(app);
	return app->nvis;
}

/* "SYSTEM (N=4, 10.55 min)" for the reference row, or what the mode says when there is none. */
static const char *ref_text(const struct app *app, char *buf, size_t n)
{
	char b1[32], b2[32];
	const struct row *r;

	if (app->p.mode == REF_FAMILY || app->a.ref < 0) {
		snprintf(buf, n, app->p.mode == REF_FAMILY ? "per family (%s rule in each)" : "none",
			 app->p.ref_rule == RULE_SLOWEST ? "paper" : ref_rule_name(app->p.ref_rule));
		return buf;
	}
	r = &app->ds->rows[app->a.ref];
	snprintf(buf, n, "%s (N=%s, %s min)", r->system, fmt_count((double)r->accelerators, b1, sizeof b1),
		 fmt_fixed(r->minutes, 2, b2, sizeof b2));
	return buf;
}

static void note_msg(struct app *app, enum ui_note note)
{
	char b1[32], ref[UI_LINE];

	fmt_fixed(app->a.silhouette, 2, b1, sizeof b1);
	switch (note) {
	case NOTE_AUTOK:
		ui_state_msg(app, false, "auto-k: k=%d (silhouette %s)", app->a.k, b1);
		break;
	case NOTE_FEATS:
		ui_state_msg(app, false, "cluster features (%s): k=%d, silhouette %s",
			     feat_set_name(app->p.feats), app->a.k, b1);
		break;
	case NOTE_PIN:
		ui_state_msg(app, false, "pinned: %s", ref_text(app, ref, sizeof ref));
		break;
	case NOTE_PAPER:
		ui_state_msg(app, false, "reference: paper rule, %s", ref_text(app, ref, sizeof ref));
		break;
	case NOTE_MODE:
		ui_state_msg(app, false, "reference mode %s: %s", ref_mode_name(app->p.mode),
			     ref_text(app, ref, sizeof ref));
		break;
	case NOTE_RULE:
		ui_state_msg(app, false, "reference rule %s: %s", ref_rule_name(app->p.ref_rule),
			     ref_text(app, ref, sizeof ref));
		break;
	case NOTE_NONE: break;
	}
}

/* A pin is kept as SUBMITTER/SYSTEM; messages name the system, as the table does. */
static const char *pin_shown(const char *pinned)
{
	const char *slash = strchr(pinned, '/');

	return slash && slash[1] ? slash + 1 : pinned;
}

int ui_state_recompute(struct app *app, struct gs_err *err)
{
	struct analysis done;
	enum ui_note note = app->note;
	long found;

	app->note = NOTE_NONE;
	if (app->p.mode == REF_PINNED && app->p.pinned &&
	    (found = dataset_find(app->ds, app->p.round, app->p.workload, app->p.pinned)) < 0) {
		if (found == -2)
			ui_state_msg(app, true, "%s names results of several submitters in %s: paper rule here, pin kept",
				     app->p.pinned, workload_label(app->p.workload));
		else
			ui_state_msg(app, true, "no %s result for %s: paper rule here, pin kept",
				     workload_label(app->p.workload), pin_shown(app->p.pinned));
		app->pin_keep = app->p.pinned;
		app->p.mode = REF_PAPER;
	} else if (app->pin_keep && app->p.mode == REF_PAPER &&
		   dataset_find(app->ds, app->p.round, app->p.workload, app->pin_keep) >= 0) {
		app->p.pinned = app->pin_keep;
		app->p.mode = REF_PINNED;
		app->pin_keep = NULL;
		ui_state_msg(app, false, "reference pinned again: %s", pin_shown(app->p.pinned));
	}
	if (app->p.mode == REF_PINNED && !app->p.pinned)
		app->p.mode = REF_PAPER;
	/* one store of resamples for both buffers: a recompute reuses what the last one drew
	 * (out of memory, each keeps its own) */
	if (app->spare.boot != app->a.boot)
		(void)analysis_share_boot(&app->spare, &app->a);
	if (analysis_run(app->ds, &app->p, &app->spare, err) < 0)
		return -1;
	done = app->spare;
	app->spare = app->a;
	app->a = done;
	if (!grow_to((void **)&app->pc.pts, &app->pc.pts_cap, app->a.n, sizeof *app->pc.pts)) {
		err_oom(err, NULL, 0);
		return -1;
	}
	measure(app);
	ui_state_view(app);
	/* a message of the key or of this recompute says more than the note */
	if (app->msg_seq == app->key_seq)
		note_msg(app, note);
	return 0;
}

void ui_state_resort(struct app *app)
{
	struct gs_err e;
	char text[600];

	memset(&e, 0, sizeof e);
	if (analysis_sort(app->ds, &app->a, app->p.sort, app->p.desc, &e) < 0)
		ui_state_msg(app, true, "%s", err_format(&e, text, sizeof text));
	measure(app);
	ui_state_view(app);
}

void ui_state_apply(struct app *app, unsigned flags)
{
	if (flags & UI_RECOMPUTE) {
		struct gs_err e;
		char text[600];
		memset(&e, 0, sizeof e);
		if (ui_state_recompute(app, &e) < 0)
			ui_state_msg(app, true, "%s", err_format(&e, text, sizeof text));
	} else if (flags & UI_RESORT) {
		ui_state_resort(app);
	}
}

void ui_state_scroll(struct app *app)
{
	size_t h = app->lay.table_rows > 0 ? (size_t)app->lay.table_rows : 1;

	if (app->sel < app->top)
		app->top = app->sel;
	else if (app->sel >= app->top + h)
		app->top = app->sel - h + 1;
	/* no blank rows under the last one while rows above are hidden */
	if (app->nvis <= h)
		app->top = 0;
	else if (app->top > app->nvis - h)
		app->top = app->nvis - h;
	/* large tables get their run-to-run intervals as rows come into view; one shown row at a
	 * time, since under a row filter the rows between two shown ones are not shown */
	if (app->nvis > 0) {
		size_t last = app->top + h < app->nvis ? app->top + h : app->nvis;
		int rc = analysis_intervals(app->ds, &app->a, app->vis[app->sel], app->vis[app->sel] + 1, NULL);
		for (size_t j = app->top; j < last && rc == 0; j++)
			rc = analysis_intervals(app->ds, &app->a, app->vis[j], app->vis[j] + 1, NULL);
		if (rc < 0)
			ui_state_msg(app, true, "out of memory for run-to-run intervals");
	}
}

void ui_state_select(struct app *app, long i)
{
	if (app->nvis == 0) {
		app->sel = 0;
		return;
	}
	if (i < 0)
		i = 0;
	if ((size_t)i >= app->nvis)
		i = (long)app->nvis - 1;
	app->sel = (size_t)i;
	app->sel_sys = ui_state_row(app, app->sel)->system;
	app->sel_sub = ui_state_row(app, app->sel)->submitter;
	ui_state_scroll(app);
}

int ui_state_set_round(struct app *app, size_t i)
{
	const char *work = app->p.workload;
	size_t w;

	if (i >= app->nrounds)
		return -1;
	app->round_i = i;
	app->p.round = app->rounds[i];
	load_works(app);
	/* keep the workload when the new round has it (the id is the same text in every round) */
	for (w = 0; work && w < app->nworks; w++)
		if (strcmp(app->works[w], work) == 0)
			break;
	app->work_i = work && w < app->nworks ? w : 0;
	app->p.workload = app->nworks ? app->works[app->work_i] : NULL;
	if (work && w == app->nworks)
		ui_state_msg(app, true, "%s has no %s: showing %s", app->p.round, workload_label(work),
			     app->p.workload ? workload_label(app->p.workload) : "nothing");
	return 0;
}

int ui_state_set_workload(struct app *app, size_t i)
{
	if (i >= app->nworks)
		return -1;
	app->work_i = i;
	app->p.workload = app->works[i];
	return 0;
}

/* ---- family menu ---- */

static bool filter_has(const struct filter *f, const char *fam)
{
	for (size_t i = 0; i < f->nfamilies; i++)
		if (ascii_casecmp(f->families[i], fam) == 0)
			return true;
	return false;
}

static int fam_cmp(const void *x, const void *y)
{
	const struct ui_famitem *a = x, *b = y;
	int c = ascii_casecmp(a->name, b->name);
	return c ? c : strcmp(a->name, b->name);
}

/* Appends a menu entry; false when memory runs out. */
static bool fam_add(struct app *app, const char *name)
{
	struct ui_menus *m = &app->menu;

	if (!grow_to((void **)&m->fam, &m->fam_cap, m->nfam < m->fam_cap ? m->fam_cap : m->fam_cap * 2 + 16,
		     sizeof *m->fam))
		return false;
	m->fam[m->nfam].name = name;
	m->fam[m->nfam].count = 0;
	m->fam[m->nfam].on = false;
	m->nfam++;
	return true;
}

void ui_state_menu_open(struct app *app)
{
	const struct dataset *ds = app->ds;

	app->menu.nfam = 0;
	for (size_t r = 0; r < ds->n; r++) {
		const struct row *row = &ds->rows[r];
		size_t i;
		if (row->round != app->p.round || row->benchmark != app->p.workload)
			continue;
		for (i = 0; i < app->menu.nfam; i++)
			if (app->menu.fam[i].name == row->family)
				break;
		if (i == app->menu.nfam && !fam_add(app, row->family))
			continue;
		app->menu.fam[i].count++;
	}
	/* a filtered family absent from this workload stays listed, so it can be unchecked */
	for (size_t f = 0; f < app->p.filter.nfamilies; f++) {
		size_t i;
		for (i = 0; i < app->menu.nfam; i++)
			if (ascii_casecmp(app->menu.fam[i].name, app->p.filter.families[f]) == 0)
				break;
		if (i == app->menu.nfam)
			fam_add(app, app->p.filter.families[f]);
	}
	if (app->menu.nfam)
		qsort(app->menu.fam, app->menu.nfam, sizeof app->menu.fam[0], fam_cmp);
	for (size_t i = 0; i < app->menu.nfam; i++)
		app->menu.fam[i].on = filter_has(&app->p.filter, app->menu.fam[i].name);
	app->menu.fam_cur = 0;
	app->menu.fam_find[0] = '\0';
}

void ui_state_menu_apply(struct app *app)
{
	struct filter *f = &app->p.filter;

	/* the state's own list from now on (the command line's -f list stays as it was) */
	if (!grow_to((void **)&app->menu.famsel, &app->menu.famsel_cap, app->menu.nfam,
		     sizeof *app->menu.famsel)) {
		ui_state_msg(app, true, "out of memory: the family filter is unchanged");
		return;
	}
	f->families = app->menu.famsel;
	f->nfamilies = 0;
	for (size_t i = 0; i < app->menu.nfam; i++)
		if (app->menu.fam[i].on)
			f->families[f->nfamilies++] = app->menu.fam[i].name;
}

char *ui_state_filter_text(const struct app *app, char *buf, size_t n)
{
	const struct filter *f = &app->p.filter;
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

/* ---- jumps and theta ---- */

long ui_state_ref_pos(const struct app *app)
{
	/* the reference of the selected row's group (family mode has one per family) */
	size_t ref = app->nvis ? ui_state_arow(app, app->sel)->ref : SIZE_MAX;

	for (size_t i = 0; i < app->nvis; i++)
		if (ui_state_arow(app, i)->is_ref && ui_state_arow(app, i)->row == ref)
			return (long)i;
	return -1;
}

long ui_state_breakeven_pos(const struct app *app)
{
	const struct group *g = app->nvis ? analysis_group(&app->a, app->vis[app->sel]) : NULL;
	long at = analysis_be_index(&app->a, g);

	for (size_t i = 0; at >= 0 && i < app->nvis; i++)
		if (app->vis[i] == (size_t)at)
			return (long)i;
	return -1;
}

/* A new theta moves the break-even rows and ranges, nothing else. */
unsigned ui_state_theta_changed(struct app *app)
{
	if (app->a.n == 0)
		return UI_RECOMPUTE; /* nothing shown: the last run may have failed */
	if (analysis_breakeven(app->ds, &app->a, app->p.theta, NULL) < 0)
		return UI_RECOMPUTE;
	return UI_REDRAW;
}
