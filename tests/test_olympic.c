/* The olympic average's window: the runs averaged for each count of runs and failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "olympic.h"

static void limits(void **state)
{
	(void)state;
	assert_int_equal(olympic_limit("unet3d"), 4);
	assert_int_equal(olympic_limit("bert"), 1);
	assert_int_equal(olympic_limit("unet3d_x"), 1);
}

static void windows(void **state)
{
	size_t lo, hi;

	(void)state;
	/* 10 runs, none failed: drop 1 at each end */
	assert_int_equal(olympic_window(10, 0, 1, &lo, &hi), 0);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 9);
	/* 9 ok + 1 failed: the failure is the dropped slowest */
	assert_int_equal(olympic_window(9, 1, 1, &lo, &hi), 0);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 9);
	/* unet3d: 40 runs, 4 failed: drop the 4 fastest only */
	assert_int_equal(olympic_window(36, 4, 4, &lo, &hi), 0);
	assert_int_equal(lo, 4);
	assert_int_equal(hi, 36);
	/* unet3d: 8 ok + 2 failed keeps sorted[4 : 6] */
	assert_int_equal(olympic_window(8, 2, 4, &lo, &hi), 0);
	assert_int_equal(lo, 4);
	assert_int_equal(hi, 6);
	/* too many failures: no score */
	assert_int_equal(olympic_window(3, 2, 1, &lo, &hi), 1);
	/* too few runs: nothing left */
	assert_int_equal(olympic_window(2, 0, 1, &lo, &hi), 2);
	assert_int_equal(olympic_window(1, 1, 1, &lo, &hi), 2);
	assert_int_equal(olympic_window(0, 0, 1, &lo, &hi), 2);
	/* three runs: the middle one */
	assert_int_equal(olympic_window(3, 0, 1, &lo, &hi), 0);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limits),
		cmocka_unit_test(windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
