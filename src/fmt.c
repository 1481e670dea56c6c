/* fmt.c: number formatting. printf's rounding of the binary value is what every view shows,
 * so the table, the status bar and --print agree digit for digit. The text is in the C
 * locale's notation whatever LC_NUMERIC says: a decimal comma would break every CSV. */
#include "fmt.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Puts '.' back where the locale wrote its own decimal point, and drops the sign of a value
 * that rounded to zero ("-0.00" would claim a sign the shown digits cannot carry). */
static void c_notation(char *s)
{
	const char *dp = localeconv()->decimal_point;
	char *p;

	if (dp && dp[0] && dp[0] != '.' && !dp[1] && (p = strchr(s, dp[0])) != NULL)
		*p = '.';
	if (s[0] == '-' && s[1] && strspn(s + 1, "0.") == strlen(s + 1))
		memmove(s, s + 1, strlen(s));
}

char *fmt_fixed(double v, int decimals, char *buf, size_t n)
{
	if (n == 0)
		return buf;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 17)
		decimals = 17;
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1e15) /* all of a huge value's digits would only widen a column */
		snprintf(buf, n, "%.*e", decimals, v);
	else
		snprintf(buf, n, "%.*f", decimals, v);
	c_notation(buf);
	return buf;
}

char *fmt_sig(double v, int sig, char *buf, size_t n)
{
	char e[64], *x;
	int exp10, decimals;

	if (!isfinite(v))
		return fmt_fixed(v, 0, buf, n);
	if (sig < 1)
		sig = 1;
	if (v == 0)
		return fmt_fixed(0.0, sig - 1, buf, n);
	/* %e rounds to sig digits first, so its exponent already counts a carry (9.996 -> 1.00e+01) */
	snprintf(e, sizeof e, "%.*e", sig - 1, v);
	x = strchr(e, 'e');
	exp10 = x ? atoi(x + 1) : 0;
	if (exp10 >= 9) { /* 1.23e+09: the digits past sig would claim a precision there is not */
		if (snprintf(buf, n, "%s", e) >= 0)
			c_notation(buf);
		return buf;
	}
	decimals = sig - 1 - exp10;
	return fmt_fixed(v, decimals < 0 ? 0 : decimals > 12 ? 12 : decimals, buf, n);
}

char *fmt_short(double v, char *buf, size_t n)
{
	if (n == 0)
		return buf;
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.6g", v);
	c_notation(buf);
	return buf;
}

char *fmt_count(double v, char *buf, size_t n)
{
	if (isfinite(v) && v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, n, "%.0f", v);
	else
		fmt_sig(v, 4, buf, n);
	return buf;
}

/* The usual value in a data file has a few decimals (5.116225, 0.5487): the least d with
 * m / 10^d == v, m = round(v 10^d), gives its shortest text, m with a point d digits from the
 * right. While m < 10^15 and 10^d are exact doubles, the division rounds correctly, so that
 * text is what strtod reads back as v; fixed notation is what %.Pg prints for P >= 6 when
 * 1e-4 <= |v| < 1e6. Every value there with 15 significant digits or fewer needs at most 18
 * decimals, so a miss means 16 or 17 digits. Returns the length; 0 when v is in that range
 * but needs 16 digits or more; -1 when v is out of it. */
static int short_decimal(double v, char *buf, size_t n)
{
	static const double p10[19] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
					1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };
	double a = fabs(v);
	char digits[24];
	int d, nd = 0;
	long long m = 0;
	size_t len = 0;

	if (!(a >= 1e-4 && a < 1e6) || n < 24)
		return -1;
	for (d = 0; d < 19; d++) {
		double x = a * p10[d];
		if (x >= 1e15)
			return 0;
		m = llround(x);
		if ((double)m / p10[d] == a)
			break;
	}
	if (d == 19)
		return 0;
	do
		digits[nd++] = (char)('0' + m % 10);
	while ((m /= 10) > 0);
	if (v < 0)
		buf[len++] = '-';
	if (nd <= d) { /* 0.000ddd */
		buf[len++] = '0';
		buf[len++] = '.';
		for (int z = d - nd; z > 0; z--)
			buf[len++] = '0';
	}
	for (int i = nd - 1; i >= 0; i--) {
		buf[len++] = digits[i];
		if (i == d && i > 0 && nd > d)
			buf[len++] = '.';
	}
	buf[len] = '\0';
	return (int)len;
}

