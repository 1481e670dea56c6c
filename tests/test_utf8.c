/* The strict UTF-8 check: what a strict decoder takes, byte by byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "text.h"

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

/* Bidirectional controls reorder what a terminal shows, the line and paragraph separators
 * break its line: the sanitizer replaces them. */
static void bidi_unsafe(void **state)
{
	static const char *const bidi[] = {
		"\xd8\x9c", "\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa", "\xe2\x80\xab",
		"\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa7",
		"\xe2\x81\xa8", "\xe2\x81\xa9", "\xe2\x80\xa8", "\xe2\x80\xa9",
	};
	/* neighbours that are not controls */
	static const char *const fine[] = { "\xd8\x9b", "\xe2\x80\x8d", "\xe2\x80\xa7", "\xe2\x80\xaf",
					    "\xe2\x81\xa5", "\xe2\x81\xaa", "\xe2\x82\xac" };
	char buf[16];

	(void)state;
	for (size_t i = 0; i < sizeof bidi / sizeof bidi[0]; i++) {
		size_t n = strlen(bidi[i]);
		snprintf(buf, sizeof buf, "a%sb", bidi[i]);
		utf8_sanitize(buf, strlen(buf));
		assert_string_equal(buf, n == 2 ? "a??b" : "a???b");
	}
	for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
		snprintf(buf, sizeof buf, "a%sb", fine[i]);
		utf8_sanitize(buf, strlen(buf));
		assert_null(strchr(buf, '?'));
	}
}

/* The sanitizer as defined, with no shortcut for ASCII: every byte through the checks. */
static void sanitize_reference(char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		const unsigned char *c = (const unsigned char *)s + i;
		size_t len = 1;
		if (*c < 0x20 || *c == 0x7f)
			len = 0;
		else if (*c >= 0x80 && ((len = utf8_seq_len(c, n - i)) == 0 || utf8_is_c1(c, len)))
			len = 0;
		if (len == 0) {
			s[i++] = '?';
			continue;
		}
		if (utf8_is_bidi(c, len))
			memset(s + i, '?', len);
		i += len;
	}
}

/* Random text, mostly ASCII with UTF-8, bidi controls, C0/C1 controls and stray bytes mixed
 * in, comes out of the sanitizer as out of its plain definition. */
static void sanitize_matches_definition(void **state)
{
	static const char *const bits[] = {
		"a", "Z", " ", "~", "\x7f", "\t", "\n", "\x01", "\xc3\xa1", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
		"\xc2\x85", "\xd8\x9c", "\xe2\x80\x8e", "\xe2\x81\xa6", "\x80", "\xff", "\xe2\x82", "\xc0\xaf",
	};
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char a[96], b[96];

	(void)state;
	for (int t = 0; t < 200000; t++) {
		size_t n = 0;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		unsigned parts = (unsigned)(x % 24);
		for (unsigned k = 0; k < parts; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* ASCII letters three times out of four, as in real files */
			const char *p = x % 4 ? bits[x % 4] : bits[(x >> 8) % (sizeof bits / sizeof bits[0])];
			size_t l = strlen(p);
			if (n + l >= sizeof a)
				break;
			memcpy(a + n, p, l);
			n += l;
		}
		memcpy(b, a, n);
		utf8_sanitize(a, n);
		sanitize_reference(b, n);
		assert_memory_equal(a, b, n);
	}
}

/* ascii_casestr as defined: every place of hay compared with the whole needle. */
static const char *casestr_reference(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (ascii_ncasecmp(hay, needle, n) == 0)
			return hay;
	return n == 0 ? hay : NULL;
}

static void casestr_matches_definition(void **state)
{
	static const char alpha[] = "aAbB0-_\xc3\xa1zZ";
	uint64_t x = 0x853c49e6748fea9bull;
	char hay[24], needle[6];

	(void)state;
	for (int t = 0; t < 300000; t++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t nh = x % sizeof hay, nn = (x >> 8) % sizeof needle;
		for (size_t i = 0; i < nh; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			hay[i] = alpha[x % (sizeof alpha - 1)];
		}
		hay[nh] = '\0';
		for (size_t i = 0; i < nn; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			needle[i] = alpha[x % 4 ? x % 4 : x % (sizeof alpha - 1)];
		}
		needle[nn] = '\0';
		assert_ptr_equal(ascii_casestr(hay, needle), casestr_reference(hay, needle));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid),
		cmocka_unit_test(invalid),
		cmocka_unit_test(bidi_unsafe),
		cmocka_unit_test(sanitize_matches_definition),
		cmocka_unit_test(casestr_matches_definition),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
