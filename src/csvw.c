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

int csvw_num(FILE *out, double v)
{
	char buf[40];

	if (isfinite(v))
		fputs(fmt_roundtrip(v, 6, buf, sizeof buf), out);
	return ferror(out) ? -1 : 0;
}
