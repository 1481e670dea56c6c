/* The strict UTF-8 check: what a strict decoder takes, byte by byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "utf8.h"

#define LEN(s) utf8_seq_len((const unsigned char *)(s), sizeof(s) - 1)

static void valid(void **state)
{
	(void)state;
	assert_int_equal(LEN("\xc3\xa1"), 2);         /* a-acute */
	assert_int_equal(LEN("\xe2\x82\xac"), 3);     /* euro */
	assert_int_equal(LEN("\xf0\x9f\x98\x80"), 4); /* emoji */
	assert_int_equal(LEN("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF */
	assert_int_equal(LEN("\xc2\x80"), 2);         /* valid UTF-8, but a C1 control */
	assert_true(utf8_is_c1((const unsigned char *)"\xc2\x9b", 2));
	assert_false(utf8_is_c1((const unsigned char *)"\xc2\xa0", 2));
}

static void invalid(void **state)
{
	(void)state;
	assert_int_equal(LEN("\xc0\xaf"), 0);         /* overlong '/' */
	assert_int_equal(LEN("\xe0\x80\xaf"), 0);     /* overlong */
	assert_int_equal(LEN("\xed\xa0\x80"), 0);     /* surrogate */
	assert_int_equal(LEN("\xf4\x90\x80\x80"), 0); /* above U+10FFFF */
	assert_int_equal(LEN("\xf5\x80\x80\x80"), 0);
	assert_int_equal(LEN("\x80"), 0);             /* lone continuation */
	assert_int_equal(LEN("\xe2\x82"), 0);         /* cut short */
	assert_int_equal(LEN("\xe2\x28\xa1"), 0);     /* bad continuation */
	assert_int_equal(LEN("\xe2\x82\n"), 0);       /* stops at a newline */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid),
		cmocka_unit_test(invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
