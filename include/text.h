/* text.h: text rules shared by every module: strict UTF-8, the one sanitizer, ASCII case
 * folding and the one way to name a row. */
#ifndef GS_TEXT_H
#define GS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence at s (n bytes available, s[0] >= 0x80), or 0 when invalid
 * (no overlong forms, no surrogates, nothing above U+10FFFF: Python's strict decoder). */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/* True when the len-byte sequence at s is a C1 control (U+0080..U+009F), read as CSI and
 * friends by 8-bit terminals. */
bool utf8_is_c1(const unsigned char *s, size_t len);

/* True when the len-byte sequence at s is a bidirectional control (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069), which reorders what a terminal shows around it, or the line
 * or paragraph separator (U+2028, U+2029), which breaks the line it is shown in. */
bool utf8_is_bidi(const unsigned char *s, size_t len);

/* The one sanitizer: replaces, in place, each byte of a control character, DEL, C1 control,
 * bidi control or invalid UTF-8 in s[0..n) with '?'. Text from files goes through it before
 * it reaches a terminal, a message or a CSV. */
void utf8_sanitize(char *s, size_t n);

/* Copies s (NULL reads as "") into buf (size n > 0), cut at a character boundary, through
 * utf8_sanitize; returns buf. */
char *text_sanitize(const char *s, char *buf, size_t n);

/* The double strtod reads for the decimal m / 10^frac (negated with neg) when one IEEE division
 * gives it, Clinger's fast path: m <= 2^53 and frac <= 22, so that both are exact doubles and
 * the division rounds the exact quotient as strtod rounds the text. True with *out set; false:
 * not such a number (strtod decides). The loaders' plain decimals go through it. */
bool text_decimal_exact(uint64_t m, size_t frac, bool neg, double *out);

/* s[0..*len) without the spaces and tabs around it: returns where it starts inside s (s when
 * *len is 0) and shortens *len. */
const char *text_trim(const char *s, size_t *len);

/* c with ASCII letters in lower case: the one case-folding rule, the same in every locale. */
static inline int ascii_fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* strcmp of a and b under ascii_fold (NULL reads as ""). */
int ascii_casecmp(const char *a, const char *b);

/* strncmp of a and b under ascii_fold. */
int ascii_ncasecmp(const char *a, const char *b, size_t n);

/* The first place in hay where needle occurs under ascii_fold, or NULL; an empty needle is
 * found at the start. */
const char *ascii_casestr(const char *hay, const char *needle);

/* Writes a row's name into buf (size n > 0): "SUBMITTER/SYSTEM" when qualified (the same
 * system id exists under several submitters) and submitter is not empty, else the system id;
 * cut to fit at a character boundary. Returns buf. */
char *text_row_name(const char *submitter, const char *system, bool qualified, char *buf, size_t n);

/* Orders round names as versions: digit runs by value, the rest under ascii_fold, so that
 * v4.0 < v4.1 < v5.0 < v5.1 < v10.0; names equal that way fall back to strcmp. <0, 0, >0. */
int text_version_cmp(const char *a, const char *b);

/* Display columns of code point cp on a terminal: 0 for combining and zero-width characters,
 * 2 for East Asian wide and fullwidth ones, else 1; glibc's C.UTF-8 tables, the same in every
 * locale, so reports do not depend on the user's LANG. */
int text_cp_cols(unsigned long cp);

/* Display columns of s (NULL reads as "") as utf8_sanitize would leave it: each byte it
 * replaces counts as one '?'. */
int text_columns(const char *s);

/* Copies s (NULL reads as "") into buf (size n > 0) through the sanitizer, in at most w display
 * columns and never cut inside a character: a longer text keeps its head and its tail around
 * ONE cut mark '~' (8xXE9680x8H~80GB-POWER), where rows that share a prefix differ. Returns
 * the display columns of buf. */
int text_cut(const char *s, int w, char *buf, size_t n);

#endif
