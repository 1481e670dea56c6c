/* ui_text.c: display width of data text for the screen, in the terminal's own terms (the
 * locale's wcwidth, as curses places characters by it), and the one way the screen cuts a
 * name: by display width, never inside a character, with ONE cut mark '~' in the middle so
 * that both the start and the distinguishing tail stay ("8xXE9680x8H~80GB-POWER"). Bytes that
 * are not printable text (controls, invalid UTF-8, or any byte >= 0x80 outside a UTF-8 locale)
 * count as one column: the screen draws them as '?', as does the one sanitizer (text.h) with
 * C1 and bidirectional controls. No curses here. */

#include "ui_app.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "text.h"

/* Bytes and columns of the character at s (n bytes left, n > 0). */
static size_t char_at(const char *s, size_t n, bool utf8, int *cols)
{
	unsigned char c = (unsigned char)*s;
	mbstate_t st;
	wchar_t wc;
	size_t len;

	*cols = 1;
	if (c < 0x80 || !utf8)
		return 1;
	memset(&st, 0, sizeof st);
	len = mbrtowc(&wc, s, n, &st);
	if (len == (size_t)-1 || len == (size_t)-2 || len == 0)
		return 1;
	*cols = wcwidth(wc);
	/* not printable, or a control the one sanitizer refuses (C1, bidi): drawn as '?' */
	if (*cols < 0 || utf8_is_c1((const unsigned char *)s, len) || utf8_is_bidi((const unsigned char *)s, len))
		*cols = 1;
	return len;
}

int ui_text_fit(const char *s, int w, bool utf8, size_t *bytes)
{
	size_t i = 0, n = s ? strlen(s) : 0;
	int col = 0;

	while (i < n) {
		int cw;
		size_t len = char_at(s + i, n - i, utf8, &cw);
		if (col + cw > w)
			break;
		col += cw;
		i += len;
	}
	if (bytes)
		*bytes = i;
	return col;
}

int ui_text_width(const char *s, bool utf8)
{
	return ui_text_fit(s, 1 << 30, utf8, NULL);
}

/* Bytes of the shortest tail of s (len bytes) that is at most w columns wide, whole
 * characters only; its width in *used. */
static size_t tail_fit(const char *s, size_t len, int w, bool utf8, int *used)
{
	size_t starts[UI_LINE * 4], ns = 0, i = 0;
	int widths[UI_LINE * 4], total = 0;

	/* character starts, from the left (UTF-8 cannot safely be walked back over bad bytes) */
	while (i < len && ns < sizeof starts / sizeof starts[0]) {
		int cw;
		starts[ns] = i;
		i += char_at(s + i, len - i, utf8, &cw);
		widths[ns++] = cw;
	}
	*used = 0;
	if (i < len)
		return 0; /* longer than any screen: the head alone then */
	i = ns;
	while (i > 0 && total + widths[i - 1] <= w) {
		total += widths[i - 1];
		i--;
	}
	*used = total;
	return i < ns ? len - starts[i] : 0;
}

char *ui_text_cut(const char *s, int w, bool utf8, char *buf, size_t n)
{
	size_t hb, tb, len;
	int hw, tw;

	if (!s)
		s = "";
	len = strlen(s);
	if (w <= 0 || n == 0) {
		if (n)
			buf[0] = '\0';
		return buf;
	}
	if (ui_text_width(s, utf8) <= w) {
		snprintf(buf, n, "%s", s);
		return buf;
	}
	/* w - 1 columns around the mark: the tail gets half, the head the rest */
	tb = tail_fit(s, len, (w - 1) / 2, utf8, &tw);
	hw = ui_text_fit(s, w - 1 - tw, utf8, &hb);
	(void)hw;
	if (hb + 1 + tb >= n) {
		snprintf(buf, n, "%s", "~");
		return buf;
	}
	memcpy(buf, s, hb);
	buf[hb] = '~';
	memcpy(buf + hb + 1, s + len - tb, tb);
	buf[hb + 1 + tb] = '\0';
	return buf;
}
