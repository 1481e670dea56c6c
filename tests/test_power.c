/* test_power.c: the energy rules on small hand-made power logs (energies worked out by hand in
 * the comments), the folder reader on temporary trees, and the published v4.0 figures on the
 * real trees when ../shared/mlperf is there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "mllog.h"
#include "olympic.h"
#include "power.h"
#include "import.h"
#include "compliance.h"

/* One MLLOG line: key, time_ms, value (a JSON text) and metadata (a JSON text). */
#define EV(key, t, v) ":::MLLOG {\"namespace\": \"\", \"time_ms\": " #t ", \"event_type\": \"POINT_IN_TIME\", " \
	"\"key\": \"" key "\", \"value\": " v ", \"metadata\": {}}\n"
#define START(t) EV("power_measurement_start", t, "null")
#define STOP(t) EV("power_measurement_stop", t, "null")
#define READ(t, w) EV("power_reading", t, #w)

static double node(const char *log, enum power_rule rule, double ttt, int want_rc, struct gs_err *e)
{
	double j = NAN;
	char m[3];

	memset(e, 0, sizeof *e);
	assert_int_equal(power_node_energy(log, strlen(log), "n.txt", rule, ttt, &j, m, e), want_rc);
	if (want_rc < 0)
		assert_true(e->msg[0] != '\0');
	return j;
}

static void rule_by_round(void **state)
{
	(void)state;
	assert_int_equal(power_rule_for_round("v4.0"), POWER_RULE_FILE_ORDER);
	assert_int_equal(power_rule_for_round("v3.1"), POWER_RULE_FILE_ORDER);
	assert_int_equal(power_rule_for_round("v1.0"), POWER_RULE_FILE_ORDER);
	assert_int_equal(power_rule_for_round("v4.1"), POWER_RULE_WINDOW);
	assert_int_equal(power_rule_for_round("v5.0"), POWER_RULE_WINDOW);
	assert_int_equal(power_rule_for_round("v10.0"), POWER_RULE_WINDOW);
	/* not a round name: the current rule */
	assert_int_equal(power_rule_for_round("vT"), POWER_RULE_WINDOW);
	assert_int_equal(power_rule_for_round("v4.0-x"), POWER_RULE_WINDOW);
	assert_int_equal(power_rule_for_round(""), POWER_RULE_WINDOW);
}

/* The v4.0 SMC shape: the stop is logged with the start's time. File order: 100 W x 1000 ms
 * + 200 W x 1000 ms = 300000; stop = max(1000, 3000) = 3000, window 2000 ms; ttt 1000 ms:
 * 300000 * 1000 / 2000 / 1000 = 150 J. The window rule sorts the stop before every reading:
 * nothing counts, no energy. */
static void stop_at_start_time(void **state)
{
	static const char log[] = START(1000) READ(2000, 100) READ(3000, 200) STOP(1000) START(1000) STOP(1000);
	struct gs_err e;

	(void)state;
	assert_true(node(log, POWER_RULE_FILE_ORDER, 1000, 0, &e) == 150.0);
	node(log, POWER_RULE_WINDOW, 1000, -1, &e);
	assert_non_null(strstr(e.msg, "no power_reading"));
}

/* Window rule: a reading before the start and one after the stop are left out; the lines are
 * taken in time order: 100 W x (2000-1000) + 200 W x (3000-2000) = 300000 over the window
 * 4000-1000 = 3000 ms; ttt 3000: 300 J; x conversion_eff 0.5 = 150 J. Under the file-order
 * rule the reading before the start has no start to count from: no energy. */
static void window_rule(void **state)
{
	static const char log[] = READ(500, 999) START(1000) EV("conversion_eff", 1000, "0.5")
		READ(3000, 200) READ(2000, 100) STOP(4000) READ(5000, 999);
	static const char no_eff[] = START(1000) READ(3000, 200) READ(2000, 100) STOP(4000) READ(5000, 999);
	struct gs_err e;

	(void)state;
	assert_true(node(log, POWER_RULE_WINDOW, 3000, 0, &e) == 150.0);
	assert_true(node(no_eff, POWER_RULE_WINDOW, 3000, 0, &e) == 300.0);
	node(log, POWER_RULE_FILE_ORDER, 3000, -1, &e);
	assert_non_null(strstr(e.msg, "before any power_measurement_start"));
	assert_int_equal(e.line, 1);
	assert_int_equal(e.col, 10);
}

