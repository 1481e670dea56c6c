/* bench_reg.c: the benchmark registry. Facts from MLPerf's rules and MLCommons' compatibility
 * table (MLPerf_Compatibility_Table.adoc): one table, read by the importer (ids, run rules),
 * the loader (ids), the explorer (labels, display order) and the cross-round view (spans). */
#include "bench_reg.h"
#include "text.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define V(a, b) ((a) * 100 + (b))
#define NEWEST INT_MAX

/* Display order: the paper's workloads first (as the tabs have always been), then the rounds
 * after it, then the older benchmarks. */
static const struct bench_def reg[] = {
	{ .id = "bert", .label = "BERT", .name = "BERT",
	  .drop = 1, .runs = 10, .groups = { { V(1, 0), V(5, 0) } } },
	{ .id = "llama2_70b_lora", .label = "Llama2-LoRA", .name = "Llama2-70B-LoRA",
	  .drop = 1, .runs = 10, .groups = { { V(4, 0), V(6, 0) } } },
	/* v2.0 replaced SSD-ResNet34 by RetinaNet and kept the folder name `ssd` until v4.1 */
	{ .id = "retinanet", .label = "RetinaNet", .name = "RetinaNet (SSD with ResNeXt50, OpenImages)",
	  .aliases = { { "ssd", { V(2, 0), NEWEST } } }, .drop = 1, .runs = 5, .groups = { { V(2, 0), V(5, 1) } } },
	{ .id = "stable_diffusion", .label = "StableDiff", .name = "Stable Diffusion v2",
	  .drop = 1, .runs = 10, .groups = { { V(3, 1), V(5, 0) } } },
	{ .id = "gpt3", .label = "GPT3", .name = "GPT3",
	  .drop = 1, .runs = 3, .groups = { { V(3, 0), V(4, 1) } } },
	{ .id = "dlrm_dcnv2", .label = "DLRM", .name = "DLRM-DCNv2",
	  .drop = 1, .runs = 10, .groups = { { V(3, 0), V(6, 0) } } },
	{ .id = "rgat", .label = "R-GAT", .name = "R-GAT (GNN)",
	  .aliases = { { "gnn", { V(4, 0), NEWEST } } }, .drop = 1, .runs = 10, .groups = { { V(4, 0), V(5, 1) } } },
	{ .id = "resnet", .label = "ResNet", .name = "ResNet-50",
	  .drop = 1, .runs = 5, .groups = { { V(0, 6), V(4, 0) } } },
	{ .id = "unet3d", .label = "3D-UNet", .name = "3D U-Net",
	  .drop = 4, .runs = 40, .groups = { { V(1, 0), V(4, 0) } } },
	{ .id = "llama31_8b", .label = "Llama3.1-8B", .name = "Llama 3.1 8B",
	  .drop = 1, .runs = 10, .groups = { { V(5, 1), V(6, 0) } } },
	{ .id = "llama31_405b", .label = "Llama3.1-405B", .name = "Llama 3.1 405B",
	  .drop = 1, .runs = 3, .groups = { { V(5, 0), V(6, 0) } } },
	{ .id = "flux1", .label = "Flux.1", .name = "Flux.1",
	  .drop = 1, .runs = 10, .groups = { { V(5, 1), V(6, 0) } } },
	{ .id = "deepseekv3_671b", .label = "DeepSeek-V3", .name = "DeepSeek V3 671B (MoE)",
	  .drop = 1, .runs = 3, .groups = { { V(6, 0), V(6, 0) } } },
	{ .id = "gpt_oss_20b", .label = "GPT-OSS-20B", .name = "GPT-OSS 20B (MoE)",
	  .drop = 1, .runs = 10, .groups = { { V(6, 0), V(6, 0) } } },
	/* v6.1 is not yet in the compatibility table: its new benchmarks stand alone */
	{ .id = "qwen35_397b_grpo", .label = "Qwen3.5-GRPO", .name = "Qwen3.5 397B GRPO (post-training)",
	  .drop = 1, .runs = 3 },
	{ .id = "dlrm_v4_hstu", .label = "DLRMv4-HSTU", .name = "DLRM v4 HSTU",
	  .aliases = { { "dlrmv4", { 0, NEWEST } } }, .drop = 1, .runs = 10 },
	{ .id = "maskrcnn", .label = "Mask-RCNN", .name = "Mask R-CNN",
	  .drop = 1, .runs = 5, .groups = { { V(0, 6), V(3, 1) } } },
	{ .id = "rnnt", .label = "RNN-T", .name = "RNN-T",
	  .drop = 1, .runs = 10, .groups = { { V(1, 1), V(3, 1) } } },
	{ .id = "minigo", .label = "MiniGo", .name = "MiniGo",
	  .drop = 1, .runs = 10, .groups = { { V(0, 7), V(2, 1) } } },
	{ .id = "dlrm", .label = "DLRMv1", .name = "DLRM",
	  .drop = 1, .runs = 5, .groups = { { V(0, 7), V(2, 1) } } },
	{ .id = "ssd", .label = "SSD-RN34", .name = "SSD-ResNet34 (COCO)",
	  .aliases = { { "ssd", { 0, V(1, 1) } } }, .drop = 1, .runs = 5, .groups = { { V(0, 6), V(1, 1) } } },
	{ .id = "gnmt", .label = "GNMT", .name = "GNMT",
	  .drop = 1, .runs = 10, .groups = { { V(0, 6), V(0, 7) } } },
	{ .id = "transformer", .label = "Transformer", .name = "Transformer",
	  .drop = 1, .runs = 10, .groups = { { V(0, 6), V(0, 7) } } },
	{ .id = "ncf", .label = "NCF", .name = "NCF",
	  .drop = 1, .runs = 10 },
};
#define NREG (sizeof reg / sizeof reg[0])

