/* dataset.c: rows in memory and the queries on them (rounds, workloads, names, availability). */
#include "dataset.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dataset_free(struct dataset *ds)
{
	for (size_t b = 0; b < ds->nxblocks; b++)
		free(ds->xblocks[b]);
	free(ds->xblocks);
	free(ds->xset);
	free(ds->rows);
	free(ds->runs);
	free(ds->run_samples);
	free(ds->rules);
	free(ds->prices);
	free(ds->round_order);
	free(ds->keys);
	strpool_free(&ds->pool);
	warn_free(&ds->warn);
	rcp_free(&ds->rcp);
	memset(ds, 0, sizeof *ds);
}

/* ------------------------------------------------------------------ the import's texts */

#define XBLOCK 1024 /* row_extra records a block */

const struct row_extra *row_extra(const struct row *r)
{
	static const struct row_extra none = { "", "", "", "", "", "", "" };

	return r->x ? r->x : &none;
}

static size_t extra_hash(const struct row_extra *x)
{
	const char *const *f = &x->benchmark_published;
	uint64_t h = 0;

	/* pooled texts: one text, one pointer (a text pooled twice only makes a second record) */
	for (size_t i = 0; i < sizeof *x / sizeof *f; i++)
		h = (h ^ (uint64_t)(uintptr_t)f[i]) * UINT64_C(0x9E3779B97F4A7C15);
	return (size_t)(h ^ (h >> 29));
}

static bool extra_same(const struct row_extra *a, const struct row_extra *b)
{
	return a->benchmark_published == b->benchmark_published && a->source == b->source &&
	       a->run_files == b->run_files && a->failed_files == b->failed_files &&
	       a->power_measurement == b->power_measurement && a->collapsed_read == b->collapsed_read &&
	       a->carried_read == b->carried_read;
}

/* Makes the set hold twice its records (at least 64 slots). 0, or -1 out of memory. */
static int extra_grow(struct dataset *ds)
{
	size_t cap = ds->xcap ? 2 * ds->xcap : 64;
	struct row_extra **t = calloc(cap, sizeof *t);

	if (!t)
		return -1;
	for (size_t i = 0; i < ds->xcap; i++) {
		if (!ds->xset[i])
			continue;
		size_t h = extra_hash(ds->xset[i]) & (cap - 1);
		while (t[h])
			h = (h + 1) & (cap - 1);
		t[h] = ds->xset[i];
	}
	free(ds->xset);
	ds->xset = t;
	ds->xcap = cap;
	return 0;
}

const struct row_extra *dataset_extra(struct dataset *ds, const struct row_extra *x)
{
	if ((ds->xn + 1) * 2 > ds->xcap && extra_grow(ds) < 0)
		return NULL;
	size_t h = extra_hash(x) & (ds->xcap - 1);
	for (; ds->xset[h]; h = (h + 1) & (ds->xcap - 1))
		if (extra_same(ds->xset[h], x))
			return ds->xset[h];
	if (ds->xused == 0 || ds->xused == XBLOCK) {
		struct row_extra **v = realloc(ds->xblocks, (ds->nxblocks + 1) * sizeof *v);
		if (!v)
			return NULL;
		ds->xblocks = v;
		if (!(v[ds->nxblocks] = malloc(XBLOCK * sizeof **v)))
			return NULL;
		ds->nxblocks++;
		ds->xused = 0;
	}
	struct row_extra *e = &ds->xblocks[ds->nxblocks - 1][ds->xused++];
	*e = *x;
	ds->xset[h] = e;
	ds->xn++;
	return e;
}

/* ------------------------------------------------------------------ normalised values */

/* Every spelling of availability in the published rounds (results CSVs and the systems JSON of
 * v4.0 to v5.1), compared under ascii_fold. */
static const struct {
	const char *text;
	enum avail a;
} avail_spellings[] = {
	{ "Available on-premise", AVAIL_ONPREM }, { "available", AVAIL_ONPREM }, { "onprem", AVAIL_ONPREM },
	{ "on-premise", AVAIL_ONPREM }, { "Available on premise", AVAIL_ONPREM },
	{ "Available cloud", AVAIL_CLOUD }, { "Available in cloud", AVAIL_CLOUD }, { "cloud", AVAIL_CLOUD },
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

/* ------------------------------------------------------------------ after loading */

/* One warning for every availability or division that maps to nothing: kept as written. */
static void warn_unmapped(struct dataset *ds)
{
	const struct row *first = NULL;
	size_t n = 0;

	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		if ((r->avail == AVAIL_OTHER && *r->availability) || (r->div == DIV_OTHER && *r->division)) {
			if (!n++)
				first = r;
		}
	}
	if (n)
		warn_add(&ds->warn, first->file, first->line, 0,
			 "%zu row%s with an availability or division that maps to nothing (first: '%s', '%s'); "
			 "kept as written", n, n == 1 ? "" : "s", first->availability, first->division);
}

