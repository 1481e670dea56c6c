/* Number formatting: correct rounding, carries into a new digit, no "-0", C notation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

static char buf[64];

static void fixed_rounds_the_binary_value(void **state)
{
	(void)state;
	assert_string_equal(fmt_fixed(366.19, 2, buf, sizeof buf), "366.19");
	assert_string_equal(fmt_fixed(2.675, 2, buf, sizeof buf), "2.67"); /* 2.67499999... */
	assert_string_equal(fmt_fixed(NAN, 2, buf, sizeof buf), "-");
	assert_string_equal(fmt_fixed(INFINITY, 2, buf, sizeof buf), "-");
	assert_string_equal(fmt_fixed(-0.0004, 3, buf, sizeof buf), "0.000");
	assert_string_equal(fmt_fixed(-0.0006, 3, buf, sizeof buf), "-0.001");
}

static void sig_carries_into_a_new_digit(void **state)
{
	(void)state;
	assert_string_equal(fmt_sig(24.12, 3, buf, sizeof buf), "24.1");
	assert_string_equal(fmt_sig(0.50612, 3, buf, sizeof buf), "0.506");
	assert_string_equal(fmt_sig(9.996, 3, buf, sizeof buf), "10.0");
	assert_string_equal(fmt_sig(99.96, 3, buf, sizeof buf), "100");
	assert_string_equal(fmt_sig(0.0099996, 3, buf, sizeof buf), "0.0100");
	assert_string_equal(fmt_sig(1234.5, 3, buf, sizeof buf), "1234"); /* never an exponent */
	assert_string_equal(fmt_sig(1.0, 3, buf, sizeof buf), "1.00");
	assert_string_equal(fmt_sig(0.0, 3, buf, sizeof buf), "0.00");
	assert_string_equal(fmt_sig(-1.77, 3, buf, sizeof buf), "-1.77");
	assert_string_equal(fmt_sig(NAN, 3, buf, sizeof buf), "-");
}

/* Huge values keep a table column narrow: an exponent, not hundreds of digits. */
static void huge_values_in_exponent_form(void **state)
{
	(void)state;
	assert_string_equal(fmt_sig(999999999.0, 3, buf, sizeof buf), "1.00e+09"); /* rounds up to 1e9 */
	assert_string_equal(fmt_sig(999999.0, 3, buf, sizeof buf), "999999");
	assert_string_equal(fmt_sig(123456789.0, 3, buf, sizeof buf), "123456789");
	assert_string_equal(fmt_sig(1.6666666666666668e303, 3, buf, sizeof buf), "1.67e+303");
	assert_string_equal(fmt_sig(-2.5e12, 3, buf, sizeof buf), "-2.50e+12");
	assert_string_equal(fmt_fixed(1.6666666666666668e303, 2, buf, sizeof buf), "1.67e+303");
	assert_string_equal(fmt_fixed(999999999999999.0, 2, buf, sizeof buf), "999999999999999.00");
	assert_string_equal(fmt_fixed(1e15, 2, buf, sizeof buf), "1.00e+15");
	assert_string_equal(fmt_count(1e20, buf, sizeof buf), "1.000e+20");
}

static void count_is_whole_when_whole(void **state)
{
	(void)state;
	assert_string_equal(fmt_count(3472, buf, sizeof buf), "3472");
	assert_string_equal(fmt_count(2.5, buf, sizeof buf), "2.500");
}

static void short_as_typed(void **state)
{
	(void)state;
	assert_string_equal(fmt_short(0.8, buf, sizeof buf), "0.8");
	assert_string_equal(fmt_short(0.825, buf, sizeof buf), "0.825");
	assert_string_equal(fmt_short(0.8 + 0.05, buf, sizeof buf), "0.85"); /* 0.8500000000000001 */
	assert_string_equal(fmt_short(2, buf, sizeof buf), "2");
	assert_string_equal(fmt_short(NAN, buf, sizeof buf), "-");
}

static void c_notation_in_any_locale(void **state)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "es_ES.UTF-8" };
	const char *got = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
		got = setlocale(LC_NUMERIC, names[i]);
	if (!got) {
		skip(); /* no locale with a decimal comma installed */
		return;
	}
	assert_string_equal(fmt_fixed(24.12, 2, buf, sizeof buf), "24.12");
	assert_string_equal(fmt_sig(0.506, 3, buf, sizeof buf), "0.506");
	assert_string_equal(fmt_short(0.825, buf, sizeof buf), "0.825");
	setlocale(LC_NUMERIC, "C");
}

