/* ui_export.c: the e key. The ranked table goes out as CSV (the same writer as --print csv)
 * and the plot as text, under names made of round, workload and time.
 *
 * Each text is made in memory, written with one write() to a temporary name in the target
 * folder, fsync'd, and only then moved into place by renameat2(RENAME_NOREPLACE), which fails
 * rather than replace an existing file; where the kernel or file system lacks it, link() +
 * unlink() does the same, and where there are no hard links either, a check and rename() (a
 * narrow race, but no loss). So a crash or a full disk never leaves a half file under a final
 * name, nothing the user already has is overwritten, and a failed export removes its
 * temporaries and says why. Formatting the CSV costs about as much CPU as the fsync costs
 * time, so the plot file is written and fsync'd by a short-lived thread meanwhile. No curses
 * here. */
#include "ui_app.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

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
	return report_csv(app->ds, &app->a, fp);
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
	/* as wide as on screen, but never smaller than a full 80x24 page */
	ui_state_plot_spec(app, app->grid_ok && app->lay.plot.w > 80 ? app->lay.plot.w : 80,
			   app->grid_ok && app->lay.plot.h > 24 ? app->lay.plot.h : 24, &spec);
	ui_state_plot_points(app);
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
			fmt_short(app->p.theta, b1, sizeof b1),
			app->a.breakeven >= 0 ? fmt_count(app->a.rows[app->a.breakeven].N, b2, sizeof b2) : "-",
			app->a.n, app->a.total);
		fputs(text, fp);
		rc = 0;
	}
	free(text);
	plot_free(&g);
	return rc;
}

/* Runs fill into a memory stream; 0 with *buf (caller frees) and *len, or -1 with errno. */
static int fill_mem(struct app *app, int (*fill)(struct app *, FILE *), char **buf, size_t *len)
{
	FILE *fp;
	int rc;

	*buf = NULL;
	errno = 0;
	fp = open_memstream(buf, len);
	if (!fp)
		return -1;
	rc = fill(app, fp);
	if (ferror(fp))
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	if (rc < 0) {
		free(*buf);
		*buf = NULL;
		if (!errno)
			errno = EIO;
	}
	return rc;
}

/* One file of an export on its way to disk: text in, temporary name and outcome out. */
struct temp_file {
	const char *dir, *ext;
	unsigned seq;
	char *buf;
	size_t len;
	char tmp[1100];
	int rc, err;              /* 0, or -1 and the errno */
};

/* Writes f->buf to a new temporary file in f->dir and fsyncs it; on failure nothing is left
 * behind. The mode is 0666 less the umask, as for any new file. */
static void write_temp(struct temp_file *f)
{
	const char *p = f->buf;
	size_t len = f->len;
	int fd = -1;

	f->rc = -1;
	for (int tries = 0; tries < 100 && fd < 0; tries++) {
		snprintf(f->tmp, sizeof f->tmp, "%s/.gpuscale-export-%ld-%u-%d.%s", f->dir,
			 (long)getpid(), f->seq, tries, f->ext);
		fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		f->err = errno;
		return;
	}
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			break;
		}
		p += w;
		len -= (size_t)w;
	}
	if (len == 0 && fsync(fd) == 0) {
		int c = close(fd);
		fd = -1;
		if (c == 0) {
			f->rc = 0;
			return;
		}
	}
	f->err = errno;
	if (fd >= 0)
		close(fd);
	unlink(f->tmp);
}

static void *write_temp_thread(void *arg)
{
	write_temp(arg);
	return NULL;
}

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/* Moves from to to unless to exists: 0 moved, 1 to exists (from kept), -1 with errno. */
static int place(const char *from, const char *to)
{
#ifdef SYS_renameat2
	if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno == EEXIST)
		return 1;
	/* EINVAL or ENOSYS: no RENAME_NOREPLACE here; anything else, the fallbacks say why */
