/* cli_load.c: finding and loading the data the command line names: the data folder, its
 * bundled rounds, the families and prices tables, and the loader's warnings. */
#include "cli.h"
#include "fileio.h"

#include "text.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUNDLED_GLOB "mlperf_training_*.csv"

static bool is_dir(const char *p)
{
	struct stat st;

	return p && *p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The data folder: GPUSCALE_DATA, then the source tree's data/ (also beside the running
 * binary), then the installed share/gpuscale. */
static const char *data_dir(char *buf, size_t n)
{
	const char *env = getenv("GPUSCALE_DATA");
	ssize_t len;

	if (env && *env)
		return env;
	if (is_dir(GS_SRCDATA))
		return GS_SRCDATA;
	len = readlink("/proc/self/exe", buf, n - 8);
	if (len > 0) {
		buf[len] = '\0';
		char *slash = strrchr(buf, '/');
		if (slash) {
			strcpy(slash + 1, "data");
			if (is_dir(buf))
				return buf;
		}
	}
	return GS_SHAREDIR;
}

void cli_warnings(const struct dataset *ds, size_t max, bool strict, FILE *fp)
{
	size_t shown = ds->warn.n < max ? ds->warn.n : max;

	for (size_t i = 0; i < shown; i++) {
		const char *w = ds->warn.items[i];
		size_t len = strlen(w), sl = strlen(DATASET_ROW_SKIPPED);
		if (strict && len > sl && strcmp(w + len - sl, DATASET_ROW_SKIPPED) == 0)
			fprintf(fp, "gpuscale: error: %.*s\n", (int)(len - sl), w);
		else
			fprintf(fp, "gpuscale: warning: %s\n", w);
	}
	if (ds->warn.total > shown)
		fprintf(fp, "gpuscale: %zu more warnings not shown\n", ds->warn.total - shown);
}

/* Points c->files at every mlperf_training_*.csv of dir (glob sorts them; the newest round
 * is chosen by version order later, not by this order). 0, or -1 with err. */
static int bundled_rounds(struct cli *c, const char *dir, struct gs_err *err)
{
	char pat[4200];
	glob_t g;
	int rc;

	snprintf(pat, sizeof pat, "%s/%s", dir, BUNDLED_GLOB);
	rc = glob(pat, 0, NULL, &g);
	if (rc == GLOB_NOSPACE) {
		err_oom(err, NULL, 0);
		return -1;
	}
	if (rc != 0 || g.gl_pathc == 0) {
		globfree(&g);
		err_set(err, dir, 0, 0, "no %s here (set GPUSCALE_DATA to the folder holding the bundled rounds, or name a results CSV)",
			BUNDLED_GLOB);
		return -1;
	}
	c->bundled = calloc(g.gl_pathc + 1, sizeof *c->bundled);
	for (size_t i = 0; c->bundled && i < g.gl_pathc; i++)
		if (!(c->bundled[i] = strdup(g.gl_pathv[i]))) {
			cli_free(c);
			break;
		}
	if (!c->bundled) {
		globfree(&g);
		err_oom(err, NULL, 0);
		return -1;
	}
	c->files = c->bundled;
	c->nfiles = (int)g.gl_pathc;
	globfree(&g);
	return 0;
}

void cli_free(struct cli *c)
{
	free(c->sel);
	c->sel = NULL;
	if (!c->bundled)
		return;
	for (char **p = c->bundled; *p; p++)
		free(*p);
	free(c->bundled);
	c->bundled = NULL;
	c->files = NULL;
	c->nfiles = 0;
}

/* load(ds, path, err), having waited for the writer when named, a file the user named, is a
 * FIFO (the data folder's files are never waited on: a FIFO there is an error at once). */
static int load_named(struct dataset *ds, const char *named,
		      int (*load)(struct dataset *, const char *, struct gs_err *), const char *path,
		      struct gs_err *err)
{
	int hold = named ? fileio_fifo_wait(named) : -1;
	int rc = load(ds, path, err);

	if (hold >= 0)
		close(hold);
	return rc;
}

/* The families and prices tables of the data folder dir (or the files the command line names)
 * into ds. 0, or -1 with err. */
static int load_tables(struct dataset *ds, struct cli *c, const char *dir, struct gs_err *err)
{
	char msg[1200];
	char *path = c->default_path;
	size_t pathn = sizeof c->default_path;

	if (c->families_path)
		snprintf(path, pathn, "%s", c->families_path);
	else
		snprintf(path, pathn, "%s/families.csv", dir);
	if (load_named(ds, c->families_path ? path : NULL, dataset_load_families, path, err) < 0) {
		if (c->families_path)
			return -1;
		warn_add(&ds->warn, NULL, 0, 0, "%s (families fall back to accelerator names)",
			 err_format(err, msg, sizeof msg));
		memset(err, 0, sizeof *err);
	}
	if (c->prices_path)
		snprintf(path, pathn, "%s", c->prices_path);
	else
		snprintf(path, pathn, "%s/prices.csv", dir);
	if (load_named(ds, c->prices_path ? path : NULL, dataset_load_prices, path, err) < 0) {
		if (c->prices_path || access(path, F_OK) == 0) /* only a missing default is no error */
			return -1;
		warn_add(&ds->warn, NULL, 0, 0, "%s (no prices: no costs)", err_format(err, msg, sizeof msg));
		memset(err, 0, sizeof *err);
	}
	/* the RCP means: without them predictions keep to the time law */
	snprintf(path, pathn, "%s/rcp.csv", dir);
	if (access(path, F_OK) == 0 && rcp_load(path, &ds->rcp, err) < 0) {
		warn_add(&ds->warn, NULL, 0, 0, "%s (no RCP: predictions from the time law only)",
			 err_format(err, msg, sizeof msg));
		memset(err, 0, sizeof *err);
	}
	return 0;
}

/* What every load ends with: the rows classified, and the accelerators no rule matched. */
static void load_finish(struct dataset *ds)
{
	dataset_classify(ds);
	if (ds->unmatched)
		warn_add(&ds->warn, NULL, 0, 0,
			 "%zu rows have an accelerator no family rule matches (e.g. '%s'); their family is the accelerator name",
			 ds->unmatched, ds->unmatched_example);
}

int cli_load(struct dataset *ds, struct cli *c, struct gs_err *err)
{
	char buf[4096];
	const char *dir = data_dir(buf, sizeof buf);

	if (load_tables(ds, c, dir, err) < 0)
		return -1;
	if (c->nfiles == 0) {
		if (bundled_rounds(c, dir, err) < 0)
			return -1;
	}
	for (int i = 0; i < c->nfiles; i++)
		if (load_named(ds, c->bundled ? NULL : c->files[i], dataset_load_csv, c->files[i], err) < 0)
			return -1;
	load_finish(ds);
	return 0;
}
