/* cli_load.c: finding and loading the data the command line names: the data folder, its
 * bundled rounds, the families and prices tables, and the loader's warnings. */
#include "cli.h"

#include "text.h"

#include <fcntl.h>
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

/* The round a bundled file is named for (".../mlperf_training_v5.1.csv": "v5.1") into buf,
 * or NULL when its name is not v and a version of digits and dots (a table of another kind,
 * or another copy of a round, could hold anything). */
static const char *file_round(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/'), *pre = "mlperf_training_";
	size_t len;

	base = base ? base + 1 : path;
	if (strncmp(base, pre, strlen(pre)) != 0)
		return NULL;
	base += strlen(pre);
	len = strlen(base);
	if (len < 6 || len - 4 >= n || strcmp(base + len - 4, ".csv") != 0 ||
	    (base[0] != 'v' && base[0] != 'V') || base[1] < '0' || base[1] > '9')
		return NULL;
	for (size_t i = 1; i < len - 4; i++)
		if ((base[i] < '0' || base[i] > '9') && base[i] != '.')
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

/* Whether the rounds loaded into ds are exactly the nwant named in want, letter for letter
 * (v5.1 and V5.1 are two rounds to the analysis). */
static bool rounds_are(const struct dataset *ds, const char *const *want, size_t nwant)
{
	const char **got;
	size_t n;
	bool same;

	if (dataset_round_list(ds, &got, &n) < 0)
		return false;
	same = n == nwant;
	for (size_t i = 0; same && i < n; i++) {
		size_t j = 0;
		while (j < nwant && strcmp(want[j], got[i]) != 0)
			j++;
		same = j < nwant;
	}
	free(got);
	return same;
}

/* Whether the first rows of a bundled file not read are of the round it is named for: its
 * first 4 KB up to the last line end, parsed as the loader parses it. A file that is not a
 * regular file, cannot be read or parsed so, or has no whole row there, counts as not. */
static bool starts_as_named(const char *path, const char *round)
{
	char buf[4096];
	/* a regular file only, opened so that a FIFO cannot block: anything else is the loader's
	 * to judge, and makes every round be read */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t len = 0;
	struct dataset t;
	struct gs_err e = { 0 };
	bool ok;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		ssize_t got;
		while (len < sizeof buf && (got = read(fd, buf + len, sizeof buf - len)) > 0)
			len += (size_t)got;
	}
	close(fd);
	while (len > 0 && buf[len - 1] != '\n')
		len--;
	memset(&t, 0, sizeof t);
	ok = len > 0 && dataset_load_buffer(&t, path, buf, len, &e) == 0 && t.n > 0;
	for (size_t i = 0; ok && i < t.n; i++)
		ok = strcmp(t.rows[i].round, round) == 0;
	dataset_free(&t);
	return ok;
}

/* The bundled rounds a report of one round needs, into ds (holding the tables): the one
 * --round names, or the newest (with the workload -w names), found newest first. A bundled
 * file is one round's import, named for it: when a name is not a plain version, a file read
 * holds another round, a file not read starts with another, or the round or workload is not
 * found, 1 is returned (ds then holds what was read so far), and the caller loads every
 * round as the explorer loads them.
 * The rounds needed are loaded in the order every round would be (the loader's warnings and
 * its first skipped row are then the same). 0 loaded, 1 not enough, -1 with err. */
static int load_round_alone(struct dataset *ds, struct cli *c, const char *dir, struct gs_err *err)
{
	const char *round = c->params.round, *work = c->params.workload;
	const char *names[64], *loaded[64];
	char bufs[64][32];
	size_t order[64], n = 0, nload = 0, first = 0;
	bool found = false;

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
	if (round) {
		/* the round as the analysis resolves it: an exact name first, then in any case */
		size_t i = name_find(names, n, round, false);
		if (i == n)
			return 1;
		for (first = 0; order[first] != i; first++)
			;
	}
	for (size_t k = first; k < n && !found; k++) {
		const char *name = names[order[k]];
		/* an error is the whole load's to report: the first file, in its order, that fails */
		if (dataset_load_csv(ds, c->files[order[k]], err) < 0)
			break;
		loaded[nload++] = name;
		if (!rounds_are(ds, loaded, nload))
			break;
		found = round || !work || has_workload(ds, name, work);
	}
	for (size_t k = 0; found && k < n; k++)
		if ((k < first || k >= first + nload) && !starts_as_named(c->files[order[k]], names[order[k]]))
			found = false;
	if (!found)
		return 1;
	if (nload > 1) {
		size_t idx[64];
		for (size_t i = 0; i < nload; i++) {
			size_t j = i;
			for (; j > 0 && idx[j - 1] > order[first + i]; j--)
				idx[j] = idx[j - 1];
			idx[j] = order[first + i];
		}
		dataset_free(ds);
		if (load_tables(ds, c, dir, err) < 0)
			return -1;
		for (size_t i = 0; i < nload; i++)
			if (dataset_load_csv(ds, c->files[idx[i]], err) < 0)
				return -1;
	}
	load_finish(ds);
	return 0;
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
		if (one_round_enough(c)) {
			int rc = load_round_alone(ds, c, dir, err);
			if (rc <= 0)
				return rc;
			/* not enough: everything again, from the tables on */
			dataset_free(ds);
			memset(err, 0, sizeof *err);
			if (load_tables(ds, c, dir, err) < 0)
				return -1;
		}
	}
	for (int i = 0; i < c->nfiles; i++)
		if (dataset_load_csv(ds, c->files[i], err) < 0)
			return -1;
	load_finish(ds);
	return 0;
}
