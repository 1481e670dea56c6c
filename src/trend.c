/* trend.c: the break-even of each family across the rounds of a workload's compatibility span.
 * Each round is analysed alone, exactly as `--print summary --round R` analyses it in family
 * mode, so a cell is that round's bracket and not a piece of the cross-round view (which pools
 * every round into one reference and one bracket per family). */
#include "planner.h"

#include <stdlib.h>
#include <string.h>

#include "bench_reg.h"
#include "text.h"

static int str_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Whether round has rows of workload. */
static int round_has(const struct dataset *ds, const char *round, const char *workload, bool *has)
{
	const char **names;
	size_t n;

	if (dataset_workload_list(ds, round, &names, &n) < 0)
		return -1;
	*has = false;
	for (size_t i = 0; i < n; i++)
		*has |= strcmp(names[i], workload) == 0;
	free(names);
	return 0;
}

int trend_run(const struct dataset *ds, const struct params *p, struct trend *t,
	      struct gs_err *err)
{
	struct analysis a = { 0 };
	struct params q = *p;
	const char **rounds = NULL, *cur;
	size_t nr, nfam_cap = 0;
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
	if (dataset_round_list(ds, &rounds, &nr) < 0)
		goto oom;
	if (!(t->rounds = malloc((nr ? nr : 1) * sizeof *t->rounds)))
		goto oom;
	for (size_t i = 0; i < nr; i++) {
		bool has;
		if (!bench_reg_comparable(t->workload, cur, rounds[i]))
			continue;
		if (round_has(ds, rounds[i], t->workload, &has) < 0)
			goto oom;
		if (!has)
			continue;
		if (rounds[i] == cur || strcmp(rounds[i], cur) == 0)
			t->cur = t->nrounds;
		t->rounds[t->nrounds++] = rounds[i];
	}
	/* the families first (every round's), then the cells: a round analysed twice costs less
	 * than a matrix grown in two directions */
	for (size_t r = 0; r < t->nrounds; r++) {
		q.round = t->rounds[r];
		q.workload = t->workload;
		if (analysis_run(ds, &q, &a, err) < 0)
			goto out;
		for (size_t g = 0; g < a.ngroups; g++) {
			const char *f = a.groups[g].family;
			bool seen = false;
			for (size_t k = 0; k < t->nfamilies && !seen; k++)
				seen = strcmp(t->families[k], f) == 0;
			if (seen)
				continue;
			if (t->nfamilies == nfam_cap) {
				size_t nc = nfam_cap ? 2 * nfam_cap : 16;
				const char **nf = realloc(t->families, nc * sizeof *nf);
				if (!nf)
					goto oom;
				t->families = nf;
				nfam_cap = nc;
			}
			t->families[t->nfamilies++] = f;
		}
	}
	if (t->nfamilies)
		qsort(t->families, t->nfamilies, sizeof *t->families, str_cmp);
	if (!(t->cells = calloc(t->nfamilies * t->nrounds + 1, sizeof *t->cells)))
		goto oom;
	for (size_t i = 0; i < t->nfamilies * t->nrounds; i++) {
		t->cells[i].be.kind = BE_EMPTY;
		t->cells[i].be.lo = t->cells[i].be.hi = -1;
		t->cells[i].n_ref = -1;
	}
	for (size_t r = 0; r < t->nrounds; r++) {
		q.round = t->rounds[r];
		if (analysis_run(ds, &q, &a, err) < 0)
			goto out;
		for (size_t g = 0; g < a.ngroups; g++) {
			const struct group *gr = &a.groups[g];
			const char **hit = bsearch(&gr->family, t->families, t->nfamilies,
						   sizeof *t->families, str_cmp);
			if (!hit)
				continue;
			struct trend_cell *c = &t->cells[(size_t)(hit - t->families) * t->nrounds + r];
			c->has = gr->nrows > 0;
			c->be = gr->be;
			c->nrows = gr->nrows;
			c->n_ref = gr->ref >= 0 ? (long)ds->rows[gr->ref].accelerators : -1;
		}
	}
	rc = 0;
	goto out;
oom:
	err_oom(err, NULL, 0);
out:
	free(rounds);
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
