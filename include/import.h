/* import.h: `gpuscale import`: MLPerf training_results tree -> results CSV. */
#ifndef GS_IMPORT_H
#define GS_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "err.h"

/* Outcome of importing one tree. */
struct import_result {
	char *csv;                 /* owned: the whole CSV, header included, NUL-terminated */
	size_t len;                /* bytes of csv */
	size_t systems;            /* systems with at least one row */
	size_t rows;               /* system x benchmark rows written */
	size_t files;              /* result logs read */
	size_t old_logs[2];        /* of them, logs in the v0.5 and the v0.6 format (not read) */
	unsigned long long bytes;  /* bytes of result logs read */
	struct gs_warn warn;       /* bad input, failed runs: "file:line:col: text" */
	struct gs_warn unscored;   /* "submitter/system[/benchmark]: reason", one per item with no score */
};

/* What one systems JSON (<Submitter>/systems/<system>.json) says about its system. */
struct import_system {
	/* owned, never NULL after a parse: "" when the field is missing or not a string */
	char *system_name, *division, *availability, *accelerator, *framework;
	long long nodes, per_node;  /* number_of_nodes, accelerators_per_node */
	long long accelerators;     /* nodes * per_node, as the official table counts them (0: CPU only) */
	int usable;                 /* the JSON parsed and both counts are valid: the system scores */
};

/* Parses the systems JSON held in buf[0..len) (any bytes); name is its path, used in warnings.
 * Returns 0 with *out filled: every problem (no parse, not an object, missing or non-string
 * fields, bad counts) is a warning in w ("name:line:col: text"; w may be NULL), and out->usable
 * says whether the system can be scored. Returns -1 with err only when memory runs out.
 * *out is always left safe for import_system_free. */
int import_system_parse(const char *buf, size_t len, const char *name, struct import_system *out,
			struct gs_warn *w, struct gs_err *err);

/* Frees what s owns and zeroes it. */
void import_system_free(struct import_system *s);

/* s as a results CSV holds it and its loader reads it back: every control character, invalid
 * UTF-8 byte (the one sanitizer) as '?', spaces around it dropped. Owned; NULL on OOM. */
char *import_clean_name(const char *s);

/* Imports the tree at dir with round as the round column; progress, when not NULL, gets a
 * progress line redrawn in place. Returns 0 (even with zero rows), or -1 with err when dir
 * cannot be read or memory runs out. res is always left safe to free. */
int import_tree(const char *dir, const char *round, FILE *progress, struct import_result *res,
		struct gs_err *err);

/* Frees what res owns and zeroes it. */
void import_result_free(struct import_result *res);

/* The round named by dir's last component ("training_results_v4.1" -> "v4.1") into buf, or
 * by the folder's real name when dir does not say (".", a symlink); returns 0, or -1 when
 * neither starts with "training_results_". */
int import_round_from_dir(const char *dir, char *buf, size_t n);

/* Writes buf[0..len) to path: "-" is stdout; an existing device or pipe is written in place;
 * anything else by fileio_write (atomic, replacing only with replace). Returns 0, or -1 with
 * err and errno (EEXIST: path exists and replace is false). */
int import_output(const char *path, const char *buf, size_t len, bool replace, struct gs_err *err);

/* What `gpuscale import` was asked to do (cli_parse_import fills it from argv). */
struct import_opts {
	const char *dir;    /* the training_results tree */
	const char *out;    /* -o OUT; NULL: mlperf_training_ROUND.csv; "-": stdout */
	const char *round;  /* --round NAME; NULL: from dir's name */
	bool force;         /* replace OUT when it exists */
	bool raw;           /* --raw: no ' before a cell a spreadsheet would take for a formula */
	bool help;          /* -h: print the usage, nothing else */
};

/* Runs `gpuscale import` as o says: imports, writes, prints warnings, the systems without a
 * score and a final line on stderr (every text cleaned by the sanitizer). Returns the exit
 * status: 0 written, 1 runtime error, 2 bad DIR or round, OUT exists, or nothing importable. */
int import_run(const struct import_opts *o);

#endif