#endif
	if (link(from, to) == 0) {
		unlink(from);
		return 0;
	}
	if (errno == EEXIST)
		return 1;
	/* file systems without hard links: check, then rename (a narrow race, but no loss) */
	if (access(to, F_OK) == 0)
		return 1;
	return rename(from, to) == 0 ? 0 : -1;
}

int ui_export_write(struct app *app, char *path, size_t n, struct gs_err *err)
{
	static const char *const ext[2] = { "csv", "txt" };
	static unsigned seq;
	const char *dir = app->export_dir && *app->export_dir ? app->export_dir : ".";
	char round[64], work[64], stamp[32], base[900], dst[2][1000];
	struct temp_file f[2];
	pthread_t th;
	bool threaded, made;
	int ntmp = 0, rc = -1;
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
	memset(f, 0, sizeof f);
	for (int k = 0; k < 2; k++) {
		f[k].dir = dir;
		f[k].ext = ext[k];
		f[k].seq = seq;
		f[k].rc = -1;
	}
	seq++;

	/* the plot (cheap to make) goes to disk on a thread while the CSV is formatted here */
	if (fill_mem(app, write_plot, &f[1].buf, &f[1].len) < 0) {
		err_set(err, NULL, 0, 0, "cannot make the plot: %s", strerror(errno));
		goto out;
	}
	threaded = pthread_create(&th, NULL, write_temp_thread, &f[1]) == 0;
	if (!threaded)
		write_temp(&f[1]);
	made = fill_mem(app, write_csv, &f[0].buf, &f[0].len) == 0;
	if (made)
		write_temp(&f[0]);
	else
		f[0].err = errno;
	if (threaded)
		pthread_join(th, NULL);
	for (int k = 0; k < 2; k++)
		if (f[k].rc == 0)
			ntmp |= 1 << k;
	if (!made) {
		err_set(err, NULL, 0, 0, "cannot make the table: %s", strerror(f[0].err));
		goto out;
	}
	for (int k = 0; k < 2; k++) {
		if (f[k].rc != 0) {
			err_set(err, dir, 0, 0, "cannot write a file there: %s", strerror(f[k].err));
			goto out;
		}
	}

	/* both files are on disk under temporary names: only their final names remain to pick */
	for (int i = 1; i < 100; i++) {
		int r, e;
		if (i == 1)
			snprintf(base, sizeof base, "%s/gpuscale-%s-%s-%s", dir, round, work, stamp);
		else
			snprintf(base, sizeof base, "%s/gpuscale-%s-%s-%s-%d", dir, round, work, stamp, i);
		for (int k = 0; k < 2; k++)
			snprintf(dst[k], sizeof dst[k], "%s.%s", base, ext[k]);
		r = place(f[0].tmp, dst[0]);
		if (r > 0)
			continue;
		if (r < 0) {
			err_set(err, dst[0], 0, 0, "%s", strerror(errno));
			goto out;
		}
		r = place(f[1].tmp, dst[1]);
		if (r == 0) {
			snprintf(path, n, "%s", dst[0]);
			ntmp = 0;
			rc = 0;
			goto out;
		}
		e = errno;
		/* keep the pair together: the CSV just placed goes back to its temporary name */
		if (place(dst[0], f[0].tmp) != 0) {
			if (r > 0)
				e = errno ? errno : EEXIST;
			unlink(dst[0]);
			ntmp &= ~1;
			err_set(err, dst[0], 0, 0, "%s", strerror(e));
			goto out;
		}
		if (r < 0) {
			err_set(err, dst[1], 0, 0, "%s", strerror(e));
			goto out;
		}
	}
	err_set(err, dir, 0, 0, "no free file name for %s-%s-%s", round, work, stamp);
out:
	for (int k = 0; k < 2; k++) {
		if (ntmp & (1 << k))
			unlink(f[k].tmp);
		free(f[k].buf);
	}
	return rc;
}
