/* ui_state.c: the explorer's model (selection, tabs, filter menu, search, detail text, plot
 * raster) on top of the analysis core. No curses here: every function works without a
 * terminal, so the loop can recompute and the draw code only reads. Names compare under the
 * one ASCII case-folding rule (ascii_fold), the same in every locale. */
#include "ui_app.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"
#include "fmt.h"
#include "olympic.h"
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

/* Grows *list (of *cap pointers) until a query that fills at most cap entries leaves room:
 * the lists have no fixed limit. Returns the count; 0 when memory runs out. */
static size_t fill_names(const char ***list, size_t *cap,
			 size_t (*query)(const struct dataset *, const char *, const char **, size_t),
			 const struct dataset *ds, const char *arg)
{
	for (;;) {
		size_t n;
		if (*cap == 0 || !*list) {
			const char **l = malloc(64 * sizeof *l);
			if (!l)
				return 0;
			free(*list);
			*list = l;
			*cap = 64;
		}
		n = query(ds, arg, *list, *cap);
		if (n < *cap)
			return n;
		const char **l = realloc(*list, *cap * 2 * sizeof *l);
		if (!l)
			return n;
		*list = l;
		*cap *= 2;
	}
}

static size_t rounds_query(const struct dataset *ds, const char *unused, const char **out, size_t max)
{
	(void)unused;
	return dataset_rounds(ds, out, max);
}