/* Readings that go back in time. File order counts them as they come: 100 x (3000-1000) +
 * 100 x (2000-3000) = 100000; no stop: stop = 3000, window 2000; ttt 2000: 100 J. Sorted:
 * 100 x 1000 + 100 x 1000 = 200000: 200 J. */
static void back_in_time(void **state)
{
	static const char log[] = START(1000) READ(3000, 100) READ(2000, 100);
	/* 1 x 4000 - 100 x 3000 < 0: no energy rather than a negative one */
	static const char negative[] = START(1000) READ(5000, 1) READ(2000, 100) STOP(5000);
	struct gs_err e;

	(void)state;
	assert_true(node(log, POWER_RULE_FILE_ORDER, 2000, 0, &e) == 100.0);
	assert_true(node(log, POWER_RULE_WINDOW, 2000, 0, &e) == 200.0);
	node(negative, POWER_RULE_FILE_ORDER, 2000, -1, &e);
	assert_non_null(strstr(e.msg, "not a finite positive number"));
	assert_int_equal(e.line, 0);
	/* sorted, the same file is fine: 100 x 1000 + 1 x 3000 = 103000 over 4000 ms, ttt 2000 */
	assert_true(node(negative, POWER_RULE_WINDOW, 2000, 0, &e) == 103000.0 * 2000 / 4000 / 1000);
}

static void no_start(void **state)
{
	static const char log[] = READ(2000, 100) READ(3000, 100) STOP(4000);
	static const char empty[] = "";
	struct gs_err e;

	(void)state;
	node(log, POWER_RULE_WINDOW, 1000, -1, &e);
	assert_string_equal(e.msg, "no power_measurement_start");
	assert_string_equal(e.file, "n.txt");
	node(log, POWER_RULE_FILE_ORDER, 1000, -1, &e);
	assert_non_null(strstr(e.msg, "before any power_measurement_start"));
	node(empty, POWER_RULE_FILE_ORDER, 1000, -1, &e);
	assert_string_equal(e.msg, "no power_measurement_start");
	node(empty, POWER_RULE_WINDOW, 1000, -1, &e);
	assert_string_equal(e.msg, "no power_measurement_start");
}

/* A window of zero length would divide by zero in the official code: no energy, no inf. */
static void zero_window(void **state)
{
	static const char log[] = START(1000) READ(1000, 500) STOP(1000);
	struct gs_err e;

	(void)state;
	node(log, POWER_RULE_FILE_ORDER, 1000, -1, &e);
	assert_non_null(strstr(e.msg, "empty measurement window"));
	node(log, POWER_RULE_WINDOW, 1000, -1, &e);
	assert_non_null(strstr(e.msg, "empty measurement window"));
}

