/* schema.h: the columns of a results CSV, in one table: the importer writes them in this order,
 * the loader finds them by these names, `--print csv` writes the input columns it does not
 * compute from it, so that its output loads back as its input. */
#ifndef GS_SCHEMA_H
#define GS_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What a column holds in struct row. */
enum schema_kind {
	SK_TEXT,     /* const char * */
	SK_COUNT,    /* long long, empty when 0 (not given) */
	SK_RUNS,     /* int, empty when < 0 (not given) */
	SK_NUM,      /* double */
	SK_RUNLIST,  /* the row's run minutes in dataset.runs, ';'-separated */
	SK_SAMPLELIST, /* the row's run samples in dataset.run_samples, paired with its run minutes */
};

/* SF_IMPORT: the importer writes it; SF_REQUIRED: a row without it is skipped, a file without
 * it refused; SF_SHOWN: a text only shown and searched, never compared by pointer, kept as
 * read instead of interned (a system's name is its own: nothing compares it by pointer). */
enum { SF_IMPORT = 1, SF_REQUIRED = 2, SF_EXTRA = 4 /* the field is in struct row_extra */, SF_SHOWN = 8 };

/* X(ID, csv name, struct row field the loader fills, kind, flags), in the importer's order;
 * Y(...) the same for a field of struct row_extra (texts only the import's columns give); the
 * two after energy are written by `--print csv` only (a loaded view keeps what it said); the
 * convergence columns come last, as the importer has always written them. */
#define SCHEMA_COLUMNS(X, Y) \
	X(ROUND, "round", round, SK_TEXT, SF_IMPORT) \
	X(SUBMITTER, "submitter", submitter, SK_TEXT, SF_IMPORT) \
	X(SYSTEM, "system", system, SK_TEXT, SF_IMPORT | SF_REQUIRED) \
	X(SYSTEM_NAME, "system_name", system_name, SK_TEXT, SF_IMPORT | SF_SHOWN) \
	X(DIVISION, "division", division, SK_TEXT, SF_IMPORT) \
	X(AVAILABILITY, "availability", availability, SK_TEXT, SF_IMPORT) \
	X(ACCELERATOR, "accelerator", accelerator, SK_TEXT, SF_IMPORT) \
	X(NODES, "nodes", nodes, SK_COUNT, SF_IMPORT) \
	X(PER_NODE, "accelerators_per_node", per_node, SK_COUNT, SF_IMPORT) \
	X(ACCELERATORS, "accelerators", accelerators, SK_COUNT, SF_IMPORT | SF_REQUIRED) \
	X(FRAMEWORK, "framework", framework, SK_TEXT, SF_IMPORT) \
	X(BENCHMARK, "benchmark", benchmark, SK_TEXT, SF_IMPORT | SF_REQUIRED) \
	X(MINUTES, "minutes", minutes, SK_NUM, SF_IMPORT | SF_REQUIRED) \
	X(RUNS_SCORED, "runs_scored", runs_scored, SK_RUNS, SF_IMPORT) \
	X(RUNS_FAILED, "runs_failed", runs_failed, SK_RUNS, SF_IMPORT) \
	X(SCALING, "scaling_factor", scaling_factor, SK_NUM, SF_IMPORT) \
	X(RUN_MINUTES, "run_minutes", run_off, SK_RUNLIST, SF_IMPORT) \
	Y(BENCH_PUBLISHED, "benchmark_published", benchmark_published, SK_TEXT, SF_IMPORT) \
	Y(SOURCE, "source", source, SK_TEXT, SF_IMPORT) \
	Y(RUN_FILES, "run_files", run_files, SK_TEXT, SF_IMPORT) \
	Y(FAILED_FILES, "failed_files", failed_files, SK_TEXT, SF_IMPORT) \
	X(ENERGY, "energy_j", energy_j, SK_NUM, SF_IMPORT) \
	Y(POWER, "power_measurement", power_measurement, SK_TEXT, SF_IMPORT) \
	Y(COLLAPSED, "collapsed_from", collapsed_read, SK_TEXT, 0) \
	Y(CARRIED, "carried_over_from", carried_read, SK_TEXT, 0) \
	X(GBS, "gbs", gbs, SK_NUM, SF_IMPORT) \
	X(STC, "samples_to_converge", stc, SK_NUM, SF_IMPORT) \
	X(CONV_UNIT, "convergence_unit", conv_unit, SK_TEXT, SF_IMPORT) \
	X(RUN_SAMPLES, "run_samples", run_off, SK_SAMPLELIST, SF_IMPORT) \
	X(RCP, "rcp_samples", rcp_samples, SK_NUM, SF_IMPORT)

#define SCHEMA_ENUM(id, name, field, kind, flags) SC_##id,
enum schema_col { SCHEMA_COLUMNS(SCHEMA_ENUM, SCHEMA_ENUM) SC_COUNT };
#undef SCHEMA_ENUM

struct schema_column {
	const char *name;
	size_t off;            /* of the field in struct row, or in struct row_extra (SF_EXTRA) */
	enum schema_kind kind;
	unsigned flags;
};

/* The table, indexed by enum schema_col. */
extern const struct schema_column schema_cols[SC_COUNT];

/* The most accelerators a system may have: far above any real system, far below where
 * doubles lose integers, so N, A and log2 N stay exact. */
#define SCHEMA_MAX_ACCELERATORS 1000000000LL

/* Writes the header line the importer writes (the SF_IMPORT columns and a newline). */
void schema_write_header(FILE *f);

#endif
