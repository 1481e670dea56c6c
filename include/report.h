/* report.h: the --print reports (table, plot, clusters, pareto, summary, csv, fit), written to a
 * stream from the same analysis the explorer shows. No terminal here. */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "dataset.h"
#include "plot.h"

/* The reports, as bits of a set. */
enum report_what {
	PR_TABLE = 1, PR_PLOT = 2, PR_CLUSTERS = 4, PR_PARETO = 8, PR_SUMMARY = 16, PR_CSV = 32,
	PR_FIT = 64
};

struct report_opts {
	unsigned order[8];    /* the PR_* reports in the order asked for */
	int norder;
	int width, height;    /* plot size */
	int table_width;      /* table limit in columns; 0: none */
	enum metric y_metric;
	bool log_y;
	bool all_workloads;   /* summary: every workload of the round, not only p->workload */
	const bool *columns;  /* per enum tcol, the table's columns (--columns); NULL: all */
};

/* Writes the reports of o->order for p over ds to out, computing into a (zeroed, or from an
 * earlier analysis_run, whose memory is reused; the caller frees it). Returns 0, or -1 with err
 * (unknown round/workload/system, out of memory, write error). */
int report_run(const struct dataset *ds, const struct params *p, const struct report_opts *o,
	       struct analysis *a, FILE *out, struct gs_err *err);

/* Writes the ranked table a as CSV (every metric, C-locale numbers) to out; 0 or -1 on write error. */
int report_csv(const struct dataset *ds, const struct analysis *a, FILE *out);

/* report_csv of the shown rows idx[n] only (indices into a->rows, in that order; NULL: the
 * first n); the rank column stays each row's rank in a. 0, or -1 on a write error. */
int report_csv_rows(const struct dataset *ds, const struct analysis *a, const size_t *idx, size_t n,
		    FILE *out);

#endif
