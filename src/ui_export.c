/* ui_export.c: the e key. The ranked table goes out as CSV (the same writer as --print csv)
 * and the plot as text, under names made of round, workload and time. Each file is written to
 * a temporary name in the target folder and then linked into place: link() fails rather than
 * replace an existing file, so a crash or a full disk never leaves a half file under the final
 * name and nothing the user already has is overwritten. No curses here. */
#include "ui_app.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "print.h"

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
	return print_csv(app->ds, &app->a, fp);
}

static int write_plot(struct app *app, FILE *fp)
{
	struct plot_spec spec;
	struct plot_grid g;
	struct gs_err err;
	char filt[160], b1[32], b2[32];
	char *text;
	size_t need;
	int rc = -1;

	memset(&g, 0, sizeof g);
	memset(&spec, 0, sizeof spec);
	/* as wide as on screen, but never smaller than a full 80x24 page */
	spec.width = app->grid_ok && app->lay.plot.w > 80 ? app->lay.plot.w : 80;
	spec.height = app->grid_ok && app->lay.plot.h > 24 ? app->lay.plot.h : 24;
	spec.log_y = app->log_y;
	spec.theta = app->ymet == MET_EP ? app->p.theta : NAN;
	spec.show_pareto = app->pareto_marks;
	spec.y_name = metric_name(app->ymet);
	print_plot_points(app->ds, &app->a, app->ymet, app->a.n ? (long)app->sel : -1, app->pts);
	if (plot_render(app->pts, app->a.n, &spec, &g, &err) < 0)
		return -1;
	need = plot_to_text(&g, NULL, 0);
	text = malloc(need + 1);
	if (text) {
		plot_to_text(&g, text, need + 1);
		fprintf(fp, "# gpuscale %s %s: %s vs accelerators (log2)%s, filter %s, reference ",
			app->p.round ? app->p.round : "-", app->p.workload ? app->p.workload : "-",
			metric_name(app->ymet), app->log_y ? ", log y" : "",
			ui_state_filter_text(app, filt, sizeof filt));
		if (app->a.ref >= 0)
			fprintf(fp, "%s (%s)", app->ds->rows[app->a.ref].system, ref_mode_name(app->p.mode));
		else
			fprintf(fp, "per %s", ref_mode_name(app->p.mode));
		fprintf(fp, ", k=%d, theta %s -> N=%s, %zu/%zu rows\n", app->a.k,
			fmt_fixed(app->p.theta, 2, b1, sizeof b1),
			app->a.breakeven >= 0 ? fmt_count(app->a.rows[app->a.breakeven].N, b2, sizeof b2) : "-",
			app->a.n, app->a.total);
		fputs(text, fp);
		rc = 0;
	}
	free(text);
	plot_free(&g);
	return rc;
}

/* Writes one file through a temporary; returns 0, 1 when `path` exists, or -1 with err. */
static int write_new(struct app *app, const char *dir, const char *path,
		     int (*fill)(struct app *, FILE *), struct gs_err *err)
{
	char tmp[1100];
	FILE *fp;
	int fd, rc;

	snprintf(tmp, sizeof tmp, "%s/.gpuscale-export-XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err_set(err, dir, 0, 0, "cannot create a file there: %s", strerror(errno));
		return -1;
	}
	/* mkstemp makes the file private; an export is an ordinary file (0666 less the umask) */
	{
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	fp = fdopen(fd, "w");
	if (!fp) {
		close(fd);
		unlink(tmp);
		err_set(err, dir, 0, 0, "%s", strerror(errno));
		return -1;
	}
	rc = fill(app, fp);
	if (fflush(fp) != 0 || ferror(fp) || fsync(fd) != 0)
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	if (rc < 0) {
		err_set(err, path, 0, 0, "write failed: %s", errno ? strerror(errno) : "error");
		unlink(tmp);
		return -1;
	}
	if (link(tmp, path) == 0) {
		unlink(tmp);
		return 0;
	}
	if (errno == EEXIST) {
		unlink(tmp);
		return 1;
	}
	/* file systems without hard links: check, then rename (a narrow race, but no loss) */
	if (access(path, F_OK) == 0) {
		unlink(tmp);
		return 1;
	}
	if (rename(tmp, path) != 0) {
		err_set(err, path, 0, 0, "%s", strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int ui_export_write(struct app *app, char *path, size_t n, struct gs_err *err)
{
	const char *dir = app->export_dir && *app->export_dir ? app->export_dir : ".";
	char round[64], work[64], stamp[32], base[900], csv[1000], txt[1000];
	time_t now = time(NULL);
	struct tm tm;

	if (!app->p.workload) {
		err_set(err, NULL, 0, 0, "no workload to export");
		return -1;
	}
	safe_part(app->p.round, round, sizeof round);
	safe_part(app->p.workload, work, sizeof work);
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	for (int i = 1; i < 100; i++) {
		int rc;
		if (i == 1)
			snprintf(base, sizeof base, "%s/gpuscale-%s-%s-%s", dir, round, work, stamp);
		else
			snprintf(base, sizeof base, "%s/gpuscale-%s-%s-%s-%d", dir, round, work, stamp, i);
		snprintf(csv, sizeof csv, "%s.csv", base);
		snprintf(txt, sizeof txt, "%s.txt", base);
		if (access(csv, F_OK) == 0 || access(txt, F_OK) == 0)
			continue;
		rc = write_new(app, dir, csv, write_csv, err);
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		rc = write_new(app, dir, txt, write_plot, err);
		if (rc != 0) {
			/* keep the pair together: the CSV just made goes too */
			unlink(csv);
			if (rc < 0)
				return -1;
			continue;
		}
		snprintf(path, n, "%s", csv);
		return 0;
	}
	err_set(err, dir, 0, 0, "no free file name for %s-%s-%s", round, work, stamp);
	return -1;
}
