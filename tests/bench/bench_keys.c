/* bench_keys.c: the cost of one key in the explorer, spent the way ui_main.c's event loop
 * spends it: ui_keys_dispatch, then ui_state_apply (a recompute or a re-sort as the flags ask),
 * then ui_draw_frame (layout, scroll, plot, ui_draw, refresh). The terminal is a real ncurses
 * SCREEN whose output goes to /dev/null, so curses still diffs the frame and emits the escape
 * sequences; only the tty write is free.
 *
 * A scripted sequence presses every key of the key table in every context (main, help, family
 * and column menus, detail, command line, search and value prompts, trend, the pointer's
 * events), on every workload of every round loaded and, with CROSS 1, on every workload in the
 * cross-round view (A), REPS times over; the whole is measured ROUNDS times, each round
 * reported on its own (run.sh counts a budget missed only when every round misses it).
 *
 * Times are the process's CPU time (cpu_now): what the key costs, without the turns other
 * processes take on a busy machine. Right after every fourth press the bench times the floor: one
 * more frame with nothing changed, what the idle loop's redraw costs in the same state.
 *
 * usage: bench_keys FAMILIES.csv PRICES.csv|- EXPORT_DIR ROWS COLS REPS ROUNDS BUDGET_S CROSS
 *        RESULTS.csv...
 * A press costs the least of its REPS repetitions (other processes only ever add to it). Per round R it prints:
 *   "R slowest VIEW WORKLOAD KEY s"      the slowest press of the rounds' views (VIEW: the
 *                                        round) and, with CROSS 1, of the cross-round views
 *                                        (VIEW: "all");
 *   "R floor n median"                   the redraw with nothing changed;
 *   "R slice s"                          the slowest slice of work done between keys (interval
 *                                        bars, the detail), which a key arriving then waits for;
 *   "R over n of N"                      presses over BUDGET_S;
 *   "R top VIEW WORKLOAD KEY s"          the five slowest keys, each at its slowest press;
 *   "R keys n median min q1 q3 max"      over every press;
 *   "R export n median_e median_floor median_ratio max_ratio"
 * then once "coverage COVERED TOTAL" and a line "missing KEY CONTEXT" for each key table entry
 * the script never presses in its context.
 * e is timed apart, on every eighth stop of the first repetition, on the wall clock: it writes and
 * fsyncs two files, a disk cost. Its floor
 * is the disk's own cost of what e must do, timed right after each e: two new files of the
 * sizes e just wrote, each with one write() to a temporary name, fsync(), and a move into place
 * that never replaces a file (renameat2 RENAME_NOREPLACE, or link() + unlink() where that is
 * missing), after as long a pause without disk I/O as e had before it. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "ui_app.h"
#include "ui_keys_impl.h"

#define CTRL(c) ((c) & 0x1f)
#define ESC 27
#define ENTER '\n'
#define BKSP 127

/* Every key of the key table, grouped so that each overlay is opened, used and closed; each
 * with the overlay it is meant for (a press that finds another one open stops the bench: a
 * key the script names must reach the screen it names it for). */
