/* test_csvr.c: the one CSV reader: records to the row callback with their line and columns,
 * a byte-order mark skipped, quoted newlines, malformed text located, a stop from the
 * callback, and input fed in pieces giving the same records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_lines_columns),
		cmocka_unit_test(test_malformed_located),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
