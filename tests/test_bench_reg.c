/* The benchmark registry: ids by round, run rules, MLCommons' compatibility spans, and what a
 * view leaves out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "bench_reg.h"
#include "dataset.h"

static void versions(void **state)
{
	(void)state;
	assert_int_equal(bench_round_version("v2.0"), 200);
	assert_int_equal(bench_round_version("v5.1"), 501);
	assert_int_equal(bench_round_version("3.1"), 301);
	assert_int_equal(bench_round_version("v10.1"), 1001);
	assert_int_equal(bench_round_version("vT"), -1);
	assert_int_equal(bench_round_version("v2"), -1);
	assert_int_equal(bench_round_version("v2.0x"), -1);
	assert_int_equal(bench_round_version(""), -1);
	assert_int_equal(bench_round_version(NULL), -1);
}

/* `ssd` is RetinaNet only from v2.0 on: before, SSD-ResNet34, another benchmark */
static void ids_by_round(void **state)
{
	(void)state;
	assert_string_equal(bench_reg_canon("ssd", "v1.1"), "ssd");
	assert_string_equal(bench_reg_canon("ssd", "v0.7"), "ssd");
	assert_string_equal(bench_reg_canon("ssd", "v2.0"), "retinanet");
	assert_string_equal(bench_reg_canon("ssd", "v4.1"), "retinanet");
	assert_string_equal(bench_reg_canon("retinanet", "v5.0"), "retinanet");
	assert_string_equal(bench_reg_canon("ssd", "vT"), "retinanet"); /* not vX.Y: the newest */
	assert_string_equal(bench_reg_canon("gnn", "v4.0"), "rgat");
	assert_string_equal(bench_reg_canon("dlrmv4", "v6.1"), "dlrm_v4_hstu");
	assert_string_equal(bench_reg_canon("bert", "v3.0"), "bert");
	assert_string_equal(bench_reg_canon("my_job", "v3.0"), "my_job");
	assert_string_equal(bench_reg_find("ssd")->name, "SSD-ResNet34 (COCO)");
	assert_string_not_equal(bench_reg_find("ssd")->label, bench_reg_find("retinanet")->label);
}

/* The spans of the compatibility table (../shared/mlperf/README.md) */
static void comparable(void **state)
{
	(void)state;
	assert_false(bench_reg_comparable("rnnt", "v1.0", "v1.1"));
	assert_true(bench_reg_comparable("rnnt", "v1.1", "v3.1"));
	assert_false(bench_reg_comparable("bert", "v0.7", "v1.0"));
	assert_true(bench_reg_comparable("bert", "v1.0", "v5.0"));
	assert_true(bench_reg_comparable("resnet", "v0.6", "v4.0"));
	assert_false(bench_reg_comparable("resnet", "v0.5", "v0.6")); /* v0.5 stands alone */
	assert_true(bench_reg_comparable("retinanet", "v2.0", "v5.1"));
	assert_true(bench_reg_comparable("ssd", "v0.6", "v1.1"));
	assert_false(bench_reg_comparable("llama2_70b_lora", "v6.0", "v6.1")); /* v6.1 not in the table */
	assert_true(bench_reg_comparable("llama2_70b_lora", "v4.0", "v6.0"));
	assert_true(bench_reg_comparable("deepseekv3_671b", "v6.0", "v6.0"));
	assert_true(bench_reg_comparable("my_job", "v1", "v2")); /* not MLPerf's: no rule */
	assert_true(bench_reg_comparable("bert", "vT", "vT"));
	assert_false(bench_reg_comparable("bert", "vT", "v5.0"));
}

static void group_text(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(bench_reg_group_text("retinanet", "v3.0", buf, sizeof buf), "v2.0-v5.1");
	assert_string_equal(bench_reg_group_text("bert", "v0.7", buf, sizeof buf), "v0.7 alone");
	assert_string_equal(bench_reg_group_text("gpt_oss_20b", "v6.0", buf, sizeof buf), "v6.0 only");
	assert_true(bench_reg_related("ssd", "retinanet"));
	assert_true(bench_reg_related("retinanet", "ssd"));
	assert_false(bench_reg_related("bert", "retinanet"));
}

