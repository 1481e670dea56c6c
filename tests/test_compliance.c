/* The keys the official compliance checker requires, and their counting in a log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "compliance.h"
#include "mllog.h"

static long find(const struct compliance_req *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->key[i], key) == 0)
			return (long)i;
	return -1;
}

static void required(void **state)
{
	static struct compliance_req r;
	long i;

	(void)state;
	compliance_required("3.0.0", false, "bert", &r);
	assert_true(r.binding);
	assert_string_equal(r.ruleset, "3.0.0");
	assert_true((i = find(&r, "opt_lamb_epsilon")) >= 0 && r.exactly_one[i]);  /* closed bert */
	assert_true((i = find(&r, "submission_org")) >= 0 && r.exactly_one[i]);    /* any common */
	assert_true((i = find(&r, "gradient_accumulation_steps")) >= 0);          /* closed common */
	assert_true((i = find(&r, "eval_accuracy")) >= 0 && !r.exactly_one[i]);   /* at least one */
	assert_int_equal(find(&r, "opt_adagrad_epsilon"), -1);                     /* dlrm_dcnv2's */
	/* each key once, however many configurations list it */
	for (size_t a = 0; a < r.n; a++)
		for (size_t b = a + 1; b < r.n; b++)
			assert_string_not_equal(r.key[a], r.key[b]);
	/* the open division has none of the closed hyperparameters */
	compliance_required("3.0.0", true, "bert", &r);
	assert_int_equal(find(&r, "opt_lamb_epsilon"), -1);
	assert_true(find(&r, "run_start") >= 0);
	/* before 3.0.0 a broken rule warns; a ruleset the table lacks requires nothing */
	compliance_required("2.1.0", false, "bert", &r);
	assert_false(r.binding);
	/* today's 2.1.0 list says opt_lamb_epsilon; 2.1's own checker, and its logs, opt_epsilon */
	assert_int_equal(find(&r, "opt_lamb_epsilon"), -1);
	assert_true((i = find(&r, "opt_epsilon")) >= 0 && r.exactly_one[i]);
	compliance_required("2.0.0", false, "bert", &r);
	assert_true(find(&r, "opt_epsilon") >= 0 && find(&r, "opt_lamb_epsilon") < 0);
	/* RNN-T's logs of the same rulesets say opt_lamb_epsilon, as its checker did */
	compliance_required("2.1.0", false, "rnnt", &r);
	assert_true(find(&r, "opt_lamb_epsilon") >= 0 && find(&r, "opt_epsilon") < 0);
	compliance_required("10.0.0", false, "bert", &r);
	assert_int_equal(r.n, 0);
	assert_true(r.binding);
	compliance_required("", false, "bert", &r);
	assert_int_equal(r.n, 0);
	compliance_required("6.0.0", false, "deepseekv3_671b", &r);
	assert_true(find(&r, "run_stop") >= 0 && r.n > 12);
}

static void counted(void **state)
{
	static const char log[] =
		"x :::MLLOG {\"key\": \"run_start\", \"time_ms\": 0, \"value\": null}\n"
		":::MLLOG {\"key\": \"submission_org\", \"time_ms\": 1, \"value\": \"a\"}\n"
		"0: :::MLLOG {\"key\": \"submission_org\", \"time_ms\": 2, \"value\": \"a\"}\n"
		":::MLLOG {\"key\": \"sub\\u006dission_org\", \"time_ms\": 3}\n"
		":::MLLOG {\"key\": \"eval_accuracy\", \"time_ms\": 4, bad}\n"
		":::MLLOG {\"key\": \"run_stop\", \"time_ms\": 60000, \"metadata\": {\"status\": \"success\"}}";
	const char *keys[] = { "submission_org", "eval_accuracy", "run_stop", "opt_lamb_epsilon" };
	unsigned counts[4];
	struct mllog_scan s, plain;
	static struct compliance_req r;
	char why[160];

	(void)state;
	mllog_scan_keys(log, sizeof log - 1, keys, 4, counts, &s);
	assert_int_equal(counts[0], 3);  /* an escaped key is the same key */
	assert_int_equal(counts[1], 0);  /* a payload that is not JSON counts nothing */
	assert_int_equal(counts[2], 1);  /* the last line, with no newline */
	assert_int_equal(counts[3], 0);
	/* counting changes nothing else of the scan */
	mllog_scan(log, sizeof log - 1, &plain);
	assert_int_equal(s.bad_line, plain.bad_line);
	assert_int_equal(s.stop_line, plain.stop_line);
	assert_true(s.stop_ms == plain.stop_ms);
	/* keys of one length told apart at their first byte or after it, one escaped at its
	 * first byte, the empty key */
	static const char log2[] = ":::MLLOG {\"key\": \"\\u0061bc\"}\n:::MLLOG {\"key\": \"xbc\"}\n"
		":::MLLOG {\"key\": \"abd\"}\n:::MLLOG {\"key\": \"\"}\n:::MLLOG {\"key\": \"abc\"}\n";
	const char *keys2[] = { "xbc", "abc", "", "abd" };
	mllog_scan_keys(log2, sizeof log2 - 1, keys2, 4, counts, &s);
	assert_int_equal(counts[0], 1);
	assert_int_equal(counts[1], 2);
	assert_int_equal(counts[2], 1);
	assert_int_equal(counts[3], 1);
	/* a missing key breaks the rule; one repeated does not (the official scores count it) */
	compliance_required("3.0.0", false, "bert", &r);
	memset(counts, 0, sizeof counts);
	unsigned many[COMPLIANCE_MAX_KEYS];
	for (size_t i = 0; i < r.n; i++)
		many[i] = strcmp(r.key[i], "submission_org") == 0 ? 2 : 1;
	assert_int_equal(compliance_check(&r, many, why, sizeof why), -1);
	many[find(&r, "opt_lamb_epsilon")] = 0;
	assert_int_equal(compliance_check(&r, many, why, sizeof why), find(&r, "opt_lamb_epsilon"));
	assert_string_equal(why, "'opt_lamb_epsilon' is missing; ruleset 3.0.0 requires it exactly once");
	/* before 3.0.0 the list is today's, and the warning says so */
	compliance_required("2.0.0", false, "bert", &r);
	for (size_t i = 0; i < r.n; i++)
		many[i] = strcmp(r.key[i], "eval_samples") != 0;
	assert_int_equal(compliance_check(&r, many, why, sizeof why), find(&r, "eval_samples"));
	assert_string_equal(why, "'eval_samples' is missing; today's key list for ruleset 2.0.0 requires it "
			    "exactly once");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(required), cmocka_unit_test(counted) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
