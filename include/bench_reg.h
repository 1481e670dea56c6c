/* bench_reg.h: the one table of MLPerf Training benchmarks: ids, the ids each round published,
 * names, run rules and the spans of rounds MLCommons calls comparable. */
#ifndef GS_BENCH_REG_H
#define GS_BENCH_REG_H

#include <stdbool.h>
#include <stddef.h>

/* A span of rounds as versions (major * 100 + minor: v2.0 is 200), both ends included. */
struct bench_span {
	int from, to;
};

/* The ids a round span published a benchmark under (its folder name in the results tree). */
struct bench_alias {
	const char *published;
	struct bench_span rounds;
};

#define BENCH_MAX_ALIASES 3
#define BENCH_MAX_GROUPS 3

struct bench_def {
	const char *id;           /* the one id across rounds (a results CSV's benchmark) */
	const char *label;        /* short display name: workload tabs, titles */
	const char *name;         /* full name */
	struct bench_alias aliases[BENCH_MAX_ALIASES]; /* published ids by round; the id itself
						        * counts for any round not listed */
	unsigned drop;            /* olympic average: runs dropped at each end */
	unsigned runs;            /* runs (result logs) a result has */
	struct bench_span groups[BENCH_MAX_GROUPS];    /* comparable spans; a round in none stands alone */
};

/* A round's version: "v2.0" (or "2.0") -> 200, "v10.1" -> 1001; -1 when round is not vMAJOR.MINOR. */
int bench_round_version(const char *round);

/* The registry's entries in display order (the paper's workloads first); *n of them. */
const struct bench_def *bench_reg_all(size_t *n);

/* The entry of id, or NULL when the id is unknown. */
const struct bench_def *bench_reg_find(const char *id);

/* The id across rounds of a benchmark published as `published` in round (a folder name, or a
 * results CSV's benchmark): `ssd` is `retinanet` from v2.0 on and SSD-ResNet34 (`ssd`) before,
 * `gnn` is `rgat`. A round that is not vX.Y reads as the newest. An unknown name is itself. */
const char *bench_reg_canon(const char *published, const char *round);

/* Runs dropped at each end of the olympic average of benchmark id: 4 for unet3d, else 1. */
size_t bench_reg_drop(const char *id);

/* The compatibility span of benchmark id holding round: 0 with *span set, or -1 when the
 * round stands alone (outside every span, or not vX.Y). */
int bench_reg_group(const char *id, const char *round, struct bench_span *span);

/* Whether results of benchmark id in rounds a and b compare (MLCommons' compatibility table):
 * the same round, or two rounds of one span. */
bool bench_reg_comparable(const char *id, const char *a, const char *b);

/* The span of id holding round as text into buf: "v2.0-v5.1", or "v0.7 alone". Returns buf. */
char *bench_reg_group_text(const char *id, const char *round, char *buf, size_t n);

/* Whether benchmarks x and y are two ids one published name stood for in different rounds
 * (`ssd`: SSD-ResNet34 and RetinaNet), x == y included. */
bool bench_reg_related(const char *x, const char *y);

/* The ruleset of a round for the official compliance checker: v3.0 -> "3.0.0"; "" when the
 * round is not vX.Y. buf must hold 16 bytes. Returns buf. */
char *bench_reg_ruleset(const char *round, char *buf, size_t n);

/* The longest initialization the ruleset of round allows, in minutes: 20 in v0.7, 30 in v1.x,
 * from v2.0 30 closed and 240 open (also for a round not vX.Y); 0 (not checked) before v0.7. */
double bench_reg_init_limit(const char *round, bool open);

/* ---- names (workload_label and workload_rank read the table's order and labels) ---- */

/* Index in list[0..n) of name: an exact match first, then one under ascii_fold (and, with
 * labels, a workload's display label: "BERT"); n when there is none or name is NULL. */
size_t name_find(const char *const *list, size_t n, const char *name, bool labels);

/* Short display label of a benchmark id ("bert" -> "BERT"); unknown ids are returned as is. */
const char *workload_label(const char *id);

/* Display rank of a benchmark id: the paper's workloads first, then the other known ones;
 * every unknown id ranks after them all (equal ranks are ordered by name). */
size_t workload_rank(const char *id);

/* ---- the rows a view pools (bench_rows.c) ---- */

struct row;
struct dataset;

/* Whether row r joins a view of round (its own round, or another in the cross-round view): it
 * has accelerators (a CPU-only system has no E') and its round compares with round. */
bool bench_reg_pooled(const struct row *r, const char *round);

/* What a view of workload in round leaves out, as one line into buf (size n > 0; "" when
 * nothing): with all_rounds, each benchmark of the workload's name in rounds it does not compare
 * with ("RNN-T v1.0: another version of the benchmark, not pooled"); and the rows without
 * accelerators. Returns the number of rows left out. */
size_t bench_reg_notice(const struct dataset *ds, const char *round, const char *workload,
			bool all_rounds, char *buf, size_t n);

#endif
