/* test_mllog.c: the strict JSON validator (against Python's json.loads verdicts and jansson)
 * and the MLLOG scanner (prefixes, CRLF, first events, failures, line and column). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "mllog.h"

struct jcase {
	const char *text;
	int valid;   /* what Python's json.loads says */
	int strict;  /* 1: plain RFC 8259 question, so jansson must agree */
};

static const struct jcase cases[] = {
	{"{}", 1, 1}, {" {} ", 1, 1}, {"{}\r", 1, 1}, {"\t[\n]\t", 1, 1}, {"[]", 1, 1},
	{"true", 1, 1}, {"false", 1, 1}, {"null", 1, 1}, {"0", 1, 1}, {"-0", 1, 1},
	{"1.5e-3", 1, 1}, {"1E+5", 1, 1}, {"\"a\\u00e9\\n\\\"\\/\"", 1, 1},
	{"{\"a\": [1, {\"b\": null}], \"c\": \"\xc3\xa9\"}", 1, 1},
	{"NaN", 1, 0}, {"Infinity", 1, 0}, {"-Infinity", 1, 0}, {"[NaN, -Infinity]", 1, 0},
	{"{\"a\": 1,}", 0, 1}, {"[1,]", 0, 1}, {"[1 2]", 0, 1}, {"{1: 2}", 0, 1},
	{"{\"a\" 1}", 0, 1}, {"01", 0, 1}, {"1.", 0, 1}, {".5", 0, 1}, {"1e", 0, 1},
	{"+1", 0, 1}, {"-", 0, 1}, {"--1", 0, 1}, {"0x1", 0, 1}, {"tru", 0, 1}, {"nul", 0, 1},
	{"", 0, 1}, {" ", 0, 1}, {"{} x", 0, 1}, {"{}{}", 0, 1}, {"\"\\x\"", 0, 1},
	{"\"\\u12\"", 0, 1}, {"\"a\tb\"", 0, 1}, {"\"\x1f\"", 0, 1}, {"\"abc", 0, 1},
	{"\"\xc3\"", 0, 1}, {"\"\xed\xa0\x80\"", 0, 1}, {"\"\xe0\x80\xaf\"", 0, 1},
	{"\"\xf4\x90\x80\x80\"", 0, 1}, {"\"\xff\"", 0, 1}, {"\xef\xbb\xbf{}", 0, 1},
	{"-NaN", 0, 0}, {"nan", 0, 0}, {"infinity", 0, 0}, {"[-Inf]", 0, 0},
	{"{\"value\": nullLambdaorkspace/x.py\", \"lineno\": 207}}", 0, 1},
};

static void test_validator_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct jcase *c = &cases[i];
		int got = mllog_json_valid(c->text, strlen(c->text));
		if (got != c->valid)
			fail_msg("case %zu '%s': got %d, want %d", i, c->text, got, c->valid);
		if (c->strict) {
			json_error_t je;
			json_t *j = json_loadb(c->text, strlen(c->text), JSON_DECODE_ANY, &je);
			if ((j != NULL) != c->valid)
				fail_msg("case %zu '%s': jansson says %d", i, c->text, j != NULL);
			json_decref(j);
		}
	}
}

static void test_validator_length_and_depth(void **state)
{
	char deep[3000];
	(void)state;
	/* length bounds the text: the NUL and what follows it are not read */
	assert_int_equal(mllog_json_valid("{}garbage", 2), 1);
	assert_int_equal(mllog_json_valid("\"a\0b\"", 5), 0);
	memset(deep, '[', 1000);
	memset(deep + 1000, ']', 1000);
	assert_int_equal(mllog_json_valid(deep, 2000), 0); /* deeper than Python allows */
	assert_int_equal(mllog_json_valid(deep + 900, 200), 1);
}

/* Valid when every byte is accepted: the verdict for a string body around position k. */
static int str_valid(const char *body)
{
	char buf[512];
	int n = snprintf(buf, sizeof buf, "\"%s\"", body);
	return mllog_json_valid(buf, (size_t)n);
}

