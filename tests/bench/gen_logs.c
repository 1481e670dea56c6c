/* gen_logs.c: writes a synthetic MLPerf training_results tree of full-size MLLOG logs for the
 * import benchmark. The trimmed public trees are only ~20 MB; real logs are whole training
 * runs with thousands of train_loss / tracked_stats / block_start lines, rank prefixes and
 * framework noise, so the importer's speed on them says little about a full round. This tree
 * has the line mix of untrimmed logs (most bytes are MLLOG JSON the importer must validate,
 * some are not MLLOG at all) and is the same on every machine: every choice comes from a
 * fixed-seed splitmix64.
 *
 * usage: gen_logs DIR MEGABYTES
 * DIR is created (its parent must exist); the tree is DIR/<Submitter>/{systems,results}. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t rng_state = 0x6770757363616c65ULL;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double unit(void)
{
	return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0);
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static void mkdir_or_die(const char *path)
{
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen_logs: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static FILE *open_or_die(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen_logs: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	/* large stdio buffer: the generator should not dominate the bench's wall time */
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

static const char *const submitters[] = {
	"Alpha", "BetaCloud", "Gamma", "DeltaSys", "Epsilon", "ZetaLabs", "Eta", "Theta"
};
static const char *const accels[] = {
	"NVIDIA H100-SXM5-80GB", "NVIDIA H200-SXM5-141GB", "NVIDIA B200-SXM-180GB",
	"AMD MI300X-192GB", "NVIDIA A100-SXM4-80GB", "TPU-v5p"
};
/* benchmark, source file of its MLLOG calls, rank prefix style */
static const struct {
	const char *id, *file;
	int runs;
} benches[] = {
	{ "bert", "/workspace/bert/run_pretraining.py", 10 },
	{ "llama2_70b_lora", "/workspace/ft-llm/custom_callbacks.py", 10 },
	{ "ssd", "/workspace/ssd/engine.py", 5 },
	{ "stable_diffusion", "/workspace/sd/callbacks.py", 10 },
	{ "unet3d", "/workspace/unet3d/main.py", 10 },
};
#define NSUB (sizeof submitters / sizeof *submitters)
#define NBENCH (sizeof benches / sizeof *benches)
#define SYS_PER_SUB 3

static const char *const noise[] = {
	"Beginning trial %u of 10",
	"/opt/conda/lib/python3.10/site-packages/torch/distributed/launch.py:180: FutureWarning: The module torch.distributed.launch is deprecated",
	"  warnings.warn(",
	"[NeMo W 2024-09-21 13:45:%02u nemo_logging:349] /usr/local/lib/python3.10/dist-packages/lightning/pytorch/trainer/connectors/data_connector.py:424: The 'val_dataloader' does not have many workers",
	"NCCL INFO Channel %02u/32 : 0[0] -> 1[1] via P2P/IPC/read",
	"Epoch %u: 100%%|##########| 1024/1024 [01:12<00:00, 14.2it/s, loss=1.92, v_num=0]",
	"+ echo 'RESULT,SINGLE_STAGE_DETECTOR,,%u,nvidia,2024-09-21 01:01:01 PM'",
};
#define NNOISE (sizeof noise / sizeof *noise)

struct log {
	FILE *f;
	const char *prefix;   /* "0: ", "   " or "" */
	const char *file;     /* metadata.file */
	unsigned long long t; /* time_ms */
	unsigned long long bytes;
};

static void mllog(struct log *l, const char *event, const char *key, const char *value,
		  const char *meta)
{
	int n = fprintf(l->f, "%s:::MLLOG {\"namespace\": \"\", \"time_ms\": %llu, \"event_type\": \"%s\", "
			"\"key\": \"%s\", \"value\": %s, \"metadata\": {\"file\": \"%s\", \"lineno\": %u%s}}\n",
			l->prefix, l->t, event, key, value, l->file, 100 + below(1500), meta);
	l->bytes += (unsigned long long)(n > 0 ? n : 0);
}

static void noise_line(struct log *l)
{
	int n;
	fputs(l->prefix, l->f);
	n = fprintf(l->f, noise[below(NNOISE)], below(60));
	fputc('\n', l->f);
	l->bytes += (unsigned long long)(n > 0 ? n : 0) + strlen(l->prefix) + 1;
}

/* One training run of about `target` bytes lasting `minutes`. kind: 0 good, 1 failed status,
 * 2 one corrupted MLLOG payload (the compliance checker rejects the whole log). */
