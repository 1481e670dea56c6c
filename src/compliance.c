/* compliance.c: which keys a result log must have, from the official checker's configuration
 * (compliance_keys.c). The checker applies every configuration that includes the benchmark's:
 * the common one of every division, the division's common one and the benchmark's own. */
#include "compliance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds the keys of one group to out. */
static void add_group(const struct compliance_group *g, struct compliance_req *out)
{
	const char *p = g->keys;

	while (*p) {
		bool once = *p == '=';
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p), i;
		if (len > 1 && len - 1 < COMPLIANCE_KEY_LEN) {
			for (i = 0; i < out->n; i++)
				if (strlen(out->key[i]) == len - 1 && memcmp(out->key[i], p + 1, len - 1) == 0)
					break;
			if (i == out->n && out->n < COMPLIANCE_MAX_KEYS) {
				memcpy(out->key[i], p + 1, len - 1);
				out->key[i][len - 1] = '\0';
				out->keys[i] = out->key[i];
				out->exactly_one[i] = false;
				out->n++;
			}
			if (i < out->n && once)
				out->exactly_one[i] = true;
		}
		p += len;
		while (*p == ' ')
			p++;
	}
}

/* Keys today's configuration of an older ruleset names otherwise than that ruleset's checker
 * did in its day: the logs of the round use the old name. Today's 2.1.0 closed BERT asks for
 * opt_lamb_epsilon; 2.1's checker asked for opt_epsilon, as today's 2.0.0 still does, and every
 * v2.1 BERT log has opt_epsilon and no opt_lamb_epsilon. */
static const struct {
	const char *benchmark, *today, *then;
	const char *before; /* the first ruleset whose own checker used today's name */
} renamed[] = {
	{ "bert", "opt_lamb_epsilon", "opt_epsilon", "3.0.0" }, /* RNN-T's always was opt_lamb_epsilon */
};

/* The name ruleset's own checker gave key for benchmark. */
static const char *key_of_the_day(const char *key, const char *ruleset, const char *benchmark)
{
	for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
		if (strcmp(benchmark, renamed[i].benchmark) == 0 && strcmp(key, renamed[i].today) == 0 &&
		    atoi(ruleset) < atoi(renamed[i].before))
			return renamed[i].then;
	return key;
}

void compliance_required(const char *ruleset, bool open, const char *benchmark, struct compliance_req *out)
{
	const char *div = open ? "open" : "closed";

	out->n = 0;
	snprintf(out->ruleset, sizeof out->ruleset, "%s", ruleset);
	/* today's checker rejects logs of v1.1 and v2.1 that were published and scored: before
	 * 3.0.0 a broken requirement is a warning */
	out->binding = atoi(ruleset) >= 3;
	for (size_t i = 0; i < compliance_ngroups; i++) {
		const struct compliance_group *g = &compliance_groups[i];
		if (strcmp(g->ruleset, ruleset) != 0)
			continue;
		if ((strcmp(g->division, "any") == 0 && strcmp(g->benchmark, "common") == 0) ||
		    (strcmp(g->division, div) == 0 &&
		     (strcmp(g->benchmark, "common") == 0 || strcmp(g->benchmark, benchmark) == 0)))
			add_group(g, out);
	}
	for (size_t i = 0; i < out->n; i++) {
		const char *k = key_of_the_day(out->key[i], ruleset, benchmark);
		if (k != out->key[i])
			snprintf(out->key[i], sizeof out->key[i], "%s", k);
	}
}

long compliance_check(const struct compliance_req *req, const unsigned *counts, char *why, size_t n)
{
	/* A repeated exactly-one key (submission_division logged once per process) breaks the
	 * rule as written, but the official scores count such logs (v3.0, v3.1, v5.1): only a
	 * missing key fails (whether required once or at least once). */
	for (size_t i = 0; i < req->n; i++) {
		if (counts[i] >= 1)
			continue;
		/* before 3.0.0 the list is today's configuration of the ruleset, which may ask for
		 * what the round's own checker did not: it says so */
		snprintf(why, n, "'%s' is missing; %sruleset %s requires it %s", req->key[i],
			 req->binding ? "" : "today's key list for ", req->ruleset,
			 req->exactly_one[i] ? "exactly once" : "at least once");
		return (long)i;
	}
	return -1;
}