/* What stops the wide string scan ('"', '\\', control characters, non-ASCII) at every offset
 * around the 8- and 16-byte steps, and at the very end of the text. */
static void test_validator_string_boundaries(void **state)
{
	static const struct {
		const char *ins;
		int valid;
	} ins[] = {
		{"\\\"", 1}, {"\\\\", 1}, {"\\/", 1}, {"\\n", 1}, {"\\u00e9", 1}, {"\\uD83D\\uDE00", 1},
		{"\xc3\xa9", 1}, {"\xe2\x82\xac", 1}, {"\xf0\x9f\x98\x80", 1}, {"\x7f", 1}, {" ", 1},
		{"\\x", 0}, {"\\u12g4", 0}, {"\\", 0}, {"\\u00", 0}, {"\x1f", 0}, {"\t", 0}, {"\n", 0}, {"\r", 0},
		{"\x80", 0}, {"\xc3", 0}, {"\xc0\xaf", 0}, {"\xed\xa0\x80", 0}, {"\xf4\x90\x80\x80", 0},
		{"\xe2\x82", 0}, {"\xff", 0}, {"\"", 0},
	};
	char body[256], text[300];
	(void)state;

	for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++) {
		for (size_t k = 0; k <= 40; k++) {
			memset(body, 'a', k);
			snprintf(body + k, sizeof body - k, "%s%s", ins[i].ins, "zyxwvutsrqponmlkjihgfedcba");
			if (str_valid(body) != ins[i].valid)
				fail_msg("insert %zu at %zu: got %d", i, k, !ins[i].valid);
			/* the same at the end of the text, where the scan has fewer than 16 bytes */
			int n = snprintf(text, sizeof text, "\"%.*s%s\"", (int)k, body, ins[i].ins);
			if (mllog_json_valid(text, (size_t)n) != ins[i].valid)
				fail_msg("insert %zu at the end after %zu bytes", i, k);
			/* the closing quote is missing: never valid (but the insert '"' closes it) */
			if (strcmp(ins[i].ins, "\"") != 0 && mllog_json_valid(text, (size_t)n - 1))
				fail_msg("unterminated %zu after %zu bytes is valid", i, k);
			/* jansson, strict and UTF-8 checking, agrees on every one of these */
			json_error_t je;
			json_t *jv = json_loadb(text, (size_t)n, JSON_DECODE_ANY, &je);
			if ((jv != NULL) != ins[i].valid)
				fail_msg("insert %zu after %zu bytes: jansson says %d", i, k, jv != NULL);
			json_decref(jv);
			/* the same string in a logged line, which the line's scanner reads without
			 * bounds checks up to its newline; the line's text is cut short after the
			 * insert, so the scan has fewer than 16 bytes left at every k near the end */
			for (int cut = 0; cut < 2; cut++) {
				char log[400];
				struct mllog_scan sc;
				int m = snprintf(log, sizeof log, ":::MLLOG {\"key\": \"%.*s%s%s\"}\n", (int)k,
						 body, ins[i].ins, cut ? "" : "zyxwvutsrqponmlkjihgfedcba");
				mllog_scan(log, (size_t)m, &sc);
				if ((sc.bad_line == 0) != ins[i].valid)
					fail_msg("insert %zu at %zu in a line (cut %d): got %d", i, k, cut,
						 sc.bad_line == 0);
				/* an invalid insert stops the line at the insert or inside it */
				if (!ins[i].valid && strcmp(ins[i].ins, "\"") != 0 &&
				    (sc.bad_col < 19 + (long)k || sc.bad_col > 19 + (long)k + 4))
					fail_msg("insert %zu at %zu in a line: column %ld", i, k, sc.bad_col);
			}
		}
	}
}