struct press {
	int key;
	enum ui_overlay ov;
};
#define H(k) { k, OV_HELP }
#define M(k) { k, OV_NONE }
#define F(k) { k, OV_MENU }
#define D(k) { k, OV_DETAIL }
#define X(k) { k, OV_CMDLINE }
#define S(k) { k, OV_SEARCH }
#define P(k) { k, OV_PROMPT }
#define W(k) { k, OV_TREND }
#define ANY_OV ((enum ui_overlay) - 1) /* wherever the key before led (not checked) */
#define Z(k) { k, ANY_OV }
static const struct press script[] = {
	/* help overlay */
	M('?'), H('j'), H('k'), H(UI_FKEY(KEY_DOWN)), H(UI_FKEY(KEY_UP)), H(UI_FKEY(KEY_NPAGE)),
	H(UI_FKEY(KEY_PPAGE)), H(' '), H('G'), H('g'), H(UI_PTR_WHEEL_DOWN), H(UI_PTR_WHEEL_UP),
	H('?'), M(UI_FKEY(KEY_F(1))), H(ESC), M('?'), H(UI_FKEY(KEY_F(1))), M('?'), H('q'),
	M('?'), H(UI_PTR_CLICK),
	/* selection */
	M('j'), M('j'), M('k'), M(UI_FKEY(KEY_DOWN)), M(UI_FKEY(KEY_UP)), M(UI_FKEY(KEY_NPAGE)),
	M(UI_FKEY(KEY_PPAGE)), M('G'), M('g'), M(UI_FKEY(KEY_END)), M(UI_FKEY(KEY_HOME)), M('j'),
	M(UI_PTR_WHEEL_DOWN), M(UI_PTR_WHEEL_UP), M(UI_PTR_CLICK), M('j'), M('j'), M('j'), M('o'),
	M('b'), M('j'),
	/* detail overlay */
	M(ENTER), D('j'), D('k'), D(UI_FKEY(KEY_DOWN)), D(UI_FKEY(KEY_UP)), D(UI_FKEY(KEY_NPAGE)),
	D(UI_FKEY(KEY_PPAGE)), D(' '), D('G'), D('g'), D(UI_PTR_WHEEL_DOWN), D(UI_PTR_WHEEL_UP),
	D('q'), M(ENTER), D(ESC), M(ENTER), D(ENTER), M(ENTER), D(UI_PTR_CLICK),
	/* the view's command line */
	M(':'), X('j'), X('k'), X('q'),
	/* family menu: filter to one family, clear; cancel twice */
	M('f'), F(UI_FKEY(KEY_DOWN)), F(UI_FKEY(KEY_UP)), F(UI_FKEY(KEY_NPAGE)), F(UI_FKEY(KEY_PPAGE)),
	F(UI_FKEY(KEY_END)), F(UI_FKEY(KEY_HOME)), F(UI_PTR_WHEEL_DOWN), F(UI_PTR_WHEEL_UP), F('h'),
	F(BKSP), F(' '), F(ENTER), M('F'), M('f'), F(' '), F(CTRL('u')), F(ESC), M('f'), F(ESC),
	/* column chooser: one column off, then on again */
	M('C'), F(UI_FKEY(KEY_DOWN)), F(' '), F(ENTER), M('C'), F(UI_FKEY(KEY_DOWN)), F(' '), F(ENTER),
	/* reference */
	M('r'), M('m'), M('m'), M('m'), M('R'), M('x'), M('x'), M('x'),
	/* rows shown and comparison */
	M('v'), M('v'), M('d'), M('d'), M('A'), M('A'), M('P'), M('P'),
	/* clusters */
	M('+'), M('+'), M('-'), M('-'), M('a'), M('c'), M('c'), M('c'), M('+'), M('-'),
	/* plot */
	M('y'), M('y'), M('y'), M('y'), M('y'), M('Y'), M('Y'), M('t'), M('T'), M('p'), M('p'),
	M('L'), M('L'), M('u'), M('u'), M('i'), M('i'), M('z'), M('z'), M('z'),
	/* typed theta and k */
	M('='), P('0'), P('.'), P('7'), P(BKSP), P('8'), P(ENTER), M('K'), P('3'), P(ENTER),
	M('K'), P('x'), P(ESC),
	/* query: set, then cleared */
	M('Q'), P('t'), P(' '), P('3'), P('0'), P(ENTER), M('Q'), P(ENTER),
	/* sort: every column, then back to E' descending */
	M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'),
	M('s'), M('S'), M('S'), M('>'), M('<'),
	/* search prompt */
	M('/'), S('e'), S('o'), S('s'), S(BKSP), S('s'), S(UI_FKEY(KEY_DOWN)), S(UI_FKEY(KEY_UP)),
	S(ENTER), M('n'), M('N'), M('/'), S('x'), S(ESC),
	/* row filter: e, then 1 (which drops rows: a new view and picture) */
	M('|'), S('e'), S(BKSP), S('1'), S(ENTER), M(ESC),
	/* undo, twice */
	M('U'), M('U'),
	/* trend: move, close; Enter (which opens a round where the cross-round view has one to
	 * open, else leaves the trend open: Esc closes that) and undo that */
	M('W'), W('j'), W('k'), W(UI_FKEY(KEY_DOWN)), W(UI_FKEY(KEY_UP)), W('h'), W('l'),
	W(UI_FKEY(KEY_LEFT)), W(UI_FKEY(KEY_RIGHT)), W(UI_FKEY(KEY_NPAGE)), W(UI_FKEY(KEY_PPAGE)),
	W(UI_FKEY(KEY_END)), W(UI_FKEY(KEY_HOME)), W('q'), M('W'), W(ESC), M('W'), W(ENTER), Z(ESC), M('U'),
	/* misc */
	M('M'), M('M'), M(CTRL('l')), M('['), M(']'), M(UI_FKEY(KEY_BTAB)), M('\t'),
	M('1'), M('2'), M('3'), M('4'), M('5'), M('6'), M('7'), M('8'), M('9'), M('1'),
	M(UI_FKEY(KEY_RIGHT)), M(UI_FKEY(KEY_LEFT)), M(UI_FKEY(KEY_F(6))), M(UI_FKEY(KEY_F(3))), S(ESC),
	M(UI_FKEY(KEY_F(4))), S(ESC),
	/* quit keys: their dispatch is timed, the quit itself ignored */
	M('q'), M(CTRL('c')), M(UI_FKEY(KEY_F(10))),
};
#undef H
#undef M
#undef F
#undef D
#undef X
#undef S
#undef P
#undef W
#undef Z
#define NSCRIPT (sizeof script / sizeof *script)

