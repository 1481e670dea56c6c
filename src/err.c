/* err.c: error records and warning lists, their text passed through the one sanitizer. */
#include "err.h"
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void locate(char *buf, size_t n, const char *file, long line, long col)
{
	buf[0] = '\0';
	if (!file || !*file)
		return;
	if (line > 0 && col > 0)
		snprintf(buf, n, "%s:%ld:%ld: ", file, line, col);
	else if (line > 0)
		snprintf(buf, n, "%s:%ld: ", file, line);
	else
		snprintf(buf, n, "%s: ", file);
}

void err_set(struct gs_err *e, const char *file, long line, long col, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	e->kind = GS_ERR_INPUT;
	snprintf(e->file, sizeof e->file, "%s", file ? file : "");
	e->line = line;
	e->col = col;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	/* messages quote file names and data: nothing of theirs may drive the terminal */
	utf8_sanitize(e->file, strlen(e->file));
	utf8_sanitize(e->msg, strlen(e->msg));
}

char *err_format(const struct gs_err *e, char *buf, size_t n)
{
	char where[600];

	if (n == 0)
		return buf;
	locate(where, sizeof where, e->file, e->line, e->col);
	snprintf(buf, n, "%s%s", where, e->msg);
	return buf;
}

void warn_add(struct gs_warn *w, const char *file, long line, long col, const char *fmt, ...)
{
	char where[600], text[1024], *s;
	char **items;
	va_list ap;
	size_t len;

	if (!w)
		return;
	w->total++;
	if (w->n >= WARN_KEEP)
		return;
	locate(where, sizeof where, file, line, col);
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	len = strlen(where) + strlen(text) + 1;
	s = malloc(len);
	items = realloc(w->items, (w->n + 1) * sizeof *items);
	if (!s || !items) {
		free(s);
		if (items)
			w->items = items;
		return;
	}
	snprintf(s, len, "%s%s", where, text);
	utf8_sanitize(s, len - 1);
	w->items = items;
	w->items[w->n++] = s;
}

void warn_move(struct gs_warn *to, struct gs_warn *from)
{
	for (size_t i = 0; i < from->n; i++) {
		/* one at a time, as warn_add: over the limit, or without room, a text is dropped */
		char **items = to->n < WARN_KEEP ? realloc(to->items, (to->n + 1) * sizeof *items) : NULL;
		if (items) {
			to->items = items;
			to->items[to->n++] = from->items[i];
		} else {
			free(from->items[i]);
		}
	}
	to->total += from->total;
	free(from->items);
	memset(from, 0, sizeof *from);
}

void warn_free(struct gs_warn *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->items[i]);
	free(w->items);
	memset(w, 0, sizeof *w);
}

void err_oom(struct gs_err *e, const char *file, long line)
{
	err_set(e, file, line, 0, "out of memory");
	if (e)
		e->kind = GS_ERR_OOM;
}