static void test_validator_long_and_numbers(void **state)
{
	size_t n = 200000;
	char *big = malloc(n + 16);
	static const struct jcase nums[] = {
		{"12345678901234567890123456789", 1, 1}, {"-1234567890123456.12345678901234567e+123456", 1, 1},
		{"1234567890123456a", 0, 1}, {"[1234567890123456,1]", 1, 1}, {"0.0000000000000000", 1, 1},
		{"1234567890123456.", 0, 1}, {"1e1234567890123456789", 1, 0}, {"1e+", 0, 1}, {"-", 0, 1},
		{"[-Infinity, NaN, Infinity]", 1, 0}, {"[-Infinit", 0, 0}, {"[NaN", 0, 0}, {"Na", 0, 0},
		{"-Infinityx", 0, 0}, {"[1,2", 0, 1}, {"{\"a\":1", 0, 1}, {"{\"a\"", 0, 1}, {"[", 0, 1},
		{"00", 0, 1}, {"-01", 0, 1}, {"1.5E3", 1, 1}, {"\"\"", 1, 1}, {"{\"\":\"\"}", 1, 1},
	};
	(void)state;

	assert_non_null(big);
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
		if (mllog_json_valid(nums[i].text, strlen(nums[i].text)) != nums[i].valid)
			fail_msg("'%s': want %d", nums[i].text, nums[i].valid);
	/* a 200 kB string, valid; then with one bad byte near its end */
	big[0] = '"';
	memset(big + 1, 'x', n - 2);
	big[n - 1] = '"';
	assert_int_equal(mllog_json_valid(big, n), 1);
	big[n - 7] = '\x01';
	assert_int_equal(mllog_json_valid(big, n), 0);
	big[n - 7] = '\\';
	assert_int_equal(mllog_json_valid(big, n), 0); /* \x */
	big[n - 6] = 'u';
	assert_int_equal(mllog_json_valid(big, n), 0); /* \uxxxx: 'x' is no hex digit */
	memcpy(big + n - 5, "00e9", 4);
	assert_int_equal(mllog_json_valid(big, n), 1);
	free(big);
}

static void test_validator_depth_limit(void **state)
{
	char deep[2 * 1100 + 1];
	(void)state;

	/* 990 levels pass (Python's json, the official checker's parser, takes about 995) and
	 * 991 do not, in arrays, objects and a mix; 600 (refused once) passes */
	for (int lvl = 988; lvl <= 992; lvl++) {
		size_t k = 0;
		for (int i = 0; i < lvl; i++)
			deep[k++] = '[';
		for (int i = 0; i < lvl; i++)
			deep[k++] = ']';
		assert_int_equal(mllog_json_valid(deep, k), lvl <= 990);
	}
	for (int i = 0; i < 600; i++)
		deep[i] = '[', deep[600 + i] = ']';
	assert_int_equal(mllog_json_valid(deep, 1200), 1);
	{
		char obj[1100 * 8];
		size_t k = 0;
		for (int i = 0; i < 991; i++) {
			memcpy(obj + k, i % 2 ? "[" : "{\"a\":", i % 2 ? 1 : 5);
			k += i % 2 ? 1 : 5;
		}
		obj[k++] = '1';
		for (int i = 990; i >= 0; i--)
			obj[k++] = i % 2 ? ']' : '}';
		assert_int_equal(mllog_json_valid(obj, k), 0);
		/* without the outermost object: 990 levels */
		assert_int_equal(mllog_json_valid(obj + 5, k - 6), 1);
	}
}

#define EV(t, key, extra) ":::MLLOG {\"namespace\": \"\", \"time_ms\": " #t \
	", \"event_type\": \"POINT_IN_TIME\", \"key\": \"" key "\", \"value\": null, " \
	"\"metadata\": {\"file\": \"x.py\"" extra "}}"
#define OK_STOP ", \"status\": \"success\""

