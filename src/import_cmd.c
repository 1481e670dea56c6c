/* import_cmd.c: the `gpuscale import` command around import_tree: the round and output name,
 * the messages (every one cleaned by the sanitizer: they quote paths and data) and the write. */
#include "import.h"
#include "csvw.h"
#include "mllog.h"
#include "fileio.h"
#include "text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- writing ---- */

int import_output(const char *path, const char *buf, size_t len, bool replace, struct gs_err *err)
{
	struct stat st;

	if (strcmp(path, "-") == 0) {
		if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
			err_set(err, "stdout", 0, 0, "cannot write: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device or a pipe: no rename possible, written in place */
		FILE *f = fopen(path, "w");
		int bad = !f || fwrite(buf, 1, len, f) != len || fflush(f) != 0;
		int e = errno;
		if ((f && fclose(f) != 0) || bad) {
			err_set(err, path, 0, 0, "cannot write: %s", strerror(bad ? e : errno));
			return -1;
		}
		return 0;
	}
	return fileio_write(path, buf, len, replace, err);
}

/* ---- the command ---- */

/* Prints one message to stderr, "gpuscale import: " + printf text, cleaned of control
 * characters and invalid UTF-8: messages quote paths and data. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	utf8_sanitize(buf, strlen(buf));
	fprintf(stderr, "gpuscale import: %s\n", buf);
}

/* Prints the kept texts of a warning list, cleaned, and a count of the rest. */
static void say_list(const char *prefix, const struct gs_warn *w)
{
	for (size_t i = 0; i < w->n; i++) {
		/* a kept text is a few hundred bytes at most; a longer one is cut */
		char buf[2048];
		snprintf(buf, sizeof buf, "%s", w->items[i]);
		utf8_sanitize(buf, strlen(buf));
		fprintf(stderr, "%s%s\n", prefix, buf);
	}
	if (w->total > w->n)
		fprintf(stderr, "%s... and %zu more\n", prefix, w->total - w->n);
}

int import_run(const struct import_opts *o)
{
	const char *out = o->out, *round = o->round;
	char round_buf[256], out_buf[512];
	struct import_result res;
	struct gs_err err = {0};
	struct stat st;
	char msg[1200];

	csvw_set_raw(o->raw);
	if (stat(o->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		say("%s: not a readable folder", o->dir);
		return 2;
	}
	if (!round) {
		if (import_round_from_dir(o->dir, round_buf, sizeof round_buf) < 0) {
			say("%s: cannot tell the round from the folder name "
			    "(expected training_results_NAME); use --round NAME", o->dir);
			return 2;
		}
		round = round_buf;
	}
	if (!out) {
		if (strchr(round, '/')) {
			say("round '%s' cannot name a file; use -o OUT", round);
			return 2;
		}
		snprintf(out_buf, sizeof out_buf, "mlperf_training_%s.csv", round);
		/* a round taken from a folder name may hold any byte: none reaches a file name */
		utf8_sanitize(out_buf, strlen(out_buf));
		out = out_buf;
	}
	if (strcmp(out, "-") != 0 && !o->force) {
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
			say("%s exists; use --force to replace it", out);
			return 2;
		}
	}

	if (import_tree(o->dir, round, isatty(STDERR_FILENO) ? stderr : NULL, &res, &err) < 0) {
		say("%s", err_format(&err, msg, sizeof msg));
		import_result_free(&res);
		return 1;
	}
	/* a tree of v0.5 or v0.6 logs only: one message naming their format, not one per log,
	 * cell and system */
	size_t old = res.old_logs[0] + res.old_logs[1];
	if (res.rows == 0 && old && old == res.files) {
		say("nothing could be imported from %s: its %zu result log%s %s in %s, which gpuscale "
		    "does not read (it reads the MLLOG format of v0.7 on)", o->dir, old, old == 1 ? "" : "s",
		    old == 1 ? "is" : "are", mllog_old_format(res.old_logs[1] ? 6 : 5));
		import_result_free(&res);
		return 2;
	}
	say_list("warning: ", &res.warn);
	say_list("no score: ", &res.unscored);
	if (res.rows == 0) {
		say("nothing could be imported from %s (%zu warnings, %zu skipped)", o->dir,
		    res.warn.total, res.unscored.total);
		import_result_free(&res);
		return 2;
	}
	if (import_output(out, res.csv, res.len, o->force, &err) < 0) {
		int exists = errno == EEXIST;
		if (exists)
			say("%s exists; use --force to replace it", out);
		else
			say("%s", err_format(&err, msg, sizeof msg));
		import_result_free(&res);
		return exists ? 2 : 1;
	}
	say("%zu systems, %zu rows, %zu warnings, %zu skipped; %zu logs (%.1f MB) -> %s",
	    res.systems, res.rows, res.warn.total, res.unscored.total, res.files,
	    (double)res.bytes / 1e6, strcmp(out, "-") == 0 ? "stdout" : out);
	import_result_free(&res);
	return 0;
}
