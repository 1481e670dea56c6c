/* importer.h: `gpuscale import`: MLPerf training_results tree -> results CSV. */
#ifndef GS_IMPORTER_H
#define GS_IMPORTER_H

#include <stddef.h>

#include "err.h"

/* The header line of every results CSV the importer writes (without the newline). */
#define IMPORT_CSV_HEADER "round,submitter,system,system_name,division,availability,accelerator," \
	"nodes,accelerators_per_node,accelerators,framework,benchmark,minutes,runs_scored," \
	"runs_failed,scaling_factor,run_minutes"

/* Outcome of importing one tree. */
struct import_result {
	char *csv;                 /* owned: the whole CSV, header included, NUL-terminated */
	size_t len;                /* bytes of csv */
	size_t systems;            /* systems with at least one row */
	size_t rows;               /* system x benchmark rows written */
	size_t files;              /* result logs read */
	unsigned long long bytes;  /* bytes of result logs read */
	struct gs_warn warn;       /* bad input, failed runs: "file:line:col: text" */
	struct gs_warn unscored;   /* "submitter/system[/benchmark]: reason", one per item with no score */
};

/* Imports the tree at dir with round as the round column, using `threads` workers (>= 1);
 * progress != 0 redraws a progress line on stderr. Returns 0 (even with zero rows), or -1 with
 * err when dir cannot be read or memory runs out. res is always left safe to free. */
int import_tree(const char *dir, const char *round, int threads, int progress,
		struct import_result *res, struct gs_err *err);

/* Frees what res owns and zeroes it. */
void import_result_free(struct import_result *res);

/* The round named by dir's last component ("training_results_v4.1" -> "v4.1") into buf;
 * returns 0, or -1 when the name does not start with "training_results_". */
int import_round_from_dir(const char *dir, char *buf, size_t n);

/* Writes buf[0..len) to path: "-" is stdout; a regular file is replaced atomically (temporary
 * file in the same folder, fsync, rename) and only with force when it exists; other existing
 * files (devices, pipes) are written in place. Returns 0, -1 with err on a failed write
 * (the old file is left intact), or -2 with err when path exists and force is 0. */
int import_write(const char *path, const char *buf, size_t len, int force, struct gs_err *err);

/* `gpuscale import ...`: argv[0] is "import". Parses its options, imports, writes, prints
 * warnings and a final line on stderr. Returns the exit code: 0 ok, 1 runtime error,
 * 2 usage error or nothing importable. */
int import_main(int argc, char **argv);

#endif