static void test_scan_plain_and_prefixes(void **state)
{
	static const char *const logs[] = {
		EV(1000, "init_start", "") "\n" EV(60000, "run_start", "") "\n"
		EV(180000, "run_stop", OK_STOP) "\n",
		"0: " EV(1000, "init_start", "") "\n0: " EV(60000, "run_start", "") "\n0: "
		EV(180000, "run_stop", OK_STOP) "\n",
		"   0: " EV(60000, "run_start", "") "\n  56: " EV(180000, "run_stop", OK_STOP),
		" 0: " EV(60000, "run_start", "") "\r\n 0: " EV(180000, "run_stop", OK_STOP) "\r\n",
		"text\n" EV(60000, "run_start", "") "\n" EV(120000, "run_start", "") "\n"
		EV(180000, "run_stop", OK_STOP) "\n" EV(240000, "run_stop", ", \"status\": \"aborted\"") "\n",
		EV(60000, "run\\u005fstart", "") "\n" EV(180000, "run_stop", ", \"status\": \"succ\\u0065ss\"") "\n",
	};
	(void)state;
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		struct mllog_scan s;
		double min = 0;
		char why[128] = "";
		long line, col;
		mllog_scan(logs[i], strlen(logs[i]), &s);
		if (mllog_verdict(&s, 30, &min, why, sizeof why, &line, &col) != 0)
			fail_msg("log %zu: %s", i, why);
		assert_float_equal(min, 2.0, 1e-12);
	}
}

static long verdict_col;

/* mllog_verdict of a whole log; its column goes to verdict_col. */
static int verdict_of(const char *log, char *why, size_t n, long *line)
{
	struct mllog_scan s;
	double min;

	mllog_scan(log, strlen(log), &s);
	return mllog_verdict(&s, 30, &min, why, n, line, &verdict_col);
}

/* 1-based column of the first `what` on line `line` of log, 0 when not there. */
static long col_of(const char *log, long line, const char *what)
{
	const char *p;

	while (--line > 0 && (log = strchr(log, '\n')))
		log++;
	if (!log || !(p = strstr(log, what)))
		return 0;
	return memchr(log, '\n', (size_t)(p - log)) ? 0 : (long)(p - log) + 1;
}

/* Every failure that points into the log says where: line and byte column, as the CSV
 * loader's messages do; a failure of the whole log (no event) has neither. */
static void test_scan_failures(void **state)
{
	char why[128];
	long line;
	const char *log;
	(void)state;

	assert_int_equal(verdict_of(EV(1, "run_stop", OK_STOP) "\n", why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "no run_start"));
	assert_int_equal(line, 0);
	assert_int_equal(verdict_col, 0);
	assert_int_equal(verdict_of(EV(1, "run_start", "") "\n", why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "no run_stop"));
	log = EV(1, "run_start", "") "\n" EV(2, "run_stop", ", \"status\": \"aborted\"") "\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "aborted"));
	assert_int_equal(line, 2);
	assert_int_equal(verdict_col, col_of(log, 2, "\"aborted\""));
	/* a NUL inside the status is another string than "success", as the checker reads it;
	 * so is one inside a key or an eval metric */
	log = EV(1, "run_start", "") "\n" EV(2, "run_stop", ", \"status\": \"success\\u0000 not really\"") "\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "success\\u0000 not really"));
	assert_int_equal(line, 2);
	log = EV(1, "run_start", "") "\n" EV(2, "run_stop", ", \"status\": \"success\\u0000\"") "\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	/* no status: at the run_stop payload */
	log = EV(1, "run_start", "") "\n  " EV(2, "run_stop", "") "\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "no metadata.status"));
	assert_int_equal(line, 2);
	assert_int_equal(verdict_col, 12); /* after "  :::MLLOG " */
	assert_int_equal(verdict_of("", why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "no MLLOG"));
	assert_int_equal(verdict_of("just text\nno events\n", why, sizeof why, &line), -1);
	/* a time_ms that is not a number: at its value */
	log = ":::MLLOG {\"key\": \"run_start\", \"time_ms\": \"5\"}\n" EV(2, "run_stop", OK_STOP);
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "time_ms"));
	assert_int_equal(line, 1);
	assert_int_equal(verdict_col, col_of(log, 1, "\"5\""));
	/* NaN, Infinity and -Infinity are valid JSON but no finite time */
	log = ":::MLLOG {\"key\": \"run_start\", \"time_ms\": -Infinity}\n" EV(2, "run_stop", OK_STOP);
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "run_start has no numeric time_ms"));
	assert_int_equal(verdict_col, col_of(log, 1, "-Infinity"));
	log = EV(1, "run_start", "") "\n" ":::MLLOG {\"key\": \"run_stop\", \"time_ms\": NaN}\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "run_stop has no numeric time_ms"));
	assert_int_equal(line, 2);
	assert_int_equal(verdict_col, col_of(log, 2, "NaN"));
	/* no time_ms at all: at the payload */
	log = EV(1, "run_start", "") "\n" "0: :::MLLOG {\"key\": \"run_stop\", \"time_ms\": {}}\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_int_equal(verdict_col, col_of(log, 2, "{}"));
	log = EV(1, "run_start", "") "\n" "0: :::MLLOG {\"key\": \"run_stop\"}\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_int_equal(verdict_col, 13);
	/* run_stop before run_start: at run_stop's time_ms, or its payload when it comes first */
	log = EV(5, "run_start", "") "\n" EV(2, "run_stop", OK_STOP) "\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "before run_start"));
	assert_int_equal(line, 2);
	assert_int_equal(verdict_col, col_of(log, 2, "2, \"event_type"));
	log = EV(9, "run_stop", OK_STOP) "\n" EV(2, "run_start", "") "\n";
	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_int_equal(line, 1);
	assert_int_equal(verdict_col, 10);
}

