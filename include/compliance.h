/* compliance.h: the keys the official MLPerf compliance checker requires in every result log,
 * per ruleset, division and benchmark (its configuration, as compliance_keys.c holds it). */
#ifndef GS_COMPLIANCE_H
#define GS_COMPLIANCE_H

#include <stdbool.h>
#include <stddef.h>

/* One configuration of the checker: keys of ruleset ("3.0.0"), division ("any", "closed",
 * "open") and benchmark (as published, or "common"), space-separated, each prefixed '=' (exactly
 * one occurrence) or '+' (at least one). */
struct compliance_group {
	const char *ruleset, *division, *benchmark, *keys;
};

extern const struct compliance_group compliance_groups[];
extern const size_t compliance_ngroups;

#define COMPLIANCE_MAX_KEYS 64
#define COMPLIANCE_KEY_LEN 48

/* The keys one log must have. */
struct compliance_req {
	size_t n;
	char key[COMPLIANCE_MAX_KEYS][COMPLIANCE_KEY_LEN];
	const char *keys[COMPLIANCE_MAX_KEYS]; /* key[i], for mllog_scan_keys */
	bool exactly_one[COMPLIANCE_MAX_KEYS]; /* else at least one */
	bool binding;     /* a broken requirement fails the run (ruleset 3.0.0 on), else warns */
	char ruleset[16];
};

/* The keys a log of benchmark (as published) requires in ruleset and division (open, else
 * closed): those of "any" and the division's "common" and the benchmark's own; a key listed
 * twice is exactly-one when one listing says so; a key today's configuration renamed after the
 * ruleset, by the name the ruleset's own checker gave it (2.1.0: opt_epsilon). n = 0 when the
 * table knows no such ruleset. */
void compliance_required(const char *ruleset, bool open, const char *benchmark, struct compliance_req *out);

/* The first key of req that counts (one per key of req, from mllog_scan_keys) find missing, as
 * a reason into why[0..n): "'opt_lamb_epsilon' is missing; ruleset 3.0.0 requires it exactly
 * once", before 3.0.0 "... missing; today's key list for ruleset 2.0.0 requires it ...". A key
 * repeated is not held against the log: the official scores count such logs.
 * Returns its index, or -1 when no required key is missing. */
long compliance_check(const struct compliance_req *req, const unsigned *counts, char *why, size_t n);

#endif
