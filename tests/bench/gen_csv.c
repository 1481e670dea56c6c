/* gen_csv.c: writes a synthetic results CSV for the load and recompute benchmarks.
 *
 * The bundled rounds have ~30 rows per workload; the budgets are about what happens when people
 * load their own scaling runs, so the rows spread like real ones: N at powers of two and in
 * between (1..16384), T falling with N by a per-system scaling exponent with noise, several
 * submitters and accelerator families (matching data/families.csv), 3..10 raw runs per row
 * and a few quoted fields. Rows are split evenly over `workloads` benchmarks of one round; with
 * one workload every row lands in the same round x workload, the recompute's worst case.
 * Output depends only on the arguments (fixed-seed splitmix64).
 *
 * usage: gen_csv ROWS WORKLOADS > FILE */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"

static uint64_t rng_state = 0x637376676e6e6e31ULL;

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

static const char *const benches[] = {
	"bert", "llama2_70b_lora", "ssd", "stable_diffusion", "gpt3", "dlrm_dcnv2", "gnn", "unet3d"
};
static const char *const accels[] = {
	"NVIDIA H100-SXM5-80GB", "NVIDIA H200-SXM5-141GB", "NVIDIA B200-SXM-180GB",
	"NVIDIA H100-PCIe-80GB", "NVIDIA A100-SXM4-80GB", "AMD MI300X-192GB", "TPU-v5p",
	"Intel Gaudi2", "NVIDIA L40S", "NVIDIA RTX A5000"
};
static const char *const avail[] = { "Available on-premise", "Available cloud", "Preview", "rdi" };
static const char *const frameworks[] = {
	"PyTorch NVIDIA Release 24.09", "NeMo 24.04", "\"MXNet, PyTorch and DGL 24.09\"", "JAX 0.4.30"
};

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	long rows, nwork;

	if (argc != 3 || (rows = atol(argv[1])) < 1 || (nwork = atol(argv[2])) < 1 ||
	    nwork > (long)(sizeof benches / sizeof *benches)) {
		fprintf(stderr, "usage: gen_csv ROWS WORKLOADS(1..8) > FILE\n");
		return 2;
	}
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	puts("round,submitter,system,system_name,division,availability,accelerator,nodes,"
	     "accelerators_per_node,accelerators,framework,benchmark,minutes,runs_scored,"
	     "runs_failed,scaling_factor,run_minutes");
	for (long i = 0; i < rows; i++) {
		const char *bench = benches[i % nwork];
		/* N: a power of two, a third of them 1.25x or 1.5x it (nodes of 10 or 12) */
		unsigned e = below(15), per_node, nodes;
		long long n = 1LL << e;
		double base, alpha, t, runs[10], sum = 0;
		unsigned nruns = 3 + below(8), failed = below(20) == 0, lo, hi;
		unsigned k = below(6);

		if (e >= 3 && k == 0)
			n = n + n / 4;
		else if (e >= 3 && k == 1)
			n = n + n / 2;
		if (n > 16384)
			n = 16384;
		per_node = n >= 8 ? 8 : (unsigned)n;
		nodes = (unsigned)((n + per_node - 1) / per_node);
		n = (long long)nodes * per_node;
		/* T = base * N^-alpha: alpha near 1 scales well, near 0.5 poorly */
		base = 200.0 + unit() * 2000.0;
		alpha = 0.5 + 0.48 * unit();
		t = base * pow((double)n, -alpha) * (0.9 + 0.2 * unit());
		if (t < 0.05)
			t = 0.05 + unit() * 0.05;
		for (unsigned r = 0; r < nruns; r++)
			runs[r] = t * (0.93 + 0.14 * unit());
		qsort(runs, nruns, sizeof *runs, cmp_double);
		/* olympic average: drop the fastest and, unless one run failed, the slowest */
		lo = 1;
		hi = nruns - (failed ? 0 : 1);
		for (unsigned r = lo; r < hi; r++)
			sum += runs[r];
		printf("vbench,Sub%03ld,sys%07ld,System %ld %ux%u,%s,%s,%s,%u,%u,%lld,%s,%s,%.6f,%u,%u,1,",
		       (i / 7) % 97, i, i, nodes, per_node, below(10) ? "closed" : "open",
		       avail[below(4)], accels[below(10)], nodes, per_node, n, frameworks[below(4)],
		       bench, sum / (hi - lo), nruns, failed);
		for (unsigned r = 0; r < nruns; r++)
			printf(r ? ";%.4f" : "%.4f", runs[r]);
		putchar('\n');
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
