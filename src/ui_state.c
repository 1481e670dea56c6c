/* ui_state.c: the explorer's model on top of the analysis core: rounds and workloads, the
 * analysis and its recompute, the shown rows (row filter) and the selection kept across both,
 * messages, and the family menu. The plot's state is in ui_state_plot.c, the overlays' text in
 * ui_state_text.c, what is typed in ui_prompt.c. No curses here: every function works without
 * a terminal, so the loop can recompute and the draw code only reads. Names compare under the
 * one ASCII case-folding rule (ascii_fold), the same in every locale. */
#include "describe.h"
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
	/* the break-even range draws intervals: the detail, which alone shows it, fills it in */
	app->p.range_later = true;
	app->scr.ymet = o->y_metric < MET_COUNT ? o->y_metric : MET_EP;
	for (int c = 0; c < TC_COUNT; c++)
		app->scr.cols_want[c] = !o->columns || o->columns[c];
	app->scr.log_y = o->log_y;
	app->scr.pareto_marks = true;
	app->scr.export_dir = o->export_dir;
	app->hist.files = o->files;
	app->hist.nfiles = o->files ? o->nfiles : 0;
	app->hist.families_path = o->families_path;
	app->hist.prices_path = o->prices_path;
	if (o->mouse == MOUSE_AUTO)
		app->scr.mouse = !env_set("SSH_CONNECTION") && !env_set("SSH_TTY");
	else
		app->scr.mouse = o->mouse == MOUSE_ON;

	app->nrounds = fill_names(&app->rounds, &cap, rounds_query, ds, NULL);
	qsort(app->rounds, app->nrounds, sizeof *app->rounds, round_cmp);
	/* the newest round opens, unless one was asked for */
	i = p->round ? name_find(app->rounds, app->nrounds, p->round, true) : app->nrounds;
	app->round_i = i < app->nrounds ? i : (app->nrounds ? app->nrounds - 1 : 0);
	if (app->nrounds)
		app->p.round = app->rounds[app->round_i];
	app->nallworks = fill_names(&app->allworks, &app->allworks_cap, dataset_workloads, ds, NULL);
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
	free(app->allworks);
	app->allworks = NULL;
	app->allworks_cap = app->nallworks = 0;
	free(app->menu.fam);
	free(app->menu.famsel);
	free(app->vis);
	table_view_free(&app->tv);
	app->pc.pts = NULL;
	app->rounds = app->works = NULL;
	app->menu.fam = NULL;
	app->vis = NULL;
	app->pc.pts_cap = app->works_cap = app->menu.fam_cap = app->vis_cap = 0;
	app->nrounds = app->nworks = app->menu.nfam = app->nvis = 0;
}

void ui_state_msg(struct app *app, bool is_err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->msg.text, sizeof app->msg.text, fmt, ap);
	va_end(ap);
	app->msg.err = is_err;
	app->msg.at = ui_state_now();
	app->msg.seq++;
}

bool ui_state_msg_long(const struct app *app)
{
	const struct ui_layout *l = &app->scr.lay;

	return app->msg.text[0] && !l->too_small && l->msg.w > 2 && text_columns(app->msg.text) > l->msg.w - 1;
}