/* Every payload must be valid JSON, and every event the rules use needs numbers. */
static void malformed(void **state)
{
	static const char bad_json[] = START(1000) READ(2000, 100) ":::MLLOG {\"key\": \"power_reading\", \"time_ms\": 3000, \"value\": }\n" STOP(4000);
	static const char text_value[] = START(1000) EV("power_reading", 2000, "\"100\"") STOP(4000);
	static const char nan_value[] = START(1000) READ(2000, 100) EV("power_reading", 3000, "NaN") STOP(4000);
	static const char no_time[] = START(1000) ":::MLLOG {\"key\": \"power_measurement_stop\", \"value\": null}\n";
	static const char not_object[] = START(1000) READ(2000, 100) ":::MLLOG [1, 2]\n" STOP(4000);
	static const char nul_key[] = START(1000) READ(2000, 100) EV("power_reading\\u0000", 3000, "1e9") STOP(4000);
	static const char bool_eff[] = START(1000) EV("conversion_eff", 1000, "true") READ(2000, 100) STOP(4000);
	/* text around the events, other keys and blank lines are no problem: 100 x 1000 / 3000 x 3000 */
	static const char noise[] = "starting\n\n" START(1000) EV("other_key", 5, "[1, {}]")
		"0: " READ(2000, 100) "done\r\n" STOP(4000);
	struct gs_err e;

	(void)state;
	node(bad_json, POWER_RULE_WINDOW, 1000, -1, &e);
	assert_string_equal(e.msg, "MLLOG payload is not valid JSON");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.col, 61);
	node(text_value, POWER_RULE_FILE_ORDER, 1000, -1, &e);
	assert_string_equal(e.msg, "power_reading has no finite numeric value");
	assert_int_equal(e.line, 2);
	assert_int_equal(e.col, 109); /* at the value */
	node(nan_value, POWER_RULE_WINDOW, 1000, -1, &e);
	assert_int_equal(e.line, 3);
	node(no_time, POWER_RULE_WINDOW, 1000, -1, &e);
	assert_string_equal(e.msg, "power_measurement_stop has no finite numeric time_ms");
	assert_int_equal(e.line, 2);
	/* valid JSON that is no object has no key: ignored like any other event */
	assert_true(node(not_object, POWER_RULE_WINDOW, 3000, 0, &e) == 100.0);
	/* a key holding a NUL is not the key it starts with */
	assert_true(node(nul_key, POWER_RULE_WINDOW, 3000, 0, &e) == 100.0);
	node(bool_eff, POWER_RULE_WINDOW, 1000, -1, &e);
	assert_string_equal(e.msg, "conversion_eff has no finite numeric value");
	assert_true(node(noise, POWER_RULE_WINDOW, 3000, 0, &e) == 100.0);
	assert_true(node(noise, POWER_RULE_FILE_ORDER, 3000, 0, &e) == 100.0);
}

static void measurement_type(void **state)
{
	static const char ac[] = START(1000) ":::MLLOG {\"time_ms\": 1000, \"key\": \"conversion_eff\", "
		"\"value\": 0.96, \"metadata\": {\"measurement_type\": \"AC\"}}\n" READ(2000, 100);
	static const char both[] = START(1000) ":::MLLOG {\"time_ms\": 1000, \"key\": \"conversion_eff\", "
		"\"value\": 1, \"metadata\": {\"measurement_type\": \"dc\"}}\n" READ(2000, 100)
		":::MLLOG {\"time_ms\": 1000, \"key\": \"x\", \"value\": 1, \"metadata\": {\"measurement_type\": \"AC\"}}\n";
	char m[3];
	double j;
	struct gs_err e;

	(void)state;
	assert_int_equal(power_node_energy(ac, strlen(ac), "n", POWER_RULE_WINDOW, 1000, &j, m, &e), 0);
	assert_string_equal(m, "AC");
	/* 0.96 x 100 x 1000 x 1000 / 1000 / 1000 */
	assert_true(j == 0.96 * 100000 * 1000 / 1000 / 1000);
	assert_int_equal(power_node_energy(both, strlen(both), "n", POWER_RULE_WINDOW, 1000, &j, m, &e), 0);
	assert_string_equal(m, "?");
	assert_string_equal(power_measurement_from_names("smc-dc-power", "1xSMC-H100-SXM-80GB"), "DC");
	assert_string_equal(power_measurement_from_names("smc-ac-power", "64xSMC"), "AC");
	assert_string_equal(power_measurement_from_names("Dell", "8xXE9680x8H100-SXM-80GB-POWER"), "");
	assert_string_equal(power_measurement_from_names("ACME", "dcgm_box"), "");
	assert_string_equal(power_measurement_from_names("Lenovo", "sys_AC_2"), "AC");
}

