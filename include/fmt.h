/* fmt.h: number formatting shared by the table, the status bar and --print (C locale digits). */
#ifndef GS_FMT_H
#define GS_FMT_H

#include <stddef.h>

/* v with `decimals` digits after the point (in exponent form from 1e15 on: 1.67e+20); "-"
 * when v is NAN or infinite. Returns buf. */
char *fmt_fixed(double v, int decimals, char *buf, size_t n);

/* v with about `sig` significant digits, in exponent form from 1e9 on only (24.1, 0.812, 1234,
 * 1.23e+09); "-" when not finite. Returns buf. */
char *fmt_sig(double v, int sig, char *buf, size_t n);

/* v as a user would type it: at most 6 significant digits, no trailing zeros (0.8, 0.825);
 * "-" when not finite. Returns buf. */
char *fmt_short(double v, char *buf, size_t n);

/* The shortest %.Pg of v, P from min_prec to 17, that strtod reads back as v exactly (17
 * always does); for data files, under LC_NUMERIC "C", as strtod must read them. Returns buf. */
char *fmt_roundtrip(double v, int min_prec, char *buf, size_t n);

/* Accelerator count: integer when whole, else fmt_sig(v, 4). Returns buf. */
char *fmt_count(double v, char *buf, size_t n);

#endif
