/* test_import.c: the importer on the hand-made trees of tests/fixtures/import (see
 * make_fixtures.py there): scores worked out by hand, warnings, skipped systems, output. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "import.h"
#include "../src/import_model.h"
#include <math.h>

/* the importer's header, written out here so that a change of the schema shows */
#define CSV_HEADER "round,submitter,system,system_name,division,availability,accelerator," \
	"nodes,accelerators_per_node,accelerators,framework,benchmark,minutes,runs_scored," \
	"runs_failed,scaling_factor,run_minutes,benchmark_published,source,run_files,failed_files," \
	"energy_j,power_measurement,gbs,samples_to_converge,convergence_unit,run_samples,rcp_samples"

static char fixture[1024];

static const char *fix(const char *name)
{
	const char *top = getenv("GS_TOP");
	snprintf(fixture, sizeof fixture, "%s/tests/fixtures/import/%s", top ? top : ".", name);
	return fixture;
}

/* The tab in sysG's system_name becomes '?'. Hand-computed: bert 10..14 -> mean(11,12,13) = 12; gnn: empty log fails, 5 and 7 -> [7];
 * gpt3 100,110,130 -> 110; ssd (written retinanet; gnn rgat) 10,20,30,40 + 1 failed -> mean(20,30,40) * 1.5 = 45;
 * stable_diffusion 50,60 + corrupt -> [60]; unet3d 1..8 + 2 failed, m = 4 -> sorted[4:6] = 5.5;
 * dlrm_dcnv2 has 2 failed runs (> 1): no row. Gamma/sysG: 3 nodes x max(0, 1) = 3. */
#define SYS_A "vT,Acme,sysA,\"Acme \"\"A\"\" box\",closed,Available on-premise,NVIDIA H100-SXM5-80GB,2,4,8," \
	"\"PyTorch 24.09, NeMo 24.09\","
static const char expected[] =
	CSV_HEADER "\n"
	SYS_A "bert,12.000000,5,0,1,10.0000;11.0000;12.0000;13.0000;14.0000,bert,Acme/results/sysA/bert,"
	"result_0.txt;result_3.txt;result_2.txt;result_4.txt;result_1.txt,,,,,,,,\n"
	SYS_A "rgat,7.000000,2,1,1,5.0000;7.0000,gnn,Acme/results/sysA/gnn,result_1.txt;result_2.txt,"
	"result_0.txt,,,,,,,\n"
	SYS_A "gpt3,110.000000,3,0,1,100.0000;110.0000;130.0000,gpt3,Acme/results/sysA/gpt3,"
	"result_1.txt;result_2.txt;result_0.txt,,,,,,,,\n"
	SYS_A "retinanet,45.000000,4,1,1.5,10.0000;20.0000;30.0000;40.0000,ssd,Acme/results/sysA/ssd,"
	"result_1.txt;result_3.txt;result_2.txt;result_0.txt,result_4.txt,,,,,,,\n"
	SYS_A "stable_diffusion,60.000000,2,1,1,50.0000;60.0000,stable_diffusion,"
	"Acme/results/sysA/stable_diffusion,result_1.txt;result_0.txt,result_2.txt,,,,,,,\n"
	SYS_A "unet3d,5.500000,8,2,1,1.0000;2.0000;3.0000;4.0000;5.0000;6.0000;7.0000;8.0000,unet3d,"
	"Acme/results/sysA/unet3d,result_1.txt;result_3.txt;result_5.txt;result_7.txt;result_6.txt;"
	"result_4.txt;result_2.txt;result_0.txt,result_8.txt;result_9.txt,,,,,,,\n"
	"vT,Gamma,sysG,\"G,1?x\",closed,Available on-premise,TPU-v5p,3,0,0,,llama2_70b_lora,3.000000,3,0,1,"
	"2.0000;3.0000;4.0000,llama2_70b_lora,Gamma/results/sysG/llama2_70b_lora,"
	"result_1.txt;result_2.txt;result_0.txt,,,,,,,,\n";

