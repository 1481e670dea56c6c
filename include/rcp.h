/* rcp.h: the reference convergence points (RCPs) of MLPerf Training: per ruleset, benchmark and
 * reference batch size, the olympic mean of the reference runs' convergence points, as
 * data/rcp.csv holds them (tests/tools/rcp_means.py derives it from the official rcp files). */
#ifndef GS_RCP_H
#define GS_RCP_H

#include <stddef.h>

#include "err.h"

struct rcp_point {
	char ruleset[16];          /* "4.1.0" */
	char benchmark[40];        /* the project's one id across rounds (retinanet, rgat) */
	char unit[16];             /* the mean's unit: "samples", "epochs", "tokens", "steps" */
	double bs;                 /* the reference global batch size */
	double mean;               /* the olympic mean of its reference runs, in unit */
};

struct rcp_table {
	struct rcp_point *p;       /* owned */
	size_t n;
};

/* Parses an RCP CSV held in buf[0..len) (name for messages): a header naming at least
 * ruleset, benchmark, bs, samples_mean and unit, in any order, then one record per point.
 * Returns 0 with *t filled (owned: rcp_free), or -1 with err (the line and column of a bad
 * field, a missing column, or out of memory); *t is then empty. */
int rcp_parse(const char *buf, size_t len, const char *name, struct rcp_table *t, struct gs_err *err);

/* rcp_parse of the file at path. Returns 0, or -1 with err. */
int rcp_load(const char *path, struct rcp_table *t, struct gs_err *err);

/* The RCP mean of benchmark in ruleset at batch size bs, in *unit's unit (*unit set, owned by
 * t): the point's mean when bs is listed, else linear between the means of the nearest
 * listed sizes below and above, as the official RCP checker interpolates. NAN (and *unit
 * "") when the ruleset has no point of the benchmark, or bs is outside its listed sizes. */
double rcp_at(const struct rcp_table *t, const char *ruleset, const char *benchmark, double bs,
	      const char **unit);

/* Frees what t owns and empties it. */
void rcp_free(struct rcp_table *t);

#endif
