/* test_mllog.c: the strict JSON validator (against Python's json.loads verdicts and jansson)
 * and the MLLOG scanner (prefixes, CRLF, first events, failures, line and column). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
		long line;
		mllog_scan(logs[i], strlen(logs[i]), &s);
		if (mllog_verdict(&s, &min, why, sizeof why, &line) != 0)
			fail_msg("log %zu: %s", i, why);
		assert_float_equal(min, 2.0, 1e-12);
	}
}

static int verdict_of(const char *log, char *why, size_t n, long *line)
{
	struct mllog_scan s;
	double min;

	mllog_scan(log, strlen(log), &s);
	return mllog_verdict(&s, &min, why, n, line);
}

static void test_scan_failures(void **state)
{
	char why[128];
	long line;
	(void)state;

	assert_int_equal(verdict_of(EV(1, "run_stop", OK_STOP) "\n", why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "no run_start"));
	assert_int_equal(verdict_of(EV(1, "run_start", "") "\n", why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "no run_stop"));
	assert_int_equal(verdict_of(EV(1, "run_start", "") "\n" EV(2, "run_stop", ", \"status\": \"aborted\"") "\n",
				    why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "aborted"));
	assert_int_equal(line, 2);
	assert_int_equal(verdict_of(EV(1, "run_start", "") "\n" EV(2, "run_stop", "") "\n",
				    why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "no metadata.status"));
	assert_int_equal(verdict_of("", why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "no MLLOG"));
	assert_int_equal(verdict_of("just text\nno events\n", why, sizeof why, &line), -1);
	/* a time_ms that is not a number */
	assert_int_equal(verdict_of(":::MLLOG {\"key\": \"run_start\", \"time_ms\": \"5\"}\n"
				    EV(2, "run_stop", OK_STOP), why, sizeof why, &line), -1);
	assert_non_null(strstr(why, "time_ms"));
}

static void test_scan_corrupt_line(void **state)
{
	const char *log = "header\n 0: " EV(60000, "run_start", "") "\n"
		" 0: :::MLLOG {\"key\": \"opt_name\", \"value\": \"adam\"Lambdaorkspace/x.py\"}\n"
		" 0: " EV(180000, "run_stop", OK_STOP) "\n";
	struct mllog_scan s;
	char why[128];
	double min;
	long line;
	(void)state;

	mllog_scan(log, strlen(log), &s);
	assert_int_equal(s.events, 3);
	assert_int_equal(s.bad_line, 3);
	assert_int_equal(s.bad_col, 49); /* the 'L' right after "adam" */
	assert_int_equal(s.start_line, 2);
	assert_int_equal(s.stop_line, 4);
	assert_int_equal(mllog_verdict(&s, &min, why, sizeof why, &line), -1);
	assert_int_equal(line, 3);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validator_cases),
		cmocka_unit_test(test_validator_length_and_depth),
		cmocka_unit_test(test_scan_plain_and_prefixes),
		cmocka_unit_test(test_scan_failures),
		cmocka_unit_test(test_scan_corrupt_line),
		cmocka_unit_test(test_scan_marker_needs_space),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