static int has_item(const struct gs_warn *w, const char *a, const char *b)
{
	for (size_t i = 0; i < w->n; i++)
		if (strstr(w->items[i], a) && (!b || strstr(w->items[i], b)))
			return 1;
	return 0;
}

static void test_fixture(void **state)
{
	struct import_result r;
	struct gs_err err;

	(void)state;
	assert_int_equal(import_tree(fix("training_results_vT"), "vT", NULL, &r, &err), 0);
	assert_non_null(r.csv);
	if (strcmp(r.csv, expected) != 0)
		fail_msg("CSV differs:\n%s\nwanted:\n%s", r.csv, expected);
	assert_int_equal(r.len, strlen(expected));
	assert_int_equal(r.rows, 7);
	assert_int_equal(r.systems, 2);
	assert_int_equal(r.files, 37);

	/* every way a run fails, named with file, line and column when there is one */
	assert_true(has_item(&r.warn, "dlrm_dcnv2/result_3.txt:", "no run_start"));
	assert_true(has_item(&r.warn, "dlrm_dcnv2/result_4.txt:6:175:", "aborted"));
	assert_true(has_item(&r.warn, "ssd/result_4.txt:", "no run_stop"));
	assert_true(has_item(&r.warn, "unet3d/result_9.txt:6:107:", "not valid JSON"));
	assert_true(has_item(&r.warn, "stable_diffusion/result_2.txt:6:107:", "not valid JSON"));
	assert_true(has_item(&r.warn, "gnn/result_0.txt:", "no MLLOG events"));
	/* bad systems JSON, results without systems JSON, missing and garbage fields */
	assert_true(has_item(&r.warn, "Beta/systems/sysB.json:2:", "does not parse"));
	assert_true(has_item(&r.warn, "Beta/results/sysC:", "no systems/sysC.json"));
	assert_true(has_item(&r.warn, "Gamma/systems/sysG.json:", "missing field \"framework\""));
	assert_true(has_item(&r.warn, "Gamma/systems/sysH.json:", "accelerators_per_node"));
	/* gnn has a power folder holding no run's logs (only a stray result_9.txt): no energy */
	assert_true(has_item(&r.warn, "gnn/power/result_1:", "no power logs for this run"));
	/* a systems JSON that cannot be used names the result folders it leaves unscored */
	assert_true(has_item(&r.warn, "Beta/systems/sysB.json:", "cannot be used: no score for Beta/results/sysB/bert"));
	assert_true(has_item(&r.warn, "Gamma/systems/sysH.json:", "cannot be used: no score for Gamma/results/sysH/bert"));
	/* the fixture's logs carry no GBS: one warning counts the rows left without convergence */
	assert_true(has_item(&r.warn, "convergence: 7 rows with empty cells:", "7 a scored run without GBS"));
	assert_int_equal(r.warn.total, 15);

	assert_true(has_item(&r.unscored, "Acme/sysA/dlrm_dcnv2:", "2 of 5 runs failed"));
	assert_true(has_item(&r.unscored, "Beta/sysB:", "unusable systems JSON"));
	assert_true(has_item(&r.unscored, "Gamma/sysH:", NULL));
	assert_true(has_item(&r.unscored, "Gamma/sysI:", "no results folder"));
	assert_int_equal(r.unscored.total, 4);
	import_result_free(&r);
}

static void test_nothing_importable(void **state)
{
	struct import_result r;
	struct gs_err err;
	(void)state;

	assert_int_equal(import_tree(fix("training_results_bad"), "bad", NULL, &r, &err), 0);
	assert_int_equal(r.rows, 0);
	assert_string_equal(r.csv, CSV_HEADER "\n");
	assert_true(has_item(&r.warn, "z.json:", "does not parse"));
	import_result_free(&r);

	assert_int_equal(import_tree(fix("no_such_tree"), "x", NULL, &r, &err), -1);
	assert_non_null(strstr(err.msg, "cannot read folder"));
	import_result_free(&r);
}

