/* main.c: gpuscale's entry point: parse the command line, find and load the data, check the
 * names that depend on it, then hand over to the importer, the reports or the explorer. */
#include <errno.h>
#include <locale.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "cli.h"
#include "dataset.h"
#include "importer.h"
#include "print.h"
#include "ui.h"

#define DEFAULT_CSV "mlperf_training_v4.1.csv"

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

/* Prints the loader's warnings, at most `max` of them, to stderr. */
static void print_warnings(const struct dataset *ds, size_t max)
{
	size_t shown = ds->warn.n < max ? ds->warn.n : max;

	for (size_t i = 0; i < shown; i++)
		fprintf(stderr, "gpuscale: warning: %s\n", ds->warn.items[i]);
	if (ds->warn.total > shown)
		fprintf(stderr, "gpuscale: %zu more warnings not shown\n", ds->warn.total - shown);
}

/* Prints "valid: a, b, c" of a list of names to stderr. */
static void list_names(const char *what, const char **names, size_t n)
{
	fprintf(stderr, "gpuscale: valid %s:", what);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : "", names[i]);
	fputc('\n', stderr);
}

static bool in_list(const char *s, const char **names, size_t n)
{
	return name_find(names, n, s, false) < n;
}

/* Distinct values of one row field over a round (pointer-distinct: pooled strings). */
static size_t distinct(const struct dataset *ds, const char *round, size_t off, const char **out,
		       size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		const char *v = *(const char *const *)((const char *)r + off);
		if (round && strcmp(r->round, round) != 0)
			continue;
		if (n && v == out[n - 1])
			continue; /* pooled: runs of one value cost one compare */
		if (!in_list(v, out, n) && n < max)
			out[n++] = v;
	}
	return n;
}

struct pin_cand {
	const char *system, *submitter;
	size_t row; /* place among the rows of the round and workload, in dataset order */
};

static int pin_cand_cmp(const void *a, const void *b)
{
	const struct pin_cand *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* The systems of p's round and workload that an unknown (found -1) or ambiguous (-2) pinned
 * system is listed with, in dataset order, at most max of them into names (texts in bufs,
 * max x 256 bytes). A system id several submitters share there is only valid as
 * SUBMITTER/SYSTEM, so it is given that way; which ids those are comes from one sort of the
 * rows by system id, not a search of every row per row. */
static size_t pin_candidates(const struct dataset *ds, const struct params *p, long found,
			     const char **names, char *bufs, size_t max)
{
	struct pin_cand *v = NULL, *by_sys = NULL;
	bool *shared = NULL;
	size_t m = 0, n = 0;

	for (size_t i = 0; i < ds->n; i++)
		m += strcmp(ds->rows[i].round, p->round) == 0 && strcmp(ds->rows[i].benchmark, p->workload) == 0;
	if (m && (!(v = malloc(m * sizeof *v)) || !(shared = calloc(m, sizeof *shared))))
		goto out; /* out of memory: no list */
	m = 0;
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		if (strcmp(r->round, p->round) == 0 && strcmp(r->benchmark, p->workload) == 0) {
			v[m] = (struct pin_cand){ r->system, r->submitter, m };
			m++;
		}
	}
	/* v sorted by (system, row): a run of one system with two submitters is shared; not
	 * needed when only the ambiguous id's rows are listed, each as SUBMITTER/SYSTEM */
	if (found != -2 && m && !(by_sys = malloc(m * sizeof *by_sys)))
		goto out;
	if (found != -2 && m) {
		memcpy(by_sys, v, m * sizeof *v);
		qsort(by_sys, m, sizeof *by_sys, pin_cand_cmp);
	}
	for (size_t g = 0, e; found != -2 && g < m; g = e) {
		bool two = false;
		for (e = g + 1; e < m && strcmp(by_sys[e].system, by_sys[g].system) == 0; e++)
			two |= strcmp(by_sys[e].submitter, by_sys[g].submitter) != 0;
		/* an id with a '/' may also read as SUBMITTER/SYSTEM of other rows (rare: searched) */
		if (!two && strchr(by_sys[g].system, '/'))
			two = dataset_find(ds, p->round, p->workload, by_sys[g].system) == -2;
		for (size_t j = g; two && j < e; j++)
			shared[by_sys[j].row] = true;
	}
	for (size_t i = 0; i < m && n < max; i++) {
		/* ambiguous: only the rows of that id, each as SUBMITTER/SYSTEM */
		if (found == -2 && strcmp(v[i].system, p->pinned) != 0)
			continue;
		if (shared[i] || found == -2) {
			snprintf(bufs + n * 256, 256, "%s/%s", v[i].submitter, v[i].system);
			names[n] = bufs + n * 256;
		} else {
			names[n] = v[i].system;
		}
		n++;
	}
out:
	free(v);
	free(by_sys);
	free(shared);
	return n;
}

