/* cli.h: the command line of gpuscale (`gpuscale import` included), and finding, loading
 * and checking the data it names. */
#ifndef GS_CLI_H
#define GS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "dataset.h"
#include "err.h"
#include "report.h"
#include "import.h"
#include "ui.h"

struct cli {
	struct params params;        /* analysis parameters (strings borrowed from argv) */
	struct ui_opts ui;
	unsigned print;              /* PR_* bits; 0: interactive */
	unsigned print_order[PR_MAX]; /* the PR_* reports in the order given */
	int nprint;
	int width, height;           /* --print plot size; width 0: not given */
	bool workload_given;         /* -w was given */
	char **files;                /* the files given (argv's tail), or the bundled rounds */
	int nfiles;
	const char *families_path;   /* --families FILE, NULL: the data folder's */
	const char *prices_path;     /* --prices FILE, NULL: the data folder's prices.csv */
	bool help, version;
	bool strict;                 /* --strict: a skipped results row is an error */
	bool raw;                    /* --raw: CSV cells as they are (csvw_set_raw) */
	struct query query;          /* --deadline, --max-* and --minimize */
	bool query_given;            /* --minimize was given */
	double predict_n;            /* --predict N; NAN: not given */
	bool json;                   /* --format json */
	bool columns[TC_COUNT];      /* --columns: the table's columns (ui.columns points here) */
	char default_path[4200];     /* scratch for the data folder's tables */
	char **bundled;              /* the data folder's rounds when no file was given (owned) */
	const char **sel;            /* room of the four filter lists of params (owned) */
};

/* Parses argv into c (defaults first). Returns 0, or -1 with a usage message in err. */
int cli_parse(int argc, char **argv, struct cli *c, struct gs_err *err);

/* Writes the --help text to fp. */
void cli_usage(FILE *fp);

/* Loads the families table and c's files (none: every mlperf_training_*.csv of the data
 * folder) into ds, which must be zeroed. Returns 0, or -1 with err (a file that cannot be read
 * or parsed, or no bundled round found). */
int cli_load(struct dataset *ds, struct cli *c, struct gs_err *err);

/* Frees what cli_parse and cli_load allocated in c. */
void cli_free(struct cli *c);

/* Resolves c's round (default: the newest loaded, by version order) and workload and checks them, the pinned
 * system (by analysis_check into a, zeroed or reused; the caller frees it) and the filter names
 * against ds. Returns 0, or -1 with err naming the valid ones. */
int cli_check(const struct dataset *ds, struct cli *c, struct analysis *a, struct gs_err *err);

/* Writes at most max of the loader's warnings to fp, then how many more there were; with strict,
 * those of skipped rows as errors (--strict refuses them rather than skip them). */
void cli_warnings(const struct dataset *ds, size_t max, bool strict, FILE *fp);

/* Parses the argv of `gpuscale import ...` (argv[0] is "import") into o. Returns 0 (o->help
 * set for -h: nothing else is checked), or -1 with a usage message in err. */
int cli_parse_import(int argc, char **argv, struct import_opts *o, struct gs_err *err);

/* Writes the usage of `gpuscale import` to fp. */
void cli_import_usage(FILE *fp);

/* `gpuscale import ...`: cli_parse_import, then the usage (-h) or import_run. Returns the
 * exit status: import_run's, 2 for a usage error, 1 when -h cannot write the usage. */
int cli_import(int argc, char **argv);

#endif
