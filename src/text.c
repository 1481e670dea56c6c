/* text.c: strict UTF-8, the one sanitizer, ASCII case folding, name lookup, workload labels
 * and row names. Every module that shows, compares or looks up a name uses these. */
/* wcwidth is X/Open's: every build gets it, not only those that see ncurses' flags */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "text.h"

#include <float.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	/* the second byte's range excludes overlong forms (e0, f0), surrogates (ed) and code
	 * points above U+10FFFF (f4) */
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

bool utf8_is_c1(const unsigned char *s, size_t len)
{
	return len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

bool utf8_is_bidi(const unsigned char *s, size_t len)
{
	if (len == 2) /* U+061C ARABIC LETTER MARK */
		return s[0] == 0xd8 && s[1] == 0x9c;
	if (len != 3 || s[0] != 0xe2)
		return false;
	/* U+200E, U+200F, U+202A..U+202E; and U+2028, U+2029, the line and paragraph separators,
	 * which break a line where they are shown as a newline does */
	if (s[1] == 0x80)
		return s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xa8 && s[2] <= 0xae);
	return s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9; /* U+2066..U+2069 */
}

/* Whether the 8 bytes at s are all printable ASCII (0x20..0x7e): no byte below 0x20 (the
 * borrow test), none at or above 0x7f (adding 1 sets its high bit, or it was set). */
static bool word_printable(const char *s)
{
	uint64_t w, ones = UINT64_C(0x0101010101010101), high = UINT64_C(0x8080808080808080);

	memcpy(&w, s, 8);
	return !(((w - 0x20 * ones) & ~w & high) | ((w | (w + ones)) & high));
}

void utf8_sanitize(char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		const unsigned char *c = (const unsigned char *)s + i;
		size_t len = 1;
		/* printable ASCII, nearly every byte of a results file, is kept as it is
		 * (tests/test_utf8.c compares this with the definition) */
		if (i + 8 <= n && word_printable(s + i)) {
			i += 8;
			continue;
		}
		if (*c >= 0x20 && *c < 0x7f) {
			i++;
			continue;
		}
		if (*c < 0x20 || *c == 0x7f)
			len = 0;
		else if (*c >= 0x80 && ((len = utf8_seq_len(c, n - i)) == 0 || utf8_is_c1(c, len)))
			len = 0;
		if (len == 0) { /* one '?' per bad byte */
			s[i++] = '?';
			continue;
		}
		if (utf8_is_bidi(c, len))
			memset(s + i, '?', len);
		i += len;
	}
}

/* The length of s[0..len) cut to less than n bytes at a character boundary. */
static size_t cut_len(const char *s, size_t len, size_t n)
{
	if (len < n)
		return len;
	len = n - 1;
	while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	return len;
}

char *text_sanitize(const char *s, char *buf, size_t n)
{
	size_t len;

	if (n == 0)
		return buf;
	s = s ? s : "";
	len = cut_len(s, strlen(s), n);
	memcpy(buf, s, len);
	buf[len] = '\0';
	utf8_sanitize(buf, len);
	return buf;
}

bool text_decimal_exact(uint64_t m, size_t frac, bool neg, double *out)
{
	/* the powers of ten a double holds exactly */
	static const double pow10_exact[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};

#if FLT_EVAL_METHOD != 0
	return false; /* doubles evaluated wider: the one rounding is not the double's */
#endif
	if (m > (UINT64_C(1) << 53) || frac >= sizeof pow10_exact / sizeof pow10_exact[0])
		return false;
	double v = (double)m / pow10_exact[frac];
	*out = neg ? -v : v;
	return true;
}

int ascii_casecmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)(a ? a : ""), *y = (const unsigned char *)(b ? b : "");

	while (*x && ascii_fold(*x) == ascii_fold(*y)) {
		x++;
		y++;
	}
	return ascii_fold(*x) - ascii_fold(*y);
}

int ascii_ncasecmp(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	for (size_t i = 0; i < n; i++) {
		int d = ascii_fold(x[i]) - ascii_fold(y[i]);
		if (d || !x[i])
			return d;
	}
	return 0;
}

/* The places where the needle's first letter stands, in either case, are found by strpbrk,
 * and only there is the whole needle compared. */
const char *ascii_casestr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (n == 0)
		return hay;
	int first = ascii_fold((unsigned char)needle[0]);
	char set[3] = { (char)first, 0, 0 };
	if (first >= 'a' && first <= 'z')
		set[1] = (char)(first - 'a' + 'A');
	for (const char *p = hay; (p = strpbrk(p, set)) != NULL; p++)
		if (ascii_ncasecmp(p, needle, n) == 0)
			return p;
	return NULL;
}

char *text_row_name(const char *submitter, const char *system, bool qualified, char *buf, size_t n)
{
	const char *sub = qualified && submitter && *submitter ? submitter : NULL;
	size_t ls = sub ? strlen(sub) + 1 : 0, len;

	system = system ? system : "";
	if (n == 0)
		return buf;
	/* the whole name is sub '/' system; cut it where a character starts */
	len = ls + strlen(system);
	if (len >= n) {
		len = n - 1;
		while (len > 0 && ((unsigned char)(len < ls ? (len + 1 == ls ? '/' : sub[len]) : system[len - ls]) & 0xc0) == 0x80)
			len--;
	}
	snprintf(buf, len + 1, "%s%s%s", sub ? sub : "", sub ? "/" : "", system);
	return buf;
}

