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
	free(ds->rules);
	free(ds->prices);
	free(ds->keys);
	free(ds->pairs);
	strpool_free(&ds->pool);
	warn_free(&ds->warn);
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

/* The dataset the comparators below read (they take 32-bit row indices, as qsort's would:
 * no context argument); the core runs on one thread. */
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

/* Round, benchmark, system id, runs, then a row with an energy score before one without (so
 * that the standing row keeps what only a power submission measured), then submitter by name:
 * a duplicate group is a run of equal keys with its standing row first. */
static int dup_order(const void *pa, const void *pb)
{
	const struct row *a = &order_ds->rows[*(const uint32_t *)pa], *b = &order_ds->rows[*(const uint32_t *)pb];
	int c;

	if ((c = ptr_cmp(a->round, b->round)) || (c = ptr_cmp(a->benchmark, b->benchmark)) ||
	    (c = ptr_cmp(a->system, b->system)) || (c = runs_cmp(a, b)))
		return c;
	if (isnan(a->energy_j) != isnan(b->energy_j))
		return isnan(a->energy_j) ? 1 : -1;
	return strcmp(a->submitter, b->submitter);
}

/* dup_order, then the row: the order a stable sort of every row by dup_order gave a group. */
static int dup_order_at(const void *pa, const void *pb)
{
	int c = dup_order(pa, pb);
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return c ? c : (a > b) - (a < b);
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

/* Whether rows a and b have one non-empty run list (and, with key, one round, benchmark and
 * system id; else one benchmark). */
static bool same_runs(const struct row *a, const struct row *b, bool key)
{
	return b->run_n > 0 && a->benchmark == b->benchmark &&
	       (!key || (a->round == b->round && a->system == b->system)) && runs_cmp(a, b) == 0;
}

/* ---- rows with one run list ----
 *
 * Rows that share a run list are found by hashing it (with the benchmark, and for duplicates
 * the round and system id), not by sorting every row: at 10^5-10^6 rows the two sorts of
 * every row were a tenth of a load. A class is a list of rows in index order; only classes
 * of two or more rows are ordered, as the sort ordered them. */

static uint64_t mix64(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 27);
}

/* The hash of row r's benchmark and runs (a zero run of either sign hashes as +0, as it
 * compares): equal under same_runs(..., false), equal hash. */
static uint64_t runs_hash(const struct dataset *ds, const struct row *r)
{
	uint64_t h = mix64(r->run_n, (uintptr_t)r->benchmark), b;
	const double *x = ds->runs + r->run_off;

	for (unsigned i = 0; i < r->run_n; i++) {
		double v = x[i] == 0 ? 0 : x[i];
		memcpy(&b, &v, sizeof b);
		h = mix64(h, b);
	}
	return h;
}

/* The slots of runs_classes' table: the class's hash, first row (UINT32_MAX empty) and last,
 * to append to. */
struct class_slot {
	uint64_t h;
	uint32_t first, last;
};

/* Row i's hash in runs_classes: with key, its round and system id are mixed in. */
static uint64_t class_hash(const struct dataset *ds, bool key, const uint64_t *hr, size_t i)
{
	const struct row *r = &ds->rows[i];

	return key ? mix64(mix64(hr[i], (uintptr_t)r->round), (uintptr_t)r->system) : hr[i];
}

/* Links every row with a run list to the next row of its class (rows a, b of one class:
 * same_runs(a, b, key)) in next[], UINT32_MAX ending a class; head[] gets each class's first
 * row, in index order, and the count is returned. hr[i] is row i's runs_hash; t[cap] (a power
 * of two at least twice the rows) is the table, made empty here. */
static long runs_classes(const struct dataset *ds, bool key, const uint64_t *hr, uint32_t *next,
			 uint32_t *head, struct class_slot *t, size_t cap)
{
	/* one cache line read per row, the slots being visited at random (the slot of the row
	 * eight on is fetched meanwhile); a row of another class is read only when the hashes
	 * agree (comparing rows on every probe was half the misses of a load at 10^5 rows) */
	enum { AHEAD = 8 };
	long nc = 0;

	memset(t, 0xff, cap * sizeof *t);
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		if (i + AHEAD < ds->n)
			__builtin_prefetch(&t[class_hash(ds, key, hr, i + AHEAD) & (cap - 1)]);
		next[i] = UINT32_MAX;
		if (r->run_n == 0)
			continue;
		uint64_t h = class_hash(ds, key, hr, i);
		size_t at = (size_t)h & (cap - 1);
		while (t[at].first != UINT32_MAX && (t[at].h != h || !same_runs(&ds->rows[t[at].first], r, key)))
			at = (at + 1) & (cap - 1);
		if (t[at].first == UINT32_MAX) {
			t[at].h = h;
			t[at].first = (uint32_t)i;
			head[nc++] = (uint32_t)i;
		} else {
			next[t[at].last] = (uint32_t)i;
		}
		t[at].last = (uint32_t)i;
	}
	return nc;
}

/* Sets dup_of and collapsed_from (see dataset_classify): each class of two or more rows in
 * dup_order, ties by row, as the sort of every row ordered them. 0, or -1 when out of
 * memory. */
