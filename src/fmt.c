/* fmt.c: number formatting. printf's rounding of the binary value is what every view shows,
 * so the table, the status bar and --print agree digit for digit. The text is in the C
 * locale's notation whatever LC_NUMERIC says: a decimal comma would break every CSV. */
#include "fmt.h"

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

char *fmt_roundtrip(double v, int min_prec, char *buf, size_t n)
{
	int lo = min_prec < 1 ? 1 : min_prec > 17 ? 17 : min_prec, hi = 17;

	/* if P digits read back, so do more: the least P is found by halving [lo, 17] */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		snprintf(buf, n, "%.*g", mid, v);
		if (strtod(buf, NULL) == v)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(buf, n, "%.*g", lo, v);
	return buf;
}
