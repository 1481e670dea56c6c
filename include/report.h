/* report.h: the --print reports (table, plot, clusters, pareto, summary, csv, fit), written to a
 * stream from the same analysis the explorer shows. No terminal here. */
#ifndef GS_REPORT_H
#define GS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "dataset.h"
#include "planner.h"
#include "plot.h"

/* The reports, as bits of a set. */
enum report_what {
	PR_TABLE = 1, PR_PLOT = 2, PR_CLUSTERS = 4, PR_PARETO = 8, PR_SUMMARY = 16, PR_CSV = 32,
	PR_FIT = 64, PR_QUERY = 128, PR_PREDICT = 256, PR_TREND = 512, PR_SENSITIVITY = 1024
};

#define PR_MAX 12 /* room for every report in one --print list */

/* The reports --format json writes (the others are tables and pictures, or CSV already). */
#define PR_JSON (PR_SUMMARY | PR_FIT | PR_PARETO | PR_SENSITIVITY | PR_QUERY | PR_PREDICT | PR_TREND)

struct report_opts {
	unsigned order[PR_MAX]; /* the PR_* reports in the order asked for */
	int norder;
	int width, height;    /* plot size */
	int table_width;      /* table limit in columns; 0: none */
	enum metric y_metric;
	bool log_y;
	bool all_workloads;   /* every report covers every workload of the round, not only p->workload */
	const struct query *query; /* PR_QUERY's constraints (NULL: none) */
	double predict_n;     /* PR_PREDICT's N */
	bool json;            /* --format json: one JSON document (report_json.c) */
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
 * first n), under the header line when head; the rank column stays each row's rank in a. 0, or
 * -1 on a write error. */
int report_csv_rows(const struct dataset *ds, const struct analysis *a, const size_t *idx, size_t n,
		    bool head, FILE *out);

/* The planner's text reports (report_plan.c), each over a (analysis_run with params.fit) or,
 * for the trend, over p's workload in every comparable round. 0, or -1 with err (out of
 * memory, unknown round or workload). */
struct table_view;
int report_query(const struct dataset *ds, const struct analysis *a, const struct query *q,
		 const struct table_view *v, FILE *out, struct gs_err *err);
int report_predict(const struct dataset *ds, const struct analysis *a, double n, double gbs, FILE *out,
		   struct gs_err *err);
int report_trend(const struct dataset *ds, const struct params *p, FILE *out, struct gs_err *err);

/* report_run for --format json: the reports of o->order (PR_JSON ones) as one JSON object, a
 * member per report (schema in the man page, JSON OUTPUT). 0, or -1 with err. */
int report_json(const struct dataset *ds, const struct params *p, const struct report_opts *o,
		struct analysis *a, FILE *out, struct gs_err *err);

#endif
