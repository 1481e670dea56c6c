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
		n = 0;
		for (size_t i = 0; bufs && i < ds->n && n < MAXN; i++) {
			const struct row *r = &ds->rows[i];
			if (strcmp(r->round, p->round) != 0 || strcmp(r->benchmark, p->workload) != 0)
				continue;
			/* a system id several submitters share is only valid as SUBMITTER/SYSTEM */
			if (found == -2 && strcmp(r->system, p->pinned) != 0)
				continue;
			if (dataset_find(ds, p->round, p->workload, r->system) == -2 || found == -2) {
				snprintf(bufs + n * 256, 256, "%s/%s", r->submitter, r->system);
				names[n] = bufs + n * 256;
			} else {
				names[n] = r->system;
			}
			n++;
		}
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
