/* dataset.h: results rows in memory, the results CSV loader, accelerator families. */
#ifndef GS_DATASET_H
#define GS_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Interned strings: equal text gives the same pointer, so rows compare names by pointer. */
struct strpool {
	char **slots;   /* open-addressing table of owned strings (NULL: free) */
	uint32_t *tags; /* low 32 bits of each slot's hash: probes and rehashes skip the strings */
	size_t cap, n;
	char *arena;    /* current block */
	size_t used, size;
	char **blocks;  /* every block, freed at the end */
	size_t nblocks;
};

/* Returns the pooled copy of s[0..len) (never NULL unless out of memory). */
const char *strpool_intern(struct strpool *p, const char *s, size_t len);
/* The hash strpool_intern computes for s[0..len). */
uint64_t strpool_hash(const char *s, size_t len);
/* A hint: brings the slot of hash h into the cache before a lookup (changes nothing). */
void strpool_prefetch(const struct strpool *p, uint64_t h);
/* strpool_hash, and in *plain whether s[0..len) is printable ASCII only (0x20..0x7e), text
 * that utf8_sanitize leaves as it is. */
uint64_t strpool_hash_plain(const char *s, size_t len, bool *plain);
/* strpool_intern for a hash h that strpool_hash gave for s[0..len). */
const char *strpool_intern_hashed(struct strpool *p, const char *s, size_t len, uint64_t h);
/* Room for n strings in all without a rehash (the table's untouched pages cost nothing).
 * 0, or -1 when out of memory (the pool is unchanged). */
int strpool_reserve(struct strpool *p, size_t n);
/* Frees every string of the pool. */
void strpool_free(struct strpool *p);

/* One result: one round x system x benchmark. Text fields are pooled, never NULL ("" when absent). */
struct row {
	const char *round, *submitter, *system, *system_name, *division, *availability;
	const char *accelerator, *framework, *benchmark;
	const char *vendor, *family;     /* from the families table */
	long long nodes, per_node;       /* 0 when not given */
	long long accelerators;          /* N, >= 1 */
	double minutes;                  /* T, official score, > 0 and finite */
	int runs_scored, runs_failed;    /* -1 when not given */
	double scaling_factor;           /* 1 when not given */
	size_t run_off;                  /* first run in dataset.runs */
	unsigned run_n;                  /* number of raw run minutes, ascending */
	const char *file;                /* pooled source file name */
	long line;                       /* 1-based source line */
};

/* One accelerator-family rule of data/families.csv. */
struct family_rule {
	const char *pattern, *vendor, *family; /* pooled */
};

struct dataset {
	struct row *rows;
	size_t n, cap;
	double *runs;                    /* all run_minutes, rows point into it */
	size_t nruns, runs_cap;
	struct family_rule *rules;
	size_t nrules;
	size_t unmatched;                /* rows whose accelerator (not empty) matched no rule */
	const char *unmatched_example;   /* the accelerator of the first of them */
	size_t shared_ids;               /* rows whose system id another submitter's row also has
					  * (same round and benchmark): 0 lets reports skip looking */
	struct strpool pool;
	struct gs_warn warn;
	/* The distinct (round, benchmark) pointer pairs of rows[0..names_rows) in first-seen order,
	 * kept by dataset_classify so that the queries below need not scan every row; used while
	 * names_rows == n. */
	struct ds_names { const char *round, *benchmark; } *names;
	size_t nnames, names_rows;
};

/* Loads family rules from path (pattern,vendor,family; header required); 0 or -1 with err. */
int dataset_load_families(struct dataset *ds, const char *path, struct gs_err *err);

/* Same as dataset_load_families for an in-memory buffer (len may be 0); name for messages. */
int dataset_load_families_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
				 struct gs_err *err);

/* Appends the rows of one results CSV (columns by header name); bad rows become warnings.
 * Returns 0, or -1 with err when the file cannot be read or lacks a required column. */
int dataset_load_csv(struct dataset *ds, const char *path, struct gs_err *err);

/* Same as dataset_load_csv for an in-memory buffer; name is used in messages. */
int dataset_load_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
			struct gs_err *err);

/* Same as dataset_load_buffer with every line parsed by libcsv (no fast path for unquoted
 * lines): the reference the fast path is tested against. */
int dataset_load_buffer_reference(struct dataset *ds, const char *name, const char *buf, size_t len,
				  struct gs_err *err);

/* Same as dataset_load_buffer with the part after the header cut into chunks of about chunk
 * bytes parsed by two threads and committed in order, as dataset_load_csv does for files of
 * 256 KB or more; the same rows, warnings and errors as dataset_load_buffer. For tests. */
int dataset_load_buffer_parallel(struct dataset *ds, const char *name, const char *buf, size_t len,
				 size_t chunk, struct gs_err *err);

/* Parses a whole field (spaces and tabs around it ignored) as a finite double, rounded as
 * strtod rounds, at any length; "nan", "inf" and hex are refused. 0, or -1. */
int dataset_parse_double(const char *s, size_t len, double *out);

/* Sets vendor and family of every row from the rules (case-insensitive substring, first match;
 * no match: the accelerator itself, or "unknown" when empty; counted in ds->unmatched when
 * not empty). */
void dataset_classify(struct dataset *ds);

/* Frees everything ds owns and zeroes it. */
void dataset_free(struct dataset *ds);

/* How many rounds, or workloads of a round, the queries below and their callers take. */
#define MAX_NAMES 1024

/* Distinct rounds in first-seen order; fills up to max pointers, returns the count. */
size_t dataset_rounds(const struct dataset *ds, const char **out, size_t max);

/* Distinct benchmarks of one round in display order (paper's four first); returns the count. */
size_t dataset_workloads(const struct dataset *ds, const char *round, const char **out, size_t max);

/* c with ASCII letters in lower case: names compare the same in every locale. */
static inline int ascii_fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* strcmp of a and b under ascii_fold (NULL reads as ""). */
int ascii_casecmp(const char *a, const char *b);

/* Index in list[0..n) of name: an exact match first, then one ignoring ASCII case (and, with
 * labels, a workload's display label: "BERT"); n when there is none. */
size_t name_find(const char *const *list, size_t n, const char *name, bool labels);

/* Short display label of a benchmark id ("bert" -> "BERT"); unknown ids are returned as is. */
const char *workload_label(const char *id);

/* True when name is r's system id, or its SUBMITTER/SYSTEM (the same id can exist under several
 * submitters). */
bool row_named(const struct row *r, const char *name);

/* Finds the round x benchmark row named `system` (see row_named); returns its index, -1 when
 * there is none, or -2 when a bare system id matches rows of several submitters. */
long dataset_find(const struct dataset *ds, const char *round, const char *bench, const char *system);

/* Copies s into buf (size n), cut at a character boundary, with control characters and
 * invalid UTF-8 replaced by '?' (utf8_sanitize); returns buf. */
char *text_sanitize(const char *s, char *buf, size_t n);

#endif