/* Each time_ms is finite, but the run's length in minutes must be too: 1e308 - -1e308
 * overflows to infinity, and a difference of 1e-320 ms underflows to 0 minutes. Neither is
 * a time the importer can score or write. */
static void test_scan_duration_not_finite(void **state)
{
	const char *log = EV(-1e308, "run_start", "") "\n" EV(1e308, "run_stop", OK_STOP) "\n";
	char why[128];
	long line;
	(void)state;

	assert_int_equal(verdict_of(log, why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "not a finite positive number of minutes"));
	assert_int_equal(line, 2);
	assert_int_equal(verdict_col, col_of(log, 2, "1e308"));
	assert_int_equal(verdict_of(EV(0, "run_start", "") "\n" EV(1e-320, "run_stop", OK_STOP) "\n",
				    why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "not a finite positive number of minutes"));
	assert_int_equal(line, 2);
	/* huge but finite: a (silly) length, not an error of the scanner */
	assert_int_equal(verdict_of(EV(0, "run_start", "") "\n" EV(1e308, "run_stop", OK_STOP) "\n",
				    why, sizeof why, &line), 0);
}

static void test_scan_corrupt_line(void **state)
{
	const char *log = "header\n 0: " EV(60000, "run_start", "") "\n"
		" 0: :::MLLOG {\"key\": \"opt_name\", \"value\": \"adam\"Lambdaorkspace/x.py\"}\n"
		" 0: " EV(180000, "run_stop", OK_STOP) "\n";
	struct mllog_scan s;
	char why[128];
	double min;
	long line, col;
	(void)state;

	mllog_scan(log, strlen(log), &s);
	assert_int_equal(s.events, 3);
	assert_int_equal(s.bad_line, 3);
	assert_int_equal(s.bad_col, 49); /* the 'L' right after "adam" */
	assert_int_equal(s.start_line, 2);
	assert_int_equal(s.stop_line, 4);
	assert_int_equal(mllog_verdict(&s, 30, &min, why, sizeof why, &line, &col), -1);
	assert_int_equal(line, 3);
	assert_int_equal(col, 49);
	assert_non_null(strstr(why, "not valid JSON"));
}

static void test_scan_marker_needs_space(void **state)
{
	/* ":::MLLOG" without the space is not an event; the last line has no newline */
	const char *log = ":::MLLOGX {\n" EV(0, "run_start", "") "\n" EV(60000, "run_stop", OK_STOP);
	char why[128];
	long line;
	(void)state;
	assert_int_equal(verdict_of(log, why, sizeof why, &line), 0);
}

