/* trend.c: the break-even of each family across the rounds of a workload's compatibility span.
 * Each round is analysed alone, exactly as `--print summary --round R` analyses it in family
 * mode, so a cell is that round's bracket and not a piece of the cross-round view (which pools
 * every round into one reference and one bracket per family). */
#include "planner.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_reg.h"
#include "text.h"

static int str_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A family's cell in the round at index r, as one round's analysis gives it. */
struct found {
	const char *family;
	size_t r;
	struct trend_cell cell;
};

/* A row of the workload: its round (pooled) and index. */
struct wrow {
	const char *round;
	size_t i;
};

static int wrow_cmp(const void *x, const void *y)
{
	const struct wrow *a = x, *b = y;
	uintptr_t pa = (uintptr_t)a->round, pb = (uintptr_t)b->round;

	if (pa != pb)
		return pa < pb ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* ds's rows of workload (pooled) by round, each round's in row order, into a malloc'd *out of
 * *n. 0, or -1 when out of memory. */
static int rows_by_round(const struct dataset *ds, const char *workload, struct wrow **out, size_t *n)
{
	struct wrow *v = malloc((ds->n ? ds->n : 1) * sizeof *v);
	size_t k = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < ds->n; i++)
		if (ds->rows[i].benchmark == workload || strcmp(ds->rows[i].benchmark, workload) == 0)
			v[k++] = (struct wrow){ ds->rows[i].round, i };
	if (k)
		qsort(v, k, sizeof *v, wrow_cmp);
	*out = v;
	*n = k;
	return 0;
}

/* The rows of round in w[0..n) (sorted by rows_by_round): their first, and their count. */
static size_t round_rows(const struct wrow *w, size_t n, const char *round, size_t *first)
{
	size_t lo = 0, hi = n, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)w[mid].round < (uintptr_t)round)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n && w[end].round == round; end++)
		;
	*first = lo;
	return end - lo;
}

/* sub: ds with only the rows w[0..n) (one round's, in row order; a row standing for others
 * stands for rows of its own round and benchmark, so every dup_of is among them), in rows
 * (room for n). An analysis of the round reads only these, where one of ds would read every
 * row of every round. */
static void sub_dataset(const struct dataset *ds, const struct wrow *w, size_t n, struct row *rows,
			struct dataset *sub)
{
	*sub = *ds;
	sub->rows = rows;
	sub->n = sub->cap = n;
	sub->round_order = NULL;
	sub->keys = NULL;
	sub->keys_cap = sub->nkeys = 0;
	for (size_t k = 0; k < n; k++) {
		rows[k] = ds->rows[w[k].i];
		if (rows[k].dup_of >= 0) {
			struct wrow key = { w[k].round, (size_t)rows[k].dup_of };
			const struct wrow *at = bsearch(&key, w, n, sizeof *w, wrow_cmp);
			rows[k].dup_of = at ? (long)(at - w) : (long)n;
		}
	}
}

int trend_run(const struct dataset *ds, const struct params *p, struct trend *t,
	      struct gs_err *err)
{
	struct analysis a = { 0 };
	struct params q = *p;
	const char **rounds = NULL, *cur;
	struct found *found = NULL;
	struct wrow *w = NULL;
	struct row *rows = NULL;
	size_t nr, nw, nfound = 0, found_cap = 0;
	int rc = -1;

	memset(t, 0, sizeof *t);
	q.mode = REF_FAMILY;
	q.all_rounds = false;
	q.fit = false;
	q.pinned = NULL;
	q.brackets_only = true;
	if (analysis_run(ds, &q, &a, err) < 0)
		goto out;
	cur = a.round;
	t->workload = a.workload;
	analysis_free(&a);
	memset(&a, 0, sizeof a);
	if (dataset_round_list(ds, &rounds, &nr) < 0 || rows_by_round(ds, t->workload, &w, &nw) < 0)
		goto oom;
	if (!(t->rounds = malloc((nr ? nr : 1) * sizeof *t->rounds)) ||
	    !(rows = malloc((nw ? nw : 1) * sizeof *rows)))
		goto oom;
	for (size_t i = 0; i < nr; i++) {
		size_t first;
		if (!bench_reg_comparable(t->workload, cur, rounds[i]) || !round_rows(w, nw, rounds[i], &first))
			continue;
		if (rounds[i] == cur || strcmp(rounds[i], cur) == 0)
			t->cur = t->nrounds;
		t->rounds[t->nrounds++] = rounds[i];
	}
	/* each round analysed once, alone, its families' cells kept; then the families sorted,
	 * made distinct, and the cells put in their places */
	for (size_t r = 0; r < t->nrounds; r++) {
		struct dataset sub;
		size_t first, n = round_rows(w, nw, t->rounds[r], &first);
		sub_dataset(ds, w + first, n, rows, &sub);
		q.round = t->rounds[r];
		q.workload = t->workload;
		rc = analysis_run(&sub, &q, &a, err);
		for (size_t g = 0; rc == 0 && g < a.ngroups; g++) {
			const struct group *gr = &a.groups[g];
			if (nfound == found_cap) {
				size_t nc = found_cap ? 2 * found_cap : 16;
				struct found *nf = realloc(found, nc * sizeof *nf);
				if (!nf) {
					rc = -1;
					goto oom;
				}
				found = nf;
				found_cap = nc;
			}
			found[nfound++] = (struct found){
				.family = gr->family,
				.r = r,
				.cell = { .has = gr->nrows > 0, .be = gr->be, .nrows = gr->nrows,
					  .n_ref = gr->ref >= 0 ? (long)rows[gr->ref].accelerators : -1 },
			};
		}
		/* a fresh analysis for each round: nothing kept refers to another's rows */
		analysis_free(&a);
		memset(&a, 0, sizeof a);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	if (!(t->families = malloc((nfound ? nfound : 1) * sizeof *t->families)))
		goto oom;
	for (size_t i = 0; i < nfound; i++)
		t->families[i] = found[i].family;
	if (nfound)
		qsort(t->families, nfound, sizeof *t->families, str_cmp);
	for (size_t i = 0; i < nfound; i++)
		if (i == 0 || strcmp(t->families[i], t->families[t->nfamilies - 1]) != 0)
			t->families[t->nfamilies++] = t->families[i];
	if (!(t->cells = calloc(t->nfamilies * t->nrounds + 1, sizeof *t->cells)))
		goto oom;
	for (size_t i = 0; i < t->nfamilies * t->nrounds; i++) {
		t->cells[i].be.kind = BE_EMPTY;
		t->cells[i].be.lo = t->cells[i].be.hi = -1;
		t->cells[i].n_ref = -1;
	}
	for (size_t i = 0; i < nfound; i++) {
		const char **hit = bsearch(&found[i].family, t->families, t->nfamilies,
					   sizeof *t->families, str_cmp);
		t->cells[(size_t)(hit - t->families) * t->nrounds + found[i].r] = found[i].cell;
	}
	rc = 0;
	goto out;
oom:
	err_oom(err, NULL, 0);
out:
	free(rounds);
	free(w);
	free(rows);
	free(found);
	analysis_free(&a);
	if (rc < 0)
		trend_free(t);
	return rc;
}

const struct trend_cell *trend_cell(const struct trend *t, size_t f, size_t r)
{
	return &t->cells[f * t->nrounds + r];
}

void trend_free(struct trend *t)
{
	free(t->rounds);
	free(t->families);
	free(t->cells);
	memset(t, 0, sizeof *t);
}
