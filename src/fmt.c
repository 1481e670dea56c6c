/* fmt.c: number formatting. printf's rounding of the binary value is what every view shows,
 * so the table, the status bar and --print agree digit for digit. The text is in the C
 * locale's notation whatever LC_NUMERIC says: a decimal comma would break every CSV. */
#include "fmt.h"

#include <float.h>
#include <locale.h>
#include <math.h>
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

/* The least P >= min_prec whose %.Pg reads back. A double has 15.95 significant digits, so
 * when some P <= 15 reads back, the 15-digit rounding of v is that P-digit text padded with
 * zeros: %.15e tells the digit count k of the shortest text in one call, and the answer is
 * %.max(k, min_prec)g (the exponent form depends on P, so it is printed again with P). When
 * 15 digits do not read back, 16 may, else 17 always does. A binary search of P over
 * [min_prec, 17] cost 4-5 snprintf+strtod pairs a number (26-34 us a --print csv row); this
 * costs 2 and 1 in the usual case, and is tested against the linear definition. */
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