/* A payload ends at its newline: each failure is placed where json.loads would stop on the
 * line's text, whether or not a newline follows (the last line of a log may lack one). */
static void test_scan_line_ends(void **state)
{
	static const struct {
		const char *log;
		long line, col; /* first bad payload; 0 when all are valid */
	} lc[] = {
		{" 0: :::MLLOG {\"key\": \"ab\ncd\"}\n", 1, 25},
		{":::MLLOG {\"key\": \"ab", 1, 21},
		{":::MLLOG {\"key\": \"ab\\", 1, 21},
		{":::MLLOG {\"time_ms\": 12345678901234567890", 1, 42},
		{":::MLLOG {\"time_ms\": 1234567890123456789.\n", 1, 42},
		{":::MLLOG {} \t\r\n:::MLLOG [] \t\r", 0, 0},
		{":::MLLOG {} x\n", 1, 13},
		{":::MLLOG \n", 1, 10},
		{":::MLLOG ", 1, 10},
		{":::MLLOG {}\n\n\nx :::MLLOG {\"a\": [1, 2,]}\n", 4, 24},
		{":::MLLOG {\"a\": \"\xc3\"}\n", 1, 17},
		{":::MLLOG {\"a\": \"\xe2\x82", 1, 17},
		{":::MLLOG [NaN, -Infinity, Infinit", 1, 27},
		{":::MLLOG {\"a\": \"0123456789abcdef0123456789abcdef\"}", 0, 0},
	};
	(void)state;

	for (size_t i = 0; i < sizeof lc / sizeof lc[0]; i++) {
		struct mllog_scan s;
		mllog_scan(lc[i].log, strlen(lc[i].log), &s);
		if (s.bad_line != lc[i].line || s.bad_col != lc[i].col)
			fail_msg("case %zu: bad at %ld:%ld, want %ld:%ld", i, s.bad_line, s.bad_col,
				 lc[i].line, lc[i].col);
	}
}

/* A run_stop on the last line, without a newline, with strings longer than the wide scan. */
static void test_scan_last_line(void **state)
{
	const char *log = EV(60000, "run_start", ", \"x\": \"0123456789abcdef0123456789\"") "\n"
		":::MLLOG {\"key\": \"run_stop\", \"time_ms\": 180000, \"metadata\": {\"file\": "
		"\"/workspace/a/very/long/path/to/some/file.py\", \"status\": \"success\"}}";
	char why[128];
	long line;
	struct mllog_scan s;
	(void)state;

	assert_int_equal(verdict_of(log, why, sizeof why, &line), 0);
	mllog_scan(log, strlen(log), &s);
	assert_int_equal(s.stop_line, 2);
	assert_string_equal(s.status, "success");
	/* every cut of the last line leaves it invalid, and the first line still counts */
	const char *last = log, *q;
	while ((q = strstr(last + 1, ":::MLLOG ")))
		last = q;
	for (size_t cut = strlen(log) - 1; cut >= (size_t)(last - log) + 9; cut--) {
		mllog_scan(log, cut, &s);
		if (s.bad_line != 2 || s.start_line != 1)
			fail_msg("cut at %zu: bad line %ld, start line %ld", cut, s.bad_line, s.start_line);
	}
}

/* A marker after a prefix of every length around the first eight places (looked at in place)
 * and beyond, the prefix holding colons or not, and a marker cut short at the end. */
