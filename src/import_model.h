/* import_model.h: what import.c (the walk and the scan of the logs) shares with import_out.c
 * (scoring by the official rules and the results CSV), and nothing else includes: the model
 * the walk builds. */
#ifndef GS_IMPORT_MODEL_H
#define GS_IMPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compliance.h"
#include "fileio.h"
#include "import.h"
#include "rcp.h"

struct sys {
	char *submitter, *name;       /* folder names as written (clean_name) */
	char *folder;                 /* the system's name as in the tree: results/<folder> */
	const char *refused;          /* why the system is not scored though its JSON is usable */
	char *json;                   /* path of its systems JSON */
	struct import_system info;    /* what the JSON says (zero when it could not be read) */
	int has_results;
	size_t rows;
};

struct cell {
	size_t sys;
	char *bench;                  /* the one id across rounds (bench_reg_canon) */
	char *published;              /* the folder's name: the id as the round published it */
	char *dir;                    /* the folder; from `source` on, its path inside the tree */
	const char *source;
	size_t first, njobs;          /* its logs in the job list (and in rank) */
	double sf;
	int sf_bad;
	const struct compliance_req *req; /* the keys each log needs (compliance.c): the model's */
	/* set by score_cell: rank[first .. first + nok) are the successful runs by time, the
	 * failed ones follow in name order; [lo, hi) of them is what the olympic average keeps */
	int scored;
	size_t nok, lo, hi;
	double score;
	char why[160];                /* no score: the reason */
	/* energy-to-train (power.c, from dir/power): NAN and "" when there is none */
	bool power_listed;            /* the folder's listing has a "power" entry */
	double energy_j;
	const char *power_measurement;
};

struct job {
	char *path;
	const char *name;             /* the file name part of path */
	size_t cell;                  /* its cell, an index into model.cells */
	double init_limit;            /* longest initialization allowed, minutes (rule 5) */
	const struct compliance_req *req; /* the keys the log needs (rule 6); NULL none */
	char *advice;                 /* a requirement broken where it only warns, else NULL */
	int ok;                       /* 1 successful run, 0 failed */
	int unreadable;               /* not a regular file, or reading failed: no score */
	int unwritable;               /* a run time below DBL_MIN: no results CSV holds it */
	int old_format;               /* a v0.5 or v0.6 log (mllog_scan's old_format), else 0 */
	double gbs, samples;          /* a successful run's global batch size and convergence
				       * point (import_conv_run); NAN when its log lacks them */
	double minutes;               /* a successful run's time, and its run_stop - run_start */
	double ms;
	long line, col;
	char *why;                    /* a failed or unreadable run: why (heap, as advice: most
				       * runs have neither) */
	unsigned long long bytes;     /* read */
};

/* The keys a benchmark's logs need in one division: a cell per system shares them. */
struct req_memo {
	char *bench;                  /* as published */
	bool open;
	struct compliance_req *req;
};

struct model {
	struct sys *sys;
	size_t nsys, capsys;
	struct cell *cells;
	size_t ncells, capcells;
	struct job *jobs;
	size_t njobs, capjobs;
	struct req_memo *reqs;
	size_t nreqs, capreqs;
	size_t *rank;                 /* job indices, in each cell's scoring order */
	size_t toplen;                /* length of the tree's path: cell sources start after it */
	const char *round;            /* the round column: the ids and rules of its ruleset */
	struct rcp_table rcp;         /* the RCP means (data/rcp.csv); empty when unread */
	struct fbuf buf;              /* the buffer files are read into */
	int oom;
};

/* Convergence (import_conv.c). A run: reads the log buf[0..len) of a successful run of
 * benchmark bench (the one id) in round: *gbs its global batch size, *samples its convergence
 * point in the benchmark's unit, each NAN when the log does not give it. *oom set when memory
 * runs out. */
void import_conv_run(const char *buf, size_t len, const char *bench, const char *round, double *gbs,
		     double *samples, int *oom);

/* The unit of bench's convergence points in round: "samples", "epochs" or "tokens". */
const char *import_conv_unit(const char *bench, const char *round);

/* Why a row's convergence cells are empty. */
enum conv_why {
	CONV_OK,
	CONV_NO_DATA,       /* the benchmark logs none (minigo): every cell empty */
	CONV_RUN_LACKS,     /* a scored run has no GBS or no convergence point: every cell empty */
	CONV_GBS_DIFFER,    /* the runs disagree on GBS: every cell empty */
	CONV_FAILED_RUNS,   /* more than one failed run: no mean (the summarizer's rule) */
	CONV_TOO_FEW,       /* nothing left once the lowest and highest are dropped: no mean */
	CONV_NWHY
};

/* A row: its scored runs' gbs[nok] and samples[nok], failed runs beside them: *row_gbs
 * (NAN unless every run logs the same) and *mean, the summarizer's samples_to_converge (NAN
 * when there is none: see enum conv_why, returned). *oom set when memory runs out. */
enum conv_why import_conv_row(const double *gbs, const double *samples, size_t nok, size_t failed,
			      const char *bench, double *row_gbs, double *mean, int *oom);

/* Scores every cell of m and writes the results CSV to f (import_out.c); -1 when out of
 * memory. Warnings go to res. */
int import_build_csv(struct model *m, const char *round, struct import_result *res, FILE *f);

#endif