static void write_log(const char *path, const char *bench, const char *file, double minutes,
		      unsigned long long target, int kind)
{
	static const char *const prefixes[] = { "0: ", "", "   ", "" };
	struct log l = { open_or_die(path), prefixes[below(4)], file,
			 1726900000000ULL + below(1000000000u), 0 };
	unsigned long long run_ms = (unsigned long long)(minutes * 60000.0);
	unsigned long long start, step = 0, epoch = 0, corrupt_at;
	char v[160], m[96];

	for (int i = 0; i < 12; i++)
		noise_line(&l);
	mllog(&l, "POINT_IN_TIME", "cache_clear", "true", "");
	mllog(&l, "INTERVAL_START", "init_start", "null", "");
	snprintf(v, sizeof v, "\"%s\"", bench);
	mllog(&l, "POINT_IN_TIME", "submission_benchmark", v, "");
	mllog(&l, "POINT_IN_TIME", "submission_org", "\"SYNTH\"", "");
	mllog(&l, "POINT_IN_TIME", "submission_division", "\"closed\"", "");
	mllog(&l, "POINT_IN_TIME", "submission_status", "\"onprem\"", "");
	snprintf(v, sizeof v, "%u", below(100000));
	mllog(&l, "POINT_IN_TIME", "seed", v, "");
	mllog(&l, "POINT_IN_TIME", "global_batch_size", "448", "");
	mllog(&l, "POINT_IN_TIME", "opt_base_learning_rate", "0.00035", "");
	/* bulky init: one weights_initialization line per tensor */
	for (int i = 0; i < 200; i++) {
		snprintf(m, sizeof m, ", \"tensor\": \"encoder.layer.%d.attention.self.query.weight\"", i);
		mllog(&l, "POINT_IN_TIME", "weights_initialization", "null", m);
	}
	l.t += 60000 + below(120000);
	mllog(&l, "INTERVAL_END", "init_stop", "null", "");
	start = l.t;
	mllog(&l, "INTERVAL_START", "run_start", "null", "");
	corrupt_at = kind == 2 ? target / 3 : ~0ULL;
	/* training: per step a train_loss and often tracked_stats; an eval every 50 steps; the
	 * time advances so that run_stop lands at start + run_ms */
	while (l.bytes < target) {
		unsigned long long now = start + (unsigned long long)((double)run_ms *
					 ((double)l.bytes / (double)target));
		if (now > l.t)
			l.t = now;
		if (step % 50 == 0) {
			snprintf(m, sizeof m, ", \"first_epoch_num\": %llu, \"epoch_count\": 1", epoch);
			mllog(&l, "INTERVAL_START", "block_start", "null", m);
		}
		snprintf(v, sizeof v, "%.15g", 8.0 * exp2(-(double)step / 2000.0) + unit() * 0.1);
		snprintf(m, sizeof m, ", \"step_num\": %llu", step);
		mllog(&l, "POINT_IN_TIME", "train_loss", v, m);
		if (below(3) == 0) {
			snprintf(v, sizeof v, "{\"throughput\": %.14g, \"train_step_time\": %.9g}",
				 200.0 + unit() * 20.0, 0.1 + unit() * 0.01);
			mllog(&l, "POINT_IN_TIME", "tracked_stats", v, m);
		}
		if (below(25) == 0)
			noise_line(&l);
		if (l.bytes > corrupt_at) {
			/* a payload truncated mid-object, as a crashed rank leaves it */
			int n = fprintf(l.f, "%s:::MLLOG {\"namespace\": \"\", \"time_ms\": %llu, \"event_type\": \"POINT_IN_TIME\", \"key\": \"train_loss\", \"value\": 1.2\n",
					l.prefix, l.t);
			l.bytes += (unsigned long long)(n > 0 ? n : 0);
			corrupt_at = ~0ULL;
		}
		step++;
		if (step % 50 == 0) {
			snprintf(m, sizeof m, ", \"epoch_num\": %llu", epoch);
			mllog(&l, "INTERVAL_START", "eval_start", "null", m);
			snprintf(v, sizeof v, "%.16g", 0.3 + 0.4 * (1.0 - exp2(-(double)epoch / 20.0)));
			mllog(&l, "POINT_IN_TIME", "eval_accuracy", v, m);
			mllog(&l, "INTERVAL_END", "eval_stop", "null", m);
			snprintf(m, sizeof m, ", \"first_epoch_num\": %llu", epoch);
			mllog(&l, "INTERVAL_END", "block_stop", "null", m);
			epoch++;
		}
	}
	l.t = start + run_ms;
	mllog(&l, "INTERVAL_END", "run_stop", "null",
	      kind == 1 ? ", \"status\": \"aborted\"" : ", \"status\": \"success\"");
	snprintf(v, sizeof v, "%llu", step * 448);
	mllog(&l, "POINT_IN_TIME", "train_samples", v, "");
	for (int i = 0; i < 6; i++)
		noise_line(&l);
	if (fclose(l.f) != 0) {
		fprintf(stderr, "gen_logs: %s: write failed\n", path);
		exit(1);
	}
}