static void test_system_parse(void **state)
{
	static const char good[] = "{\"system_name\": \"Box \\u00e9\", \"division\": \"closed\", "
		"\"status\": \"Available on-premise\", \"accelerator_model_name\": \"H100\", "
		"\"framework\": \"PyTorch\", \"number_of_nodes\": \" 4 \", \"accelerators_per_node\": 8}";
	static const char zero_per_node[] = "{\"number_of_nodes\": 3.0, \"accelerators_per_node\": \"0\"}";
	static const char *const unusable[] = {
		"", "[1, 2]", "{\"number_of_nodes\": \"2\"}", "{\"number_of_nodes\": 0, \"accelerators_per_node\": 1}",
		"{\"number_of_nodes\": \"2x\", \"accelerators_per_node\": 1}",
		"{\"number_of_nodes\": 1.5, \"accelerators_per_node\": 1}",
		"{\"number_of_nodes\": \"1234567890\", \"accelerators_per_node\": 1}",
		"{\"number_of_nodes\": 1, \"accelerators_per_node\": -1}",
		"{\"number_of_nodes\": [1], \"accelerators_per_node\": 1}",
		"{\"number_of_nodes\": 1, \"accelerators_per_node\": 1", "\"a\"", "{\"a\": \"\\u0000\"}",
	};
	struct import_system sys;
	struct gs_warn w = {0};
	struct gs_err err;
	char *deep;
	(void)state;

	assert_int_equal(import_system_parse(good, sizeof good - 1, "g.json", &sys, &w, &err), 0);
	assert_true(sys.usable);
	assert_string_equal(sys.system_name, "Box \xc3\xa9");
	assert_string_equal(sys.availability, "Available on-premise");
	assert_int_equal(sys.nodes, 4);
	assert_int_equal(sys.per_node, 8);
	assert_int_equal(sys.accelerators, 32);
	assert_int_equal(w.total, 0);
	import_system_free(&sys);

	/* counts as JSON numbers or strings; missing text fields are "" with a warning each */
	assert_int_equal(import_system_parse(zero_per_node, sizeof zero_per_node - 1, "z.json", &sys, &w,
					     &err), 0);
	assert_true(sys.usable);
	assert_int_equal(sys.accelerators, 0); /* CPU only: the official count is 0 */
	assert_string_equal(sys.framework, "");
	assert_int_equal(w.total, 5);
	assert_true(has_item(&w, "z.json", "missing field \"framework\""));
	import_system_free(&sys);
	warn_free(&w);

	for (size_t i = 0; i < sizeof unusable / sizeof unusable[0]; i++) {
		assert_int_equal(import_system_parse(unusable[i], strlen(unusable[i]), "u.json", &sys, &w,
						     &err), 0);
		if (sys.usable)
			fail_msg("'%s' is usable", unusable[i]);
		assert_non_null(sys.system_name);
		assert_non_null(sys.framework);
		assert_true(w.total > 0);
		import_system_free(&sys);
		warn_free(&w);
	}
	/* the error names line and column */
	assert_int_equal(import_system_parse("{\n  \"a\": x}", 11, "l.json", &sys, &w, &err), 0);
	assert_true(has_item(&w, "l.json:2:", "does not parse"));
	import_system_free(&sys);
	warn_free(&w);
	/* deep nesting and bytes after a NUL are refused, not crashed on */
	assert_non_null(deep = malloc(10000));
	memset(deep, '[', 10000);
	assert_int_equal(import_system_parse(deep, 10000, "d.json", &sys, &w, &err), 0);
	assert_false(sys.usable);
	import_system_free(&sys);
	warn_free(&w);
	free(deep);
	assert_int_equal(import_system_parse("{}\0{}", 5, "n.json", &sys, &w, &err), 0);
	assert_false(sys.usable);
	import_system_free(&sys);
	warn_free(&w);
}

