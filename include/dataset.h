/* dataset.h: results rows in memory, the results CSV loader, accelerator families, queries. */
#ifndef GS_DATASET_H
#define GS_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_reg.h"
#include "err.h"
#include "rcp.h"
#include "strpool.h"
#include "text.h"

/* Availability as MLPerf publishes it, one value for all its spellings. */
enum avail { AVAIL_ONPREM, AVAIL_CLOUD, AVAIL_PREVIEW, AVAIL_RESEARCH, AVAIL_OTHER };

/* Division, closed or open; OTHER keeps the row's own text. */
enum division { DIV_CLOSED, DIV_OPEN, DIV_OTHER };

/* The texts of a row that only the importer's columns and a loaded view give (the detail pane
 * and --print csv show them), pooled; one record for every row with the same ones (rows of a
 * file without these columns share one). */
struct row_extra {
	const char *benchmark_published;  /* id as the round published it ("" absent) */
	const char *source;               /* benchmark folder inside the results tree */
	const char *run_files, *failed_files; /* log file names, ';'-separated */
	const char *power_measurement;    /* "AC", "DC" or "" */
	const char *collapsed_read;       /* collapsed_from as a loaded file gave it (a view written by
					   * --print csv), kept where this load finds no group */
	const char *carried_read;         /* carried_over_from as a loaded file gave it, kept where
					   * this load has no earlier round with the same runs */
};

/* One result: one round x system x benchmark. Text fields are interned in the pool (equal
 * texts, one pointer), system_name only kept there (schema.h's SF_SHOWN); never NULL ("" when
 * absent). */
struct row {
	const char *round, *submitter, *system, *system_name, *division, *availability;
	const char *accelerator, *framework, *benchmark;
	const struct row_extra *x;        /* its texts of the import's columns (row_extra); NULL: all
					   * empty */
	const char *vendor, *family;      /* from the families table */
	long long nodes, per_node;        /* 0 when not given */
	long long accelerators;           /* N, >= 1; 0 for a CPU-only system (no E': views leave it out) */
	double minutes;                   /* T, official score, > 0 and finite */
	double energy_j;                  /* official energy-to-train in joules; NAN when absent */
	double price_lo, price_hi;        /* USD per accelerator-hour by family; NAN when none */
	double scaling_factor;            /* 1 when not given */
	double gbs;                       /* global batch size; NAN when not given */
	double stc;                       /* samples_to_converge (native unit); NAN when not given */
	double rcp_samples;               /* the RCP mean at its GBS; NAN when not given */
	const char *conv_unit;            /* convergence_unit ("" when absent) */
	size_t run_off;                   /* first run in dataset.runs */
	unsigned run_n;                   /* number of raw run minutes, ascending */
	int runs_scored, runs_failed;     /* -1 when not given */
	enum avail avail : 8;             /* availability normalised (raw text in availability) */
	enum division div : 8;            /* division normalised (raw text in division) */
	long dup_of;                      /* -1, or the index of the row standing for this one (same
					   * round, benchmark, system id and run list) */
	const char *collapsed_from;       /* on a standing row: the submitters it stands for, ';' */
	const char *carried_from;         /* earliest earlier round with the same runs ("v4.0"), or "" */
	uint32_t runs_class;              /* 1 + the first row (row order) of the same benchmark,
					   * accelerators and run list when other rows share them (one
					   * measurement submitted again); 0: none does */
	const char *file;                 /* pooled source file name */
	long line;                        /* 1-based source line */
};

/* One accelerator-family rule of data/families.csv. */
struct family_rule {
	const char *pattern, *vendor, *family; /* pooled */
};

/* One line of data/prices.csv: USD per accelerator-hour of a family, low and high. */
struct price {
	const char *family, *source, *date; /* pooled */
	double lo, hi;                      /* finite, 0 <= lo <= hi */
	const char *file;                   /* where it was read */
	long line;
};