/* The dataset the comparators below read (qsort takes no context argument); the core runs
 * on one thread. */
static const struct dataset *order_ds;

static int runs_cmp(const struct row *a, const struct row *b)
{
	if (a->run_n != b->run_n)
		return a->run_n < b->run_n ? -1 : 1;
	if (a->run_n == 0)
		return 0; /* no run list at all: runs may be NULL, and NULL + 0 is undefined */
	const double *x = order_ds->runs + a->run_off, *y = order_ds->runs + b->run_off;
	for (unsigned i = 0; i < a->run_n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* Pooled texts compare by pointer: any fixed order groups equal ones. */
static int ptr_cmp(const char *a, const char *b)
{
	return a == b ? 0 : (uintptr_t)a < (uintptr_t)b ? -1 : 1;
}

static int index_cmp(uint32_t a, uint32_t b)
{
	return (a > b) - (a < b);
}

/* Round, benchmark, system id and runs: equal for the rows of one duplicate group. */
static int dup_key(const struct row *a, const struct row *b)
{
	int c;

	if ((c = ptr_cmp(a->round, b->round)) || (c = ptr_cmp(a->benchmark, b->benchmark)) ||
	    (c = ptr_cmp(a->system, b->system)))
		return c;
	return runs_cmp(a, b);
}

/* dup_key, then a row with an energy score before one without (so that the standing row keeps
 * what only a power submission measured), then submitter by name, then the row: a duplicate
 * group is a run of equal keys with its standing row first. */
static int dup_order(const void *pa, const void *pb)
{
	uint32_t i = *(const uint32_t *)pa, j = *(const uint32_t *)pb;
	const struct row *a = &order_ds->rows[i], *b = &order_ds->rows[j];
	int c;

	if ((c = dup_key(a, b)))
		return c;
	if (isnan(a->energy_j) != isnan(b->energy_j))
		return isnan(a->energy_j) ? 1 : -1;
	if ((c = strcmp(a->submitter, b->submitter)))
		return c;
	return index_cmp(i, j);
}

/* Benchmark, accelerators and runs: equal for the rows of one run list (runs_class). */
static int class_key(const struct row *a, const struct row *b)
{
	int c;

	if ((c = ptr_cmp(a->benchmark, b->benchmark)))
		return c;
	if (a->accelerators != b->accelerators)
		return a->accelerators < b->accelerators ? -1 : 1;
	return runs_cmp(a, b);
}

/* class_key, then the row: a class of one run list in row order. */
static int carried_order(const void *pa, const void *pb)
{
	uint32_t i = *(const uint32_t *)pa, j = *(const uint32_t *)pb;
	int c;

	if ((c = class_key(&order_ds->rows[i], &order_ds->rows[j])))
		return c;
	return index_cmp(i, j);
}

/* Marks the rows v[0..n) (sorted by dup_order, one group) as standing for each other. */
static int mark_group(struct dataset *ds, const uint32_t *v, size_t n)
{
	size_t len = 0;
	char *list;

	for (size_t i = 0; i < n; i++)
		len += strlen(ds->rows[v[i]].submitter) + 1;
	if (!(list = malloc(len)))
		return -1;
	len = 0;
	for (size_t i = 0; i < n; i++) {
		len += (size_t)sprintf(list + len, "%s%s", i ? ";" : "", ds->rows[v[i]].submitter);
		if (i)
			ds->rows[v[i]].dup_of = (long)v[0];
	}
	const char *pooled = strpool_intern(&ds->pool, list, len);
	free(list);
	if (!pooled)
		return -1;
	ds->rows[v[0]].collapsed_from = pooled;
	return 0;
}

/* Sets dup_of and collapsed_from (see dataset_classify) from v[0..n), the rows with a run
 * list. 0, or -1 when out of memory. */
static int mark_duplicates(struct dataset *ds, uint32_t *v, size_t n)
{
	qsort(v, n, sizeof *v, dup_order);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && dup_key(&ds->rows[v[i]], &ds->rows[v[j]]) == 0; j++)
			;
		if (j - i > 1 && mark_group(ds, v + i, j - i) < 0)
			return -1;
	}
	return 0;
}

/* Sets runs_class and carried_from from v[0..n), the rows with a run list: in each class of
 * one benchmark, accelerator count and run list, every row of a later round than the class's
 * earliest (by version; of equal ones the first in row order) was carried over from that
 * round. The system id need not match: resubmissions rename systems (dgxh100_* to eos_*). */