static void run_rules(void **state)
{
	char rs[16];

	(void)state;
	assert_int_equal(bench_reg_drop("unet3d"), 4);
	assert_int_equal(bench_reg_drop("bert"), 1);
	assert_int_equal(bench_reg_drop("my_job"), 1);
	assert_int_equal(bench_reg_find("unet3d")->runs, 40);
	assert_int_equal(bench_reg_find("gpt3")->runs, 3);
	assert_int_equal(bench_reg_find("dlrm")->runs, 5);
	assert_int_equal(bench_reg_find("dlrm_dcnv2")->runs, 10);
	assert_true(bench_reg_init_limit("v0.7", false) == 20);
	assert_true(bench_reg_init_limit("v1.1", true) == 30);
	assert_true(bench_reg_init_limit("v2.0", true) == 240);
	assert_true(bench_reg_init_limit("v5.0", false) == 30);
	assert_true(bench_reg_init_limit("vT", true) == 240);
	assert_true(bench_reg_init_limit("v0.6", false) == 0);
	assert_string_equal(bench_reg_ruleset("v3.0", rs, sizeof rs), "3.0.0");
	assert_string_equal(bench_reg_ruleset("vT", rs, sizeof rs), "");
}

/* One table: unique ids, the v6.0 and v6.1 benchmarks, and the tabs' order kept */
static void table(void **state)
{
	static const char *const order[] = { "bert", "llama2_70b_lora", "retinanet", "stable_diffusion",
		"gpt3", "dlrm_dcnv2", "rgat", "resnet", "unet3d", "llama31_8b", "llama31_405b", "flux1" };
	static const char *const newer[] = { "deepseekv3_671b", "gpt_oss_20b", "qwen35_397b_grpo",
		"dlrm_v4_hstu" };
	size_t n;
	const struct bench_def *all = bench_reg_all(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		assert_true(*all[i].label && *all[i].name && all[i].runs > 2 * all[i].drop);
		for (size_t k = i + 1; k < n; k++)
			assert_string_not_equal(all[i].id, all[k].id);
	}
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		assert_string_equal(all[i].id, order[i]);
	for (size_t i = 0; i < sizeof newer / sizeof newer[0]; i++)
		assert_non_null(bench_reg_find(newer[i]));
}

/* The notice of a view: other versions of the benchmark, rows without accelerators */
static void notice(void **state)
{
	static const char csv[] =
		"round,system,benchmark,benchmark_published,accelerators,minutes\n"
		"v1.0,a,rnnt,rnnt,8,50\nv1.1,a,rnnt,rnnt,8,40\nv3.1,a,rnnt,rnnt,8,20\n"
		"v1.0,s,ssd,ssd,8,16.47\nv2.0,r,ssd,ssd,8,278.96\nv3.0,r,retinanet,ssd,8,200\n"
		"v3.0,cpu,retinanet,ssd,0,300\n";
	struct dataset ds = { 0 };
	struct gs_err err;
	char buf[300];
	size_t nr = 0;
	const struct row *v20 = NULL;

	(void)state;
	assert_int_equal(dataset_load_buffer(&ds, "n.csv", csv, sizeof csv - 1, &err), 0);
	/* the loader gives each row its id across rounds */
	for (size_t i = 0; i < ds.n; i++) {
		if (!strcmp(ds.rows[i].round, "v2.0"))
			v20 = &ds.rows[i];
		nr += !strcmp(ds.rows[i].benchmark, "retinanet");
	}
	assert_non_null(v20);
	assert_string_equal(v20->benchmark, "retinanet");
	assert_int_equal(nr, 3);
	assert_int_equal(bench_reg_notice(&ds, "v3.1", "rnnt", true, buf, sizeof buf), 1);
	assert_string_equal(buf, "RNN-T v1.0: another version of the benchmark, not pooled");
	assert_int_equal(bench_reg_notice(&ds, "v3.1", "rnnt", false, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	assert_int_equal(bench_reg_notice(&ds, "v3.0", "retinanet", true, buf, sizeof buf), 2);
	assert_string_equal(buf, "SSD-RN34 v1.0: another benchmark published as ssd, not pooled; "
			    "1 CPU-only row (0 accelerators): no E', left out");
	assert_int_equal(bench_reg_notice(&ds, "v3.0", "retinanet", false, buf, sizeof buf), 1);
	/* a short buffer is cut, never overrun */
	assert_int_equal(bench_reg_notice(&ds, "v3.0", "retinanet", true, buf, 10), 2);
	assert_int_equal(strlen(buf), 9);
	for (size_t i = 0; i < ds.n; i++) {
		const struct row *r = &ds.rows[i];
		bool want = r->accelerators > 0 && strcmp(r->round, "v1.0") != 0;
		assert_int_equal(bench_reg_pooled(r, "v3.1"), want);
	}
	dataset_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(versions), cmocka_unit_test(ids_by_round), cmocka_unit_test(comparable),
		cmocka_unit_test(group_text), cmocka_unit_test(run_rules), cmocka_unit_test(table),
		cmocka_unit_test(notice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