/* Checks round, workload, families and the pinned system against the data; resolves the
 * defaults. Returns 0, or 2 after printing the problem and the valid names. */
static int check_names(const struct dataset *ds, struct cli *c)
{
	enum { MAXN = MAX_NAMES };
	const char **names = malloc(MAXN * sizeof *names);
	struct params *p = &c->params;
	char *bufs = NULL;
	long found;
	size_t n;
	int rc = 2;

	if (!names)
		return 1;
	n = dataset_rounds(ds, names, MAXN);
	if (n == 0) {
		fprintf(stderr, "gpuscale: no rows could be loaded from");
		for (int i = 0; i < c->nfiles; i++)
			fprintf(stderr, " %s", c->files[i]);
		fprintf(stderr, " (header only, or every row was bad)\n");
		goto out;
	}
	if (!p->round) {
		p->round = names[n - 1]; /* the last round given: the newest when files are in order */
	} else {
		size_t i = name_find(names, n, p->round, false);
		if (i == n) {
			fprintf(stderr, "gpuscale: unknown round '%s'\n", p->round);
			list_names("rounds", names, n);
			goto out;
		}
		p->round = names[i];
	}
	n = dataset_workloads(ds, p->round, names, MAXN);
	if (!p->workload) {
		p->workload = names[0];
	} else {
		size_t i = name_find(names, n, p->workload, true);
		if (i == n) {
			fprintf(stderr, "gpuscale: unknown workload '%s' in round %s\n", p->workload, p->round);
			list_names("workloads", names, n);
			goto out;
		}
		p->workload = names[i];
	}
	const struct {
		const char *const *want;
		size_t nwant, field;
		const char *what, *plural;
	} filters[] = {
		{ p->filter.families, p->filter.nfamilies, offsetof(struct row, family), "family", "families" },
		{ p->filter.vendors, p->filter.nvendors, offsetof(struct row, vendor), "vendor", "vendors" },
		{ p->filter.availability, p->filter.navailability, offsetof(struct row, availability),
		  "availability", "availabilities" },
		{ p->filter.divisions, p->filter.ndivisions, offsetof(struct row, division), "division", "divisions" },
	};
	for (size_t f = 0; f < sizeof filters / sizeof filters[0]; f++) {
		/* the valid names cost a pass over the rows: only when this filter is used */
		n = filters[f].nwant ? distinct(ds, p->round, filters[f].field, names, MAXN) : 0;
		for (size_t i = 0; i < filters[f].nwant; i++) {
			if (!in_list(filters[f].want[i], names, n)) {
				fprintf(stderr, "gpuscale: unknown %s '%s' in round %s\n", filters[f].what,
					filters[f].want[i], p->round);
				list_names(filters[f].plural, names, n);
				goto out;
			}
		}
	}
	if (p->pinned && (found = dataset_find(ds, p->round, p->workload, p->pinned)) < 0) {
		bufs = malloc(MAXN * 256);
		n = bufs ? pin_candidates(ds, p, found, names, bufs, MAXN) : 0;
		if (found == -2)
			fprintf(stderr, "gpuscale: system '%s' is ambiguous for %s in round %s: several submitters have it\n",
				p->pinned, p->workload, p->round);
		else
			fprintf(stderr, "gpuscale: unknown system '%s' for %s in round %s\n", p->pinned,
				p->workload, p->round);
		list_names("systems", names, n);
		goto out;
	}
	rc = 0;
out:
	free(bufs);
	free(names);
	return rc;
}

