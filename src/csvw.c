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

/* --raw, process-wide: set once by the command line before anything is written */
static bool raw_cells;

void csvw_set_raw(bool raw)
{
	raw_cells = raw;
}

static bool formula_start(char c)
{
	return c && strchr("=+-@\t\r", c) != NULL;
}

/* Whether s[0..len) is a plain decimal number: [+-]digits[.digits][e[+-]digits], or the same
 * with digits only after the point. */
static bool plain_number(const char *s, size_t len)
{
	size_t i = 0, d = 0;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		d++;
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			d++;
	if (d == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = 0;
		if (++i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			e++;
		if (e == 0)
			return false;
	}
	return i == len;
}

/* The guard rule on s[0..len), --raw aside: shared by the writer and csvw_unguard. */
static bool guarded(const char *s, size_t len)
{
	size_t q = 0;

	while (q < len && s[q] == '\'')
		q++;
	if (q == len || !formula_start(s[q]))
		return false;
	return q > 0 || !plain_number(s, len);
}

bool csvw_needs_guard(const char *s)
{
	return s && !raw_cells && guarded(s, strlen(s));
}

const char *csvw_unguard(const char *s, size_t *len)
{
	/* a ' put by the writer: one or more ' and then a formula character */
	if (*len > 1 && s[0] == '\'' && guarded(s + 1, *len - 1)) {
		(*len)--;
		return s + 1;
	}
	return s;
}

int csvw_field(FILE *out, const char *s)
{
	bool guard;

	if (!s)
		s = "";
	guard = csvw_needs_guard(s);
	if (!csvw_needs_quotes(s)) {
		if (guard)
			putc('\'', out);
		fputs(s, out);
	} else {
		putc('"', out);
		if (guard) /* inside the quotes: the cell's text is what starts with it */
			putc('\'', out);
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
