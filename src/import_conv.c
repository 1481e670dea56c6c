/* import_conv.c: what each scored run needed to converge, and its row's summary: the global
 * batch size (GBS) and the convergence point of every run, read from its log, as the official
 * result summarizer defines them (mlcommons/logging, ../shared/mlperf/README.md
 * "Convergence"), in the benchmark's own unit, with the unit traps of the older rounds. */
#include "import_model.h"
#include "bench_reg.h"
#include "mllog.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Benchmarks whose convergence point is metadata.samples_count (the others: epoch_num). */
static bool by_samples_count(const char *bench)
{
	static const char *const ids[] = { "llama2_70b_lora", "flux1", "llama31_405b", "llama31_8b",
					   "gpt_oss_20b", "deepseekv3_671b", "qwen35_397b_grpo",
					   "dlrm_v4_hstu" };

	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (strcmp(bench, ids[i]) == 0)
			return true;
	return false;
}

/* The round as X * 100 + Y (its ruleset X.Y.0), or -1 when it is not named vX.Y. */
static int round_version(const char *round)
{
	char rs[16];
	int x, y;

	if (sscanf(bench_reg_ruleset(round, rs, sizeof rs), "%d.%d", &x, &y) != 2)
		return -1;
	return x * 100 + y;
}

const char *import_conv_unit(const char *bench, const char *round)
{
	int v = round_version(round);

	if (by_samples_count(bench) || !strcmp(bench, "bert") || !strcmp(bench, "stable_diffusion"))
		return "samples";
	if (!strcmp(bench, "gpt3"))
		return "tokens";
	if (!strcmp(bench, "unet3d"))
		return v >= 301 ? "samples" : "epochs";
	return "epochs";
}

/* x rounded to 3 decimals as the summarizer's round(x, 3): the nearest of the decimal texts,
 * read back (printf rounds the binary value exactly, as Python does). */
static double round3(double x)
{
	char buf[64];

	if (!(fabs(x) < 1e17)) /* whole numbers there */
		return x;
	snprintf(buf, sizeof buf, "%.3f", x);
	return strtod(buf, NULL);
}

/* Whether p (a step or a sample count) is in list[n]. */
static bool has_point(const double *list, size_t n, double p)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == p)
			return true;
	return false;
}

/* Stable Diffusion: the least point where an FID eval is <= 90 and a CLIP eval >= 0.15 (steps
 * in v3.1, when the point is step_num, else samples_count); NAN when none. */
struct sd_evals {
	double *fid, *clip;
	size_t nfid, nclip, cap;
};

static int sd_add(double **list, size_t *n, size_t *cap, double p)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		double *g = realloc(*list, c * sizeof *g);
		if (!g)
			return -1;
		*list = g;
		*cap = c;
	}
	(*list)[(*n)++] = p;
	return 0;
}

void import_conv_run(const char *buf, size_t len, const char *bench, const char *round, double *gbs,
		     double *samples, int *oom)
{
	int v = round_version(round);
	bool sd = !strcmp(bench, "stable_diffusion"), sd_steps = sd && v >= 0 && v < 400;
	bool gbs_seen = false, eval_seen = false;
	double last_epoch = NAN, last_count = NAN, train_samples = NAN;
	double *fid = NULL, *clip = NULL;
	size_t nfid = 0, nclip = 0, capf = 0, capc = 0;
	struct mllog_event ev;
	size_t pos = 0;
	long line = 1;

	*gbs = NAN;
	*samples = NAN;
	while (mllog_event_next(buf, len, &pos, &line, &ev)) {
		if (ev.bad_col)
			continue;
		if (!strcmp(ev.key, "run_stop"))
			break;
		if (!gbs_seen && !strcmp(ev.key, "global_batch_size")) {
			gbs_seen = true;
			if (ev.value_is_number)
				*gbs = ev.value;
		} else if (!strcmp(ev.key, "train_samples") && eval_seen && ev.value_is_number) {
			train_samples = ev.value;
		} else if (!strcmp(ev.key, "eval_accuracy")) {
			eval_seen = true;
			last_epoch = ev.has_epoch_num ? ev.epoch_num : NAN;
			last_count = ev.has_samples_count ? ev.samples_count : NAN;
			double p = sd_steps ? (ev.has_step_num ? ev.step_num : NAN) : last_count;
			if (sd && !isnan(p) && ev.value_is_number) {
				int rc = 0;
				if (!strcmp(ev.metric, "FID") && ev.value <= 90)
					rc = sd_add(&fid, &nfid, &capf, p);
				else if (!strcmp(ev.metric, "CLIP") && ev.value >= 0.15)
					rc = sd_add(&clip, &nclip, &capc, p);
				if (rc < 0)
					*oom = 1;
			}
		}
	}
	if (!strcmp(bench, "minigo")) {
		/* no GBS, progress in generations: nothing to compare */
	} else if (sd) {
		double best = NAN;
		for (size_t i = 0; i < nfid; i++)
			if (has_point(clip, nclip, fid[i]) && !(fid[i] >= best))
				best = fid[i];
		*samples = sd_steps ? best * *gbs : best;
	} else if (by_samples_count(bench)) {
		*samples = last_count;
	} else if (!strcmp(bench, "bert") && last_epoch < *gbs) {
		/* up to v2.1 some logs give every eval epoch_num 1 or a block index, never a sample
		 * count (which is at least one batch): their count is train_samples logged after
		 * the evals began (the one before them is the configured most) */
		*samples = train_samples;
	} else if (!strcmp(bench, "dlrm")) {
		/* DLRM (to v2.1) logs 1-based epochs: 1.899 is 0.899 of an epoch */
		*samples = round3(last_epoch - 1);
	} else {
		*samples = round3(last_epoch);
	}
	if (!isfinite(*samples) || !(*samples > 0))
		*samples = NAN;
	free(fid);
	free(clip);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

enum conv_why import_conv_row(const double *gbs, const double *samples, size_t nok, size_t failed,
			      const char *bench, double *row_gbs, double *mean, int *oom)
{
	double *s;
	size_t from, to;

	*row_gbs = NAN;
	*mean = NAN;
	if (!strcmp(bench, "minigo"))
		return CONV_NO_DATA;
	for (size_t i = 0; i < nok; i++) {
		if (isnan(gbs[i]) || isnan(samples[i]))
			return CONV_RUN_LACKS;
		if (gbs[i] != gbs[0])
			return CONV_GBS_DIFFER;
	}
	if (nok == 0)
		return CONV_RUN_LACKS;
	*row_gbs = gbs[0];
	/* the summarizer counts a run that did not converge as 1e9 before it drops the lowest
	 * and the highest: one failed run is the dropped highest; more leave no mean */
	if (failed > 1)
		return CONV_FAILED_RUNS;
	if (!(s = malloc(nok * sizeof *s))) {
		*oom = 1;
		return CONV_OK;
	}
	memcpy(s, samples, nok * sizeof *s);
	qsort(s, nok, sizeof *s, cmp_double);
	from = 1;
	to = failed ? nok : nok - 1;
	if (to > from) {
		double sum = 0;
		for (size_t i = from; i < to; i++)
			sum += s[i];
		*mean = sum / (double)(to - from);
	}
	free(s);
	return to > from ? CONV_OK : CONV_TOO_FEW;
}