/* Switch: conversion_eff x first interconnect_power_est x ttt / 1000; none: 0 J, as officially. */
static void switches(void **state)
{
	static const char sw[] = EV("conversion_eff", 1, "0.5") EV("interconnect_power_est", 1, "1000")
		EV("interconnect_power_est", 2, "9999");
	static const char measured[] = START(1000) READ(2000, 700) STOP(3000);
	static const char bad[] = EV("interconnect_power_est", 1, "\"1000\"");
	double j = -1;
	int est = -1;
	struct gs_err e;

	(void)state;
	assert_int_equal(power_switch_energy(sw, strlen(sw), "s", 2000, &j, &est, &e), 0);
	assert_true(j == 1000.0);
	assert_int_equal(est, 1);
	assert_int_equal(power_switch_energy(measured, strlen(measured), "s", 2000, &j, &est, &e), 0);
	assert_true(j == 0.0);
	assert_int_equal(est, 0);
	assert_int_equal(power_switch_energy(bad, strlen(bad), "s", 2000, &j, &est, &e), -1);
	assert_int_equal(e.line, 1);
}

/* The runs the time score keeps, ordered by time, never by energy. */
static void olympic(void **state)
{
	const double mins[5] = { 5, 1, 4, 2, 3 }, joules[5] = { 50, 10, 40, 20, 30 };
	/* equal times: the order of the logs decides (index 0 before 1) */
	const double tie_mins[4] = { 1, 1, 2, 3 }, tie_j[4] = { 10, 20, 100, 1000 };
	double s = 0;

	(void)state;
	/* sorted by time: 10 20 30 40 50, keep 20 30 40 -> 30 */
	assert_int_equal(power_olympic(mins, joules, 5, 0, 1, 1.0, &s), 0);
	assert_true(s == 30.0);
	/* one failed run counts as the dropped slowest: keep 20 30 40 50 -> 35, x 2 */
	assert_int_equal(power_olympic(mins, joules, 5, 1, 1, 2.0, &s), 0);
	assert_true(s == 70.0);
	/* more failed runs than the limit: no score */
	assert_int_equal(power_olympic(mins, joules, 5, 2, 1, 1.0, &s), -1);
	/* unet3d's limit 4 with 5 runs and four failures: keep sorted[4:5] = 50 */
	assert_int_equal(power_olympic(mins, joules, 5, 4, 4, 1.0, &s), 0);
	assert_true(s == 50.0);
	/* the fastest dropped is the first of the tied logs: keep 20 and 100 */
	assert_int_equal(power_olympic(tie_mins, tie_j, 4, 0, 1, 1.0, &s), 0);
	assert_true(s == 60.0);
	assert_int_equal(power_olympic(mins, joules, 0, 0, 1, 1.0, &s), -1);
}

/* ---- folders on disk ---- */

static char tmpdir[256];

