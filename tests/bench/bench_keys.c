/* bench_keys.c: the cost of one key in the explorer, measured the way ui_main.c's event loop
 * spends it: ui_keys_dispatch, then ui_state_apply (a recompute or a re-sort as the flags ask),
 * then ui_draw_frame (layout, scroll, plot, ui_draw, refresh). The terminal is a real ncurses
 * SCREEN whose output goes to /dev/null, so curses still diffs the frame and emits the escape
 * sequences; only the tty write is free.
 *
 * A scripted sequence presses every key of the key table in every context (main, help, family
 * menu, detail, search prompt), on every workload of every round loaded, REPS times over; the
 * whole is measured ROUNDS times, and each round is reported on its own (run.sh counts a
 * budget missed only when every round misses it).
 *
 * usage: bench_keys FAMILIES.csv PRICES.csv|- EXPORT_DIR ROWS COLS REPS ROUNDS RESULTS.csv...
 * A press costs the median of its REPS repetitions. Per round R it prints:
 *   "R slowest ROUND WORKLOAD KEY s"     the slowest press of all;
 *   "R keys n median min q1 q3 max"      over every press but e;
 *   "R over2ms n of N"                   presses over the 2 ms budget;
 *   "R top ROUND WORKLOAD KEY s"         the five slowest presses, slowest first;
 *   "R search s"                         the slowest letter or digit typed into the search or row filter prompt;
 *   "R nav KEY s"                        the slowest press of KEY (j, k, PgDn, Enter, ?) in the
 *                                        main view that moved without asking for a recompute
 *                                        (Enter there opens the detail);
 *   "R recompute ROUND WORKLOAD KEY s"   the slowest press that asked for a recompute;
 *   "R export n median_e median_floor median_ratio max_ratio"
 * where the floor is the disk's own cost of what e must do, timed right after each e: two new
 * files of the sizes e just wrote, each with one write() to a temporary name, fsync(), and a
 * move into place that never replaces a file (renameat2 RENAME_NOREPLACE, or link() + unlink()
 * where that is missing), after as long a pause without disk I/O as e had before it. The export
 * is judged against that floor (the ratio of each e to its own floor), not against the keypress
 * budget: never losing a file is worth the fsyncs. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench_util.h"
#include "ui_app.h"

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
#define S(k) { k, OV_SEARCH }
#define P(k) { k, OV_PROMPT }
static const struct press script[] = {
	/* help overlay */
	M('?'), H('j'), H('k'), H(UI_FKEY(KEY_DOWN)), H(UI_FKEY(KEY_UP)), H(UI_FKEY(KEY_NPAGE)),
	H(UI_FKEY(KEY_PPAGE)), H(' '), H('G'), H('g'), H('?'), M(UI_FKEY(KEY_F(1))), H(ESC),
	M('?'), H(UI_FKEY(KEY_F(1))), M('?'), H('q'),
	/* selection */
	M('j'), M('j'), M('k'), M(UI_FKEY(KEY_DOWN)), M(UI_FKEY(KEY_UP)), M(UI_FKEY(KEY_NPAGE)),
	M(UI_FKEY(KEY_PPAGE)), M('G'), M('g'), M(UI_FKEY(KEY_END)), M(UI_FKEY(KEY_HOME)), M('j'),
	M('j'), M('j'), M('o'), M('b'), M('j'),
	/* detail overlay */
	M(ENTER), D('j'), D('k'), D(UI_FKEY(KEY_DOWN)), D(UI_FKEY(KEY_UP)), D(UI_FKEY(KEY_NPAGE)),
	D(UI_FKEY(KEY_PPAGE)), D(' '), D('G'), D('g'), D('q'), M(ENTER), D(ESC), M(ENTER), D(ENTER),
	/* family menu: filter to one family, clear; cancel twice */
	M('f'), F(UI_FKEY(KEY_DOWN)), F(UI_FKEY(KEY_UP)), F(UI_FKEY(KEY_NPAGE)), F(UI_FKEY(KEY_PPAGE)),
	F(UI_FKEY(KEY_END)), F(UI_FKEY(KEY_HOME)), F('h'), F(BKSP), F(' '), F(ENTER), M('F'),
	M('f'), F(' '), F(CTRL('u')), F(ESC), M('f'), F(ESC),
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
	/* sort: every column, then back to E' descending */
	M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'), M('s'),
	M('s'), M('S'), M('S'), M('>'), M('<'),
	/* search prompt */
	M('/'), S('e'), S('o'), S('s'), S(BKSP), S('s'), S(UI_FKEY(KEY_DOWN)), S(UI_FKEY(KEY_UP)),
	S(ENTER), M('n'), M('N'), M('/'), S('x'), S(ESC),
	/* row filter: e (in every name of the 10^5-row file: the same rows), then 1 (which drops
	 * rows there too: a new view and picture) */
	M('|'), S('e'), S(BKSP), S('1'), S(ENTER), M(ESC),
	/* misc */
	M('M'), M('M'), M(CTRL('l')), M('['), M(']'), M(UI_FKEY(KEY_BTAB)), M('\t'),
	M('1'), M('2'), M('3'), M('4'), M('5'), M('6'), M('7'), M('8'), M('9'), M('1'),
	/* quit keys: their dispatch is timed, the quit itself ignored */
	M('q'), M(CTRL('c')),
};
#undef H
#undef M
#undef F
#undef D
#undef S
#undef P
#define NSCRIPT (sizeof script / sizeof *script)