static int load(struct dataset *ds, struct cli *c, char *path, size_t pathn)
{
	char buf[4096], msg[1200];
	const char *dir = data_dir(buf, sizeof buf);
	struct gs_err err = { 0 };

	if (c->families_path)
		snprintf(path, pathn, "%s", c->families_path);
	else
		snprintf(path, pathn, "%s/families.csv", dir);
	if (dataset_load_families(ds, path, &err) < 0) {
		if (c->families_path) {
			fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
			return 2;
		}
		warn_add(&ds->warn, NULL, 0, 0, "%s (families fall back to accelerator names)",
			 err_format(&err, msg, sizeof msg));
	}
	if (c->nfiles == 0) {
		snprintf(path, pathn, "%s/%s", dir, DEFAULT_CSV);
		c->files[c->nfiles++] = path; /* lives in main's frame */
	}
	for (int i = 0; i < c->nfiles; i++) {
		if (dataset_load_csv(ds, c->files[i], &err) < 0) {
			fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
			if (c->nfiles == 1 && !strcmp(c->files[i], path) && errno == ENOENT)
				fprintf(stderr, "gpuscale: set GPUSCALE_DATA to the folder holding %s\n", DEFAULT_CSV);
			return 2;
		}
	}
	dataset_classify(ds);
	if (ds->unmatched)
		warn_add(&ds->warn, NULL, 0, 0,
			 "%zu rows have an accelerator no family rule matches (e.g. '%s'); their family is the accelerator name",
			 ds->unmatched, ds->unmatched_example);
	return 0;
}

int main(int argc, char **argv)
{
	struct dataset ds;
	struct cli c;
	struct gs_err err = { 0 };
	char msg[1200], path[4200];
	int rc;

	setlocale(LC_ALL, "");
	/* numbers are read and written in one notation whatever the user's locale */
	setlocale(LC_NUMERIC, "C");
	if (argc > 1 && strcmp(argv[1], "import") == 0)
		return import_main(argc - 1, argv + 1);
	if (cli_parse(argc, argv, &c, &err) < 0) {
		fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
		fprintf(stderr, "Try 'gpuscale --help'.\n");
		return 2;
	}
	if (c.help) {
		cli_usage(stdout);
		return 0;
	}
	if (c.version) {
		printf("gpuscale %s\n", GS_VERSION);
		return 0;
	}
	memset(&ds, 0, sizeof ds);
	rc = load(&ds, &c, path, sizeof path);
	if (rc == 0)
		rc = check_names(&ds, &c);
	if (rc != 0) {
		print_warnings(&ds, 20);
		dataset_free(&ds);
		return rc;
	}
	if (c.print) {
		struct print_opts o = {
			.width = c.width ? c.width : 80, .height = c.height,
			.table_width = c.width, .y_metric = c.ui.y_metric,
			.log_y = c.ui.log_y, .all_workloads = !c.workload_given,
		};
		memcpy(o.order, c.print_order, sizeof o.order);
		o.norder = c.nprint;
		print_warnings(&ds, 20);
		rc = print_run(&ds, &c.params, &o, stdout, &err) == 0 ? 0 : 2;
		if (rc)
			fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
	} else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		print_warnings(&ds, 20);
		fprintf(stderr, "gpuscale: the explorer needs a terminal; use --print for scripts\n");
		rc = 2;
	} else {
		rc = ui_run(&ds, &c.params, &c.ui, &err);
		if (rc)
			fprintf(stderr, "gpuscale: %s\n", err_format(&err, msg, sizeof msg));
		print_warnings(&ds, 5);
	}
	dataset_free(&ds);
	return rc;
}
