/* csvw.c: the one CSV field writer. A field is quoted only when it must be, so the usual
 * file reads as plain comma-separated text, and CR counts: a lone CR ends a line for many
 * readers. */
#include "csvw.h"

#include <math.h>
#include <string.h>

#include "fmt.h"

bool csvw_needs_quotes(const char *s)
{
	return s && s[strcspn(s, ",\"\r\n")] != '\0';
}

int csvw_field(FILE *out, const char *s)
{
	if (!s)
		s = "";
	if (!csvw_needs_quotes(s))
		fputs(s, out);
	else {
		putc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				putc('"', out);
			putc(*s, out);
		}
		putc('"', out);
	}
	return ferror(out) ? -1 : 0;
}

size_t csvw_quote(const char *s, char *buf, size_t n)
{
	size_t len = 0;
	bool q = csvw_needs_quotes(s);

#define PUT(c) do { if (len + 1 < n) buf[len] = (c); len++; } while (0)
	if (!s)
		s = "";
	if (q)
		PUT('"');
	for (; *s; s++) {
		if (*s == '"')
			PUT('"');
		PUT(*s);
	}
	if (q)
		PUT('"');
#undef PUT
	if (n > 0)
		buf[len < n ? len : n - 1] = '\0';
	return len;
}

int csvw_num(FILE *out, double v)
{
	char buf[40];

	if (isfinite(v))
		fputs(fmt_roundtrip(v, 6, buf, sizeof buf), out);
	return ferror(out) ? -1 : 0;
}