/* Keeps the CPU busy for s seconds without a system call (as the scripted keys do). */
static void spin(double s)
{
	double end = now() + s;
	while (now() < end)
		;
}

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

/* The loop's work for one key: the same calls as ui_main.c's event_loop. Returns the flags. */
static unsigned press(struct app *app, int key)
{
	unsigned flags = ui_keys_dispatch(app, key);

	if (flags & UI_QUIT)
		return flags;
	ui_state_apply(app, flags);
	if (flags)
		ui_draw_frame(app, flags & UI_CLEAR);
	return flags;
}

static const char *key_label(int k, char *buf, size_t n)
{
	if (k == UI_FKEY(KEY_NPAGE))
		snprintf(buf, n, "PgDn");
	else if (k == UI_FKEY(KEY_PPAGE))
		snprintf(buf, n, "PgUp");
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

/* The navigation keys with a budget of their own. */
static const int nav_keys[] = { 'j', 'k', UI_FKEY(KEY_NPAGE), ENTER, '?' };
#define NNAV (sizeof nav_keys / sizeof *nav_keys)

/* One place to run the script from: a round and one of its workloads. */
struct stop {
	size_t round, work;
	const char *round_name, *work_name;
};

/* Puts app on stop s, recomputed, with no overlay and a fresh frame. */
static int goto_stop(struct app *app, const struct stop *s, struct gs_err *err)
{
	ui_state_set_round(app, s->round);
	ui_state_set_workload(app, s->work);
	if (ui_state_recompute(app, err) < 0)
		return -1;
	press(app, CTRL('l'));
	return 0;
}

/* Reports round m from t[pos * reps + r] (press pos, repetition r), the flags each press asked
 * for, and the REPS x nstops exports and floors of the round. */
static void report_round(int m, const struct stop *stops, size_t nstops, double *t,
			 const unsigned *flags, int reps, double *te, double *tf, size_t ne)
{
	size_t npos = nstops * NSCRIPT, slow = 0, rslow = (size_t)-1;
	double *med = malloc(npos * sizeof *med), *ratio = malloc(ne * sizeof *ratio);
	char name[32], tag[16];

	if (!med || !ratio)
		exit(1);
	for (size_t k = 0; k < npos; k++) {
		qsort(t + k * (size_t)reps, (size_t)reps, sizeof *t, cmp_double);
		med[k] = quant(t + k * (size_t)reps, (size_t)reps, 0.5);
		if (med[k] > med[slow])
			slow = k;
		if ((flags[k] & UI_RECOMPUTE) && (rslow == (size_t)-1 || med[k] > med[rslow]))
			rslow = k;
	}
	printf("%d slowest %s %s %s %.9f\n", m, stops[slow / NSCRIPT].round_name,
	       stops[slow / NSCRIPT].work_name, key_label(script[slow % NSCRIPT].key, name, sizeof name),
	       med[slow]);
	for (size_t j = 0; j < NNAV; j++) {
		double worst = 0;
		for (size_t k = 0; k < npos; k++)
			if (script[k % NSCRIPT].key == nav_keys[j] && script[k % NSCRIPT].ov == OV_NONE &&
			    !(flags[k] & UI_RECOMPUTE) && med[k] > worst)
				worst = med[k];
		printf("%d nav %s %.9f\n", m, key_label(nav_keys[j], name, sizeof name), worst);
	}
	{
		/* a letter or digit typed into the search or row filter prompt */
		double worst = 0;
		for (size_t k = 0; k < npos; k++) {
			int c = script[k % NSCRIPT].key;
			if (script[k % NSCRIPT].ov == OV_SEARCH && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) &&
			    !(flags[k] & UI_RECOMPUTE) && med[k] > worst)
				worst = med[k];
		}
		printf("%d search %.9f\n", m, worst);
	}
	if (rslow != (size_t)-1)
		printf("%d recompute %s %s %s %.9f\n", m, stops[rslow / NSCRIPT].round_name,
		       stops[rslow / NSCRIPT].work_name,
		       key_label(script[rslow % NSCRIPT].key, name, sizeof name), med[rslow]);
	/* the five slowest presses, and how many went over the 2 ms budget: where a miss is */
	{
		size_t over = 0, top[5], ntop = 0;
		for (size_t k = 0; k < npos; k++) {
			over += med[k] > 0.002 && script[k % NSCRIPT].key != 'e';
			if (ntop < 5)
				ntop++;
			else if (med[k] <= med[top[4]])
				continue;
			size_t at = ntop - 1;
			while (at > 0 && med[top[at - 1]] < med[k]) {
				top[at] = top[at - 1];
				at--;
			}
			top[at] = k;
		}
		printf("%d over2ms %zu of %zu\n", m, over, npos);
		for (size_t i = 0; i < ntop; i++)
			printf("%d top %s %s %s %.9f\n", m, stops[top[i] / NSCRIPT].round_name,
			       stops[top[i] / NSCRIPT].work_name,
			       key_label(script[top[i] % NSCRIPT].key, name, sizeof name), med[top[i]]);
	}
	/* BENCH_KEYS_ALL set: every press, for a profile of one key */
	if (getenv("BENCH_KEYS_ALL"))
		for (size_t k = 0; k < npos; k++)
			printf("%d press %zu %s %s %s %.9f\n", m, k % NSCRIPT + 1, stops[k / NSCRIPT].round_name,
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
	int reps, rounds;
	size_t npos, nstops = 0, ne;
	unsigned *flags;
	double *t, *te, *tf;

	if (argc < 9 || (reps = atoi(argv[6])) < 1 || (rounds = atoi(argv[7])) < 1) {
		fprintf(stderr, "usage: bench_keys FAMILIES.csv PRICES.csv|- EXPORT_DIR ROWS COLS REPS ROUNDS RESULTS.csv...\n");
		return 2;
	}
	memset(&ds, 0, sizeof ds);
	if (dataset_load_families(&ds, argv[1], &err) < 0 ||
	    (strcmp(argv[2], "-") != 0 && dataset_load_prices(&ds, argv[2], &err) < 0)) {
		fprintf(stderr, "bench_keys: %s\n", err_format(&err, msg, sizeof msg));
		return 1;
	}
	for (int i = 8; i < argc; i++)
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
	/* every workload of every round, as [ ] and Tab reach them */
	for (size_t r = 0; r < app.nrounds; r++) {
		ui_state_set_round(&app, r);
		if (!(stops = realloc(stops, (nstops + app.nworks) * sizeof *stops)))
			return 1;
		for (size_t w = 0; w < app.nworks; w++)
			stops[nstops++] = (struct stop){ r, w, app.rounds[r], app.works[w] };
	}

	/* t[pos * reps + r]: press pos of the whole sequence (stop x script) in repetition r */
	npos = nstops * NSCRIPT;
	t = malloc(npos * (size_t)reps * sizeof *t);
	flags = calloc(npos, sizeof *flags);
	te = malloc(nstops * (size_t)reps * sizeof *te);
	tf = malloc(nstops * (size_t)reps * sizeof *tf);
	if (!t || !flags || !te || !tf)
		return 1;
	for (int m = 0; m < rounds; m++) {
		ne = 0;
		for (int r = 0; r < reps; r++) {
			for (size_t s = 0; s < nstops; s++) {
				double quiet, t0, f;
				long a, b;

				if (goto_stop(&app, &stops[s], &err) < 0) {
					endwin();
					fprintf(stderr, "bench_keys: %s\n", err_format(&err, msg, sizeof msg));
					return 1;
				}
				quiet = now();
				for (size_t i = 0; i < NSCRIPT; i++) {
					char kl[32];
					if (app.menu.ov != script[i].ov) {
						endwin();
						fprintf(stderr, "bench_keys: press %zu (%s) on %s %s found overlay %d open, not %d\n",
							i + 1, key_label(script[i].key, kl, sizeof kl), stops[s].round_name,
							stops[s].work_name, (int)app.menu.ov, (int)script[i].ov);
						return 1;
					}
					t0 = now();
					flags[s * NSCRIPT + i] |= press(&app, script[i].key);
					t[(s * NSCRIPT + i) * (size_t)reps + (size_t)r] = now() - t0;
				}
				quiet = now() - quiet;
				/* e is timed apart: it writes and fsyncs two files, a disk cost, not a CPU one */
				t0 = now();
				press(&app, 'e');
				te[ne] = now() - t0;
				/* The floor right after, on the same disk in the same state. Here an fsync
				 * issued just after another has completed is much cheaper than the first one
				 * after a pause (this pair of files: 1.8-2.7 ms against 2.9-3.9 ms), and e
				 * always comes after the script's keys, which touch no disk; a floor timed
				 * straight after e would be the cheaper kind. So the floor too comes after as
				 * long a busy pause without disk I/O as the one before e (at most half a
				 * second, so that the script's 10 s at 10^5 rows are not spent twice). */
				spin(quiet < 0.5 ? quiet : 0.5);
				if (export_sizes(&app, &a, &b) < 0 || (f = export_floor(argv[3], a, b)) < 0) {
					endwin();
					fprintf(stderr, "bench_keys: export floor failed: %s\n", app.msg.text);
					return 1;
				}
				tf[ne++] = f;
				press(&app, ESC);
			}
		}
		report_round(m + 1, stops, nstops, t, flags, reps, te, tf, ne);
		fflush(stdout);
	}
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	printf("size %sx%s stops %zu presses %zu frames %lu\n", argv[5], argv[4], nstops,
	       npos * (size_t)reps * (size_t)rounds, app.scr.frames);
	ui_state_free(&app);
	dataset_free(&ds);
	free(stops);
	free(t);
	free(flags);
	free(te);
	free(tf);
	return 0;
}
