/* breakeven.c: the break-even rows of an analysis at theta (plain, firm and loose, per family)
 * and the reference sensitivity range. No terminal here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_impl.h"

/* Shown rows by (T, system id, dataset row): the order every break-even takes "fastest" in. */
static int tkey_cmp(const void *pa, const void *pb)
{
	const struct skey *a = pa, *b = pb;
	int c = analysis_cmp_num(a->v, b->v, 1);

	return c ? c : analysis_cmp_tie(a->r, a->row, b->r, b->row);
}

/* The family's entry of a->fam, added in name order when new (NULL when the list is full). */
static struct fam_be *fam_entry(const struct dataset *ds, struct analysis *a, size_t ref)
{
	const char *f = nz(ds->rows[ref].family);
	size_t i = 0;

	for (; i < a->nfam; i++) {
		int c = strcmp(a->fam[i].family, f);
		if (c == 0)
			return &a->fam[i];
		if (c > 0)
			break;
	}
	if (a->nfam == MAX_FAM_BE)
		return NULL;
	memmove(&a->fam[i + 1], &a->fam[i], (a->nfam - i) * sizeof *a->fam);
	a->nfam++;
	a->fam[i] = (struct fam_be){ .family = f, .ref = ref, .n = -1, .firm = -1, .loose = -1 };
	return &a->fam[i];
}

/* Reference sensitivity: E' of every row against each candidate c is A_c / A, computed as the
 * metrics do (S * N_c / N); the first row in T order (k, from tkey_cmp) reaching theta gives c's
 * N, and sens_lo..sens_hi spans them. The least A so far along T order (minA) skips, by binary
 * search, every row whose A is too big by a margin far above rounding: thousands of candidates
 * stay cheap. 0, or -1 when out of memory. */
static int sensitivity(const struct dataset *ds, struct analysis *a, const struct skey *k,
		       double theta)
{
	size_t n = a->n;
	double *minA = malloc((n ? n : 1) * sizeof *minA);

	if (!minA)
		return -1;
	for (size_t j = 0; j < n; j++) {
		double A = a->rows[k[j].i].A;
		minA[j] = j == 0 || A < minA[j - 1] ? A : minA[j - 1];
	}
	for (size_t c = 0; c < a->ncand; c++) {
		const struct row *cr = &ds->rows[a->cand[c].row];
		double most = (double)cr->accelerators * cr->minutes / 60 / theta * (1 + 1e-9);
		size_t lo = 0, hi = n;
		while (lo < hi) { /* the first j with minA[j] <= most */
			size_t mid = lo + (hi - lo) / 2;
			if (minA[mid] <= most)
				hi = mid;
			else
				lo = mid + 1;
		}
		a->cand[c].n = -1;
		for (size_t j = lo; j < n; j++) {
			const struct arow *o = &a->rows[k[j].i];
			if (cr->minutes / o->T * (double)cr->accelerators / o->N >= theta) {
				a->cand[c].n = (long)o->N;
				break;
			}
		}
		long v = a->cand[c].n;
		if (v >= 0 && (a->sens_lo < 0 || v < a->sens_lo))
			a->sens_lo = v;
		if (v >= 0 && v > a->sens_hi)
			a->sens_hi = v;
	}
	free(minA);
	return 0;
}

int analysis_breakeven(const struct dataset *ds, struct analysis *a, double theta,
		       struct gs_err *err)
{
	size_t n = a->n;
	struct skey *k = malloc((n ? n : 1) * sizeof *k);

	a->breakeven = a->be_firm = a->be_loose = -1;
	a->sens_lo = a->sens_hi = -1;
	a->nfam = 0;
	a->ncross = 0;
	a->cross_row_fam = a->cross_ref_fam = NULL;
	if (!k) {
		err_oom(err, NULL, 0);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &ds->rows[a->rows[i].row];
		k[i] = (struct skey){ .v = a->rows[i].T, .r = r, .row = a->rows[i].row, .i = i };
	}
	qsort(k, n, sizeof *k, tkey_cmp);
	for (size_t j = 0; j < n; j++) {
		const struct arow *o = &a->rows[k[j].i];
		struct fam_be *f = a->mode == REF_FAMILY ? fam_entry(ds, a, o->ref) : NULL;
		bool firm = false, loose = false;
		/* the scan draws intervals only for rows that can still decide a range */
		bool need = a->be_firm < 0 || a->be_loose < 0 || (f && (f->firm < 0 || f->loose < 0));
		if (need && boot_range_test(ds, a, k[j].i, theta, &firm, &loose) < 0) {
			free(k);
			err_oom(err, NULL, 0);
			return -1;
		}
		if (a->breakeven < 0 && o->Ep >= theta)
			a->breakeven = (long)k[j].i;
		if (a->be_firm < 0 && firm)
			a->be_firm = (long)k[j].i;
		if (a->be_loose < 0 && loose)
			a->be_loose = (long)k[j].i;
		if (o->cross_family && a->ncross++ == 0) {
			a->cross_row_fam = nz(ds->rows[o->row].family);
			a->cross_ref_fam = nz(ds->rows[o->ref].family);
		}
		if (f) {
			if (f->n < 0 && o->Ep >= theta)
				f->n = (long)o->N;
			if (f->firm < 0 && firm)
				f->firm = (long)o->N;
			if (f->loose < 0 && loose)
				f->loose = (long)o->N;
		}
	}
	if (sensitivity(ds, a, k, theta) < 0) {
		free(k);
		err_oom(err, NULL, 0);
		return -1;
	}
	free(k);
	return 0;
}
