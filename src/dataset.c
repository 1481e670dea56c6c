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

/* What a list query collects. */
enum field { F_ROUND, F_BENCH, F_FAMILY };

/* Whether text (pooled) is name: by pointer, else by text. NULL name takes every text. */
static bool same_name(const char *text, const char *name)
{
	return !name || text == name || strcmp(text, name) == 0;
}

/* The distinct values of field f over the rows of round and bench (NULL: any), in first-seen
 * order, into a malloc'd *out of *n. 0, or -1 when out of memory. */
static int distinct(const struct dataset *ds, enum field f, const char *round, const char *bench,
		    const char ***out, size_t *n)
{
	const char **v = NULL, *last = NULL;
	size_t k = 0, cap = 0;

	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		const char *x = f == F_ROUND ? r->round : f == F_BENCH ? r->benchmark : r->family;
		size_t j;
		if (x == last || !same_name(r->round, round) || !same_name(r->benchmark, bench))
			continue;
		last = x;
		for (j = 0; j < k && v[j] != x; j++)
			;
		if (j < k)
			continue;
		if (k == cap) {
			const char **w = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof *v);
			if (!w) {
				free(v);
				return -1;
			}
			v = w;
		}
		v[k++] = x;
	}
	*out = v;
	*n = k;
	return 0;
}

static int version_cmp(const void *a, const void *b)
{
	return text_version_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* Known workloads in their usual order, then the rest by name. */
static int workload_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t rx = workload_rank(x), ry = workload_rank(y);

	return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x, y);
}

static int family_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int c = ascii_casecmp(x, y);

	return c ? c : strcmp(x, y);
}

int dataset_round_list(const struct dataset *ds, const char ***out, size_t *n)
{
	if (distinct(ds, F_ROUND, NULL, NULL, out, n) < 0)
		return -1;
	if (*n)
		qsort(*out, *n, sizeof **out, version_cmp);
	return 0;
}

int dataset_workload_list(const struct dataset *ds, const char *round, const char ***out, size_t *n)
{
	if (distinct(ds, F_BENCH, round, NULL, out, n) < 0)
		return -1;
	if (*n)
		qsort(*out, *n, sizeof **out, workload_cmp);
	return 0;
}

int dataset_family_list(const struct dataset *ds, const char *round, const char *bench, const char ***out,
			size_t *n)
{
	if (distinct(ds, F_FAMILY, round, bench, out, n) < 0)
		return -1;
	if (*n)
		qsort(*out, *n, sizeof **out, family_cmp);
	return 0;
}

/* Copies up to max names of list (freed) into out; the count copied. */
static size_t list_copy(const char **list, size_t n, const char **out, size_t max)
{
	if (n > max)
		n = max;
	if (n)
		memcpy(out, list, n * sizeof *out);
	free(list);
	return n;
}

size_t dataset_rounds(const struct dataset *ds, const char **out, size_t max)
{
	const char **v;
	size_t n;

	if (distinct(ds, F_ROUND, NULL, NULL, &v, &n) < 0)
		return 0;
	return list_copy(v, n, out, max);
}

size_t dataset_workloads(const struct dataset *ds, const char *round, const char **out, size_t max)
{
	const char **v;
	size_t n;

	if (dataset_workload_list(ds, round, &v, &n) < 0)
		return 0;
	return list_copy(v, n, out, max);
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
