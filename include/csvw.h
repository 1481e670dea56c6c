/* csvw.h: the one CSV field writer (RFC 4180): every CSV gpuscale writes quotes by this rule,
 * so what one part writes every other part, and any spreadsheet, reads back. */
#ifndef GS_CSVW_H
#define GS_CSVW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* True when s must be quoted: it holds a comma, a double quote, CR or LF. */
bool csvw_needs_quotes(const char *s);

/* Spreadsheet formulas: a text cell starting with = + - @ TAB or CR is taken for a formula
 * by spreadsheets (OWASP "CSV injection"), so csvw_field writes it after a ' (a plain number
 * such as -1.5 excepted: it is a number to every reader). A cell that already starts with
 * one or more ' before such a character gets one more, so csvw_unguard restores every
 * cell exactly. csvw_set_raw(true) (--raw) writes every cell as it is. */
bool csvw_needs_guard(const char *s);
void csvw_set_raw(bool raw);

/* The text a guarded cell s[0..*len) stood for: s + 1 (*len one less) when csvw_needs_guard
 * put a ' before it, else s. */
const char *csvw_unguard(const char *s, size_t *len);

/* Writes s (NULL: empty) as one field to out, guarded (csvw_needs_guard) and quoted when
 * csvw_needs_quotes (inner quotes doubled). Returns 0, or -1 when out has a write error. */
int csvw_field(FILE *out, const char *s);

/* Writes v as the shortest text strtod reads back as v (fmt_roundtrip, at least 6 digits),
 * nothing when v is not finite (an empty field). Returns 0, or -1 on a write error. */
int csvw_num(FILE *out, double v);

#endif