static void put(const char *rel, const char *text)
{
	char p[1024], *slash;
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", tmpdir, rel);
	for (slash = strchr(p + strlen(tmpdir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p, 0755);
		*slash = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup_tree(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "%s/gs_power_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int rm_tree(const char *p)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(p, &st) != 0)
		return 0;
	if (S_ISDIR(st.st_mode) && (d = opendir(p))) {
		while ((de = readdir(d))) {
			char q[1024];
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(q, sizeof q, "%s/%s", p, de->d_name);
			rm_tree(q);
		}
		closedir(d);
		return rmdir(p);
	}
	return unlink(p);
}

static int teardown_tree(void **state)
{
	(void)state;
	return rm_tree(tmpdir);
}

/* Three runs of 1000, 2000 and 3000 ms (in that order of time), two nodes and a switch each.
 * Node k of run r: start 0, one reading of (r+1) x 100 W at 1000 ms, stop 1000: agg (r+1) x
 * 100000 over 1000 ms; x ttt / 1000 = (r+1) x 100 x ttt / 1000 J. Switch: 10 W x ttt / 1000.
 * Run energies: r0 (ttt 1000): 2 x 100 + 10 = 210; r1 (2000): 2 x 400 + 20 = 820;
 * r2 (3000): 2 x 900 + 30 = 1830. The middle run by time is r1: 820 J. */
static const struct power_run runs3[3] = {
	{ "result_0.txt", 1000, 1000 / 60000.0 },
	{ "result_1.txt", 2000, 2000 / 60000.0 },
	{ "result_2.txt", 3000, 3000 / 60000.0 },
};

static void make_runs(const char *bench)
{
	static const char *const w[3] = { "100", "200", "300" };
	char rel[256], text[1024];

	for (int r = 0; r < 3; r++) {
		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof rel, "%s/power/result_%d/node_%d.txt", bench, r, k);
			snprintf(text, sizeof text, START(0) EV("power_reading", 1000, "%s") STOP(1000), w[r]);
			put(rel, text);
		}
		snprintf(rel, sizeof rel, "%s/power/result_%d/sw_0.txt", bench, r);
		put(rel, EV("interconnect_power_est", 0, "10"));
	}
}

static int folder(const char *bench, const char *sub, double *j, char *m, struct gs_warn *w)
{
	char dir[512];

	snprintf(dir, sizeof dir, "%s/%s", tmpdir, bench);
	memset(w, 0, sizeof *w);
	return power_folder_energy(dir, sub, "sys", runs3, 3, 0, 1, 1.0, POWER_RULE_WINDOW, j, m, w);
}

static void folder_ok(void **state)
{
	struct gs_warn w;
	double j = 0;
	char m[3];

	(void)state;
	make_runs("ok");
	assert_int_equal(folder("ok", "smc-dc-power", &j, m, &w), 0);
	assert_true(j == 820.0);
	assert_string_equal(m, "DC");
	assert_int_equal(w.total, 0);
	warn_free(&w);
	/* no power folder: no energy and nothing to say */
	put("none/result_0.txt", "");
	assert_int_equal(folder("none", "S", &j, m, &w), 1);
	assert_int_equal(w.total, 0);
	warn_free(&w);
}

static void expect_warning(const char *bench, const char *a, const char *b)
{
	struct gs_warn w;
	double j = 0;
	char m[3];

	assert_int_equal(folder(bench, "S", &j, m, &w), -1);
	assert_int_equal(w.total, 1);
	if (!strstr(w.items[0], a) || !strstr(w.items[0], b) || !strstr(w.items[0], "no energy for this system"))
		fail_msg("warning \"%s\" lacks \"%s\" or \"%s\"", w.items[0], a, b);
	warn_free(&w);
}

static void folder_missing_node(void **state)
{
	char p[512];

	(void)state;
	make_runs("miss");
	snprintf(p, sizeof p, "%s/miss/power/result_2/node_1.txt", tmpdir);
	assert_int_equal(unlink(p), 0);
	expect_warning("miss", "miss/power/result_2/node_1.txt: missing", "result_0.txt has it");
	/* an extra file in a later run is named too */
	make_runs("extra");
	put("extra/power/result_1/node_2.txt", START(0) READ(1000, 1));
	expect_warning("extra", "extra/power/result_1: has node_2.txt", "lacks");
	/* a run with no power folder */
	make_runs("norun");
	snprintf(p, sizeof p, "%s/norun/power/result_1", tmpdir);
	assert_int_equal(rm_tree(p), 0);
	expect_warning("norun", "norun/power/result_1: no power logs for this run", "");
	/* a run with no node file at all (only the submitter's total_power.txt) */
	put("total/power/result_0/total_power.txt", "Total Power Usage: 10.30 kWh\n");
	put("total/power/result_1/total_power.txt", "Total Power Usage: 10.30 kWh\n");
	put("total/power/result_2/total_power.txt", "Total Power Usage: 10.30 kWh\n");
	expect_warning("total", "total/power/result_0: no node_*.txt", "");
}

/* Of two failing runs the first says why, and of two switch files without an estimate the
 * first run's is named. */
static void folder_first_in_order(void **state)
{
	char p[512], q[512];

	(void)state;
	make_runs("two");
	put("two/power/result_1/node_0.txt", START(0) "0: :::MLLOG {\"key\": \"power_reading\",, }\n" STOP(1000));
	snprintf(p, sizeof p, "%s/two/power/result_2/node_1.txt", tmpdir);
	assert_int_equal(unlink(p), 0);
	expect_warning("two", "two/power/result_1/node_0.txt:2:", "not valid JSON");
	make_runs("late");
	snprintf(p, sizeof p, "%s/late/power/result_2/node_1.txt", tmpdir);
	assert_int_equal(unlink(p), 0);
	put("late/power/result_1/node_2.txt", START(0) READ(1000, 1));
	expect_warning("late", "late/power/result_1: has node_2.txt", "lacks");
	make_runs("noest");
	for (int r = 1; r < 3; r++) {
		snprintf(q, sizeof q, "noest/power/result_%d/sw_0.txt", r);
		put(q, START(0) READ(1000, 700) STOP(1000));
	}
	{
		struct gs_warn w;
		double j = 0;
		char m[3];
		assert_int_equal(folder("noest", "S", &j, m, &w), 0);
		assert_int_equal(w.total, 1);
		assert_non_null(strstr(w.items[0], "noest/power/result_1/sw_0.txt: no interconnect_power_est"));
		warn_free(&w);
	}
}

static void folder_bad_files(void **state)
{
	char p[512], q[512];

	(void)state;
	make_runs("bad");
	put("bad/power/result_1/node_0.txt", START(0) "0: :::MLLOG {\"key\": \"power_reading\",, }\n" STOP(1000));
	expect_warning("bad", "bad/power/result_1/node_0.txt:2:", "not valid JSON");
	/* the same file twice would count one node twice */
	make_runs("twice");
	snprintf(p, sizeof p, "%s/twice/power/result_0/node_1.txt", tmpdir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("node_0.txt", p), 0);
	expect_warning("twice", "twice/power/result_0/node_1.txt: the same file as node_0.txt", "");
	/* a FIFO is refused at once, never waited on */
	make_runs("fifo");
	snprintf(p, sizeof p, "%s/fifo/power/result_0/node_1.txt", tmpdir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkfifo(p, 0644), 0);
	expect_warning("fifo", "fifo/power/result_0/node_1.txt: not a regular file", "");
	/* a folder named like a node file */
	make_runs("dir");
	snprintf(p, sizeof p, "%s/dir/power/result_0/node_1.txt", tmpdir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkdir(p, 0755), 0);
	expect_warning("dir", "dir/power/result_0/node_1.txt: not a regular file", "");
	/* a zero window in one run's node file */
	make_runs("zero");
	put("zero/power/result_2/node_1.txt", START(0) READ(0, 5) STOP(0));
	expect_warning("zero", "zero/power/result_2/node_1.txt: empty measurement window", "");
	/* a switch file without an estimate counts 0 J, and says so once */
	make_runs("sw");
	for (int r = 0; r < 3; r++) {
		snprintf(q, sizeof q, "sw/power/result_%d/sw_0.txt", r);
		put(q, START(0) READ(1000, 700) STOP(1000));
	}
	{
		struct gs_warn w;
		double j = 0;
		char m[3];
		assert_int_equal(folder("sw", "S", &j, m, &w), 0);
		assert_true(j == 800.0);
		assert_int_equal(w.total, 1);
		assert_non_null(strstr(w.items[0], "sw/power/result_0/sw_0.txt: no interconnect_power_est"));
		warn_free(&w);
	}
}

/* ---- through the importer ---- */

/* A v4.0-shaped tree: runs of 1, 2 and 3 minutes; node files in the SMC shape (the stop at the
 * start's time), two nodes at (r+1) x 100 W and a 10 W switch. Run 1 (120000 ms): 2 x 200 W x
 * 1000 ms / 1000 ms x 120000 / 1000 + 10 x 120000 / 1000 = 48000 + 1200 = 49200 J, the
 * middle run by time. */
/* The keys the compliance checker of rulesets 4.0.0 and 4.1.0 requires of a closed bert log
 * (run_start and run_stop aside, which the log times), one event each, into buf. */
static void compliant_keys(char *buf, size_t n)
{
	static struct compliance_req req;
	static const char *const rulesets[] = { "4.0.0", "4.1.0" };
	size_t at = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < 2; k++) {
		compliance_required(rulesets[k], false, "bert", &req);
		assert_true(req.n > 0);
		for (size_t i = 0; i < req.n; i++) {
			if (!strcmp(req.key[i], "run_start") || !strcmp(req.key[i], "run_stop"))
				continue;
			at += (size_t)snprintf(buf + at, n - at, ":::MLLOG {\"key\": \"%s\", \"time_ms\": 0, "
					       "\"value\": 1, \"metadata\": {}}\n", req.key[i]);
			assert_true(at < n);
		}
	}
}

