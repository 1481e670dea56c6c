/* csvw.h: the one CSV field writer (RFC 4180): every CSV gpuscale writes quotes by this rule,
 * so what one part writes every other part, and any spreadsheet, reads back. */
#ifndef GS_CSVW_H
#define GS_CSVW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* True when s must be quoted: it holds a comma, a double quote, CR or LF. */
bool csvw_needs_quotes(const char *s);

/* Writes s (NULL: empty) as one field to out, quoted when csvw_needs_quotes (inner quotes
 * doubled). Returns 0, or -1 when out has a write error. */
int csvw_field(FILE *out, const char *s);

/* Writes v as the shortest text strtod reads back as v (fmt_roundtrip, at least 6 digits),
 * nothing when v is not finite (an empty field). Returns 0, or -1 on a write error. */
int csvw_num(FILE *out, double v);

#endif
