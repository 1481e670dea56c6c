/* select.h: the k-th smallest values of an array. */
#ifndef GS_SELECT_H
#define GS_SELECT_H

#include <stddef.h>

/* Sorts v[0..n) (n >= 1, k < n; NAN last) and returns v[k], its k-th smallest (0-based). */
double select_kth(double *v, size_t n, size_t k);

/* The k1-th and k2-th smallest (0-based, k1 <= k2 < n) of v[0..n) into *a and *b, v sorted
 * (NAN last). lo and hi, the values' smallest and largest, are not needed: kept for callers. */
void select_two(double *v, size_t n, double lo, double hi, size_t k1, size_t k2, double *a, double *b);

#endif