/* fmt_roundtrip's exact path, for normal |v| in [1e-5, 1e15): v = m 2^-q exactly (m of 53 bits,
 * 3 <= q <= 70), so X = m 10^s, with s chosen to give v 10^s seventeen digits before the point,
 * is an integer below 2^127, and Q = X >> q, R = X mod 2^q are those digits and the exact rest.
 * Rounding to P digits is then integer arithmetic on Q and R (half to even, as printf rounds
 * the binary value), and whether that text reads back as v is whether it lies within half a
 * gap of v (a quarter of 10^s below a power of two, where the gap under v halves; a tie goes
 * to the even m, as strtod rounds): the least P that reads back comes without a printf or
 * strtod (see the loop for how few P it tries). The text is what %.Pg prints: trailing zeros dropped, fixed notation
 * when -4 <= exponent < P. Returns the
 * length, or 0 when v is outside that range or n is too small (the caller then prints). */
typedef unsigned __int128 u128;

/* Rounds the 17 digits Q (with the rest R / 2^q) at 10^j, half to even, into *D; whether that
 * text reads back as v = m 2^-q (the distance in units of 2^-q 10^-s within half the gap,
 * 10^s; a quarter below a power of two; a tie to the even m). */
static bool round_at(uint64_t Q, u128 R, int q, int j, u128 ten_s, uint64_t m, uint64_t *D)
{
	static const uint64_t p10[18] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL };
	uint64_t pj = p10[j], r = Q % pj, d = Q / pj, C;
	u128 twice_rest = 2 * (((u128)r << q) + R), unit = (u128)pj << q, diff, gap;

	if (twice_rest > unit || (twice_rest == unit && (d & 1)))
		d++;
	*D = d;
	C = d * pj;
	if (C > Q)
		diff = ((u128)(C - Q) << q) - R;
	else
		diff = ((u128)(Q - C) << q) + R;
	gap = C > Q || m != (UINT64_C(1) << 52) ? 2 * diff : 4 * diff;
	return gap < ten_s || (gap == ten_s && !(m & 1));
}