/* Bytes of s that fit in w display columns, at a character boundary (at least one character). */
static size_t fit_bytes(const char *s, size_t len, int w)
{
	char tmp[UI_LINE];
	size_t n = len < sizeof tmp - 1 ? len : sizeof tmp - 1;

	for (;;) {
		while (n > 1 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		memcpy(tmp, s, n);
		tmp[n] = '\0';
		if (n <= 1 || text_columns(tmp) <= w)
			return n;
		n--;
	}
}

size_t ui_state_msg_lines(const struct app *app, int w, char (*lines)[UI_LINE], size_t max)
{
	const char *p = app->msg.text;
	size_t k = 0;

	if (w < 1)
		w = 1;
	if (w > UI_LINE - 1)
		w = UI_LINE - 1;
	while (*p && k < max) {
		char *line = lines[k++];
		size_t used = 0;
		int cols = 0;
		line[0] = '\0';
		while (*p == ' ')
			p++;
		while (*p) {
			size_t wl = strcspn(p, " ");
			char word[UI_MSG_MAX];
			int ww;
			snprintf(word, sizeof word, "%.*s", (int)wl, p);
			ww = text_columns(word);
			if (cols + (used ? 1 : 0) + ww <= w) {
				used += (size_t)snprintf(line + used, UI_LINE - used, "%s%s", used ? " " : "", word);
				cols += (cols ? 1 : 0) + ww;
				p += wl;
				while (*p == ' ')
					p++;
				continue;
			}
			if (used == 0) {
				/* a word wider than the line: as much of it as fits, the rest below */
				size_t b = fit_bytes(p, wl, w);
				snprintf(line, UI_LINE, "%.*s", (int)b, p);
				p += b;
			}
			break;
		}
	}
	return k;
}

unsigned ui_state_tick(struct app *app, long long now)
{
	/* a message that wraps stays until the next key: it takes longer to read than a line */
	if (app->msg.text[0] && now - app->msg.at >= UI_MSG_MS && !ui_state_msg_long(app)) {
		app->msg.text[0] = '\0';
		return UI_REDRAW;
	}
	return 0;
}

size_t ui_state_carried(const struct app *app)
{
	size_t k = 0;

	for (size_t j = 0; app->a.ncarried && j < app->nvis; j++)
		k += arow_carried(&app->a.rows[app->vis[j]]);
	return k;
}

const struct arow *ui_state_arow(const struct app *app, size_t i)
{
	return &app->a.rows[app->vis[i]];
}

const struct row *ui_state_row(const struct app *app, size_t i)
{
	return &app->ds->rows[app->a.rows[app->vis[i]].row];
}

bool ui_state_matches(const struct app *app, size_t i, const char *text)
{
	const struct row *r = ui_state_row(app, i);

	return ascii_casestr(r->system, text) || ascii_casestr(r->system_name, text) ||
	       ascii_casestr(r->submitter, text);
}

const char *ui_state_name(const struct app *app, size_t i, char *buf, size_t n)
{
	return table_row_name(&app->tv, app->ds, ui_state_arow(app, i), buf, n);
}

/* ---- the shown rows ---- */

/* Name widths and id collisions of the shown rows (out of memory, rows are named by their
 * ids). */
static void measure(struct app *app)
{
	app->tv.bytes = !app->scr.utf8;
	(void)table_names(&app->tv, app->ds, &app->a);
}

/* The selection follows the system, not the position: after a recompute, a re-sort or a new
 * row filter the same system stays selected when it is still shown (after a row filter, the
 * same row: ui_state_view); else the same position. look: whether to look for the system
 * (false: none of the shown rows can be it). */
static void reselect(struct app *app, bool look)
{
	size_t i = app->nvis;

	if (app->nvis == 0) {
		app->sel = 0;
		return;
	}
	if (look)
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
	/* a new row filter on the same rows keeps the selected row itself when it stays shown */
	size_t n = 0, was = app->nvis && !app->view_new ? app->vis[app->sel] : SIZE_MAX;

	app->view_new = false;
	if (!grow_to((void **)&app->vis, &app->vis_cap, app->a.n, sizeof *app->vis)) {
		app->nvis = 0;
		return;
	}
	for (size_t i = 0; i < app->a.n; i++) {
		app->vis[n] = i;
		if (!app->rowfilt[0] || ui_state_matches(app, n, app->rowfilt))
			n++;
	}
	app->nvis = n;
	if (was != SIZE_MAX) {
		for (size_t i = 0; i < n; i++)
			if (app->vis[i] == was) {
				ui_state_select(app, (long)i);
				return;
			}
		/* the row is filtered out: in one round no other row has its system id and
		 * submitter (the loader keeps one row of each) */
		reselect(app, app->a.all_rounds);
		return;
	}
	reselect(app, true);
}

size_t ui_state_set_rowfilt(struct app *app, const char *text)
{
	snprintf(app->rowfilt, sizeof app->rowfilt, "%s", text ? text : "");
	ui_state_view(app);
	return app->nvis;
}

/* The reference as the messages name it: its row, or what the mode says when there is none. */
static const char *ref_text(const struct app *app, char *buf, size_t n)
{
	if (app->a.mode == REF_FAMILY || app->a.ref < 0)
		return describe_ref(app->ds, &app->a, true, buf, n);
	return describe_view_ref(app->ds, &app->a, (size_t)app->a.ref, buf, n);
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
	case NOTE_RULE: {
		/* the rules x skips, because they pick the same references as this one */
		char same[64] = "";
		for (int r = 0; r < RULE_COUNT; r++)
			if (r != (int)app->p.ref_rule && ui_state_rules_agree(app, app->p.ref_rule, (enum ref_rule)r))
				snprintf(same + strlen(same), sizeof same - strlen(same), " = %s",
					 ref_rule_name((enum ref_rule)r));
		ui_state_msg(app, false, "reference rule %s%s: %s", ref_rule_name(app->p.ref_rule), same,
			     ref_text(app, ref, sizeof ref));
		break;
	}
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
	enum ui_note note = app->msg.note;
	long found;

	app->msg.note = NOTE_NONE;
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
	/* both buffers keep one store of resamples: a recompute reuses what the last one drew,
	 * not what the one before it did (out of memory, each keeps its own) */
	if (app->spare.boot != app->a.boot)
		(void)analysis_share_boot(&app->spare, &app->a);
	if (analysis_run(app->ds, &app->p, &app->spare, err) < 0)
		return -1;
	done = app->spare;
	app->spare = app->a;
	app->a = done;
	app->view_new = true;
	if (!grow_to((void **)&app->pc.pts, &app->pc.pts_cap, app->a.n, sizeof *app->pc.pts)) {
		err_oom(err, NULL, 0);
		return -1;
	}
	measure(app);
	ui_state_view(app);
	/* a message of the key or of this recompute says more than the note */
	if (app->msg.seq == app->msg.key_seq)
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
	app->view_new = true;
	ui_state_view(app); /* names and widths stay: they are per dataset row */
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
	size_t h = (size_t)app->scr.lay.table_rows;

	/* no table shown (the plot zoomed, or no layout yet): its place stays as it is */
	if (app->scr.lay.table_rows <= 0)
		return;
	/* a table given another height (zoom, resize) shows the selection from the top row when it
	 * fits there, so that no row hides above it while lines stay free */
	if (h != app->scr.top_h && app->sel < h)
		app->scr.top = 0;
	app->scr.top_h = h;
	if (app->sel < app->scr.top)
		app->scr.top = app->sel;
	else if (app->sel >= app->scr.top + h)
		app->scr.top = app->sel - h + 1;
	/* no blank rows under the last one while rows above are hidden */
	if (app->nvis <= h)
		app->scr.top = 0;
	else if (app->scr.top > app->nvis - h)
		app->scr.top = app->nvis - h;
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

int ui_state_work_digit(const struct app *app, size_t i)
{
	if (i >= app->nworks)
		return 0;
	for (size_t d = 0; d < app->nallworks && d < 9; d++)
		if (app->allworks[d] == app->works[i] || strcmp(app->allworks[d], app->works[i]) == 0)
			return (int)d + 1;
	return 0;
}

long ui_state_digit_work(const struct app *app, int d, const char **id)
{
	if (id)
		*id = NULL;
	if (d < 1 || (size_t)d > app->nallworks)
		return -1;
	if (id)
		*id = app->allworks[d - 1];
	for (size_t i = 0; i < app->nworks; i++)
		if (strcmp(app->works[i], app->allworks[d - 1]) == 0)
			return (long)i;
	return -1;
}

bool ui_state_rules_agree(const struct app *app, enum ref_rule x, enum ref_rule y)
{
	for (size_t g = 0; g < app->a.ngroups; g++) {
		size_t nc = app->a.groups[g].ncand;
		if (ref_rule_pick(x, nc) != ref_rule_pick(y, nc))
			return false;
	}
	return true;
}

enum ref_rule ui_state_rule_next(const struct app *app)
{
	enum ref_rule cur = app->p.ref_rule;

	for (int step = 1; step < RULE_COUNT; step++) {
		enum ref_rule r = (enum ref_rule)((cur + step) % RULE_COUNT);
		bool seen = ui_state_rules_agree(app, r, cur);
		for (int back = 1; back < step && !seen; back++)
			seen = ui_state_rules_agree(app, r, (enum ref_rule)((cur + back) % RULE_COUNT));
		if (!seen)
			return r;
	}
	return cur;
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

void ui_state_cols_open(struct app *app)
{
	app->menu.nfam = 0;
	app->menu.cols = true;
	for (int c = 0; c < TC_COUNT; c++) {
		if (c == TC_SYS || app->tv.need[c] <= 0 || !fam_add(app, table_cols[c]->long_name))
			continue;
		app->menu.fam[app->menu.nfam - 1].count = (size_t)c;
		app->menu.fam[app->menu.nfam - 1].on = app->scr.cols_want[c];
	}
	app->menu.fam_cur = 0;
	app->menu.fam_find[0] = '\0';
}

size_t ui_state_cols_apply(struct app *app)
{
	size_t n = 0;

	for (size_t i = 0; i < app->menu.nfam; i++)
		if (app->menu.fam[i].count < TC_COUNT)
			app->scr.cols_want[app->menu.fam[i].count] = app->menu.fam[i].on;
	for (int c = 0; c < TC_COUNT; c++)
		n += app->scr.cols_want[c] && (c == TC_SYS || app->tv.need[c] > 0);
	return n;
}

void ui_state_menu_open(struct app *app)
{
	const struct dataset *ds = app->ds;

	app->menu.nfam = 0;
	app->menu.cols = false;
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
	return describe_filter(&app->p.filter, buf, n);
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