/* Rounds in version order: "v4.0" < "v4.1" < "v5.0" < "v10.0", digit runs read as numbers. */
static int version_cmp(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;

	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			unsigned long long va = strtoull(a, &ea, 10), vb = strtoull(b, &eb, 10);
			if (va != vb)
				return va < vb ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (ascii_fold((unsigned char)*a) != ascii_fold((unsigned char)*b))
			return ascii_fold((unsigned char)*a) - ascii_fold((unsigned char)*b);
		a++, b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
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
	qsort(app->rounds, app->nrounds, sizeof *app->rounds, version_cmp);
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
	plot_free(&app->grid);
	free(app->pts);
	free(app->rounds);
	free(app->works);
	free(app->fam);
	free(app->vis);
	free(app->collide);
	app->pts = NULL;
	app->rounds = app->works = NULL;
	app->fam = NULL;
	app->vis = NULL;
	app->collide = NULL;
	app->pts_cap = app->works_cap = app->fam_cap = app->vis_cap = app->collide_cap = 0;
	app->nrounds = app->nworks = app->nfam = app->nvis = 0;
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

/* ---- text matching: ASCII case folded, the same rule as every name lookup ---- */

static bool starts_folded(const char *s, const char *t)
{
	return ascii_ncasecmp(s, t, strlen(t)) == 0;
}

static bool contains_folded(const char *s, const char *t)
{
	return ascii_casestr(s, t) != NULL;
}

bool ui_state_match(const struct app *app, size_t i, const char *text)
{
	const struct row *r = ui_state_row(app, i);

	return contains_folded(r->system, text) || contains_folded(r->system_name, text) ||
	       contains_folded(r->submitter, text);
}

/* ---- the shown rows ---- */

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

/* Name widths and id collisions, once per analysis (the table reads them every frame). */
static int width_of(const struct app *app, const char *s)
{
	return ui_text_width(s, app->utf8);
}

static int ptr_cmp(const void *x, const void *y)
{
	const struct row *a = *(const struct row *const *)x, *b = *(const struct row *const *)y;
	int c = strcmp(a->system, b->system);
	return c ? c : strcmp(a->submitter, b->submitter);
}

static void measure(struct app *app)
{
	size_t n = app->a.n;
	const struct row **byname;

	app->w_sys = app->w_sub = app->w_fam = 0;
	if (!grow_to((void **)&app->collide, &app->collide_cap, n, sizeof *app->collide))
		return;
	memset(app->collide, 0, app->collide_cap * sizeof *app->collide);
	byname = malloc((n ? n : 1) * sizeof *byname);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &app->ds->rows[app->a.rows[i].row];
		int w = width_of(app, r->system), s = width_of(app, r->submitter), f = width_of(app, r->family);
		if (w > app->w_sys)
			app->w_sys = w;
		if (s > app->w_sub)
			app->w_sub = s;
		if (f > app->w_fam)
			app->w_fam = f;
		if (byname)
			byname[i] = r;
	}
	if (!byname)
		return;
	/* one system id under several submitters: those rows are named SUBMITTER/SYSTEM */
	qsort(byname, n, sizeof *byname, ptr_cmp);
	for (size_t i = 0; i + 1 < n; i++) {
		if (strcmp(byname[i]->system, byname[i + 1]->system) != 0 ||
		    strcmp(byname[i]->submitter, byname[i + 1]->submitter) == 0)
			continue;
		for (size_t j = 0; j < n; j++) {
			const struct row *r = &app->ds->rows[app->a.rows[j].row];
			if (r == byname[i] || r == byname[i + 1])
				app->collide[j] = true;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (app->collide[i]) {
			const struct row *r = &app->ds->rows[app->a.rows[i].row];
			int w = width_of(app, r->system) + width_of(app, r->submitter) + 1;
			if (w > app->w_sys)
				app->w_sys = w;
		}
	free(byname);
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

	app->gen++;
	if (!grow_to((void **)&app->vis, &app->vis_cap, app->a.n, sizeof *app->vis)) {
		app->nvis = 0;
		return;
	}
	for (size_t i = 0; i < app->a.n; i++) {
		app->vis[n] = i;
		if (!app->rowfilt[0] || ui_state_match(app, n, app->rowfilt))
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
	if (analysis_run(app->ds, &app->p, &app->spare, err) < 0)
		return -1;
	done = app->spare;
	app->spare = app->a;
	app->a = done;
	if (app->a.n > app->pts_cap) {
		struct plot_point *pts = realloc(app->pts, app->a.n * sizeof *pts);
		if (!pts) {
			err_set(err, NULL, 0, 0, "out of memory");
			return -1;
		}
		app->pts = pts;
		app->pts_cap = app->a.n;
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
	/* large tables get their run-to-run intervals as rows come into view */
	if (app->nvis > 0) {
		size_t last = app->top + h < app->nvis ? app->top + h : app->nvis;
		if (analysis_intervals(app->ds, &app->a, app->vis[app->top], app->vis[last - 1] + 1, NULL) < 0 ||
		    analysis_intervals(app->ds, &app->a, app->vis[app->sel], app->vis[app->sel] + 1, NULL) < 0)
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
	if (!grow_to((void **)&app->fam, &app->fam_cap,
		     app->nfam < app->fam_cap ? app->fam_cap : app->fam_cap * 2 + 16, sizeof *app->fam))
		return false;
	app->fam[app->nfam].name = name;
	app->fam[app->nfam].count = 0;
	app->fam[app->nfam].on = false;
	app->nfam++;
	return true;
}

void ui_state_menu_open(struct app *app)
{
	const struct dataset *ds = app->ds;

	app->nfam = 0;
	for (size_t r = 0; r < ds->n; r++) {
		const struct row *row = &ds->rows[r];
		size_t i;
		if (row->round != app->p.round || row->benchmark != app->p.workload)
			continue;
		for (i = 0; i < app->nfam; i++)
			if (app->fam[i].name == row->family)
				break;
		if (i == app->nfam && !fam_add(app, row->family))
			continue;
		app->fam[i].count++;
	}
	/* a filtered family absent from this workload stays listed, so it can be unchecked */
	for (size_t f = 0; f < app->p.filter.nfamilies; f++) {
		size_t i;
		for (i = 0; i < app->nfam; i++)
			if (ascii_casecmp(app->fam[i].name, app->p.filter.families[f]) == 0)
				break;
		if (i == app->nfam)
			fam_add(app, app->p.filter.families[f]);
	}
	if (app->nfam)
		qsort(app->fam, app->nfam, sizeof app->fam[0], fam_cmp);
	for (size_t i = 0; i < app->nfam; i++)
		app->fam[i].on = filter_has(&app->p.filter, app->fam[i].name);
	app->fam_cur = 0;
	app->fam_find[0] = '\0';
}

void ui_state_menu_apply(struct app *app)
{
	struct filter *f = &app->p.filter;
	size_t on = 0;

	f->nfamilies = 0;
	for (size_t i = 0; i < app->nfam; i++)
		if (app->fam[i].on) {
			on++;
			if (f->nfamilies < MAX_SEL)
				f->families[f->nfamilies++] = app->fam[i].name;
		}
	if (on > f->nfamilies)
		ui_state_msg(app, true, "%zu families checked: the filter takes %d at most, the first %d kept",
			     on, MAX_SEL, MAX_SEL);
}

long ui_state_menu_find(const struct app *app, const char *text)
{
	size_t n = app->nfam;

	if (n == 0 || !text || !*text)
		return -1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t step = 0; step < n; step++) {
			size_t i = (app->fam_cur + step) % n;
			if (pass == 0 ? starts_folded(app->fam[i].name, text)
				      : contains_folded(app->fam[i].name, text))
				return (long)i;
		}
	return -1;
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

/* ---- search, jumps, typed values ---- */

long ui_state_find(const struct app *app, size_t from, int dir, const char *text)
{
	size_t n = app->nvis;

	/* an empty text would match everywhere: no text matches nothing */
	if (n == 0 || !text || !*text)
		return -1;
	for (size_t step = 1; step <= n; step++) {
		size_t i = dir > 0 ? (from + step) % n : (from + n - step % n) % n;
		if (ui_state_match(app, i, text))
			return (long)i;
	}
	return -1;
}

size_t ui_state_count(const struct app *app, const char *text, size_t *ord)
{
	size_t c = 0;

	if (ord)
		*ord = 0;
	if (!text || !*text)
		return 0;
	for (size_t i = 0; i < app->nvis; i++)
		if (ui_state_match(app, i, text)) {
			c++;
			if (ord && i == app->sel)
				*ord = c;
		}
	return c;
}

long ui_state_ref_pos(const struct app *app)
{
	for (size_t i = 0; i < app->nvis; i++)
		if (ui_state_arow(app, i)->is_ref)
			return (long)i;
	return -1;
}

long ui_state_breakeven_pos(const struct app *app)
{
	for (size_t i = 0; app->a.breakeven >= 0 && i < app->nvis; i++)
		if (app->vis[i] == (size_t)app->a.breakeven)
			return (long)i;
	return -1;
}

/* A whole number or decimal, nothing else around it (spaces aside). */
static int parse_num(const char *text, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	while (*end == ' ')
		end++;
	return end == text || *end || errno || !isfinite(*v) ? -1 : 0;
}

int ui_state_set_theta(struct app *app, const char *text)
{
	double t;
	char b1[32], b2[32];

	if (parse_num(text, &t) < 0 || !(t >= GS_THETA_MIN) || t > GS_THETA_MAX) {
		ui_state_msg(app, true, "theta: '%s' is not a number in %s..%s", text,
			     fmt_short(GS_THETA_MIN, b1, sizeof b1), fmt_short(GS_THETA_MAX, b2, sizeof b2));
		return -1;
	}
	app->p.theta = t;
	return 0;
}

int ui_state_set_k(struct app *app, const char *text)
{
	double k;

	while (*text == ' ')
		text++;
	if (ascii_casecmp(text, "auto") == 0) {
		app->p.k = 0;
		return 0;
	}
	if (parse_num(text, &k) < 0 || k != floor(k) || k < 1 || k > MAX_K) {
		ui_state_msg(app, true, "k: '%s' is not a whole number in 1..%d, or auto", text, MAX_K);
		return -1;
	}
	app->p.k = (int)k;
	return 0;
}

/* ---- plot ---- */

/* The explorer's choices as chart options for a w x h plot. */
static void plot_opts(const struct app *app, int w, int h, struct chart_opts *o)
{
	memset(o, 0, sizeof *o);
	o->metric = app->ymet;
	o->theta = app->p.theta;
	o->log_y = app->log_y;
	o->show_pareto = app->pareto_marks;
	o->group = chart_group_of(&app->p);
	o->full_range = app->full_range;
	o->bars = app->bars;
	o->width = w;
	o->height = h;
}

size_t ui_state_plot_points(struct app *app)
{
	struct chart_opts o;
	size_t n = 0;

	plot_opts(app, app->lay.plot.w, app->lay.plot.h, &o);
	chart_points(app->ds, &app->a, &o, app->nvis ? (long)app->vis[app->sel] : -1, app->pts);
	if (app->nvis == app->a.n)
		return app->nvis;
	/* the row filter keeps some rows: their points move down to their shown positions */
	for (size_t j = 0; j < app->nvis; j++)
		app->pts[n++] = app->pts[app->vis[j]];
	return n;
}

void ui_state_plot_spec(const struct app *app, int w, int h, struct plot_spec *s)
{
	struct chart_opts o;

	plot_opts(app, w, h, &o);
	chart_spec(app->ds, &app->a, &o, s);
}

void ui_state_plot(struct app *app)
{
	struct plot_spec spec;
	struct gs_err err;
	unsigned long key[8];
	size_t n;

	if (app->lay.too_small || app->lay.plot.w < PLOT_MIN_W || app->lay.plot.h < PLOT_MIN_H) {
		app->grid_ok = false;
		app->plot_key[0] = 0;
		return;
	}
	/* everything the picture depends on; a frame where none of it changed keeps the grid */
	memset(key, 0, sizeof key);
	key[0] = app->gen + 1;
	key[1] = app->sel;
	key[2] = (unsigned long)app->ymet | (unsigned long)app->log_y << 8 |
		 (unsigned long)app->pareto_marks << 9 | (unsigned long)app->full_range << 10 |
		 (unsigned long)app->bars << 11;
	memcpy(&key[3], &app->p.theta, sizeof app->p.theta < sizeof key[3] ? sizeof app->p.theta : sizeof key[3]);
	key[4] = (unsigned long)app->lay.plot.w << 16 | (unsigned long)app->lay.plot.h;
	key[5] = (unsigned long)(app->a.breakeven + 1);
	if (app->grid_ok && memcmp(key, app->plot_key, sizeof key) == 0)
		return;
	ui_state_plot_spec(app, app->lay.plot.w, app->lay.plot.h, &spec);
	n = ui_state_plot_points(app);
	{
		struct chart_opts o;
		plot_opts(app, app->lay.plot.w, app->lay.plot.h, &o);
		spec.curves = app->fit_curves;
		spec.ncurves = chart_fit_curves(app->ds, &app->a, &o, app->fit_curves, MAX_K, app->fit_xy);
	}
	app->grid_ok = plot_render(app->pts, n, &spec, &app->grid, &err) == 0;
	memcpy(app->plot_key, key, sizeof key);
}

/* A click is resolved against the cells plot_locate gives, which are where plot_render put
 * each glyph (one mapping in plot.c for both); distance counts a row as two columns, as cells
 * are about twice as tall as wide. */
long ui_state_plot_hit(struct app *app, int gy, int gx)
{
	struct plot_spec spec;
	struct gs_err err;
	long best = -1, after_sel = -1, ref = -1;
	int bestd = 1 << 30;
	bool sel_ties = false;
	size_t n = app->nvis;
	int *dist;

	if (!app->grid_ok || n == 0)
		return -1;
	dist = malloc(n * sizeof *dist);
	if (!dist)
		return -1;
	ui_state_plot_spec(app, app->lay.plot.w, app->lay.plot.h, &spec);
	n = ui_state_plot_points(app);
	if (plot_locate(app->pts, n, &spec, dist, &err) < 0) {
		free(dist);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int y = dist[i] < 0 ? -1 : dist[i] / spec.width, x = dist[i] < 0 ? -1 : dist[i] % spec.width;
		dist[i] = 1 << 30;
		if (y >= 0 && abs(y - gy) <= 1 && abs(x - gx) <= 2)
			dist[i] = abs(y - gy) * 2 + abs(x - gx);
		if (dist[i] < bestd)
			bestd = dist[i];
	}
	/* points sharing the nearest cell: the reference first, then each click on the same
	 * cell moves on to the next of them */
	for (size_t i = 0; bestd < (1 << 30) && i < n; i++) {
		if (dist[i] != bestd)
			continue;
		if (best < 0)
			best = (long)i;
		if (ui_state_arow(app, i)->is_ref && ref < 0)
			ref = (long)i;
		if (sel_ties && after_sel < 0)
			after_sel = (long)i;
		if (i == app->sel)
			sel_ties = true;
	}
	if (sel_ties)
		best = after_sel >= 0 ? after_sel : best;
	else if (ref >= 0)
		best = ref;
	free(dist);
	return best;
}

/* ---- detail overlay ---- */

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
	ADD("  run       raw min   scaled min   (raw: unscaled)");
	for (unsigned i = 0; i < r->run_n; i++) {
		double v = app->ds->runs[r->run_off + i];
		bool dropped;
		const char *note = run_note(r, i, &dropped);
		ADD("  run %2u %10s %12s   %s", i + 1, fmt_fixed(v, 3, b1, sizeof b1),
		    fmt_fixed(v * sf, 3, b2, sizeof b2), note);
		if (mark && n > 0 && n <= max)
			mark[n - 1] = dropped; /* the dropped runs stand out */
	}
	*np = n;
}

/* The family whose predicted break-even the status line gives (see ui_state_fit_text). */
static const struct fam_fit *fit_shown(const struct app *app)
{
	const struct analysis *a = &app->a;
	const struct fit *f = NULL;
	long row = a->breakeven >= 0 ? (long)a->rows[a->breakeven].row
		   : a->ref >= 0 ? a->ref : a->n ? (long)a->rows[0].ref : -1;

	if (row >= 0)
		f = analysis_fit_of(app->ds, a, (size_t)row);
	for (size_t i = 0; i < a->nfits; i++)
		if (&a->fits[i].fit == f)
			return &a->fits[i];
	return a->nfits ? &a->fits[0] : NULL;
}

char *ui_state_fit_text(const struct app *app, bool brief, char *buf, size_t n)
{
	const struct fam_fit *ff = app->p.fit ? fit_shown(app) : NULL;
	const char *why;
	char b[32];
	double be;

	if (n)
		buf[0] = '\0';
	if (!app->p.fit)
		return buf;
	if (!ff) {
		snprintf(buf, n, ", fit -");
		return buf;
	}
	be = fit_breakeven(&ff->fit, app->p.theta, &why);
	if (isfinite(be) && brief)
		snprintf(buf, n, ", fit %s", fmt_sig(be, 3, b, sizeof b));
	else if (isfinite(be))
		snprintf(buf, n, ", fit N=%s (%s)", fmt_sig(be, 3, b, sizeof b), ff->family);
	else if (brief)
		snprintf(buf, n, ", fit -");
	else
		snprintf(buf, n, ", fit - (%s: %s)", ff->family,
			 fit_usable(&ff->fit) ? why : ff->fit.reason[0] ? ff->fit.reason : fit_state_name(ff->fit.state));
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
		snprintf(buf, n, "residual %+.4f on ln X (T %s min, law %s min), fitted E' %s%s",
			 ar->fit_resid, fmt_fixed(ar->T, 2, b1, sizeof b1),
			 fmt_fixed(fit_t(f, ar->N), 2, b2, sizeof b2), fmt_sig(ar->ep_fit, 4, b3, sizeof b3),
			 f->state == FIT_WEAK ? " (weak fit)" : "");
}

/* "64", or "none" for -1. */
static const char *n_text(long v, char *buf, size_t n)
{
	if (v < 0)
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%ld", v);
	return buf;
}

static long row_n(const struct analysis *a, long i)
{
	return i < 0 ? -1 : (long)a->rows[i].N;
}

/* The break-even range and the reference sensitivity with its candidates. */
static void break_lines(const struct app *app, char (*lines)[UI_LINE], size_t max, size_t *np)
{
	const struct analysis *a = &app->a;
	bool *mark = NULL;
	size_t n = *np;
	char b1[32], b2[32], b3[32], b4[32];

	ADD("break-even    theta %s: N %s, firm..loose %s..%s (interval wholly above .. reaching)",
	    fmt_short(app->p.theta, b1, sizeof b1), n_text(row_n(a, a->breakeven), b2, sizeof b2),
	    n_text(row_n(a, a->be_firm), b3, sizeof b3), n_text(row_n(a, a->be_loose), b4, sizeof b4));
	if (a->ncand > 1) {
		ADD("sensitivity   N %s..%s with each of the %zu fewest-accelerator rows as reference%s",
		    n_text(a->sens_lo, b1, sizeof b1), n_text(a->sens_hi, b2, sizeof b2), a->ncand,
		    a->sens_lo != a->sens_hi ? ":" : "");
		for (size_t i = 0; i < a->ncand && i < 8 && a->sens_lo != a->sens_hi; i++) {
			const struct row *c = &app->ds->rows[a->cand[i].row];
			ADD("                %s/%s (%s min) -> N %s", c->submitter, c->system,
			    fmt_fixed(c->minutes, 2, b1, sizeof b1), n_text(a->cand[i].n, b2, sizeof b2));
		}
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

	if (ar->ci_runs)
		ADD("interval      T %s .. %s min, E' %s .. %s (90%% bootstrap of %u runs)",
		    fmt_fixed(ar->t_ci_lo, 2, b1, sizeof b1), fmt_fixed(ar->t_ci_hi, 2, b2, sizeof b2),
		    fmt_sig(ar->ep_ci_lo, 3, b3, sizeof b3), fmt_sig(ar->ep_ci_hi, 3, b4, sizeof b4),
		    ar->ci_runs);
	else
		ADD("interval      - (fewer than 3 runs)");
	if (!isnan(ar->kwh))
		snprintf(b3, sizeof b3, "%s kWh%s%s", fmt_sig(ar->kwh, 4, b1, sizeof b1),
			 *r->power_measurement ? " " : "", r->power_measurement);
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
	if (*r->carried_from)
		ADD("carried over  from %s (identical runs there)", r->carried_from);
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
	ADD("division      %s   availability %s (published \"%s\")", r->division, row_avail(r),
	    r->availability);
	ADD("accelerator   %s", r->accelerator);
	ADD("family        %s (%s)", r->family, r->vendor);
	ADD("nodes x per   %lld x %lld = %lld accelerators%s", r->nodes, r->per_node, r->accelerators,
	    strstr(r->family, "TPU") ? " (TPU chips)" : "");
	ADD("framework     %s", r->framework);
	ADD("source        %s:%ld", r->file, r->line);
	ADD("%s", "");
	ADD("minutes T     %s    accelerator-hours A %s", fmt_fixed(ar->T, 2, b1, sizeof b1),
	    fmt_sig(ar->A, 4, b2, sizeof b2));
	ADD("reference     %s%s (N=%s, %s min)", ref->system, ar->is_ref ? " (this row)" : "",
	    fmt_count((double)ref->accelerators, b1, sizeof b1), fmt_fixed(ref->minutes, 2, b2, sizeof b2));
	ADD("speedup S     %s    E %s    E' %s%s", fmt_sig(ar->S, 4, b1, sizeof b1),
	    fmt_sig(ar->E, 4, b2, sizeof b2), fmt_sig(ar->Ep, 4, b3, sizeof b3),
	    ar->cross_family ? "  (mixes families: f or m compares within one)" : "");
	ADD("Karp-Flatt e  %s%s", isfinite(ar->kf) ? fmt_sig(ar->kf, 4, b1, sizeof b1) : "- ",
	    isfinite(ar->kf) ? "" : kf_why_text(ar->kf_why));
	ADD("spread T      %s .. %s min (scaled)", fmt_fixed(ar->t_lo, 2, b1, sizeof b1),
	    fmt_fixed(ar->t_hi, 2, b2, sizeof b2));
	ADD("spread S, E'  %s .. %s,  %s .. %s", fmt_sig(ar->s_lo, 4, b1, sizeof b1),
	    fmt_sig(ar->s_hi, 4, b2, sizeof b2), fmt_sig(ar->ep_lo, 4, b3, sizeof b3),
	    fmt_sig(ar->ep_hi, 4, b4, sizeof b4));
	ADD("cluster       %c    Pareto %s    %s", 'a' + ar->cluster, ar->pareto ? "yes" : "no",
	    app->a.breakeven == (long)app->vis[app->sel] ? "break-even row" : "");
	if (app->p.fit) {
		char fl[UI_LINE - 16];
		fit_line(app, ar, fl, sizeof fl);
		ADD("fit           %s", fl);
	}
	run_lines(app, r, lines, mark, max, &n);
	more_lines(app, ar, r, lines, max, &n);
	return n;
}

/* "What you see": every mark, heading and status field, in the words of the key help. The
 * first column is looked up by the tests: each mark the table or the plot draws and each column
 * heading must have its line here. */
const char *const ui_state_legend[][2] = {
	{ "table marks (P)", "" },
	{ "R", "the reference row: S, E' and the break-even are measured against it" },
	{ "*", "Pareto: no other row is both faster (min) and cheaper (A)" },
	{ ">", "the break-even row: the fastest row with E' >= theta (its N is the break-even)" },
	{ "v", "Preview or Research: not yet buyable" },
	{ "o", "open division" },
	{ "c", "carried over: identical to a row of an earlier round" },
	{ "x", "E' against a reference of another family" },
	{ "plot marks", "" },
	{ "a b c ...", "a point of cluster a, b, c ... (k-means on the features c cycles)" },
	{ "A B C ...", "upper case: a Pareto point of that cluster (p turns the marks off)" },
	{ "R ", "the reference point" },
	{ "2..9", "that many points share the cell" },
	{ "#", "ten or more points share the cell" },
	{ "---", "the theta line (E' only), with its value" },
	{ ".", "a point whose cluster has no letter" },
	{ "reverse video", "the selected row and its point, labelled with its name" },
	{ "<  >", "in the tabs: more workloads off that side" },
	{ "columns", "" },
	{ "#", "rank in the current sort" },
	{ "submitter", "who submitted the result" },
	{ "system", "system id; SUBMITTER/SYSTEM when two submitters share the id; ~ marks a cut" },
	{ "family", "accelerator family (from the families file)" },
	{ "N", "accelerators in the system" },
	{ "min", "T, minutes to train (the official olympic average of the runs)" },
	{ "S", "speedup: T_ref / T" },
	{ "E'", "normalized efficiency: S / (N / N_ref) = A_ref / A; 1 for the reference" },
	{ "E", "efficiency: S / N (the paper's Eq. 2)" },
	{ "A", "accelerator-hours: N x T / 60, the cost of one training" },
	{ "cl", "cluster letter" },
	{ "P", "marks: R, *, > as above" },
	{ "spread", "fastest to slowest run, as a share of T" },
	{ "v ^", "after a heading: the sort column, descending (v) or ascending (^)" },
	{ "status lines", "" },
	{ "k=3 auto", "clusters, and whether auto-k chose k (best silhouette)" },
	{ "I", "k-means inertia: the summed squared distance to the centroids (lower: tighter)" },
	{ "sil", "mean silhouette, -1..1: near 1 the clusters are well apart" },
	{ "theta -> N", "break-even: N of the fastest row with E' >= theta ('none': no row)" },
	{ "fit N=", "with L on: the break-even the family's scaling law predicts" },
	{ "3/7 rows", "rows shown / rows of the workload (filters hide the rest)" },
	{ "rows ~ text", "the row filter (|) keeps rows whose names contain text; Esc clears it" },
	{ "ref (mode)", "the reference and how it was chosen: paper, pinned, family" },
	{ "formulas", "" },
	{ "T", "minutes; N accelerators; A = N x T / 60" },
	{ "S, E, E'", "S = T_ref/T; E = S/N; E' = S/(N/N_ref)" },
	{ "Karp-Flatt e", "(1/S - 1/p) / (1 - 1/p) with p = N/N_ref > 1 (detail)" },
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

	for (size_t i = 0; i < app->nhelp; i++) {
		int w = (int)strlen(app->help[i].keys);
		if (w > keyw)
			keyw = w;
	}
	for (size_t i = 0; i < app->nhelp; i++) {
		const struct ui_help_line *h = &app->help[i];
		if (i == 0 || h->ctx != app->help[i - 1].ctx) {
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
	ADD("%s", "");
	ADD("what you see");
	if (head)
		head[n - 1] = true;
	for (size_t i = 0; ui_state_legend[i][0]; i++) {
		if (!ui_state_legend[i][1][0]) {
			ADD("  %s", ui_state_legend[i][0]);
			if (head)
				head[n - 1] = true;
			continue;
		}
		legend_line(4, ui_state_legend[i][0], ui_state_legend[i][1], legw, lines, mark, max, &n);
	}
	return n;
}