static void make_tree(const char *top)
{
	static const char *const w[3] = { "100", "200", "300" };
	char rel[512], text[8192], keys[6144];

	snprintf(rel, sizeof rel, "%s/smc-dc-power/systems/s.json", top);
	put(rel, "{\"system_name\": \"S\", \"division\": \"closed\", \"status\": \"Available on-premise\", "
	    "\"accelerator_model_name\": \"NVIDIA H100-SXM5-80GB\", \"framework\": \"F\", "
	    "\"number_of_nodes\": \"2\", \"accelerators_per_node\": \"8\"}\n");
	for (int r = 0; r < 3; r++) {
		snprintf(rel, sizeof rel, "%s/smc-dc-power/results/s/bert/result_%d.txt", top, r);
		/* a log the checker of the round passes: every key it requires */
		compliant_keys(keys, sizeof keys);
		snprintf(text, sizeof text, "%s" EV("run_start", 0, "null")
			 ":::MLLOG {\"key\": \"run_stop\", \"time_ms\": %d, \"value\": null, "
			 "\"metadata\": {\"status\": \"success\"}}\n", keys, (r + 1) * 60000);
		put(rel, text);
		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof rel, "%s/smc-dc-power/results/s/bert/power/result_%d/node_%d.txt", top, r, k);
			snprintf(text, sizeof text, START(0) EV("power_reading", 1000, "%s") STOP(0), w[r]);
			put(rel, text);
		}
		snprintf(rel, sizeof rel, "%s/smc-dc-power/results/s/bert/power/result_%d/sw_0.txt", top, r);
		put(rel, EV("interconnect_power_est", 0, "10"));
	}
}