static void test_scan_marker_offsets(void **state)
{
	char log[256];
	struct mllog_scan s;
	(void)state;

	for (int k = 0; k <= 20; k++)
		for (int colons = 0; colons < 3; colons++) {
			char pre[32];
			for (int i = 0; i < k; i++)
				pre[i] = colons == 1 && i % 3 == 2 ? ':' : colons == 2 && i == k - 1 ? ':' : 'x';
			pre[k] = '\0';
			int n = snprintf(log, sizeof log, "%s:::MLLOG {\"key\": \"run_start\", \"time_ms\": 0}\n"
					 "%s:::MLLOG {\"key\": \"run_stop\", \"time_ms\": 60000, \"metadata\": "
					 "{\"status\": \"success\"}}\n%s-::MLLOG x\n%s:::MLLOG x", pre, pre, pre, pre);
			mllog_scan(log, (size_t)n, &s);
			if (s.events != 3 || s.start_line != 1 || s.start_col != k + 10 || s.stop_line != 2 ||
			    s.stop_col != k + 10 || s.bad_line != 4)
				fail_msg("prefix '%s': events %zu, start %ld:%ld, stop %ld:%ld, bad line %ld", pre,
					 s.events, s.start_line, s.start_col, s.stop_line, s.stop_col, s.bad_line);
			/* the last marker cut short: no event */
			mllog_scan(log, (size_t)n - 2, &s);
			assert_int_equal(s.events, 2);
		}
}

/* mllog_event_next's numbers against strtod, bit for bit: decimals of up to 15 digits take a
 * division of exact doubles instead of strtod, so random ones of 1 to 19 digits (either side
 * of the limit), with and without a sign, leading zeros and an exponent, must come out as
 * strtod reads them. Fixed seed: a failure repeats. */
static void test_event_numbers_as_strtod(void **state)
{
	static const char *const fixed[] = {
		"0.1", "0.2", "0.3", "-0.0", "0.0", "2849.0", "0.96", "9007199254740993.0",
		"999999999999999.9", "0.000000000000001", "1.7976931348623157", "123456789012345",
		"1234567890123456789", "12345678901234567890", "4.35", "1e3", "2.5E-3", "-7.0e+2",
		"0.49999999999999994", "5e-324", "1.0000000000000002",
	};
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char num[64], line[160];
	(void)state;

	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] + 200000; i++) {
		if (i < sizeof fixed / sizeof fixed[0]) {
			snprintf(num, sizeof num, "%s", fixed[i]);
		} else {
			size_t k = 0, digits, point;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			digits = 1 + x % 19;
			point = (x >> 8) % (digits + 1); /* digits before the point; digits: none */
			if ((x >> 16) & 1)
				num[k++] = '-';
			for (size_t d = 0; d < digits; d++) {
				if (d == point && d > 0)
					num[k++] = '.';
				/* a leading digit of 0 only alone before the point, as JSON wants */
				num[k++] = (char)('0' + ((x >> (20 + 2 * (d % 20))) + d * 7) % 10);
				if (d == 0 && num[k - 1] == '0' && point != 1 && digits > 1)
					num[k - 1] = '1';
			}
			if (((x >> 60) & 7) == 0)
				k += (size_t)snprintf(num + k, sizeof num - k, "e%d", (int)((x >> 30) % 40) - 20);
			num[k] = '\0';
		}
		int n = snprintf(line, sizeof line, ":::MLLOG {\"key\": \"power_reading\", \"time_ms\": %s, "
				 "\"value\": %s}\n", num, num);
		struct mllog_event ev;
		size_t pos = 0;
		long ln = 1;
		double want = strtod(num, NULL);
		if (!mllog_json_valid(num, strlen(num)))
			fail_msg("'%s' is no JSON number", num);
		assert_int_equal(mllog_event_next(line, (size_t)n, &pos, &ln, &ev), 1);
		assert_string_equal(ev.key, "power_reading");
		if (!ev.value_is_number || memcmp(&ev.value, &want, sizeof want) != 0 ||
		    !ev.has_time || memcmp(&ev.time_ms, &want, sizeof want) != 0)
			fail_msg("'%s': %.17g, strtod %.17g", num, ev.value, want);
	}
}

