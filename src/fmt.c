/* fmt.c: number formatting. printf's rounding of the binary value is what every view shows,
 * so the table, the status bar and --print agree digit for digit. */
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

char *fmt_fixed(double v, int decimals, char *buf, size_t n)
{
	if (decimals < 0)
		decimals = 0;
	if (decimals > 17)
		decimals = 17;
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.*f", decimals, v == 0 ? 0.0 : v);
	return buf;
}

char *fmt_sig(double v, int sig, char *buf, size_t n)
{
	int digits, decimals;
	double a;

	if (!isfinite(v))
		return fmt_fixed(v, 0, buf, n);
	a = fabs(v);
	if (a == 0)
		return fmt_fixed(0.0, sig > 1 ? sig - 1 : 0, buf, n);
	/* digits before the point after rounding to sig significant digits */
	digits = (int)floor(log10(a)) + 1;
	decimals = sig - digits;
	if (decimals > 0) {
		/* rounding may carry into a new digit (9.996 -> 10.00): recompute from the text */
		char tmp[64];
		snprintf(tmp, sizeof tmp, "%.*f", decimals, a);
		double r = atof(tmp);
		if (r > 0 && (int)floor(log10(r)) + 1 > digits && decimals > 0)
			decimals--;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 12)
		decimals = 12;
	return fmt_fixed(v, decimals, buf, n);
}

char *fmt_count(double v, char *buf, size_t n)
{
	if (isfinite(v) && v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, n, "%.0f", v);
	else
		fmt_sig(v, 4, buf, n);
	return buf;
}
