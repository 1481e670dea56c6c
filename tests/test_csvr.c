/* test_csvr.c: the one CSV reader: records to the row callback with their line and columns,
 * a byte-order mark skipped, quoted newlines, malformed text located, a stop from the
 * callback, and input fed in pieces giving the same records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "csvr.h"

struct seen {
	char text[1024];   /* "line:field|field;" per record */
	int stop_at;       /* record number whose callback fails (0: none) */
	int n;
	long col2;         /* column of field 2 of the last one-line record */
};

static int row(struct csvr *r, void *ctx)
{
	struct seen *s = ctx;
	size_t at = strlen(s->text);

	if (++s->n == s->stop_at) {
		err_set(r->err, r->name, r->rec_line, 0, "stopped");
		return -1;
	}
	at += (size_t)snprintf(s->text + at, sizeof s->text - at, "%ld:", r->rec_line);
	for (size_t i = 0; i < r->nf; i++)
		at += (size_t)snprintf(s->text + at, sizeof s->text - at, "%s%s", i ? "|" : "", r->f[i].s);
	snprintf(s->text + at, sizeof s->text - at, ";");
	if (r->nf > 2)
		s->col2 = csvr_col(r, 2);
	return 0;
}

static int parse(const char *buf, struct seen *s, struct gs_err *err)
{
	struct csvr r;
	int rc;

	assert_int_equal(csvr_init(&r, "t.csv", err, row, s), 0);
	rc = csvr_parse(&r, buf, strlen(buf));
	csvr_free(&r);
	return rc;
}

static void test_records_lines_columns(void **state)
{
	struct seen s = { 0 };
	struct gs_err err = { 0 };
	(void)state;

	assert_int_equal(parse("\xef\xbb\xbf" "a,b,c\n\"x\ny\",2,3\n\nq,\"r,s\",t", &s, &err), 0);
	assert_string_equal(s.text, "1:a|b|c;2:x\ny|2|3;5:q|r,s|t;");
	assert_int_equal(s.col2, 9); /* t in q,"r,s",t */
}

static void test_malformed_located(void **state)
{
	struct seen s = { 0 };
	struct gs_err err = { 0 };
	(void)state;

	assert_int_equal(parse("a,b\nc,d\"e\n", &s, &err), -1);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 4);
	assert_non_null(strstr(err.msg, "malformed CSV"));
	memset(&s, 0, sizeof s);
	assert_int_equal(parse("a,b\n\"open,x\n", &s, &err), -1);
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.msg, "unterminated quoted field"));
}

static void test_callback_stops(void **state)
{
	struct seen s = { .stop_at = 2 };
	struct gs_err err = { 0 };
	(void)state;

	assert_int_equal(parse("a\nb\nc\n", &s, &err), -1);
	assert_string_equal(err.msg, "stopped");
	assert_int_equal(err.line, 2);
	assert_int_equal(s.n, 2);
}

/* Fed a byte at a time (each call taking only whole lines), the same records. */
static void test_pieces(void **state)
{
	const char *in = "\xef\xbb\xbf" "a,\"b\nb\",c\r\nd,e,f\n";
	struct seen whole = { 0 }, bits = { 0 };
	struct gs_err err = { 0 };
	struct csvr r;
	char buf[64];
	size_t have = 0;
	(void)state;

	assert_int_equal(parse(in, &whole, &err), 0);
	assert_int_equal(csvr_init(&r, "t.csv", &err, row, &bits), 0);
	for (size_t i = 0; in[i]; i++) {
		buf[have++] = in[i];
		long long used = csvr_feed(&r, buf, have, false);
		assert_true(used >= 0);
		memmove(buf, buf + used, have - (size_t)used);
		have -= (size_t)used;
	}
	assert_true(csvr_feed(&r, buf, have, true) >= 0);
	assert_int_equal(csvr_finish(&r), 0);
	csvr_free(&r);
	assert_string_equal(bits.text, whole.text);
	assert_string_equal(whole.text, "1:a|b\nb|c;3:d|e|f;"); /* CRLF ends a record too */
}

/* Every record as bytes: its line, then each field's length, bytes and column. */
struct trace {
	char buf[8192];
	size_t n;
};

static void trace_put(struct trace *t, const void *p, size_t n)
{
	if (t->n + n > sizeof t->buf)
		n = sizeof t->buf - t->n;
	memcpy(t->buf + t->n, p, n);
	t->n += n;
}

static int trace_row(struct csvr *r, void *ctx)
{
	struct trace *t = ctx;

	trace_put(t, &r->rec_line, sizeof r->rec_line);
	for (size_t i = 0; i < r->nf; i++) {
		long col = csvr_col(r, i);
		trace_put(t, &r->f[i].len, sizeof r->f[i].len);
		trace_put(t, r->f[i].s, r->f[i].len + 1); /* with its terminating NUL */
		trace_put(t, &col, sizeof col);
	}
	trace_put(t, "|", 1);
	return 0;
}

/* in[0..len) read with or without the split of plain lines: the records and the result. */
static int trace_parse(const char *in, size_t len, bool plain_off, struct trace *t, struct gs_err *err)
{
	struct csvr r;
	int rc;

	memset(t, 0, sizeof *t);
	memset(err, 0, sizeof *err);
	assert_int_equal(csvr_init(&r, "t.csv", err, trace_row, t), 0);
	r.plain_off = plain_off;
	rc = csvr_parse(&r, in, len);
	csvr_free(&r);
	return rc;
}

/* Lines without quotes are split without libcsv: random text of commas, quotes, blanks, CR,
 * LF, NUL and UTF-8 gives the same records, lines, columns and errors as libcsv alone. */
static void test_plain_lines_match_libcsv(void **state)
{
	static const char *const bits[] = {
		"a", "bc", ",", ",", " ", "\t", "\n", "\n", "\r\n", "\r", "\"", "\"\"", "\xc3\xa1", "1.5", "",
	};
	static struct trace a, b;
	struct gs_err ea, eb;
	uint64_t x = 0x2545f4914f6cdd1dull;
	char in[160];
	(void)state;

	for (int k = 0; k < 200000; k++) {
		size_t n = 0;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		unsigned parts = (unsigned)(x % 40);
		bool quotes = x % 3 == 0; /* two thirds of the inputs have no quote at all */
		for (unsigned i = 0; i < parts; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			size_t pick = (x >> 5) % (sizeof bits / sizeof bits[0]);
			const char *p = bits[pick];
			size_t l = pick == 14 ? 1 : strlen(p); /* the last is a NUL byte */
			if (!quotes && *p == '"')
				continue;
			if (n + l > sizeof in)
				break;
			memcpy(in + n, p, l);
			n += l;
		}
		int ra = trace_parse(in, n, false, &a, &ea), rb = trace_parse(in, n, true, &b, &eb);
		assert_int_equal(ra, rb);
		assert_int_equal(a.n, b.n);
		assert_memory_equal(a.buf, b.buf, a.n);
		assert_int_equal(ea.line, eb.line);
		assert_int_equal(ea.col, eb.col);
		assert_string_equal(ea.msg, eb.msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_lines_columns),
		cmocka_unit_test(test_malformed_located),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_plain_lines_match_libcsv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