static int warned(const struct import_result *r, const char *a)
{
	for (size_t i = 0; i < r->warn.n; i++)
		if (strstr(r->warn.items[i], a))
			return 1;
	return 0;
}

static void through_import(void **state)
{
	char top[512], p[1024];
	struct import_result r;
	struct gs_err err;

	(void)state;
	snprintf(top, sizeof top, "%s/training_results_v4.0", tmpdir);
	make_tree("training_results_v4.0");
	assert_int_equal(import_tree(top, "v4.0", NULL, &r, &err), 0);
	if (!strstr(r.csv, ",bert,2.000000,3,0,1,") || !strstr(r.csv, ",49200,DC,,,,,\n"))
		fail_msg("no energy 49200 J, DC in:\n%s", r.csv);
	import_result_free(&r);
	/* the same logs named as a later round: the window rule finds the stop before every
	 * reading, so no energy, and a warning names the node file */
	assert_int_equal(import_tree(top, "v4.1", NULL, &r, &err), 0);
	if (!strstr(r.csv, ",bert,2.000000,3,0,1,") || !strstr(r.csv, "result_2.txt,,,,,,,,\n"))
		fail_msg("energy under the v4.1 rule in:\n%s", r.csv);
	assert_true(warned(&r, "bert/power/result_0/node_0.txt: no power_reading between"));
	import_result_free(&r);
	/* a node file missing from one run: the row stays, its energy goes */
	snprintf(p, sizeof p, "%s/smc-dc-power/results/s/bert/power/result_2/node_1.txt", top);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(import_tree(top, "v4.0", NULL, &r, &err), 0);
	if (!strstr(r.csv, ",bert,2.000000,3,0,1,") || !strstr(r.csv, "result_2.txt,,,,,,,,\n"))
		fail_msg("energy with a node file missing in:\n%s", r.csv);
	assert_true(warned(&r, "bert/power/result_2/node_1.txt: missing"));
	import_result_free(&r);
}

