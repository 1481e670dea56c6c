/* ui_export.c: the e key. The ranked table goes out as CSV (report_csv: the same columns as
 * --print csv, through the one CSV writer) and the plot as text, under names made of round,
 * workload and time.
 *
 * Both texts are made in memory, then each is written to a temporary file beside its final name
 * and fsync'd (fileio_temp), and only then moved into place without replacing anything
 * (fileio_place). So a crash or a full disk never leaves a half file under a final name,
 * nothing the user already has is overwritten, and a failed export removes its temporaries and
 * says why. No curses here. */
#include "ui_app.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "describe.h"
#include "fileio.h"
#include "fmt.h"
#include "report.h"

/* Names from the data go into a file name: keep it to a portable alphabet. */
static void safe_part(const char *s, char *buf, size_t n)
{
	size_t j = 0;

	for (; s && *s && j + 1 < n; s++) {
		unsigned char c = (unsigned char)*s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '.' || c == '-' || c == '_';
		buf[j++] = ok ? (char)c : '_';
	}
	if (j == 0 && n > 1)
		buf[j++] = 'x';
	buf[j] = '\0';
}

static int write_csv(struct app *app, FILE *fp)
{
	/* its interval columns need every shown row's interval, drawn once and kept by the analysis */
	for (size_t j = 0; j < app->nvis; j++)
		if (analysis_intervals(app->ds, &app->a, app->vis[j], app->vis[j] + 1, NULL) < 0)
			return -1;
	/* its e_prime_fit column says what --print csv says, fit shown or not; the screen, which
	 * shows no fit with L off, has none after */
	bool fits = app->a.fits != NULL;
	if (!fits && analysis_fits_add(app->ds, &app->a, NULL) < 0)
		return -1;
	/* what is shown: under a row filter, its rows only */
	int rc = report_csv_rows(app->ds, &app->a, app->vis, app->nvis, true, fp);
	if (!fits)
		analysis_fits_drop(&app->a);
	return rc;
}

static int write_plot(struct app *app, FILE *fp)
{
	struct plot_spec spec;
	struct plot_grid g;
	struct gs_err err;
	char filt[160], b1[32], groups[512], ref[800];
	char *text;
	size_t need;
	int rc = -1;

	memset(&g, 0, sizeof g);
	/* as wide as on screen, but never smaller than a full 80x24 page */
	ui_state_plot_spec(app, app->pc.grid_ok && app->scr.lay.plot.w > 80 ? app->scr.lay.plot.w : 80,
			   app->pc.grid_ok && app->scr.lay.plot.h > 24 ? app->scr.lay.plot.h : 24, &spec);
	if (plot_render(app->pc.pts, ui_state_plot_points(app), &spec, &g, &err) < 0)
		return -1;
	need = plot_to_text(&g, NULL, 0);
	text = malloc(need + 1);
	if (text) {
		plot_to_text(&g, text, need + 1);
		fprintf(fp, "# gpuscale %s %s: %s vs accelerators (log2)%s, filter %s, reference ",
			app->p.all_rounds ? "all rounds" : app->p.round ? app->p.round : "-",
			app->p.workload ? app->p.workload : "-",
			metric_name(app->scr.ymet), app->scr.log_y ? ", log y" : "",
			describe_filter(&app->p.filter, filt, sizeof filt));
		fputs(describe_ref(app->ds, &app->a, true, ref, sizeof ref), fp);
		size_t nc = ui_state_carried(app);
		char more[48];
		fprintf(fp, ", k=%d, theta %s: %s, %zu/%zu rows%s\n", app->a.k,
			fmt_short(app->p.theta, b1, sizeof b1),
			describe_groups(&app->a, app->nvis ? app->a.rows[app->vis[app->sel]].group : 0,
					INT_MAX, groups, sizeof groups),
			app->nvis - nc, app->a.total, describe_carried_count(nc, more, sizeof more));
		/* the line that shows this view again, to keep in a script */
		char *cmd = ui_undo_cmdline(app);
		if (cmd) {
			fprintf(fp, "# view: %s\n", cmd);
			fputs(text, fp);
			rc = 0;
		}
		free(cmd);
	}
	free(text);
	plot_free(&g);
	return rc;
}

/* Runs fill into a memory stream that records a write finding no memory (fileio_mem); 0 with
 * *buf (caller frees) and *len, or -1 with errno (ENOMEM: out of memory), *buf NULL. */
