/* print.h: the --print reports (table, plot, clusters, pareto, summary, csv), written to a
 * stream from the same analysis the explorer shows. No terminal here. */
#ifndef GS_PRINT_H
#define GS_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "dataset.h"
#include "plot.h"

struct print_opts {
	unsigned order[8];    /* the PR_* reports in the order asked for */
	int norder;
	int width, height;    /* plot size */
	int table_width;      /* table limit in columns; 0: none */
	enum metric y_metric;
	bool log_y;
	bool all_workloads;   /* summary: every workload of the round, not only p->workload */
};

/* Writes the reports of o->order for p over ds to out. Returns 0, or -1 with err (unknown
 * round/workload/system, plot size out of range, write error). */
int print_run(const struct dataset *ds, const struct params *p, const struct print_opts *o,
	      FILE *out, struct gs_err *err);

/* Writes the ranked table a as CSV (every metric, C-locale numbers) to out; 0 or -1 on write error. */
int print_csv(const struct dataset *ds, const struct analysis *a, FILE *out);

#endif