static void report(const char *name, double *v, size_t n)
{
	if (n == 0) {
		printf("%s 0\n", name);
		return;
	}
	qsort(v, n, sizeof *v, cmp_double);
	printf("%s %zu %.9f %.9f %.9f %.9f %.9f\n", name, n, quant(v, n, 0.5), v[0],
	       quant(v, n, 0.25), quant(v, n, 0.75), v[n - 1]);
}

/* Keeps the CPU busy for s seconds without a system call (as the scripted keys do). */
static void spin(double s)
{
	double end = now() + s;
	while (now() < end)
		;
}

/* Size of the file at path, or -1. */
static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/* Moves from to to, failing if to exists (what an export must do, no less): 0 or -1. */
static int place_noreplace(const char *from, const char *to)
{
#ifdef SYS_renameat2
	if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
#endif
	if (link(from, to) != 0)
		return -1;
	return unlink(from);
}

/* The floor of one export: two new files of sizes a and b in dir, each by one write() to a
 * temporary name, fsync(), and a move into place that never replaces a file; returns the
 * seconds taken (cleanup excluded), or -1 on an error. */
static double export_floor(const char *dir, long a, long b)
{
	static char *buf;
	static long cap;
	long sizes[2] = { a, b };
	char tmp[2][1100], dst[2][1100];
	double t0, t;

	for (int i = 0; i < 2; i++) {
		snprintf(tmp[i], sizeof tmp[i], "%s/.floor-%d.tmp", dir, i);
		snprintf(dst[i], sizeof dst[i], "%s/floor-%d.out", dir, i);
		if (sizes[i] < 0)
			return -1;
		if (sizes[i] > cap) {
			free(buf);
			cap = sizes[i];
			if (!(buf = malloc((size_t)cap)))
				return -1;
			memset(buf, 'x', (size_t)cap);
		}
	}
	t0 = now();
	for (int i = 0; i < 2; i++) {
		int fd = open(tmp[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			return -1;
		if (write(fd, buf, (size_t)sizes[i]) != (ssize_t)sizes[i] || fsync(fd) != 0) {
			close(fd);
			return -1;
		}
		if (close(fd) != 0 || place_noreplace(tmp[i], dst[i]) != 0)
			return -1;
	}
	t = now() - t0;
	for (int i = 0; i < 2; i++)
		unlink(dst[i]);
	return t;
}

/* The sizes of the two files the last e wrote (its message names the CSV). */
static int export_sizes(const struct app *app, long *csv, long *txt)
{
	const char *p = strstr(app->msg.text, "exported "), *end;
	char path[1100];

	if (!p || app->msg.err)
		return -1;
	p += strlen("exported ");
	end = strstr(p, ".csv");
	if (!end || (size_t)(end - p) + 5 > sizeof path)
		return -1;
	snprintf(path, sizeof path, "%.*s.csv", (int)(end - p), p);
	*csv = file_size(path);
	snprintf(path, sizeof path, "%.*s.txt", (int)(end - p), p);
	*txt = file_size(path);
	return *csv < 0 || *txt < 0 ? -1 : 0;
}

/* The loop's work for one key: the same calls as ui_main.c's event_loop. A pointer event
 * lands on the table's first data row. Returns the flags. */
static unsigned press(struct app *app, int key)
{
	unsigned flags;

	if (UI_IS_PTR(key)) {
		app->scr.ptr_y = app->scr.lay.table.y + 1;
		app->scr.ptr_x = app->scr.lay.table.x + 1;
	}
	flags = ui_keys_dispatch(app, key);
	if (flags & UI_QUIT)
		return flags;
	ui_state_apply(app, flags);
	if (flags)
		ui_draw_frame(app, flags & UI_CLEAR);
	return flags;
}

/* The work the loop does between keys (the next slices of intervals: bars, the detail), each
 * slice timed; returns the slowest. */
static double idle_work(struct app *app)
{
	double worst = 0;

	for (int i = 0; i < 100000 && ui_state_busy(app); i++) {
		double t0 = cpu_now(), t;
		unsigned f = ui_state_work(app);
		if (f)
			ui_draw_frame(app, false);
		if ((t = cpu_now() - t0) > worst)
			worst = t;
	}
	return worst;
}

static const char *key_label(int k, char *buf, size_t n)
{
	if (k == UI_FKEY(KEY_NPAGE))
		snprintf(buf, n, "PgDn");
	else if (k == UI_FKEY(KEY_PPAGE))
		snprintf(buf, n, "PgUp");
	else if (k == UI_PTR_CLICK)
		snprintf(buf, n, "click");
	else if (k == UI_PTR_WHEEL_UP)
		snprintf(buf, n, "wheel-up");
	else if (k == UI_PTR_WHEEL_DOWN)
		snprintf(buf, n, "wheel-down");
	else if (k == UI_KEY_TEXT)
		snprintf(buf, n, "text");
	else if (k & 0x200000)
		snprintf(buf, n, "%s", keyname(k & 0x1fffff));
	else if (k == '\n')
		snprintf(buf, n, "Enter");
	else if (k == ESC)
		snprintf(buf, n, "Esc");
	else if (k == '\t')
		snprintf(buf, n, "Tab");
	else if (k == ' ')
		snprintf(buf, n, "Space");
	else if (k == BKSP)
		snprintf(buf, n, "Backspace");
	else if (k < 32)
		snprintf(buf, n, "Ctrl-%c", k + 64);
	else
		snprintf(buf, n, "%c", k);
	return buf;
}

/* The key table's context of overlay ov, as ui_keys.c looks keys up. */
static enum ui_ctx ctx_of(enum ui_overlay ov)
{
	switch (ov) {
	case OV_HELP: return UI_CTX_HELP;
	case OV_MENU: return UI_CTX_MENU;
	case OV_DETAIL: case OV_CMDLINE: return UI_CTX_DETAIL;
	case OV_SEARCH: return UI_CTX_SEARCH;
	case OV_PROMPT: return UI_CTX_PROMPT;
	case OV_TREND: return UI_CTX_TREND;
	case OV_NONE: break;
	}
	return UI_CTX_MAIN;
}

/* Whether the script presses key table entry k in its context (a printable key for the
 * table's UI_KEY_TEXT). */
static bool pressed(const struct ui_key *k)
{
	for (size_t j = 0; j < NSCRIPT; j++) {
		int c = script[j].key;
		if (script[j].ov == ANY_OV || (k->ctx != UI_CTX_ANY && k->ctx != ctx_of(script[j].ov)))
			continue;
		if (k->key == c || (k->key == UI_KEY_TEXT && c >= ' ' && c < 127))
			return true;
	}
	return k->key == 'e' && k->ctx == UI_CTX_MAIN; /* pressed once a stop, after the script */
}

/* Prints how many key table entries the script presses in their context, and the others. */
static void coverage(void)
{
	size_t nk, covered = 0;
	const struct ui_key *kt = ui_keys_all(&nk);
	char name[32];

	for (size_t i = 0; i < nk; i++)
		covered += pressed(&kt[i]);
	printf("coverage %zu %zu\n", covered, nk);
	for (size_t i = 0; i < nk; i++)
		if (!pressed(&kt[i]))
			printf("missing %s %s\n", key_label(kt[i].key, name, sizeof name),
			       ui_keys_ctx_name(kt[i].ctx));
}

/* One place to run the script from: a round and one of its workloads, in the round's view or
 * in the cross-round view. */
struct stop {
	size_t round, work;
	bool all;
	const char *round_name, *work_name;
};

/* Puts app on stop s, recomputed, with no overlay and a fresh frame. */
static int goto_stop(struct app *app, const struct stop *s, struct gs_err *err)
{
	ui_state_set_round(app, s->round);
	ui_state_set_workload(app, s->work);
	app->p.all_rounds = s->all;
	if (ui_state_recompute(app, err) < 0)
		return -1;
	press(app, CTRL('l'));
	return 0;
}

static const char *view_name(const struct stop *s)
{
	return s->all ? "all" : s->round_name;
}

/* Reports round m from t[pos * reps + r] (press pos, repetition r), the nfl floors fl, the slowest slice of idle work, and the exports and their floors. */
static void report_round(int m, const struct stop *stops, size_t nstops, double *t, double *fl,
			 size_t nfl, double slice, double budget, int reps, double *te, double *tf, size_t ne)
{
	size_t npos = nstops * NSCRIPT, slow[2] = { (size_t)-1, (size_t)-1 };
	double *med = malloc(npos * sizeof *med), *ratio = malloc(ne * sizeof *ratio);
	char name[32], tag[16];

	if (!med || !ratio)
		exit(1);
	for (size_t k = 0; k < npos; k++) {
		size_t *w = &slow[stops[k / NSCRIPT].all];
		qsort(t + k * (size_t)reps, (size_t)reps, sizeof *t, cmp_double);
		med[k] = t[k * (size_t)reps]; /* the best: other processes only ever add */
		if (*w == (size_t)-1 || med[k] > med[*w])
			*w = k;
	}
	for (int all = 0; all < 2; all++)
		if (slow[all] != (size_t)-1)
			printf("%d slowest %s %s %s %.9f\n", m, view_name(&stops[slow[all] / NSCRIPT]),
			       stops[slow[all] / NSCRIPT].work_name,
			       key_label(script[slow[all] % NSCRIPT].key, name, sizeof name), med[slow[all]]);
	qsort(fl, nfl, sizeof *fl, cmp_double);
	printf("%d floor %zu %.9f\n", m, nfl, quant(fl, nfl, 0.5));
	printf("%d slice %.9f\n", m, slice);
	/* how many presses went over the budget, and the five slowest keys (each at its slowest
	 * press): where a miss is */
	{
		size_t over = 0, top[5], ntop = 0;
		for (size_t k = 0; k < npos; k++)
			over += med[k] > budget;
		printf("%d over %zu of %zu\n", m, over, npos);
		while (ntop < 5) {
			size_t best = (size_t)-1;
			for (size_t k = 0; k < npos; k++) {
				bool seen = false;
				for (size_t i = 0; i < ntop && !seen; i++)
					seen = script[top[i] % NSCRIPT].key == script[k % NSCRIPT].key;
				if (!seen && (best == (size_t)-1 || med[k] > med[best]))
					best = k;
			}
			if (best == (size_t)-1)
				break;
			top[ntop++] = best;
		}
		for (size_t i = 0; i < ntop; i++)
			printf("%d top %s %s %s %.9f\n", m, view_name(&stops[top[i] / NSCRIPT]),
			       stops[top[i] / NSCRIPT].work_name,
			       key_label(script[top[i] % NSCRIPT].key, name, sizeof name), med[top[i]]);
	}
	/* BENCH_KEYS_ALL set: every press, for a profile of one key */
	if (getenv("BENCH_KEYS_ALL"))
		for (size_t k = 0; k < npos; k++)
			printf("%d press %zu %s %s %s %.9f\n", m, k % NSCRIPT + 1, view_name(&stops[k / NSCRIPT]),
			       stops[k / NSCRIPT].work_name, key_label(script[k % NSCRIPT].key, name, sizeof name),
			       med[k]);
	snprintf(tag, sizeof tag, "%d keys", m);
	report(tag, med, npos);
	for (size_t i = 0; i < ne; i++)
		ratio[i] = te[i] / tf[i];
	qsort(te, ne, sizeof *te, cmp_double);
	qsort(tf, ne, sizeof *tf, cmp_double);
	qsort(ratio, ne, sizeof *ratio, cmp_double);
	printf("%d export %zu %.9f %.9f %.6f %.6f\n", m, ne, quant(te, ne, 0.5), quant(tf, ne, 0.5),
	       quant(ratio, ne, 0.5), ratio[ne - 1]);
	free(med);
	free(ratio);
}

int main(int argc, char **argv)
{
	static struct app app;
	struct dataset ds;
	struct params p;
	struct ui_opts o = { .mouse = MOUSE_OFF, .y_metric = MET_EP };
	struct gs_err err = { 0 };
	struct stop *stops = NULL;
	char msg[1200];
	FILE *out, *in;
	SCREEN *scr;
	int reps, rounds, cross;
	size_t npos, nstops = 0, ne;
	double *t, *fl, *te, *tf, budget;

	if (argc < 11 || (reps = atoi(argv[6])) < 1 || (rounds = atoi(argv[7])) < 1 ||
	    (budget = atof(argv[8])) <= 0) {
		fprintf(stderr, "usage: bench_keys FAMILIES.csv PRICES.csv|- EXPORT_DIR ROWS COLS REPS ROUNDS "
			"BUDGET_S CROSS RESULTS.csv...\n");
		return 2;
	}
	cross = atoi(argv[9]);
	memset(&ds, 0, sizeof ds);
	if (dataset_load_families(&ds, argv[1], &err) < 0 ||
	    (strcmp(argv[2], "-") != 0 && dataset_load_prices(&ds, argv[2], &err) < 0)) {
		fprintf(stderr, "bench_keys: %s\n", err_format(&err, msg, sizeof msg));
		return 1;
	}
	for (int i = 10; i < argc; i++)
		if (dataset_load_csv(&ds, argv[i], &err) < 0) {
			fprintf(stderr, "bench_keys: %s\n", err_format(&err, msg, sizeof msg));
			return 1;
		}
	dataset_classify(&ds);
	params_init(&p);
	o.export_dir = argv[3];

	/* the size comes from the environment, as for a terminal that cannot be asked */
	setenv("TERM", "xterm-256color", 1);
	setenv("LINES", argv[4], 1);
	setenv("COLUMNS", argv[5], 1);
	out = fopen("/dev/null", "w");
	in = fopen("/dev/null", "r");
	if (!out || !in || !(scr = newterm("xterm-256color", out, in))) {
		fprintf(stderr, "bench_keys: cannot start curses on /dev/null\n");
		return 1;
	}
	set_term(scr);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);

	ui_state_init(&app, &ds, &p, &o);
	ui_keys_help_build(&app);
	ui_draw_init();
	/* every workload of every round, as [ ] and Tab reach them; then each workload once in
	 * the cross-round view, from the newest round that has it */
	for (size_t r = 0; r < app.nrounds; r++) {
		ui_state_set_round(&app, r);
		if (!(stops = realloc(stops, (nstops + app.nworks) * sizeof *stops)))
			return 1;
		for (size_t w = 0; w < app.nworks; w++)
			stops[nstops++] = (struct stop){ r, w, false, app.rounds[r], app.works[w] };
	}
	if (cross) {
		size_t nround = nstops;
		if (!(stops = realloc(stops, 2 * nround * sizeof *stops)))
			return 1;
		for (size_t i = nround; i-- > 0;) {
			bool seen = false;
			for (size_t j = nround; j < nstops && !seen; j++)
				seen = strcmp(stops[j].work_name, stops[i].work_name) == 0;
			if (!seen) {
				stops[nstops] = stops[i];
				stops[nstops++].all = true;
			}
		}
	}

	/* t[pos * reps + r]: press pos of the whole sequence (stop x script) in repetition r */
	npos = nstops * NSCRIPT;
	t = malloc(npos * (size_t)reps * sizeof *t);
	fl = malloc(npos * (size_t)reps * sizeof *fl);
	te = malloc(nstops * sizeof *te);
	tf = malloc(nstops * sizeof *tf);
	if (!t || !fl || !te || !tf)
		return 1;
	for (int m = 0; m < rounds; m++) {
		double slice = 0;
		size_t nfl = 0;
		ne = 0;
		for (int r = 0; r < reps; r++) {
			for (size_t s = 0; s < nstops; s++) {
				double quiet, t0, f, w;
				long a, b;

				if (goto_stop(&app, &stops[s], &err) < 0) {
					endwin();
					fprintf(stderr, "bench_keys: %s\n", err_format(&err, msg, sizeof msg));
					return 1;
				}
				quiet = now();
				for (size_t i = 0; i < NSCRIPT; i++) {
					size_t at = (s * NSCRIPT + i) * (size_t)reps + (size_t)r;
					char kl[32];
					if (script[i].ov != ANY_OV && app.menu.ov != script[i].ov) {
						endwin();
						fprintf(stderr, "bench_keys: press %zu (%s) on %s %s found overlay %d open, not %d\n",
							i + 1, key_label(script[i].key, kl, sizeof kl), view_name(&stops[s]),
							stops[s].work_name, (int)app.menu.ov, (int)script[i].ov);
						return 1;
					}
					t0 = cpu_now();
					press(&app, script[i].key);
					t[at] = cpu_now() - t0;
					if ((w = idle_work(&app)) > slice)
						slice = w;
					/* the floor, after every fourth press: the idle loop's redraw, nothing
					 * changed */
					if (i % 4 == 0) {
						t0 = cpu_now();
						ui_draw_frame(&app, false);
						fl[nfl++] = cpu_now() - t0;
					}
				}
				quiet = now() - quiet;
				/* e is timed apart, on every eighth stop of the first repetition: it writes
				 * and fsyncs two files, a disk cost, not a CPU one */
				if (r > 0 || s % 8 != 0)
					continue;
				t0 = now();
				press(&app, 'e');
				te[ne] = now() - t0;
				/* The floor right after, on the same disk in the same state. An fsync issued
				 * just after another has completed is much cheaper than the first one after a
				 * pause, and e always comes after the script's keys, which touch no disk; so
				 * the floor too comes after a busy pause without disk I/O as long as the one
				 * before e (at most a tenth of a second). */
				spin(quiet < 0.1 ? quiet : 0.1);
				if (export_sizes(&app, &a, &b) < 0 || (f = export_floor(argv[3], a, b)) < 0) {
					endwin();
					fprintf(stderr, "bench_keys: export floor failed: %s\n", app.msg.text);
					return 1;
				}
				tf[ne++] = f;
			}
		}
		report_round(m + 1, stops, nstops, t, fl, nfl, slice, budget, reps, te, tf, ne);
		fflush(stdout);
	}
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	printf("size %sx%s stops %zu presses %zu frames %lu\n", argv[5], argv[4], nstops,
	       npos * (size_t)reps * (size_t)rounds, app.scr.frames);
	coverage();
	ui_state_free(&app);
	dataset_free(&ds);
	free(stops);
	free(t);
	free(fl);
	free(te);
	free(tf);
	return 0;
}