static int fill_mem(struct app *app, int (*fill)(struct app *, FILE *), char **buf, size_t *len)
{
	struct fileio_mem m;
	int rc;

	*buf = NULL;
	*len = 0;
	if (fileio_mem_open(&m) < 0)
		return -1;
	errno = 0;
	rc = fill(app, m.f);
	if (rc < 0 && !errno)
		errno = EIO;
	if (fileio_mem_close(&m) < 0)
		return -1; /* errno from the stream: ENOMEM when a write found no memory */
	if (rc < 0) {
		free(m.p);
		return -1;
	}
	*buf = m.p;
	*len = m.len;
	return 0;
}

/* The reason a text could not be made, "out of memory" spelled as every module spells it. */
static const char *fill_why(int e)
{
	return e == ENOMEM ? "out of memory" : strerror(e);
}

/* One export on its way to disk: the two texts (CSV, plot), their temporaries, their names. */
struct export {
	const char *dir;
	char round[64], work[64], stamp[32];
	char *buf[2];
	size_t len[2];
	char tmp[2][1100];
	bool have_tmp[2];
	char dst[2][1000];
};

static const char *const ext[2] = { "csv", "txt" };

/* The final names of attempt i (1: no number). */
static void final_names(struct export *x, int i)
{
	char base[900];

	if (i == 1)
		snprintf(base, sizeof base, "%s/gpuscale-%s-%s-%s", x->dir, x->round, x->work, x->stamp);
	else
		snprintf(base, sizeof base, "%s/gpuscale-%s-%s-%s-%d", x->dir, x->round, x->work, x->stamp, i);
	for (int k = 0; k < 2; k++)
		snprintf(x->dst[k], sizeof x->dst[k], "%s.%s", base, ext[k]);
}

/* Text k on disk under a temporary name beside x->dst[k]; 0, or -1 with err. */
static int write_temp(struct export *x, int k, struct gs_err *err)
{
	if (fileio_temp(x->dst[k], x->buf[k], x->len[k], x->tmp[k], sizeof x->tmp[k], err) < 0) {
		err_set(err, x->dir, 0, 0, "cannot write a file there: %s", strerror(errno));
		return -1;
	}
	x->have_tmp[k] = true;
	return 0;
}

/* Moves temporary k to its final name: 0 moved, 1 the name is taken, -1 with err. */
static int place(struct export *x, int k, struct gs_err *err)
{
	if (fileio_place(x->tmp[k], x->dst[k], false, err) == 0) {
		x->have_tmp[k] = false;
		return 0;
	}
	return errno == EEXIST ? 1 : -1;
}

/* Both files go under the first pair of free names: a CSV whose plot's name is taken is taken
 * back (its temporary written again) and the pair moves on to the next number. */
static int place_pair(struct export *x, char *path, size_t n, struct gs_err *err)
{
	for (int i = 1; i < 100; i++) {
		int r;
		final_names(x, i);
		r = place(x, 0, err);
		if (r > 0)
			continue;
		if (r < 0)
			return -1;
		r = place(x, 1, err);
		if (r == 0) {
			snprintf(path, n, "%s", x->dst[0]);
			return 0;
		}
		/* keep the pair together: no CSV stays without its plot */
		unlink(x->dst[0]);
		if (r < 0 || write_temp(x, 0, err) < 0)
			return -1;
	}
	err_set(err, x->dir, 0, 0, "no free file name for %s-%s-%s", x->round, x->work, x->stamp);
	return -1;
}

int ui_export_write(struct app *app, char *path, size_t n, struct gs_err *err)
{
	struct export x;
	time_t now = time(NULL);
	struct tm tm;
	int rc = -1;

	if (!app->p.workload) {
		err_set(err, NULL, 0, 0, "no workload to export");
		return -1;
	}
	memset(&x, 0, sizeof x);
	x.dir = app->scr.export_dir && *app->scr.export_dir ? app->scr.export_dir : ".";
	safe_part(app->p.all_rounds ? "all-rounds" : app->p.round, x.round, sizeof x.round);
	safe_part(app->p.workload, x.work, sizeof x.work);
	localtime_r(&now, &tm);
	strftime(x.stamp, sizeof x.stamp, "%Y%m%d-%H%M%S", &tm);
	final_names(&x, 1);
	if (fill_mem(app, write_plot, &x.buf[1], &x.len[1]) < 0)
		err_set(err, NULL, 0, 0, "cannot make the plot: %s", fill_why(errno));
	else if (fill_mem(app, write_csv, &x.buf[0], &x.len[0]) < 0)
		err_set(err, NULL, 0, 0, "cannot make the table: %s", fill_why(errno));
	else if (write_temp(&x, 1, err) == 0 && write_temp(&x, 0, err) == 0)
		rc = place_pair(&x, path, n, err);
	for (int k = 0; k < 2; k++) {
		if (x.have_tmp[k])
			fileio_discard(x.tmp[k]);
		free(x.buf[k]);
	}
	return rc;
}