/* The definition fmt_roundtrip must meet: the least P >= min_prec whose %.Pg reads back. */
static void roundtrip_linear(double v, int min_prec, char *out, size_t n)
{
	for (int p = min_prec; p < 17; p++) {
		snprintf(out, n, "%.*g", p, v);
		if (strtod(out, NULL) == v)
			return;
	}
	snprintf(out, n, "%.17g", v);
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_u64(void)
{
	/* xorshift64*: a fixed sequence, so a failure repeats */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717u;
}

static void check_roundtrip(double v, int min_prec)
{
	char want[64], got[64];

	roundtrip_linear(v, min_prec, want, sizeof want);
	fmt_roundtrip(v, min_prec, got, sizeof got);
	if (strcmp(want, got) != 0)
		fail_msg("fmt_roundtrip(%a, %d) = %s, the shortest is %s", v, min_prec, got, want);
}

/* Random bit patterns (every exponent, subnormals), then decimals of a few digits as data
 * files hold them (5.116225, 0.5487), then values next to those: every one must give the
 * linear definition's text. */
static void roundtrip_is_the_shortest(void **state)
{
	(void)state;
	for (int i = 0; i < 60000; i++) {
		uint64_t u = next_u64();
		double v;
		memcpy(&v, &u, sizeof v);
		if (!isfinite(v))
			continue;
		check_roundtrip(v, 6);
		check_roundtrip(v, 1 + (int)(u % 17));
	}
	for (int i = 0; i < 60000; i++) {
		uint64_t u = next_u64();
		int digits = 1 + (int)(u % 17), e10 = (int)((u >> 8) % 40) - 20;
		char text[64];
		snprintf(text, sizeof text, "%llue%d", (unsigned long long)((u >> 16) % 100000000000000000ULL) %
			 (unsigned long long)pow(10, digits), e10);
		double v = strtod(text, NULL);
		check_roundtrip(v, 6);
		check_roundtrip(nextafter(v, INFINITY), 6);
		check_roundtrip(nextafter(v, -INFINITY), 1);
	}
	const double edge[] = { 0.0, -0.0, 1e7, 1e-5, 123456.0, 1234567.0, 0.1, 0.3, 1.0 / 3, DBL_MAX,
				DBL_MIN, 4.9406564584124654e-324, -2.5, 9.999999999999999e22, 5.116225 };
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		for (int p = 1; p <= 17; p++)
			check_roundtrip(edge[i], p);
	assert_string_equal(fmt_roundtrip(5.116225, 6, buf, sizeof buf), "5.116225");
	assert_string_equal(fmt_roundtrip(1e7, 6, buf, sizeof buf), "1e+07");
	assert_string_equal(fmt_roundtrip(0.1 + 0.2, 6, buf, sizeof buf), "0.30000000000000004");
}

/* v and the three doubles on either side of it, at every min_prec; with scaled, 9.5 and
 * 0.99999 times each too (a carry into a new digit, and just below one). */
static void check_neighbours(double v, bool scaled)
{
	for (int k = -3; k <= 3; k++) {
		double w = v;
		for (int j = 0; j < k; j++)
			w = nextafter(w, INFINITY);
		for (int j = 0; j > k; j--)
			w = nextafter(w, 0);
		for (int p = 1; p <= 17; p++) {
			check_roundtrip(w, p);
			if (scaled) {
				check_roundtrip(9.5 * w, p);
				check_roundtrip(0.99999 * w, p);
			}
		}
	}
}

/* The exact path (normal |v| in [1e-5, 1e15), no printf) against the linear definition:
 * values spread evenly over its decades, every min_prec; powers of two and their neighbours
 * (where the gap below v halves); powers of ten and theirs (a carry into a new digit); and
 * quotients and sums as the analysis makes them (E', accelerator-hours). */
static void roundtrip_exact_path(void **state)
{
	(void)state;
	for (int i = 0; i < 120000; i++) {
		uint64_t u = next_u64();
		double v = pow(10, -5 + 20.0 * (double)(u >> 11) / 9007199254740992.0);
		if (u & 1)
			v = -v;
		check_roundtrip(v, 1 + (int)(u % 17));
		check_roundtrip(v, 6);
	}
	for (int e = -17; e < 50; e++)
		check_neighbours(ldexp(1, e), false);
	for (int e = -5; e < 15; e++)
		check_neighbours(pow(10, e), true);
	for (int i = 0; i < 40000; i++) {
		uint64_t u = next_u64();
		double t = 0.5 + (double)(u % 100000) / 97.0, r = 1 + (double)((u >> 20) % 5000) / 13.0;
		double n = (double)(1u << ((u >> 40) % 13));
		check_roundtrip(r / t, 6);
		check_roundtrip(r / t / n, 6);
		check_roundtrip(n * t / 60, 6);
		check_roundtrip(t * 1.25, 15);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixed_rounds_the_binary_value),
		cmocka_unit_test(sig_carries_into_a_new_digit),
		cmocka_unit_test(huge_values_in_exponent_form),
		cmocka_unit_test(count_is_whole_when_whole),
		cmocka_unit_test(short_as_typed),
		cmocka_unit_test(c_notation_in_any_locale),
		cmocka_unit_test(roundtrip_is_the_shortest),
		cmocka_unit_test(roundtrip_exact_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