static int roundtrip_exact(double v, int min_prec, char *buf, size_t n)
{
	static const uint64_t p10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL };
	double a = fabs(v);
	uint64_t bits, m, Q = 0, D = 0;
	u128 X = 0, R = 0, ten_s = 0;
	int q, s, e10, P;
	char dig[18], *o = buf;

	if (!(a >= 1e-5 && a < 1e15) || n < 32)
		return 0;
	memcpy(&bits, &a, sizeof bits);
	m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
	q = 1075 - (int)(bits >> 52);
	/* floor(log10 2^e) is 78913 e / 2^18, rounded down: v's exponent in tens, or one
	 * below it; the seventeen digits' test below moves s by one where it is off */
	s = 16 - (((int)(bits >> 52) - 1023) * 78913 >> 18);
	for (int tries = 0; tries < 3; tries++) {
		if (s < 0 || s > 22)
			return 0;
		ten_s = s <= 19 ? (u128)p10[s] : (u128)p10[19] * p10[s - 19];
		X = (u128)m * ten_s;
		Q = (uint64_t)(X >> q);
		R = X & (((u128)1 << q) - 1);
		if (Q >= p10[17])
			s--;
		else if (Q < p10[16])
			s++;
		else
			break;
	}
	if (Q < p10[16] || Q >= p10[17])
		return 0;
	P = min_prec < 1 ? 1 : min_prec > 17 ? 17 : min_prec;
	if (m == (UINT64_C(1) << 52)) {
		/* v a power of two: the gap below it is half the one above, so a nearer text can
		 * fail where a farther one passed; P runs up as the definition says */
		while (P < 17 && !round_at(Q, R, q, 17 - P, ten_s, m, &D))
			P++;
		round_at(Q, R, q, 17 - P, ten_s, m, &D);
	} else {
		/* the text to 10^j is the nearest multiple of 10^j, so it is no farther from v than
		 * the one to 10^(j+1), which is one too: with a gap the same on both sides of v, if
		 * j + 1 digits fewer read back so do j. The least P is 17 minus the largest j that
		 * reads back (17 digits always do): one or two steps up from j = 1 for a computed
		 * value, then halving for a short one */
		int J = 0, top = 17 - P;
		while (J < top && J < 2 && round_at(Q, R, q, J + 1, ten_s, m, &D))
			J++;
		if (J == 2) {
			/* a short value (7.2869 has 12 digits fewer than 17 that read back): the
			 * largest j by halving [2, top] instead of a step at a time */
			int hi = top + 1;
			while (hi - J > 1) {
				int mid = (J + hi) / 2;
				if (round_at(Q, R, q, mid, ten_s, m, &D))
					J = mid;
				else
					hi = mid;
			}
		}
		P = 17 - J;
		round_at(Q, R, q, J, ten_s, m, &D);
	}
	e10 = 16 - s;
	if (D == p10[P]) { /* rounded up to a new digit: 9.99 -> 10.0 */
		D = p10[P - 1];
		e10++;
	}
	for (int i = P - 1; i >= 0; i--) {
		dig[i] = (char)('0' + D % 10);
		D /= 10;
	}
	int nz = P;
	while (nz > 1 && dig[nz - 1] == '0')
		nz--;
	if (v < 0)
		*o++ = '-';
	if (e10 < -4 || e10 >= P) {
		*o++ = dig[0];
		if (nz > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)nz - 1);
			o += nz - 1;
		}
		int x = e10 < 0 ? -e10 : e10;
		*o++ = 'e';
		*o++ = e10 < 0 ? '-' : '+';
		if (x >= 100)
			*o++ = (char)('0' + x / 100);
		*o++ = (char)('0' + x / 10 % 10);
		*o++ = (char)('0' + x % 10);
	} else if (e10 >= 0) {
		memcpy(o, dig, (size_t)e10 + 1);
		o += e10 + 1;
		if (nz > e10 + 1) {
			*o++ = '.';
			memcpy(o, dig + e10 + 1, (size_t)(nz - e10 - 1));
			o += nz - e10 - 1;
		}
	} else {
		*o++ = '0';
		*o++ = '.';
		for (int z = -e10 - 1; z > 0; z--)
			*o++ = '0';
		memcpy(o, dig, (size_t)nz);
		o += nz;
	}
	*o = '\0';
	return (int)(o - buf);
}

/* The least P >= min_prec whose %.Pg reads back. A double has 15.95 significant digits, so
 * when some P <= 15 reads back, the 15-digit rounding of v is that P-digit text padded with
 * zeros: %.15e tells the digit count k of the shortest text in one call, and the answer is
 * %.max(k, min_prec)g (the exponent form depends on P, so it is printed again with P). When
 * 15 digits do not read back, 16 may, else 17 always does. Tested against the linear
 * definition. */
char *fmt_roundtrip(double v, int min_prec, char *buf, size_t n)
{
	char e[48];
	int p = min_prec < 1 ? 1 : min_prec > 17 ? 17 : min_prec, sd = -1;

	if (n == 0)
		return buf;
	if (!isfinite(v) || fabs(v) < DBL_MIN || p > 15) { /* subnormals carry fewer digits */
		for (; p < 17; p++) {
			snprintf(buf, n, "%.*g", p, v);
			if (!isfinite(v) || strtod(buf, NULL) == v)
				return buf;
		}
		snprintf(buf, n, "%.17g", v);
		return buf;
	}
	if (roundtrip_exact(v, p, buf, n) > 0)
		return buf;
	if (p >= 6 && (sd = short_decimal(v, buf, n)) > 0)
		return buf;
	if (sd < 0 && (snprintf(e, sizeof e, "%.14e", v), strtod(e, NULL) == v)) {
		/* the mantissa "-d.dddddddddddddd": significant digits up to the last non-zero */
		const char *m = e + (e[0] == '-'), *x = strchr(m, 'e');
		int k = 1;
		for (const char *q = m + 2; q < x; q++)
			if (*q != '0')
				k = (int)(q - m); /* m[0] is one digit, m[1] the point */
		snprintf(buf, n, "%.*g", k > p ? k : p, v);
		return buf;
	}
	snprintf(buf, n, "%.16g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, n, "%.17g", v);
	return buf;
}