static void test_round_from_dir(void **state)
{
	char buf[64];
	(void)state;
	assert_int_equal(import_round_from_dir("training_results_v4.1", buf, sizeof buf), 0);
	assert_string_equal(buf, "v4.1");
	assert_int_equal(import_round_from_dir("/a/b/training_results_v4.0//", buf, sizeof buf), 0);
	assert_string_equal(buf, "v4.0");
	assert_int_equal(import_round_from_dir("/a/results", buf, sizeof buf), -1);
	assert_int_equal(import_round_from_dir("training_results_", buf, sizeof buf), -1);
	/* "." (and any name that does not say) by the folder's real name */
	{
		char dir[] = "/tmp/gs_round_XXXXXX", sub[64], cwd[4096];
		assert_non_null(mkdtemp(dir));
		snprintf(sub, sizeof sub, "%s/training_results_v9.9", dir);
		assert_int_equal(mkdir(sub, 0700), 0);
		assert_non_null(getcwd(cwd, sizeof cwd));
		assert_int_equal(chdir(sub), 0);
		assert_int_equal(import_round_from_dir(".", buf, sizeof buf), 0);
		assert_string_equal(buf, "v9.9");
		assert_int_equal(chdir(cwd), 0);
		rmdir(sub);
		rmdir(dir);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	static char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_write(void **state)
{
	char dir[] = "/tmp/gs_import_XXXXXX", path[256];
	struct gs_err err;
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/out.csv", dir);
	assert_int_equal(import_output(path, "one\n", 4, false, &err), 0);
	assert_string_equal(slurp(path), "one\n");
	assert_int_equal(import_output(path, "two\n", 4, false, &err), -1);
	assert_int_equal(errno, EEXIST);
	assert_string_equal(slurp(path), "one\n");
	assert_int_equal(import_output(path, "two\n", 4, true, &err), 0);
	assert_string_equal(slurp(path), "two\n");
	/* a failing device write reports an error */
	if (access("/dev/full", W_OK) == 0)
		assert_int_equal(import_output("/dev/full", "x\n", 2, true, &err), -1);
	/* no folder: error, nothing left behind */
	snprintf(path, sizeof path, "%s/missing/out.csv", dir);
	assert_int_equal(import_output(path, "x\n", 2, true, &err), -1);
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* One MLLOG line: key, value and metadata as JSON texts. */
#define EV(key, value, meta) ":::MLLOG {\"time_ms\": 1, \"key\": \"" key "\", \"value\": " value \
	", \"metadata\": {" meta "}}\n"

static void run_of(const char *log, const char *bench, const char *round, double *gbs, double *samples)
{
	int oom = 0;
	import_conv_run(log, strlen(log), bench, round, gbs, samples, &oom);
	assert_int_equal(oom, 0);
}

/* The unit traps of ../shared/mlperf/README.md ("Convergence"), each on a log made for it. */
static void test_convergence_run(void **state)
{
	double g, s;
	(void)state;

	/* the last eval before run_stop; a later one does not count */
	run_of(EV("global_batch_size", "8", "") EV("eval_accuracy", "0.9", "\"samples_count\": 3072")
	       EV("eval_accuracy", "0.93", "\"samples_count\": 3456") EV("run_stop", "null", "\"status\": \"success\"")
	       EV("eval_accuracy", "0.94", "\"samples_count\": 9999"), "llama2_70b_lora", "v5.0", &g, &s);
	assert_true(g == 8 && s == 3456);
	/* epoch_num rounded to 3 decimals */
	run_of(EV("global_batch_size", "65536", "") EV("eval_accuracy", "0.8", "\"epoch_num\": 0.74996")
	       EV("run_stop", "null", ""), "dlrm_dcnv2", "v4.0", &g, &s);
	assert_true(s == 0.75);
	/* DLRM up to v2.1: 1-based */
	run_of(EV("global_batch_size", "55296", "") EV("eval_accuracy", "0.8", "\"epoch_num\": 1.8990001")
	       EV("run_stop", "null", ""), "dlrm", "v2.0", &g, &s);
	assert_true(fabs(s - 0.899) < 1e-12);
	/* BERT with epoch_num 1 on every eval: train_samples after the evals, not the configured one */
	run_of(EV("global_batch_size", "448", "") EV("train_samples", "3502080", "")
	       EV("eval_accuracy", "0.7", "\"epoch_num\": 1") EV("train_samples", "2400384", "")
	       EV("run_stop", "null", ""), "bert", "v2.0", &g, &s);
	assert_true(s == 2400384);
	/* BERT whose epoch_num is samples keeps it */
	run_of(EV("global_batch_size", "448", "") EV("train_samples", "3502080", "")
	       EV("eval_accuracy", "0.72", "\"epoch_num\": 2626560") EV("run_stop", "null", ""), "bert", "v2.0",
	       &g, &s);
	assert_true(s == 2626560);
	/* Stable Diffusion v3.1: the first step passing both targets, times the GBS */
	run_of(EV("global_batch_size", "512", "")
	       EV("eval_accuracy", "85", "\"step_num\": 6000, \"metric\": \"FID\"")
	       EV("eval_accuracy", "0.16", "\"step_num\": 6000, \"metric\": \"CLIP\"")
	       EV("eval_accuracy", "88", "\"step_num\": 5000, \"metric\": \"FID\"")
	       EV("eval_accuracy", "0.14", "\"step_num\": 4000, \"metric\": \"CLIP\"")
	       EV("eval_accuracy", "0.151", "\"step_num\": 5000, \"metric\": \"CLIP\"")
	       EV("run_stop", "null", ""), "stable_diffusion", "v3.1", &g, &s);
	assert_true(s == 5000.0 * 512);
	/* minigo: none; no GBS: NAN */
	run_of(EV("eval_accuracy", "0.5", "\"epoch_num\": 3") EV("run_stop", "null", ""), "minigo", "v2.0", &g, &s);
	assert_true(isnan(g) && isnan(s));
	assert_string_equal(import_conv_unit("unet3d", "v3.0"), "epochs");
	assert_string_equal(import_conv_unit("unet3d", "v3.1"), "samples");
	assert_string_equal(import_conv_unit("gpt3", "v4.1"), "tokens");
	assert_string_equal(import_conv_unit("resnet", "v4.0"), "epochs");
}

/* The row: the summarizer's olympic mean (one each side, a failed run the highest). */
static void test_convergence_row(void **state)
{
	double g8[] = { 8, 8, 8, 8 }, gx[] = { 8, 8, 16, 8 }, s[] = { 3456, 2688, 3072, 3840 }, gbs, mean;
	int oom = 0;
	(void)state;

	assert_int_equal(import_conv_row(g8, s, 4, 0, "llama2_70b_lora", &gbs, &mean, &oom), CONV_OK);
	assert_true(gbs == 8 && mean == (3072 + 3456) / 2.0);
	assert_int_equal(import_conv_row(g8, s, 4, 1, "llama2_70b_lora", &gbs, &mean, &oom), CONV_OK);
	assert_true(mean == (3072 + 3456 + 3840) / 3.0);
	assert_int_equal(import_conv_row(g8, s, 4, 2, "unet3d", &gbs, &mean, &oom), CONV_FAILED_RUNS);
	assert_true(gbs == 8 && isnan(mean));
	assert_int_equal(import_conv_row(gx, s, 4, 0, "llama2_70b_lora", &gbs, &mean, &oom), CONV_GBS_DIFFER);
	assert_true(isnan(gbs) && isnan(mean));
	assert_int_equal(import_conv_row(g8, s, 2, 0, "llama2_70b_lora", &gbs, &mean, &oom), CONV_TOO_FEW);
	assert_int_equal(import_conv_row(g8, s, 4, 0, "minigo", &gbs, &mean, &oom), CONV_NO_DATA);
	assert_int_equal(oom, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_nothing_importable),
		cmocka_unit_test(test_system_parse),
		cmocka_unit_test(test_round_from_dir),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_convergence_run),
		cmocka_unit_test(test_convergence_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