/* How a loader warning about a row it skips ends: --strict turns those into errors. */
#define DATASET_ROW_SKIPPED "; row skipped"

struct dataset {
	struct row *rows;
	size_t n, cap;
	double *runs;                    /* all run_minutes, rows point into it */
	double *run_samples;             /* beside runs, each run's samples to converge (run_samples);
					  * NAN when not given; NULL when no row has runs */
	size_t samples_cap;
	size_t nruns, runs_cap;
	struct family_rule *rules;
	size_t nrules;
	struct price *prices;            /* the prices table */
	size_t nprices;
	struct rcp_table rcp;            /* the RCP means (data/rcp.csv) the split prediction reads;
					  * empty when not loaded */
	size_t unmatched;                /* rows whose accelerator (not empty) matched no rule */
	const char *unmatched_example;   /* the accelerator of the first of them */
	size_t shared_ids;               /* rows whose system id another submitter's row also has
					  * (same round and benchmark): 0 lets reports skip looking */
	struct strpool pool;
	struct row_extra **xset;         /* the distinct row_extra records: open addressing; owned */
	size_t xcap, xn;
	struct row_extra **xblocks;      /* their memory, in blocks that never move; owned */
	size_t nxblocks, xused;
	struct gs_warn warn;
	size_t skipped;                  /* results rows skipped as bad (each has its warning) */
	char skip_first[600];            /* the first one's warning, "file:line:col: reason" */
	const char **round_order;        /* the distinct rounds in version order, as made by
					  * dataset_classify for its ds->n rows (round_order_rows);
					  * every analysis asks for them. Owned */
	size_t nround_order, round_order_rows;
	uint32_t *keys;                  /* rows 0..nkeys-1 by round, system and benchmark, for the
					  * loader's duplicate check across loads: open addressing,
					  * each row's index + 1 (0: free). Owned */
	size_t keys_cap, nkeys;
};

/* Row r's texts of the import's columns: every one "" when it has none. */
const struct row_extra *row_extra(const struct row *r);

/* The dataset's one record with x's texts (pooled), made when new; NULL when out of memory. */
const struct row_extra *dataset_extra(struct dataset *ds, const struct row_extra *x);

/* Loads family rules from path (pattern,vendor,family; header required); 0 or -1 with err. */
int dataset_load_families(struct dataset *ds, const char *path, struct gs_err *err);

/* Same as dataset_load_families for an in-memory buffer (len may be 0); name for messages. */
int dataset_load_families_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
				 struct gs_err *err);

/* Loads the prices table from path (family,usd_per_hour_low,usd_per_hour_high,source,date,
 * by header name): a bad number, a negative price, low > high, an unknown, missing or repeated
 * column, a wrong field count or a family listed twice is an error (-1 with err at its
 * file:line:column, and none of the file is used); 0 when loaded. */
int dataset_load_prices(struct dataset *ds, const char *path, struct gs_err *err);

/* Same as dataset_load_prices for an in-memory buffer; name for messages. */
int dataset_load_prices_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
			       struct gs_err *err);

/* Sets price_lo and price_hi of every row from its family (ASCII case folded); NAN when the
 * table has no price for it. Part of dataset_classify. */
void prices_apply(struct dataset *ds);

/* The most a results, prices or families file may hold, and the longest line of a results
 * file: far above any real table, low enough that an endless stream fails in a second. */
#define DATASET_CSV_MAX ((size_t)1 << 30)
#define DATASET_LINE_MAX ((size_t)1 << 24)
#define DATASET_TABLE_MAX ((size_t)1 << 24) /* prices and families */

/* Appends the rows of one results CSV (columns by header name); bad rows become warnings.
 * A file headed like the families table (pattern,vendor,family) or the prices table is loaded
 * as that table instead (a families table replaces the rules), with a note among the warnings.
 * path may be a pipe (`<(cmd)`; "-" is standard input), read as a file; a device is refused,
 * and so is a file over DATASET_CSV_MAX bytes or a line over DATASET_LINE_MAX.
 * Returns 0, or -1 with err when the file cannot be read or lacks a required column. */
