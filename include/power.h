/* power.h: the official MLPerf Training energy-to-train score from a benchmark folder's power
 * logs (<bench>/power/result_K/node_*.txt and sw_*.txt, MLLOG lines). */
#ifndef GS_POWER_H
#define GS_POWER_H

#include <stddef.h>

#include "err.h"

/* The two versions of the official node rule; each round was scored with its own. */
enum power_rule {
	POWER_RULE_FILE_ORDER, /* rounds up to v4.0: file order, readings up to the first stop,
				* stop = max(stop, latest reading) */
	POWER_RULE_WINDOW      /* from v4.1: sorted by time, readings inside start..stop only,
				* no stop -> the latest reading */
};

/* A power log file is read only when it is a regular file of at most this many bytes. */
#define POWER_FILE_MAX (64u << 20)

/* The rule round ("v4.0", "v5.1") was scored with: FILE_ORDER for vX.Y <= v4.0, WINDOW for
 * later rounds and for any name that is not vX.Y (the current rule). */
enum power_rule power_rule_for_round(const char *round);

/* Energy in joules that the node file held in buf[0..len) gives for a run of ttt_ms
 * milliseconds under rule; name is the file's path for messages. Returns 0 with *joules
 * (finite, > 0), or -1 with e set (name:line:col and why): a payload that is not valid
 * JSON, a start, stop, reading or conversion_eff event without a finite numeric time_ms or
 * value, no power_measurement_start (or, under FILE_ORDER, a reading before it), no
 * reading, an empty window (stop == start) or a result that is not a finite positive
 * number. measurement (may be NULL) receives "AC"/"DC" from a metadata.measurement_type,
 * "" when none says, "?" when lines disagree; it holds at least 3 bytes. */
int power_node_energy(const char *buf, size_t len, const char *name, enum power_rule rule,
		      double ttt_ms, double *joules, char *measurement, struct gs_err *e);

/* Energy in joules of the switch file held in buf[0..len) for a run of ttt_ms ms:
 * conversion_eff * (first interconnect_power_est) * ttt_ms / 1000, and 0 J with
 * *estimated = 0 when the file has no interconnect_power_est (the official code counts such
 * a file, which may hold measured readings, as 0 J). Returns 0 with *joules (finite,
 * >= 0), or -1 with e set: bad JSON, a bad number, a negative or infinite result. */
int power_switch_energy(const char *buf, size_t len, const char *name, double ttt_ms,
			double *joules, int *estimated, struct gs_err *e);

/* The olympic energy score: runs 0..ok-1 are the successful runs in log file name order,
 * minutes[i] their times and joules[i] their energies; failed runs count as dropped slow
 * runs, limit m is olympic_limit(benchmark). Runs are ordered by time (ties by index, as
 * a stable sort keeps them), the same window as the time score is averaged and multiplied
 * by sf. Returns 0 with *score (finite, > 0), -1 when there is no score, -2 when memory runs
 * out. */
int power_olympic(const double *minutes, const double *joules, size_t ok, size_t failed,
		  size_t m, double sf, double *score);

/* "AC" or "DC" when a word of the submitter or system folder name (words split at
 * anything but letters and digits, any case) is "ac" or "dc" (smc-dc-power -> "DC"),
 * else "". Returns a static string. */
const char *power_measurement_from_names(const char *submitter, const char *system);

/* One successful run of a benchmark folder, as the time score saw it. */
struct power_run {
	const char *log;  /* its result log's file name, "result_3.txt" */
	double ms;        /* run_stop - run_start, ms */
	double minutes;   /* the time the time score sorted by */
};

/* Energy score of the benchmark folder dir (submitter and system: its folder names) with
 * successful runs runs[0..n) in log file name order and `failed` failed runs, olympic limit
 * m, scaling factor sf. Reads dir/power/<log up to its first '.'>/node_*.txt and sw_*.txt
 * for every successful run (regular files of at most POWER_FILE_MAX bytes; the same file
 * twice, a missing power folder, no node file, or a node or switch file that another run has
 * and this one lacks is an error). Returns 0 with *joules and measurement ("AC", "DC" or
 * ""; at least 3 bytes), 1 when dir has no power folder (no energy, nothing to say), -1
 * when the power logs give no energy: one warning in w names the file and why, or -2 when
 * memory runs out (no warning: the logs are not at fault). */
int power_folder_energy(const char *dir, const char *submitter, const char *system,
			const struct power_run *runs, size_t n, size_t failed, size_t m, double sf,
			enum power_rule rule, double *joules, char *measurement, struct gs_warn *w);

#endif