static void write_system(const char *path, const char *sub, const char *sys, const char *accel,
			 unsigned nodes, unsigned per_node)
{
	FILE *f = open_or_die(path);
	fprintf(f, "{\n    \"submitter\": \"%s\",\n    \"division\": \"closed\",\n"
		"    \"status\": \"Available on-premise\",\n    \"system_name\": \"%s %ux%u\",\n"
		"    \"number_of_nodes\": \"%u\",\n    \"host_processors_per_node\": \"2\",\n"
		"    \"accelerators_per_node\": \"%u\",\n    \"accelerator_model_name\": \"%s\",\n"
		"    \"framework\": \"PyTorch NVIDIA Release 24.09\",\n"
		"    \"other_software_stack\": {\"cuda_version\": \"12.6\", \"nccl_version\": \"2.22\"}\n}\n",
		sub, sys, nodes, per_node, nodes, per_node, accel);
	fclose(f);
}

int main(int argc, char **argv)
{
	char path[4096];
	unsigned long long budget, per_log;
	unsigned nlogs = 0;
	double mb;

	if (argc != 3 || (mb = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: gen_logs DIR MEGABYTES\n");
		return 2;
	}
	budget = (unsigned long long)(mb * 1e6);
	for (size_t s = 0; s < NSUB; s++)
		for (size_t b = 0; b < NBENCH; b++)
			nlogs += SYS_PER_SUB * (unsigned)benches[b].runs;
	per_log = budget / nlogs;
	mkdir_or_die(argv[1]);
	for (size_t s = 0; s < NSUB; s++) {
		snprintf(path, sizeof path, "%s/%s", argv[1], submitters[s]);
		mkdir_or_die(path);
		snprintf(path, sizeof path, "%s/%s/systems", argv[1], submitters[s]);
		mkdir_or_die(path);
		snprintf(path, sizeof path, "%s/%s/results", argv[1], submitters[s]);
		mkdir_or_die(path);
		for (unsigned y = 0; y < SYS_PER_SUB; y++) {
			static const unsigned node_counts[] = { 1, 2, 4, 8, 16, 64, 128, 512 };
			unsigned nodes = node_counts[below(8)], per_node = below(5) ? 8 : 4;
			const char *accel = accels[below(sizeof accels / sizeof *accels)];
			char sys[64];
			double base = 20.0 + unit() * 200.0;

			snprintf(sys, sizeof sys, "sys%u_n%u", y, nodes);
			snprintf(path, sizeof path, "%s/%s/systems/%s.json", argv[1], submitters[s], sys);
			write_system(path, submitters[s], sys, accel, nodes, per_node);
			snprintf(path, sizeof path, "%s/%s/results/%s", argv[1], submitters[s], sys);
			mkdir_or_die(path);
			for (size_t b = 0; b < NBENCH; b++) {
				double minutes = base / (nodes * per_node) * (1.0 + unit());
				snprintf(path, sizeof path, "%s/%s/results/%s/%s", argv[1], submitters[s],
					 sys, benches[b].id);
				mkdir_or_die(path);
				if (below(4) == 0) {
					FILE *f;
					snprintf(path, sizeof path, "%s/%s/results/%s/%s/scaling.json",
						 argv[1], submitters[s], sys, benches[b].id);
					f = open_or_die(path);
					fprintf(f, "{\"scaling_factor\": %.16g}\n", 1.0 + unit() * 0.05);
					fclose(f);
				}
				for (int r = 0; r < benches[b].runs; r++) {
					/* sizes spread 0.3x..1.7x around the mean; ~3% of runs fail */
					unsigned long long size = (unsigned long long)((double)per_log *
								  (0.3 + 1.4 * unit()));
					unsigned k = below(100);
					int kind = k < 2 ? 1 : k < 3 ? 2 : 0;
					snprintf(path, sizeof path, "%s/%s/results/%s/%s/result_%d.txt",
						 argv[1], submitters[s], sys, benches[b].id, r);
					write_log(path, benches[b].id, benches[b].file,
						  minutes * (0.95 + 0.1 * unit()), size, kind);
				}
			}
		}
	}
	return 0;
}