/* ---- the published figures ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Energy of one real benchmark folder, its runs scored as the importer scores them. */
static double real_energy(const char *dir, const char *bench, double sf, enum power_rule rule)
{
	struct power_run runs[64];
	char *names[64];
	size_t nn = 0, n = 0, failed = 0;
	DIR *d = opendir(dir);
	struct dirent *de;
	struct gs_warn w = {0};
	double j = 0;
	char m[3];

	assert_non_null(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "result_", 7) && strstr(de->d_name, ".txt") && nn < 64)
			names[nn++] = strdup(de->d_name);
	closedir(d);
	qsort(names, nn, sizeof *names, cmp_str);
	for (size_t i = 0; i < nn; i++) {
		char p[4096], why[128], *buf;
		struct mllog_scan s;
		struct stat st;
		double mins;
		long line, col;
		FILE *f;
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		assert_int_equal(stat(p, &st), 0);
		buf = malloc((size_t)st.st_size + 1);
		f = fopen(p, "rb");
		assert_non_null(f);
		assert_int_equal(fread(buf, 1, (size_t)st.st_size, f), (size_t)st.st_size);
		fclose(f);
		mllog_scan(buf, (size_t)st.st_size, &s);
		if (mllog_verdict(&s, 30, &mins, why, sizeof why, &line, &col) == 0) {
			runs[n].log = names[i];
			runs[n].ms = s.stop_ms - s.start_ms;
			runs[n].minutes = mins;
			n++;
		} else {
			failed++;
		}
		free(buf);
	}
	if (power_folder_energy(dir, "smc-dc-power", "x", runs, n, failed, olympic_limit(bench), sf,
				rule, &j, m, &w) != 0)
		fail_msg("%s: %s", dir, w.n ? w.items[0] : "no energy");
	assert_string_equal(m, "DC");
	warn_free(&w);
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	return j;
}

static void published(void **state)
{
	static const struct {
		const char *system;
		double sf;      /* its scaling.json */
		const char *joules;
	} want[] = {
		{ "1xSMC-H100-SXM-80GB", 1.034722222222222, "11769962" },
		{ "8xSMC-H100-SXM-80GB", 1.034722222222222, "20381549" },
		{ "64xSMC-H100-SXM-80GB", 1.0317460317460319, "45837402" },
	};
	const char *top = getenv("GS_TOP");
	char tree[1024], dir[2048], got[64];
	struct stat st;

	(void)state;
	snprintf(tree, sizeof tree, "%s/../shared/mlperf/training_results_v4.0/smc-dc-power/results",
		 top ? top : ".");
	if (stat(tree, &st) != 0) {
		print_message("# SKIP: %s is absent: the published v4.0 energies are not checked\n", tree);
		skip();
	}
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		snprintf(dir, sizeof dir, "%s/%s/llama2_70b_lora", tree, want[i].system);
		snprintf(got, sizeof got, "%.0f",
			 real_energy(dir, "llama2_70b_lora", want[i].sf, power_rule_for_round("v4.0")));
		assert_string_equal(got, want[i].joules);
	}
	/* the v4.1 rule cannot score these logs: their stop has the start's time */
	{
		struct gs_warn w = {0};
		struct power_run r = { "result_4951-240509201759121728742_1.txt", 1e6, 1 };
		double j;
		char m[3];
		snprintf(dir, sizeof dir, "%s/1xSMC-H100-SXM-80GB/llama2_70b_lora", tree);
		assert_int_equal(power_folder_energy(dir, "", "", &r, 1, 0, 0, 1, POWER_RULE_WINDOW, &j, m, &w), -1);
		warn_free(&w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_by_round),
		cmocka_unit_test(stop_at_start_time),
		cmocka_unit_test(window_rule),
		cmocka_unit_test(back_in_time),
		cmocka_unit_test(no_start),
		cmocka_unit_test(zero_window),
		cmocka_unit_test(malformed),
		cmocka_unit_test(measurement_type),
		cmocka_unit_test(switches),
		cmocka_unit_test(olympic),
		cmocka_unit_test(folder_ok),
		cmocka_unit_test(folder_missing_node),
		cmocka_unit_test(folder_bad_files),
		cmocka_unit_test(folder_first_in_order),
		cmocka_unit_test(through_import),
		cmocka_unit_test(published),
	};
	return cmocka_run_group_tests(tests, setup_tree, teardown_tree);
}
