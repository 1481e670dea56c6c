/* numsort.h: a stable radix sort of items by a number, for orders over 10^5 rows and more
 * (qsort there spent more in its calls of the comparator than in moving the items). */
#ifndef GS_NUMSORT_H
#define GS_NUMSORT_H

#include <stddef.h>
#include <stdint.h>

/* An item: its number as numsort_key made it, and where it came from. */
struct numsort_item {
	uint64_t key;
	size_t at;
};

/* A key that orders as x does in direction dir (1 ascending, -1 descending), as
 * analysis_cmp_num compares: every NAN one key, after every number; -0 the key of 0. */
uint64_t numsort_key(double x, int dir);

/* Sorts it[n] by key, stably (equal keys keep their order), with tmp[n] as scratch; returns
 * the sorted array, it or tmp. */
struct numsort_item *numsort_run(struct numsort_item *it, struct numsort_item *tmp, size_t n);

#endif