static int mark_duplicates(struct dataset *ds, const uint64_t *hr, uint32_t *next, uint32_t *head,
			   uint32_t *v, struct class_slot *t, size_t cap)
{
	long nc = runs_classes(ds, true, hr, next, head, t, cap);

	for (long c = 0; c < nc; c++) {
		size_t n = 0;
		if (next[head[c]] == UINT32_MAX)
			continue;
		for (uint32_t i = head[c]; i != UINT32_MAX; i = next[i])
			v[n++] = i;
		qsort(v, n, sizeof *v, dup_order_at);
		if (mark_group(ds, v, n) < 0)
			return -1;
	}
	return 0;
}

/* Sets carried_from: in each class of one benchmark and run list, every row of a later round
 * than the class's earliest (by version; of equal ones the first in index order, as the
 * sort's first row) was carried over from that round. The system id need not match (the 15
 * v4.1 rows that repeat v4.0 match on it too). */
static void mark_carried(struct dataset *ds, const uint64_t *hr, uint32_t *next, uint32_t *head,
			 struct class_slot *t, size_t cap)
{
	long nc = runs_classes(ds, false, hr, next, head, t, cap);

	for (long c = 0; c < nc; c++) {
		if (next[head[c]] == UINT32_MAX)
			continue;
		const char *first = ds->rows[head[c]].round;
		for (uint32_t i = next[head[c]]; i != UINT32_MAX; i = next[i])
			if (text_version_cmp(ds->rows[i].round, first) < 0)
				first = ds->rows[i].round;
		for (uint32_t i = head[c]; i != UINT32_MAX; i = next[i])
			if (text_version_cmp(ds->rows[i].round, first) > 0)
				ds->rows[i].carried_from = first;
	}
}

/* ds->pairs made from the rows (see struct dataset); left stale when there are too many to
 * help (the lists then read the rows) or no memory. */
static void pairs_make(struct dataset *ds)
{
	enum { MOST = 4096 }; /* rounds x workloads of every MLPerf round is some hundred */
	const char *lr = NULL, *lb = NULL;

	free(ds->pairs);
	ds->pairs = NULL;
	ds->npairs = 0;
	ds->pairs_rows = NULL;
	ds->pairs_n = 0;
	if (!(ds->pairs = malloc(MOST * sizeof *ds->pairs)))
		return;
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		size_t j;
		if (r->round == lr && r->benchmark == lb)
			continue;
		lr = r->round;
		lb = r->benchmark;
		for (j = 0; j < ds->npairs && (ds->pairs[j].round != lr || ds->pairs[j].benchmark != lb); j++)
			;
		if (j < ds->npairs)
			continue;
		if (ds->npairs == MOST) {
			free(ds->pairs);
			ds->pairs = NULL;
			ds->npairs = 0;
			return;
		}
		ds->pairs[ds->npairs++] = (struct ds_pair){ lr, lb };
	}
	ds->pairs_rows = ds->rows;
	ds->pairs_n = ds->n;
}

int dataset_classify(struct dataset *ds)
{
	uint32_t *v;

	/* the loader's key set (16 MB at 10^6 rows) is not needed until another load, which
	 * makes it again from the rows */
	free(ds->keys);
	ds->keys = NULL;
	ds->keys_cap = ds->nkeys = 0;
	families_apply(ds);
	prices_apply(ds);
	warn_unmapped(ds);
	pairs_make(ds);
	for (size_t i = 0; i < ds->n; i++) {
		ds->rows[i].dup_of = -1;
		const struct row_extra *x = row_extra(&ds->rows[i]);
		ds->rows[i].collapsed_from = x->collapsed_read ? x->collapsed_read : "";
		ds->rows[i].carried_from = x->carried_read ? x->carried_read : "";
	}
	if (ds->n == 0)
		return 0;
	if (ds->n >= UINT32_MAX || !(v = malloc(3 * ds->n * sizeof *v)))
		return -1;
	/* each row's runs read once for both passes */
	uint64_t *hr = malloc(ds->n * sizeof *hr);
	if (!hr) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < ds->n; i++)
		hr[i] = ds->rows[i].run_n ? runs_hash(ds, &ds->rows[i]) : 0;
	/* one table for both passes (at 10^6 rows 32 MB: made twice, it was faulted in twice) */
	size_t cap = 16;
	while (cap < 2 * ds->n)
		cap *= 2;
	struct class_slot *t = malloc(cap * sizeof *t);
	int rc = -1;
	order_ds = ds;
	/* rows that stand for others share a round, benchmark and system id under other
	 * submitters, which the loader counts (shared_ids): with none, no row can (at 10^6 rows
	 * looking was a twentieth of a summary) */
	if (t && (rc = ds->shared_ids ? mark_duplicates(ds, hr, v, v + ds->n, v + 2 * ds->n, t, cap) : 0) == 0)
		mark_carried(ds, hr, v, v + ds->n, t, cap);
	order_ds = NULL;
	free(t);
	free(hr);
	free(v);
	return rc;
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
	/* rounds and workloads from the distinct pairs when they are the rows' own: the same
	 * texts in the same order as from the rows */
	bool pairs = f != F_FAMILY && !bench && ds->pairs && ds->pairs_rows == ds->rows && ds->pairs_n == ds->n;
	size_t m = pairs ? ds->npairs : ds->n;

	for (size_t i = 0; i < m; i++) {
		const char *rr = pairs ? ds->pairs[i].round : ds->rows[i].round;
		const char *rb = pairs ? ds->pairs[i].benchmark : ds->rows[i].benchmark;
		const char *x = f == F_ROUND ? rr : f == F_BENCH ? rb : ds->rows[i].family;
		size_t j;
		if (x == last || !same_name(rr, round) || !same_name(rb, bench))
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
