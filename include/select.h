/* select.h: the k-th smallest of an array, without sorting it. */
#ifndef GS_SELECT_H
#define GS_SELECT_H

#include <stddef.h>

/* Reorders v[0..n) (n >= 1, k < n) so that v[k] is its k-th smallest (0-based), every value
 * before it <= and every value after it >= it; returns v[k]. Selection by the middle pivot,
 * partitions without a branch on the values: O(n) expected. With a NAN among the values,
 * Hoare's selection, whose answer the bootstrap's percentiles have always had (it ends, and
 * the order then holds only among the numbers). */
double select_kth(double *v, size_t n, size_t k);

#endif
