/* utf8.c: the strict UTF-8 check shared by the MLLOG validator, the importer and the loader,
 * and the cleaning of text on its way to a terminal or a CSV. */
#include "utf8.h"

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

void utf8_sanitize(char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		const unsigned char *c = (const unsigned char *)s + i;
		size_t len = 1;
		if (*c < 0x20 || *c == 0x7f)
			len = 0;
		else if (*c >= 0x80 && ((len = utf8_seq_len(c, n - i)) == 0 || utf8_is_c1(c, len)))
			len = 0;
		if (len == 0) { /* one '?' per bad byte */
			s[i++] = '?';
			continue;
		}
		i += len;
	}
}