static void mark_carried(struct dataset *ds, uint32_t *v, size_t n)
{
	qsort(v, n, sizeof *v, carried_order);
	for (size_t i = 0, j; i < n; i = j) {
		const struct row *a = &ds->rows[v[i]];
		const char *first = a->round;
		for (j = i + 1; j < n && class_key(a, &ds->rows[v[j]]) == 0; j++)
			if (text_version_cmp(ds->rows[v[j]].round, first) < 0)
				first = ds->rows[v[j]].round;
		for (size_t k = i; j - i > 1 && k < j; k++) {
			ds->rows[v[k]].runs_class = v[i] + 1; /* the first in row order: sorted so */
			if (text_version_cmp(ds->rows[v[k]].round, first) > 0)
				ds->rows[v[k]].carried_from = first;
		}
	}
}

int dataset_classify(struct dataset *ds)
{
	uint32_t *v;
	size_t n = 0;
	int rc = 0;

	families_apply(ds);
	prices_apply(ds);
	warn_unmapped(ds);
	free(ds->round_order);
	ds->round_order = NULL;
	if (dataset_round_list(ds, &ds->round_order, &ds->nround_order) < 0)
		ds->round_order = NULL; /* each list made when asked */
	else
		ds->round_order_rows = ds->n;
	for (size_t i = 0; i < ds->n; i++) {
		ds->rows[i].dup_of = -1;
		ds->rows[i].runs_class = 0;
		const struct row_extra *x = row_extra(&ds->rows[i]);
		ds->rows[i].collapsed_from = x->collapsed_read ? x->collapsed_read : "";
		ds->rows[i].carried_from = x->carried_read ? x->carried_read : "";
	}
	if (ds->n == 0)
		return 0;
	if (ds->n >= UINT32_MAX || !(v = malloc(ds->n * sizeof *v)))
		return -1;
	/* rows without a run list stand for none and were carried from no round */
	for (size_t i = 0; i < ds->n; i++)
		if (ds->rows[i].run_n)
			v[n++] = (uint32_t)i;
	order_ds = ds;
	/* rows that stand for others share a round, benchmark and system id under other
	 * submitters, which the loader counts (shared_ids) */
	if (ds->shared_ids)
		rc = mark_duplicates(ds, v, n);
	if (rc == 0)
		mark_carried(ds, v, n);
	order_ds = NULL;
	free(v);
	return rc;
}

bool dataset_minutes_ok(double t)
{
	return isfinite(t) && t > 0 && isfinite(60.0 / t);
}

/* ------------------------------------------------------------------ queries */

/* What a list query collects. */
enum field { F_ROUND, F_BENCH, F_FAMILY };

/* Whether text (pooled) is name: by pointer, else by text. NULL name takes every text. */
static bool same_name(const char *text, const char *name)
{
	return !name || text == name || strcmp(text, name) == 0;
}

/* A value of a list query and the row it was first seen at. */
struct seen {
	const char *x;
	size_t at;
};

/* By pooled pointer (equal texts share one), then by row. */
static int seen_ptr_cmp(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	uintptr_t px = (uintptr_t)x->x, py = (uintptr_t)y->x;

	if (px != py)
		return px < py ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int seen_at_cmp(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* The distinct values of field f over the rows of round and bench (NULL: any), in first-seen
 * order, into a malloc'd *out of *n. Sorted by pointer to find the first of each, then by row
 * again: a linear search of those seen costs rows x values, which a file of many rounds makes
 * quadratic. 0, or -1 when out of memory. */
static int distinct(const struct dataset *ds, enum field f, const char *round, const char *bench,
		    const char ***out, size_t *n)
{
	struct seen *s = malloc((ds->n ? ds->n : 1) * sizeof *s);
	const char **v, *last = NULL;
	size_t k = 0, u = 0;

	if (!s)
		return -1;
	for (size_t i = 0; i < ds->n; i++) {
		const char *rr = ds->rows[i].round, *rb = ds->rows[i].benchmark;
		const char *x = f == F_ROUND ? rr : f == F_BENCH ? rb : ds->rows[i].family;
		if (x == last || !same_name(rr, round) || !same_name(rb, bench))
			continue;
		last = x;
		s[k].x = x;
		s[k++].at = i;
	}
	if (k)
		qsort(s, k, sizeof *s, seen_ptr_cmp);
	for (size_t i = 0; i < k; i++)
		if (i == 0 || s[i].x != s[i - 1].x)
			s[u++] = s[i];
	if (u)
		qsort(s, u, sizeof *s, seen_at_cmp);
	if (!(v = malloc((u ? u : 1) * sizeof *v))) {
		free(s);
		return -1;
	}
	for (size_t i = 0; i < u; i++)
		v[i] = s[i].x;
	free(s);
	*out = v;
	*n = u;
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
	if (ds->round_order && ds->round_order_rows == ds->n) {
		if (!(*out = malloc((ds->nround_order ? ds->nround_order : 1) * sizeof **out)))
			return -1;
		if (ds->nround_order)
			memcpy(*out, ds->round_order, ds->nround_order * sizeof **out);
		*n = ds->nround_order;
		return 0;
	}
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