int text_version_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	while (*x && *y) {
		if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
			/* numbers by value: leading zeros skipped, then the longer is larger */
			while (*x == '0')
				x++;
			while (*y == '0')
				y++;
			size_t nx = 0, ny = 0;
			while (x[nx] >= '0' && x[nx] <= '9')
				nx++;
			while (y[ny] >= '0' && y[ny] <= '9')
				ny++;
			if (nx != ny)
				return nx < ny ? -1 : 1;
			int d = memcmp(x, y, nx);
			if (d)
				return d < 0 ? -1 : 1;
			x += nx;
			y += ny;
			continue;
		}
		if (ascii_fold(*x) != ascii_fold(*y))
			return ascii_fold(*x) < ascii_fold(*y) ? -1 : 1;
		x++;
		y++;
	}
	if (*x || *y)
		return *x ? 1 : -1;
	return strcmp(a, b) < 0 ? -1 : strcmp(a, b) > 0;
}

/* ------------------------------------------------------------------ display width */

/* glibc's own tables through a C.UTF-8 locale object: the terminal's wcwidth in most cases,
 * with no dependence on LANG (in the C locale wcwidth knows no character past ASCII). */
static locale_t utf8_locale(void)
{
	static locale_t loc;
	static int tried;

	if (!tried) {
		tried = 1;
		loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	return loc;
}

/* Where C.UTF-8 is missing: wide East Asian blocks and the usual combining marks. */
static int cp_cols_fallback(unsigned long cp)
{
	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x20d0 && cp <= 0x20ff) ||
	    (cp >= 0xfe20 && cp <= 0xfe2f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
	    (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

int text_cp_cols(unsigned long cp)
{
	locale_t loc = utf8_locale();
	int w;

	if (cp >= 0x20 && cp < 0x7f)
		return 1;
	if (!loc)
		return cp_cols_fallback(cp);
	locale_t old = uselocale(loc);
	w = wcwidth((wchar_t)cp);
	uselocale(old);
	return w < 0 ? 1 : w; /* what is not printable is shown as something one column wide */
}

/* The character at s[0..n) (n > 0): its length and columns; each byte the sanitizer replaces
 * (control, invalid, C1, bidi control) is a character of one byte and one column, its '?'. */
static size_t char_at(const char *s, size_t n, int *cols)
{
	const unsigned char *c = (const unsigned char *)s;
	size_t len;
	unsigned long cp;

	*cols = 1;
	if (c[0] < 0x80 || (len = utf8_seq_len(c, n)) == 0 || utf8_is_c1(c, len) || utf8_is_bidi(c, len))
		return 1;
	cp = c[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++)
		cp = cp << 6 | (c[i] & 0x3f);
	*cols = text_cp_cols(cp);
	return len;
}

int text_columns(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	int w = 0;

	for (size_t i = 0; i < n;) {
		int c;
		i += char_at(s + i, n - i, &c);
		w += c;
	}
	return w;
}

/* Appends s[from..to) to buf (at *len, size n), sanitized, whole characters only. */
static void put_span(char *buf, size_t n, size_t *len, const char *s, size_t from, size_t to)
{
	size_t start = *len;

	for (size_t i = from; i < to;) {
		int c;
		size_t l = char_at(s + i, to - i, &c);
		if (*len + l >= n)
			break;
		memcpy(buf + *len, s + i, l);
		*len += l;
		i += l;
	}
	utf8_sanitize(buf + start, *len - start);
}

int text_cut(const char *s, int w, char *buf, size_t n)
{
	size_t len = strlen(s ? s : ""), out = 0, head = 0, tail;
	int total = text_columns(s), hw = 0, tw, c;

	if (n == 0)
		return 0;
	s = s ? s : "";
	buf[0] = '\0';
	if (w <= 0)
		return 0;
	if (total <= w) {
		put_span(buf, n, &out, s, 0, len);
		buf[out] = '\0';
		return text_columns(buf);
	}
	/* the head gets the larger half; a wide character that does not fit leaves its column
	 * to the tail */
	while (head < len) {
		size_t l = char_at(s + head, len - head, &c);
		if (hw + c > w - 1 - (w - 1) / 2)
			break;
		hw += c;
		head += l;
	}
	/* the tail: the first character boundary from which the rest fits in what is left */
	tw = 0;
	tail = len;
	for (size_t i = head, pw = (size_t)hw; i < len;) {
		size_t l = char_at(s + i, len - i, &c);
		if (total - (int)pw <= w - 1 - hw) {
			tail = i;
			tw = total - (int)pw;
			break;
		}
		pw += (size_t)c;
		i += l;
	}
	put_span(buf, n, &out, s, 0, head);
	if (out + 1 < n)
		buf[out++] = '~';
	put_span(buf, n, &out, s, tail, len);
	buf[out] = '\0';
	return hw + 1 + tw;
}

const char *text_trim(const char *s, size_t *len)
{
	size_t n = *len;

	while (n && (s[0] == ' ' || s[0] == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	*len = n;
	return s;
}