/* The event's key unescaped: escapes anywhere, and a key that fills or overflows the field. */
static void test_event_key_decoding(void **state)
{
	static const struct { const char *json, *key; } keys[] = {
		{"power_reading", "power_reading"}, {"power\\u005freading", "power_reading"},
		{"\\u0070ower_reading", "power_reading"}, {"power_readin\\u0067", "power_reading"},
		{"a\\\"b\\\\c\\/d\\n", "a\"b\\c/d\n"}, {"\\u00e9t\\u00e9", "\xc3\xa9t\xc3\xa9"},
		{"\\ud83d\\ude00x", "\xf0\x9f\x98\x80x"}, {"", ""}, {"nul\\u0000", ""},
		{"0123456789012345678901234567890123456789012345\\u0041", "0123456789012345678901234567890123456789012345A"},
		{"0123456789012345678901234567890123456789012345\\u00e9", ""},
		{"01234567890123456789012345678901234567890123456", "01234567890123456789012345678901234567890123456"},
		{"012345678901234567890123456789012345678901234567", ""},
		{"0123456789012345678901234567890123456789012345678901234567890123456789", ""},
	};
	char line[256];
	(void)state;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		int n = snprintf(line, sizeof line, ":::MLLOG {\"key\": \"%s\", \"time_ms\": 1}\n", keys[i].json);
		struct mllog_event ev;
		size_t pos = 0;
		long ln = 1;
		assert_int_equal(mllog_event_next(line, (size_t)n, &pos, &ln, &ev), 1);
		if (strcmp(ev.key, keys[i].key) != 0)
			fail_msg("key \"%s\": got \"%s\", want \"%s\"", keys[i].json, ev.key, keys[i].key);
	}
}

/* v0.5 and v0.6 logs have no MLLOG event: the verdict names their format; a log of neither
 * says only that it has no event, and an MLLOG log is never taken for an old one. */
static void test_scan_old_formats(void **state)
{
	static const char v05[] = ":::MLPv0.5.0 resnet 1541710788.72 (resnet/main.py:12) run_start\n";
	static const char v06[] = "0: :::MLL 1558640001.000 run_start: {\"value\": null}\n";
	static const char none[] = "hello\n";
	static const char mllog[] = ":::MLLOG {\"key\": \"run_start\", \"time_ms\": 0}\n:::MLL 1 x: 2\n";
	struct mllog_scan s;
	char why[200];
	long line, col;
	double min;

	(void)state;
	mllog_scan(v05, sizeof v05 - 1, &s);
	assert_int_equal(s.old_format, 5);
	assert_int_equal(mllog_verdict(&s, 30, &min, why, sizeof why, &line, &col), -1);
	assert_non_null(strstr(why, "the v0.5 log format (:::MLPv0.5.0"));
	mllog_scan(v06, sizeof v06 - 1, &s);
	assert_int_equal(s.old_format, 6);
	assert_int_equal(mllog_verdict(&s, 30, &min, why, sizeof why, &line, &col), -1);
	assert_non_null(strstr(why, "the v0.6 log format (:::MLL <unix seconds>"));
	mllog_scan(none, sizeof none - 1, &s);
	assert_int_equal(s.old_format, 0);
	assert_int_equal(mllog_verdict(&s, 30, &min, why, sizeof why, &line, &col), -1);
	assert_string_equal(why, "no MLLOG events");
	mllog_scan(mllog, sizeof mllog - 1, &s);
	assert_int_equal(s.old_format, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validator_cases),
		cmocka_unit_test(test_validator_length_and_depth),
		cmocka_unit_test(test_validator_string_boundaries),
		cmocka_unit_test(test_validator_long_and_numbers),
		cmocka_unit_test(test_validator_depth_limit),
		cmocka_unit_test(test_scan_plain_and_prefixes),
		cmocka_unit_test(test_scan_failures),
		cmocka_unit_test(test_scan_duration_not_finite),
		cmocka_unit_test(test_scan_corrupt_line),
		cmocka_unit_test(test_scan_marker_needs_space),
		cmocka_unit_test(test_scan_line_ends),
		cmocka_unit_test(test_scan_last_line),
		cmocka_unit_test(test_scan_marker_offsets),
		cmocka_unit_test(test_event_numbers_as_strtod),
		cmocka_unit_test(test_event_key_decoding),
		cmocka_unit_test(test_scan_old_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
