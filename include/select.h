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

/* The k1-th and k2-th smallest (0-based, k1 <= k2 < n) of v[0..n), whose values are numbers
 * from lo to hi (their smallest and largest), into *a and *b: the values select_kth gives (a
 * zero's sign aside), v reordered. Each value's bucket of 1,024 of equal width over [lo, hi]
 * is monotone in it ((x - lo) * scale rounds monotonically), so a bucket holds exactly the
 * values of its ranks; the values of the bucket holding k1, and those of k2's, are bucketed
 * again over their own range while they are many, then selected among (the plot's clipping
 * quartiles of the 75,680 points a row filter's letter keeps at 10^5 rows: E' 4.8 -> 2.7 M
 * instructions, T 8.0 -> 2.9 M). Fewer than 4,096 values, or values that do not spread:
 * select_kth. */
void select_two(double *v, size_t n, double lo, double hi, size_t k1, size_t k2, double *a, double *b);

#endif
