/* cli.h: the command line of gpuscale (everything but `import`, which parses its own). */
#ifndef GS_CLI_H
#define GS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "err.h"
#include "ui.h"

enum print_what {
	PR_TABLE = 1, PR_PLOT = 2, PR_CLUSTERS = 4, PR_PARETO = 8, PR_SUMMARY = 16, PR_CSV = 32
};

#define MAX_FILES 64

struct cli {
	struct params params;        /* analysis parameters (strings borrowed from argv) */
	struct ui_opts ui;
	unsigned print;              /* PR_* bits; 0: interactive */
	unsigned print_order[8];     /* the PR_* reports in the order given */
	int nprint;
	int width, height;           /* --print plot size; width 0: not given */
	bool workload_given;         /* -w was given */
	const char *files[MAX_FILES];
	int nfiles;
	const char *families_path;   /* --families FILE, NULL: the data folder's */
	bool help, version;
};

/* Parses argv into c (defaults first). Returns 0, or -1 with a usage message in err. */
int cli_parse(int argc, char **argv, struct cli *c, struct gs_err *err);

/* Writes the --help text to fp. */
void cli_usage(FILE *fp);


#endif
