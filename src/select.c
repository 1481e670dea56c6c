/* select.c: the k-th smallest values of an array, by a sort (select.h). */
#include "select.h"

#include <math.h>
#include <stdlib.h>

/* NAN after every number. */
static int double_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

double select_kth(double *v, size_t n, size_t k)
{
	qsort(v, n, sizeof *v, double_cmp);
	return v[k];
}

void select_two(double *v, size_t n, double lo, double hi, size_t k1, size_t k2, double *a, double *b)
{
	(void)lo;
	(void)hi;
	qsort(v, n, sizeof *v, double_cmp);
	*a = v[k1];
	*b = v[k2];
}
