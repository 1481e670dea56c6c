/* dataset.c: rows in memory and the queries on them (rounds, workloads, names, availability). */
#include "dataset.h"

#include <stdlib.h>
#include <string.h>

void dataset_free(struct dataset *ds)
{
	free(ds->rows);
	free(ds->runs);
	free(ds->rules);
	strpool_free(&ds->pool);
	warn_free(&ds->warn);
	memset(ds, 0, sizeof *ds);
}

/* ------------------------------------------------------------------ normalised values */

/* Every spelling of availability in the published rounds (results CSVs and the systems JSON of
 * v4.0 to v5.1), compared under ascii_fold. */
static const struct {
	const char *text;
	enum avail a;
} avail_spellings[] = {
	{ "Available on-premise", AVAIL_ONPREM }, { "available", AVAIL_ONPREM }, { "onprem", AVAIL_ONPREM },
	{ "on-premise", AVAIL_ONPREM }, { "Available cloud", AVAIL_CLOUD }, { "cloud", AVAIL_CLOUD },
	{ "Preview", AVAIL_PREVIEW }, { "Research", AVAIL_RESEARCH }, { "rdi", AVAIL_RESEARCH },
	{ "Research, Development, or Internal", AVAIL_RESEARCH },
};

enum avail dataset_avail(const char *text)
{
	for (size_t i = 0; i < sizeof avail_spellings / sizeof avail_spellings[0]; i++)
		if (ascii_casecmp(text, avail_spellings[i].text) == 0)
			return avail_spellings[i].a;
	return AVAIL_OTHER;
}

const char *avail_name(enum avail a)
{
	switch (a) {
	case AVAIL_ONPREM: return "Available on-premise";
	case AVAIL_CLOUD: return "Available cloud";
	case AVAIL_PREVIEW: return "Preview";
	case AVAIL_RESEARCH: return "Research";
	default: return "Other";
	}
}

const char *row_avail(const struct row *r)
{
	return r->avail == AVAIL_OTHER ? r->availability : avail_name(r->avail);
}

enum division dataset_division(const char *text)
{
	if (ascii_casecmp(text, "closed") == 0)
		return DIV_CLOSED;
	if (ascii_casecmp(text, "open") == 0)
		return DIV_OPEN;
	return DIV_OTHER;
}

/* ------------------------------------------------------------------ queries */

size_t dataset_rounds(const struct dataset *ds, const char **out, size_t max)
{
	size_t n = 0;
	const char *last = NULL;

	for (size_t i = 0; i < ds->n; i++) {
		const char *r = ds->rows[i].round;
		size_t j;
		if (r == last)
			continue;
		last = r;
		for (j = 0; j < n && out[j] != r; j++)
			;
		if (j == n && n < max)
			out[n++] = r;
	}
	return n;
}

/* Known workloads in their usual order, then the rest by name. */
static int workload_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t rx = workload_rank(x), ry = workload_rank(y);

	return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x, y);
}

size_t dataset_workloads(const struct dataset *ds, const char *round, const char **out, size_t max)
{
	size_t n = 0;
	const char *last = NULL;

	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		size_t j;
		if (r->benchmark == last || (r->round != round && strcmp(r->round, round) != 0))
			continue;
		last = r->benchmark;
		for (j = 0; j < n && out[j] != last; j++)
			;
		if (j == n && n < max)
			out[n++] = last;
	}
	qsort(out, n, sizeof *out, workload_cmp);
	return n;
}

bool row_named(const struct row *r, const char *name)
{
	size_t ls;
	const char *slash;

	if (!name)
		return false;
	if (strcmp(r->system, name) == 0)
		return true;
	/* SUBMITTER/SYSTEM: system ids may hold a '/' themselves, so the submitter is matched whole */
	ls = strlen(r->submitter);
	slash = name + ls;
	return ls > 0 && strncmp(name, r->submitter, ls) == 0 && *slash == '/' &&
	       strcmp(slash + 1, r->system) == 0;
}

long dataset_find(const struct dataset *ds, const char *round, const char *bench, const char *system)
{
	long found = -1;

	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		if (!row_named(r, system) || strcmp(r->benchmark, bench) != 0 || strcmp(r->round, round) != 0)
			continue;
		if (found >= 0 && ds->rows[found].submitter != r->submitter)
			return -2;
		if (found < 0)
			found = (long)i;
	}
	return found;
}
