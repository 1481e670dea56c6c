/* test_err.c: an error's kind is set by how it was made, never read from its text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "err.h"

static void oom_is_a_kind(void **state)
{
	struct gs_err e;
	char buf[1200];

	(void)state;
	memset(&e, 0, sizeof e);
	err_oom(&e, "a.csv", 3);
	assert_int_equal(e.kind, GS_ERR_OOM);
	assert_string_equal(err_format(&e, buf, sizeof buf), "a.csv:3: out of memory");
	/* the same words from the data are bad input, not a runtime failure */
	err_set(&e, "b.csv", 1, 2, "unknown column '%s'", "out of memory");
	assert_int_equal(e.kind, GS_ERR_INPUT);
	err_set(&e, NULL, 0, 0, "out of memory");
	assert_int_equal(e.kind, GS_ERR_INPUT);
	/* a later error replaces the kind with its own */
	err_oom(&e, NULL, 0);
	assert_int_equal(e.kind, GS_ERR_OOM);
	err_set(&e, NULL, 0, 0, "bad");
	assert_int_equal(e.kind, GS_ERR_INPUT);
	err_oom(NULL, "x", 1); /* no record: nothing to do */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(oom_is_a_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
