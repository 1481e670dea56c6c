/* mllog.h: scanner for MLPerf MLLOG result logs (one training run per log). */
#ifndef GS_MLLOG_H
#define GS_MLLOG_H

#include <stddef.h>

/* What one log says about its run. Line numbers and byte columns are 1-based; 0 means none. */
/* What run_stop's metadata.status held: nothing (or no string), a string (in status), or a
 * string kept as written because it is too long for status or holds a NUL (then never
 * "success"). */
enum mllog_status { MLLOG_STATUS_NONE, MLLOG_STATUS_TEXT, MLLOG_STATUS_RAW };

struct mllog_scan {
	size_t events;        /* lines carrying ":::MLLOG " */
	long bad_line;        /* first line whose payload is not valid JSON */
	long bad_col;         /* where that payload stops being valid JSON */
	long start_line;      /* first run_start event */
	long stop_line;       /* first run_stop event */
	long start_col, stop_col;           /* their payloads' first byte (after ":::MLLOG ") */
	long start_time_col, stop_time_col; /* their time_ms values; 0 without time_ms */
	long status_col;      /* run_stop's metadata.status value; 0 without one */
	int start_has_time;   /* first run_start has a finite numeric time_ms */
	int stop_has_time;    /* first run_stop has a finite numeric time_ms */
	double start_ms, stop_ms;
	long init_start_line, init_stop_line;   /* first init_start, first init_stop events */
	long init_stop_col, init_stop_time_col; /* init_stop's payload and time_ms value */
	int init_start_has_time, init_stop_has_time;
	double init_start_ms, init_stop_ms;
	char status[32];      /* metadata.status of the first run_stop (truncated); "" when absent */
	enum mllog_status status_kind; /* what metadata.status of run_stop was */
	int old_format;       /* no MLLOG event but lines of an older format: 5 (v0.5,
			       * ":::MLPv0.5.0 "), 6 (v0.6, ":::MLL "); 0 otherwise */
};

/* The older log format o (a struct mllog_scan's old_format) in words: "the v0.6 log format
 * (:::MLL <unix seconds> <key>: <json>)"; "" for 0. */
const char *mllog_old_format(int o);

/* 1 when s[0..n) is one JSON text as Python's json.loads accepts it (NaN, Infinity and
 * -Infinity allowed, surrounding whitespace allowed, strict strings, valid UTF-8), else 0.
 * Never allocates. */
int mllog_json_valid(const char *s, size_t n);

/* Scans a whole log held in buf[0..len): validates every payload (the text after ":::MLLOG "
 * up to the end of its line) and records the first run_start and run_stop. Never fails. */
void mllog_scan(const char *buf, size_t len, struct mllog_scan *out);

/* The most keys mllog_scan_keys counts. */
#define MLLOG_MAX_KEYS 64

/* mllog_scan that also counts, in counts[i], the events whose key is keys[i] (nkeys of them, at
 * most MLLOG_MAX_KEYS; the rest are not counted): what the compliance check needs. */
void mllog_scan_keys(const char *buf, size_t len, const char *const *keys, size_t nkeys,
		     unsigned *counts, struct mllog_scan *out);

/* Applies the run rules to a scan, init_limit being the longest initialization allowed in
 * minutes (30 closed, 240 open; 0: not checked): returns 0 and sets *minutes (raw, unscaled)
 * for a successful run, or -1 with a short reason in why[0..n) and where it lies, *line and
 * *col (0 when the reason is the whole log, such as a missing event), for a failed one. */
int mllog_verdict(const struct mllog_scan *s, double init_limit, double *minutes, char *why,
		  size_t n, long *line, long *col);

/* One ":::MLLOG " event as mllog_event_next reads it. Columns are 1-based bytes, 0 none. */
struct mllog_event {
	long line;            /* its line */
	long col;             /* its payload's first byte (after ":::MLLOG ") */
	long bad_col;         /* the payload is not valid JSON (as json.loads reads it): where it
			       * stops being so; the fields below are then unset */
	char key[48];         /* the top-level "key" string, unescaped; "" when absent, not a
			       * string, longer, or holding a NUL */
	int has_time;         /* time_ms is a finite number, in time_ms */
	double time_ms;
	long time_col;        /* the time_ms value */
	char value_type;      /* the top-level "value": 'n' a number, 's' a string, 'o' anything
			       * else (null, true, NaN, an object), 0 absent */
	int value_is_number;  /* it is a finite number, in value */
	double value;
	long value_col;
	char measurement[3];  /* metadata.measurement_type when it is "AC" or "DC" (any case), as
			       * "AC" or "DC"; else "" */
	/* metadata's convergence fields: each flag says it is a finite number */
	int has_epoch_num, has_samples_count, has_step_num;
	double epoch_num, samples_count, step_num;
	char metric[16];      /* metadata.metric ("FID", "CLIP"); "" when absent, not a string
			       * or longer */
};

/* Reads the next event of buf[0..len) from byte *pos (0 at first), *line being the line *pos
 * is on (1 at first): returns 1 with *ev filled and *pos, *line moved past its line, or 0
 * when no event is left. Duplicate names: the last wins, as in a Python dict. */
int mllog_event_next(const char *buf, size_t len, size_t *pos, long *line, struct mllog_event *ev);

#endif
