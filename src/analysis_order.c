/* analysis_order.c: the orders of an analysis: the tie-break every ranking ends in, the
 * reference pick, and the table's ranking by a column. It calls nothing above it in the
 * analysis (the registry's columns only).
 *
 * Every ordering here is total: its own key, then the system id, then the submitter, then the
 * dataset row. qsort, unstable as it is, then gives one order with every libc. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"
#include "text.h"

/* ---- comparators ---------------------------------------------------------------------- */

int analysis_cmp_num(double x, double y, int dir)
{
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return dir * ((x > y) - (x < y));
}

/* One system id can have several submitters: the order must not come from the file. */
int analysis_cmp_tie(const struct row *a, size_t ia, const struct row *b, size_t ib)
{
	int c = strcmp(nz(a->system), nz(b->system));

	if (!c)
		c = strcmp(nz(a->submitter), nz(b->submitter));
	if (c)
		return c;
	return (ia > ib) - (ia < ib);
}

int analysis_skey_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c;

	if (a->s) {
		if (!(c = ascii_casecmp(a->s, b->s)))
			c = strcmp(a->s, b->s);
		c *= a->dir;
	} else {
		c = analysis_cmp_num(a->v, b->v, a->dir);
	}
	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* ---- reference ------------------------------------------------------------------------ */

size_t ref_rule_pick(enum ref_rule r, size_t n)
{
	return n == 0 ? 0 : r == RULE_FASTEST ? n - 1 : r == RULE_MEDIAN ? n / 2 : 0;
}

/* Among the rows with the fewest accelerators (the candidates), ordered slowest first (ties:
 * system id, dataset row), the first (slowest, the paper's), the middle (median; of an even
 * count the faster of the two middle ones) or the last (fastest). c has room for n. */
size_t analysis_pick_ref(const struct dataset *ds, const size_t *g, size_t n, enum ref_rule rule,
			 struct skey *c, size_t *ref)
{
	long long nmin = 0;
	size_t nc = 0;

	for (size_t i = 0; i < n; i++)
		if (i == 0 || ds->rows[g[i]].accelerators < nmin)
			nmin = ds->rows[g[i]].accelerators;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &ds->rows[g[i]];
		if (r->accelerators == nmin)
			c[nc++] = (struct skey){ .v = r->minutes, .r = r, .row = g[i], .dir = -1 };
	}
	qsort(c, nc, sizeof *c, analysis_skey_cmp);
	if (nc)
		*ref = c[ref_rule_pick(rule, nc)].row;
	return nc;
}

/* ---- ranking -------------------------------------------------------------------------- */

/* The sort key of shown row i by col (descending with desc). */
static void rank_key(const struct dataset *ds, const struct analysis *a, enum col col, bool desc,
		     size_t i, struct skey *k)
{
	const struct col_def *d = reg_col(col);
	const struct arow *o = &a->rows[i];
	const struct row *r = &ds->rows[o->row];

	*k = (struct skey){ .r = r, .row = o->row, .i = i, .dir = desc ? -1 : 1 };
	if (d->text)
		k->s = d->text(r);
	else
		k->v = d->value(o);
}

/* ord[a->n] made the order of a's rows by col, descending with desc. 0, or -1 out of memory. */
static int sort_keys(const struct dataset *ds, const struct analysis *a, enum col col, bool desc,
		     size_t *ord)
{
	size_t n = a->n;
	struct skey *k = malloc((n ? n : 1) * sizeof *k);

	if (!k)
		return -1;
	for (size_t i = 0; i < n; i++)
		rank_key(ds, a, col, desc, i, &k[i]);
	qsort(k, n, sizeof *k, analysis_skey_cmp);
	for (size_t j = 0; j < n; j++)
		ord[j] = k[j].i;
	free(k);
	return 0;
}

int analysis_rank_cmp(const struct dataset *ds, const struct analysis *a, enum col col, bool desc,
		      size_t i, size_t j)
{
	struct skey k[2];

	rank_key(ds, a, col, desc, i, &k[0]);
	rank_key(ds, a, col, desc, j, &k[1]);
	return analysis_skey_cmp(&k[0], &k[1]);
}

/* A shown row's T and its ranking key, for analysis_sort_by_t. */
struct t_rank {
	double t;
	struct skey k;
};

static int t_rank_cmp(const void *pa, const void *pb)
{
	const struct t_rank *x = pa, *y = pb;
	int c = analysis_cmp_num(x->t, y->t, 1);

	return c ? c : analysis_skey_cmp(&x->k, &y->k);
}

int analysis_sort_by_t(const struct dataset *ds, const struct analysis *a, enum col col, bool desc,
		       size_t *idx, size_t n)
{
	struct t_rank *k = malloc((n ? n : 1) * sizeof *k);

	if (!k)
		return -1;
	for (size_t q = 0; q < n; q++) {
		k[q].t = a->rows[idx[q]].T;
		rank_key(ds, a, col, desc, idx[q], &k[q].k);
	}
	qsort(k, n, sizeof *k, t_rank_cmp);
	for (size_t q = 0; q < n; q++)
		idx[q] = k[q].k.i;
	free(k);
	return 0;
}

size_t *analysis_system_order(const struct dataset *ds, const struct analysis *a,
			      struct gs_err *err)
{
	size_t *ord = malloc((a->n ? a->n : 1) * sizeof *ord);

	if (!ord || sort_keys(ds, a, COL_SYSTEM, false, ord) < 0) {
		free(ord);
		err_oom(err, NULL, 0);
		return NULL;
	}
	return ord;
}

int analysis_sort(const struct dataset *ds, struct analysis *a, enum col col, bool desc,
		  struct gs_err *err)
{
	size_t n = a->n;
	size_t *ord = malloc((n ? n : 1) * sizeof *ord);
	struct arow *rows = malloc((n ? n : 1) * sizeof *rows);

	if (!ord || !rows || sort_keys(ds, a, col, desc, ord) < 0) {
		free(ord);
		free(rows);
		err_oom(err, NULL, 0);
		return -1;
	}
	for (size_t j = 0; j < n; j++)
		rows[j] = a->rows[ord[j]];
	memcpy(a->rows, rows, n * sizeof *rows);
	free(ord);
	free(rows);
	return 0;
}
