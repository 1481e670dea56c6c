/* cli_load.c: finding and loading the data the command line names: the data folder, its
 * bundled rounds, the families and prices tables, and the loader's warnings. */
#include "cli.h"

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

void cli_warnings(const struct dataset *ds, size_t max, FILE *fp)
{
	size_t shown = ds->warn.n < max ? ds->warn.n : max;

	for (size_t i = 0; i < shown; i++)
		fprintf(fp, "gpuscale: warning: %s\n", ds->warn.items[i]);
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
	if (dataset_load_families(ds, path, err) < 0) {
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
	if (dataset_load_prices(ds, path, err) < 0) {
		if (c->prices_path || access(path, F_OK) == 0) /* only a missing default is no error */
			return -1;
		warn_add(&ds->warn, NULL, 0, 0, "%s (no prices: no costs)", err_format(err, msg, sizeof msg));
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

/* The round a bundled file is named for (".../mlperf_training_v5.1.csv": "v5.1"), or NULL. */
static const char *file_round(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/'), *pre = "mlperf_training_";
	size_t len;

	base = base ? base + 1 : path;
	if (strncmp(base, pre, strlen(pre)) != 0)
		return NULL;
	base += strlen(pre);
	len = strlen(base);
	if (len < 5 || len - 4 >= n || strcmp(base + len - 4, ".csv") != 0)
		return NULL;
	memcpy(buf, base, len - 4);
	buf[len - 4] = '\0';
	return buf;
}

/* Whether the reports asked for read the chosen round alone. The table and the CSV name the
 * earlier round a row was carried over from, the trend and --all-rounds span rounds, the
 * explorer switches between them, and --strict judges every row: those load every round. */
static bool one_round_enough(const struct cli *c)
{
	return c->print && !(c->print & (PR_TABLE | PR_CSV | PR_TREND)) && !c->params.all_rounds &&
	       !c->strict;
}

/* Whether ds holds rows of the workload work (by its id or a name for it) in round. */
static bool has_workload(const struct dataset *ds, const char *round, const char *work)
{
	const char **names;
	size_t n;
	bool has;

	if (dataset_workload_list(ds, round, &names, &n) < 0)
		return false;
	has = name_find(names, n, work, true) < n;
	free(names);
	return has;
}

/* Whether the rounds loaded into ds are exactly the nwant named in want. */
static bool rounds_are(const struct dataset *ds, const char *const *want, size_t nwant)
{
	const char **got;
	size_t n;
	bool same;

	if (dataset_round_list(ds, &got, &n) < 0)
		return false;
	same = n == nwant;
	for (size_t i = 0; same && i < n; i++)
		same = name_find(want, nwant, got[i], false) < nwant;
	free(got);
	return same;
}

/* The bundled rounds a report of one round needs: the one --round names, or the newest (with
 * the workload -w names), read newest first until it is found. A bundled file holds the round
 * it is named for (each is one round's import); when one holds another, or the round or
 * workload is not found, ds is emptied and 1 returned, and every round is loaded as the
 * explorer loads them. 0 loaded, 1 not enough, -1 with err. */
static int load_round_alone(struct dataset *ds, struct cli *c, const char *dir, struct gs_err *err)
{
	const char *round = c->params.round, *work = c->params.workload;
	const char *names[64], *loaded[64];
	char bufs[64][32];
	size_t order[64], n = 0, nload = 0;

	if (c->nfiles > 64)
		return 1;
	for (int i = 0; i < c->nfiles; i++) {
		if (!(names[i] = file_round(c->files[i], bufs[i], sizeof bufs[i])))
			return 1;
		/* newest first, by version order */
		size_t j = n++;
		for (; j > 0 && text_version_cmp(names[order[j - 1]], names[i]) < 0; j--)
			order[j] = order[j - 1];
		order[j] = (size_t)i;
	}
	if (load_tables(ds, c, dir, err) < 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		const char *name = names[order[k]];
		if (round && name_find(&name, 1, round, false) != 0)
			continue;
		if (dataset_load_csv(ds, c->files[order[k]], err) < 0)
			return -1;
		loaded[nload++] = name;
		if (!rounds_are(ds, loaded, nload))
			break;
		if (round || !work || has_workload(ds, name, work)) {
			load_finish(ds);
			return 0;
		}
	}
	dataset_free(ds);
	memset(err, 0, sizeof *err);
	return 1;
}

int cli_load(struct dataset *ds, struct cli *c, struct gs_err *err)
{
	char buf[4096];
	const char *dir = data_dir(buf, sizeof buf);

	if (c->nfiles == 0) {
		if (bundled_rounds(c, dir, err) < 0)
			return -1;
		if (one_round_enough(c)) {
			int rc = load_round_alone(ds, c, dir, err);
			if (rc <= 0)
				return rc;
		}
	}
	if (load_tables(ds, c, dir, err) < 0)
		return -1;
	for (int i = 0; i < c->nfiles; i++)
		if (dataset_load_csv(ds, c->files[i], err) < 0)
			return -1;
	load_finish(ds);
	return 0;
}
