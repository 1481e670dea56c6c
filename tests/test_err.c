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

/* warn_move appends as warn_add for each warning in turn would have: the same texts in the
 * same order, the limit applied, every one counted, whatever each list held before. */
static void move_as_added_in_turn(void **state)
{
	static const size_t sizes[][2] = { { 0, 0 }, { 0, 3 }, { 5, 7 }, { WARN_KEEP - 2, 5 },
					   { WARN_KEEP, 4 }, { 3, WARN_KEEP + 9 } };
	(void)state;
	for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
		struct gs_warn plain = { 0 }, to = { 0 }, from = { 0 };
		for (size_t i = 0; i < sizes[c][0]; i++) {
			warn_add(&plain, "a.csv", (long)i + 1, 0, "first %zu", i);
			warn_add(&to, "a.csv", (long)i + 1, 0, "first %zu", i);
		}
		for (size_t i = 0; i < sizes[c][1]; i++) {
			warn_add(&plain, "b.csv", (long)i + 1, 2, "second %zu", i);
			warn_add(&from, "b.csv", (long)i + 1, 2, "second %zu", i);
		}
		warn_move(&to, &from);
		assert_int_equal(to.n, plain.n);
		assert_int_equal(to.total, plain.total);
		for (size_t i = 0; i < plain.n; i++)
			assert_string_equal(to.items[i], plain.items[i]);
		assert_int_equal(from.n, 0);
		assert_int_equal(from.total, 0);
		assert_null(from.items);
		warn_free(&plain);
		warn_free(&to);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(oom_is_a_kind),
		cmocka_unit_test(move_as_added_in_turn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