int dataset_load_csv(struct dataset *ds, const char *path, struct gs_err *err);

/* Same as dataset_load_csv for an in-memory buffer; name is used in messages. */
int dataset_load_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
			struct gs_err *err);

/* Parses a whole field (spaces and tabs around it ignored) as a finite double, rounded as
 * strtod rounds, at any length; "nan", "inf" and hex are refused. 0, or -1. */
int dataset_parse_double(const char *s, size_t len, double *out);

/* Whether t is minutes the analysis can carry: finite, > 0, and 60 / t finite (a throughput
 * per hour, the fit's points and the speedups divide by it). */
bool dataset_minutes_ok(double t);

/* Sets vendor and family of every row from the rules (substring under ascii_fold, first
 * match; no match: the accelerator itself, or "unknown" when empty; counted in ds->unmatched
 * when not empty). Part of dataset_classify. */
void families_apply(struct dataset *ds);

/* After the last load: families (families_apply), prices (prices_apply); one warning naming the first row whose
 * availability or division maps to nothing; duplicate groups (dup_of, collapsed_from: rows of
 * one round, benchmark and system id with identical non-empty run lists, the standing row the
 * one of the first submitter by name, whatever the input order); runs_class and carried_from
 * (the earliest earlier round, by version, with a row of the same benchmark, accelerators and
 * run list). 0, or -1 when
 * out of memory (rows keep their defaults). */
int dataset_classify(struct dataset *ds);

/* Frees everything ds owns and zeroes it. */
void dataset_free(struct dataset *ds);

/* The lists below have no limit: each is a malloc'd array of pooled names, *n long (the
 * caller frees the array; NULL when *n is 0). 0, or -1 when out of memory. */

/* Distinct rounds in version order (text_version_cmp: v4.0 < v4.1 < v5.0 < v10.0; the newest
 * is the last). */
int dataset_round_list(const struct dataset *ds, const char ***out, size_t *n);

/* Distinct benchmarks of one round in display order (workload_rank, then by name). */
int dataset_workload_list(const struct dataset *ds, const char *round, const char ***out, size_t *n);

/* Distinct families of the rows of round and bench (NULL: any), by name under ascii_fold. */
int dataset_family_list(const struct dataset *ds, const char *round, const char *bench, const char ***out,
			size_t *n);

/* For callers with fixed arrays (prefer the lists above): at most max names. */
#define MAX_NAMES 1024

/* Distinct rounds in first-seen order; fills up to max pointers, returns how many. */
size_t dataset_rounds(const struct dataset *ds, const char **out, size_t max);

/* Distinct benchmarks of one round in display order; fills up to max, returns how many. */
size_t dataset_workloads(const struct dataset *ds, const char *round, const char **out, size_t max);

/* The availability a published text stands for (any spelling of the published rounds, ASCII
 * case folded); AVAIL_OTHER when it maps to nothing. */
enum avail dataset_avail(const char *text);

/* The division a text stands for (closed, open, ASCII case folded); DIV_OTHER otherwise. */
enum division dataset_division(const char *text);

/* The display name of availability a: "Available on-premise", "Available cloud", "Preview",
 * "Research", "Other" (a static string). */
const char *avail_name(enum avail a);

/* r's availability for display: avail_name, or for AVAIL_OTHER the row's own text. */
const char *row_avail(const struct row *r);

/* True when name is r's system id, or its SUBMITTER/SYSTEM (the same id can exist under several
 * submitters). */
bool row_named(const struct row *r, const char *name);

/* Finds the round x benchmark row named `system` (see row_named); returns its index, -1 when
 * there is none, or -2 when a bare system id matches rows of several submitters. */
long dataset_find(const struct dataset *ds, const char *round, const char *bench, const char *system);

#endif
