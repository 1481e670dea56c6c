/* csvr.c: the one CSV reader (see csvr.h). One physical line at a time, because libcsv says
 * nothing of lines: a line fed whole lets a message name the line and the byte where a field
 * starts, and a record that began earlier (a quoted newline) is known by libcsv's state. */
#include "csvr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next field's buffer with room for len bytes and a NUL (r->nf not yet counted), or NULL
 * when out of memory (then fatal, with err). */
static struct csvr_field *field_next(struct csvr *r, size_t len)
{
	if (r->nf == r->fcap) {
		size_t cap = r->fcap ? r->fcap * 2 : 32;
		struct csvr_field *f = realloc(r->f, cap * sizeof *f);
		if (!f)
			goto oom;
		memset(f + r->fcap, 0, (cap - r->fcap) * sizeof *f);
		r->f = f;
		r->fcap = cap;
	}
	struct csvr_field *f = &r->f[r->nf];
	if (len + 1 > f->cap) {
		char *p = realloc(f->s, len + 1);
		if (!p)
			goto oom;
		f->s = p;
		f->cap = len + 1;
	}
	return f;
oom:
	err_oom(r->err, r->name, r->line);
	r->fatal = 1;
	return NULL;
}

static void on_field(void *s, size_t len, void *data)
{
	struct csvr *r = data;
	struct csvr_field *f;

	if (r->fatal || !(f = field_next(r, len)))
		return;
	if (len)
		memcpy(f->s, s, len);
	f->s[len] = '\0';
	f->len = len;
	r->nf++;
}

static void on_record(int c, void *data)
{
	struct csvr *r = data;

	(void)c;
	if (!r->fatal && r->nf > 0 && r->on_row(r, r->ctx) < 0)
		r->fatal = 1;
	r->nf = 0;
	r->raw_cont = false;
}

int csvr_init(struct csvr *r, const char *name, struct gs_err *err, csvr_row_fn on_row, void *ctx)
{
	memset(r, 0, sizeof *r);
	r->name = name;
	r->err = err;
	r->on_row = on_row;
	r->ctx = ctx;
	r->line = 1;
	if (csv_init(&r->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		err_oom(err, name, 0);
		return -1;
	}
	return 0;
}

/* Takes one physical line s[0..n), its '\n' included when nl. 0, or -1 with err. */
static int line_take(struct csvr *r, const char *s, size_t n, bool nl)
{
	r->raw = s;
	r->raw_len = n;
	if (r->p.pstate == 0) /* libcsv's ROW_NOT_BEGUN: a record starts on this line */
		r->rec_line = r->line;
	/* libcsv grows a field's buffer by its block size (128 bytes): 81,921 reallocs for a
	 * 10 MiB field. A block as large as the line, or as the buffer already is, makes one
	 * line cost one growth and a field spanning lines grow geometrically. */
	size_t blk = n > r->p.entry_size ? n : r->p.entry_size;
	csv_set_blk_size(&r->p, blk > 128 ? blk : 128);
	size_t done = csv_parse(&r->p, s, n, on_field, on_record, r);
	if (done != n && !r->fatal) {
		/* a record that began on an earlier line most likely has a quote left open there */
		char began[96] = "";
		if (r->rec_line && r->rec_line < r->line)
			snprintf(began, sizeof began, "; this record began on line %ld, where a quote may be left open",
				 r->rec_line);
		err_set(r->err, r->name, r->line, (long)done + 1,
			"malformed CSV (%s): a quote inside an unquoted field, or text after a closing quote%s",
			csv_strerror(csv_error(&r->p)), began);
		r->fatal = 1;
		return -1;
	}
	/* a record still open at the end of the line spans lines (quoted newline) */
	if (nl && r->p.pstate != 0)
		r->raw_cont = true;
	if (nl)
		r->line++;
	return r->fatal ? -1 : 0;
}

long long csvr_feed(struct csvr *r, const char *buf, size_t len, bool last)
{
	const char *b = buf, *end = buf + len, *nl;

	if (!r->bom_checked) {
		if (len < 3 && !last)
			return 0; /* too little yet to tell a byte-order mark */
		r->bom_checked = true;
		if (len >= 3 && memcmp(b, "\xef\xbb\xbf", 3) == 0)
			b += 3;
	}
	while (b < end && (nl = memchr(b, '\n', (size_t)(end - b)))) {
		if (line_take(r, b, (size_t)(nl - b) + 1, true) < 0)
			return -1;
		b = nl + 1;
	}
	if (last && b < end) {
		if (line_take(r, b, (size_t)(end - b), false) < 0)
			return -1;
		b = end;
	}
	return (long long)(b - buf);
}

int csvr_finish(struct csvr *r)
{
	if (r->fatal)
		return -1;
	if (csv_fini(&r->p, on_field, on_record, r) != 0) {
		err_set(r->err, r->name, r->rec_line ? r->rec_line : r->line, 0,
			"unterminated quoted field (a quote opened here is never closed)");
		return -1;
	}
	return r->fatal ? -1 : 0;
}

int csvr_parse(struct csvr *r, const char *buf, size_t len)
{
	if (csvr_feed(r, buf, len, true) < 0)
		return -1;
	return csvr_finish(r);
}

long csvr_col(const struct csvr *r, size_t idx)
{
	bool q = false;
	size_t f = 0;

	if (r->raw_cont || r->rec_line != r->line)
		return 0;
	if (idx == 0)
		return 1;
	for (size_t i = 0; i < r->raw_len; i++) {
		char c = r->raw[i];
		if (c == '"')
			q = !q;
		else if (c == ',' && !q && ++f == idx)
			return (long)i + 2;
	}
	return 0;
}

void csvr_free(struct csvr *r)
{
	for (size_t i = 0; i < r->fcap; i++)
		free(r->f[i].s);
	free(r->f);
	csv_free(&r->p);
	memset(r, 0, sizeof *r);
}
