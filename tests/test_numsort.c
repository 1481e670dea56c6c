/* numsort_run against qsort by (key, place): every key in order, equal keys in the order they
 * came, every item once; on few items and on 2^18 and more, with keys of
 * many shapes: random 64-bit words, numbers of one magnitude and of many, ties, one key, a long
 * shared prefix, a shuffled 0..n-1, a few keys far above the rest (two alone, reversed), NaN and
 * signed zeros. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numsort.h"
#include "rng.h"

static int cmp_item(const void *pa, const void *pb)
{
	const struct numsort_item *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

enum shape { RANDOM, MINUTES, MAGNITUDES, FEW, ONE, PREFIX, SHUFFLED, OUTLIERS, TWO_HIGH, SPECIAL, NSHAPES };

/* Key i of shape sh (n keys in all). */
static uint64_t key_of(enum shape sh, size_t i, size_t n, struct rng *st)
{
	switch (sh) {
	case RANDOM: return rng_next(st);
	case MINUTES: return numsort_key(0.5 + (double)(rng_next(st) % 1000000) / 1e4, 1);
	case MAGNITUDES: return numsort_key(ldexp(1.0 + (double)(rng_next(st) % 1000) / 1000, (int)(rng_next(st) % 80) - 40),
					    (i & 1) ? 1 : -1);
	case FEW: return rng_next(st) % 5;
	case ONE: return 42;
	case PREFIX: return UINT64_C(0xabcdef0000000000) | (rng_next(st) % 100000);
	case SHUFFLED: return i; /* shuffled below */
	case OUTLIERS: return rng_next(st) % 1000 == 0 ? UINT64_MAX - rng_next(st) % 7 : rng_next(st) % 4096;
	case TWO_HIGH: /* the last two far above the rest, the wrong way round */
		return i + 2 < n ? rng_next(st) % 4096 : i + 2 == n ? UINT64_MAX - 1 : UINT64_MAX - 5;
	case SPECIAL: {
		static const double v[] = { 0.0, -0.0, 1.5, -1.5, 3.0 };
		double x = rng_next(st) % 7 == 0 ? NAN : v[rng_next(st) % 5];
		return numsort_key(x, (i % 3) ? 1 : -1);
	}
	default: return 0;
	}
}

/* One shape at n items: numsort_run's result equals qsort's. */
static void check(enum shape sh, size_t n, uint64_t seed)
{
	struct numsort_item *it = malloc((n ? n : 1) * sizeof *it), *tmp = malloc((n ? n : 1) * sizeof *tmp);
	struct numsort_item *want = malloc((n ? n : 1) * sizeof *want);
	struct rng st = { seed };

	assert_non_null(it);
	assert_non_null(tmp);
	assert_non_null(want);
	for (size_t i = 0; i < n; i++)
		it[i] = (struct numsort_item){ key_of(sh, i, n, &st), i };
	if (sh == SHUFFLED)
		for (size_t i = n; i > 1; i--) {
			size_t j = (size_t)(rng_next(&st) % i);
			uint64_t k = it[i - 1].key;
			it[i - 1].key = it[j].key;
			it[j].key = k;
		}
	memcpy(want, it, n * sizeof *it);
	qsort(want, n, sizeof *want, cmp_item);
	const struct numsort_item *got = numsort_run(it, tmp, n);
	assert_true(got == it || got == tmp);
	for (size_t i = 0; i < n; i++) {
		if (got[i].key != want[i].key || got[i].at != want[i].at)
			fail_msg("shape %d, %zu items: place %zu has (%llx, %zu), not (%llx, %zu)", (int)sh, n, i,
				 (unsigned long long)got[i].key, got[i].at, (unsigned long long)want[i].key, want[i].at);
	}
	free(it);
	free(tmp);
	free(want);
}

static void few_items(void **state)
{
	static const size_t ns[] = { 0, 1, 2, 3, 17, 255, 256, 1000, 70000 };

	(void)state;
	for (int sh = 0; sh < NSHAPES; sh++)
		for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
			check((enum shape)sh, ns[k], 7 + (uint64_t)sh * 131 + k);
}

/* Items past what the caches hold. */
static void many_items(void **state)
{
	static const size_t ns[] = { (size_t)1 << 18, ((size_t)1 << 18) + 12345 };

	(void)state;
	for (int sh = 0; sh < NSHAPES; sh++)
		for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
			check((enum shape)sh, ns[k], 99 + (uint64_t)sh * 17 + k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(few_items),
		cmocka_unit_test(many_items),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