int bench_round_version(const char *round)
{
	int major = 0, minor = 0, d = 0;
	const char *p = round;

	if (!p)
		return -1;
	if (*p == 'v' || *p == 'V')
		p++;
	for (; *p >= '0' && *p <= '9'; p++, d++)
		if ((major = major * 10 + (*p - '0')) > 9999)
			return -1;
	if (!d || *p++ != '.')
		return -1;
	for (d = 0; *p >= '0' && *p <= '9'; p++, d++)
		if ((minor = minor * 10 + (*p - '0')) > 99)
			return -1;
	return d && !*p ? major * 100 + minor : -1;
}

const struct bench_def *bench_reg_all(size_t *n)
{
	*n = NREG;
	return reg;
}

const struct bench_def *bench_reg_find(const char *id)
{
	for (size_t i = 0; id && i < NREG; i++)
		if (strcmp(reg[i].id, id) == 0)
			return &reg[i];
	return NULL;
}

static bool in_span(const struct bench_span *s, int v)
{
	return v >= s->from && v <= s->to && s->to > 0;
}

const char *bench_reg_canon(const char *published, const char *round)
{
	int v = bench_round_version(round);

	if (v < 0)
		v = NEWEST;
	for (size_t i = 0; i < NREG; i++)
		for (size_t k = 0; k < BENCH_MAX_ALIASES && reg[i].aliases[k].published; k++)
			if (strcmp(reg[i].aliases[k].published, published) == 0 &&
			    in_span(&reg[i].aliases[k].rounds, v))
				return reg[i].id;
	return published;
}

size_t bench_reg_drop(const char *id)
{
	const struct bench_def *d = bench_reg_find(id);

	return d ? d->drop : 1;
}

int bench_reg_group(const char *id, const char *round, struct bench_span *span)
{
	const struct bench_def *d = bench_reg_find(id);
	int v = bench_round_version(round);

	/* v0.5 stands alone in every benchmark: v0.6 changed how initialization is timed */
	if (!d || v < 0)
		return -1;
	for (size_t k = 0; k < BENCH_MAX_GROUPS; k++)
		if (in_span(&d->groups[k], v)) {
			*span = d->groups[k];
			return 0;
		}
	return -1;
}

bool bench_reg_comparable(const char *id, const char *a, const char *b)
{
	struct bench_span x, y;

	if (strcmp(a, b) == 0)
		return true;
	/* a benchmark of one's own (a user's scaling runs): MLPerf's table says nothing of it */
	if (!bench_reg_find(id))
		return true;
	return bench_reg_group(id, a, &x) == 0 && bench_reg_group(id, b, &y) == 0 &&
	       x.from == y.from && x.to == y.to;
}

char *bench_reg_group_text(const char *id, const char *round, char *buf, size_t n)
{
	struct bench_span s;

	if (!bench_reg_find(id))
		snprintf(buf, n, "any round (not an MLPerf benchmark)");
	else if (bench_reg_group(id, round, &s) < 0)
		snprintf(buf, n, "%s alone", round);
	else if (s.from == s.to)
		snprintf(buf, n, "v%d.%d only", s.from / 100, s.from % 100);
	else
		snprintf(buf, n, "v%d.%d-v%d.%d", s.from / 100, s.from % 100, s.to / 100, s.to % 100);
	return buf;
}

/* The published names of d, its own id included when no alias names it. */
static bool publishes(const struct bench_def *d, const char *name)
{
	if (strcmp(d->id, name) == 0)
		return true;
	for (size_t k = 0; k < BENCH_MAX_ALIASES && d->aliases[k].published; k++)
		if (strcmp(d->aliases[k].published, name) == 0)
			return true;
	return false;
}

bool bench_reg_related(const char *x, const char *y)
{
	const struct bench_def *a = bench_reg_find(x), *b = bench_reg_find(y);

	if (strcmp(x, y) == 0)
		return true;
	if (!a || !b)
		return false;
	if (publishes(b, a->id))
		return true;
	for (size_t k = 0; k < BENCH_MAX_ALIASES && a->aliases[k].published; k++)
		if (publishes(b, a->aliases[k].published))
			return true;
	return false;
}

char *bench_reg_ruleset(const char *round, char *buf, size_t n)
{
	int v = bench_round_version(round);

	if (v < 0)
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, "%d.%d.0", v / 100, v % 100);
	return buf;
}

double bench_reg_init_limit(const char *round, bool open)
{
	int v = bench_round_version(round);

	if (v >= 0 && v < V(0, 7))
		return 0;
	if (v == V(0, 7))
		return 20;
	if (v >= 0 && v < V(2, 0))
		return 30;
	return open ? 240 : 30;
}

/* ---- names ---- */

size_t workload_rank(const char *id)
{
	const struct bench_def *d = bench_reg_find(id);

	return d ? (size_t)(d - reg) : NREG;
}

const char *workload_label(const char *id)
{
	const struct bench_def *d = bench_reg_find(id);

	return d ? d->label : id;
}

size_t name_find(const char *const *list, size_t n, const char *name, bool labels)
{
	if (!name)
		return n;
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return i;
	for (size_t i = 0; i < n; i++)
		if (ascii_casecmp(list[i], name) == 0 || (labels && ascii_casecmp(workload_label(list[i]), name) == 0))
			return i;
	return n;
}
