/* report_csv_rows: the table written on several threads, block by block and round by round,
 * is the same bytes as written on one, for every row and for a list of rows in any order, with
 * repeats and with positions past the rows; it has a line per row; and with the address space
 * cut down to what the process holds, blocks that find no memory are written on the calling
 * thread, in their place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "analysis.h"
#include "dataset.h"
#include "fileio.h"
#include "pool.h"
#include "report.h"
#include "rng.h"

#define NROWS 20000 /* three rounds of eight blocks of 1024 on two threads (the last a part
			    * round and a part block), one round on seven */

static const char *accel[] = { "NVIDIA H100-SXM5-80GB", "NVIDIA A100-SXM4-80GB", "TPU-v5p",
			       "NVIDIA B200-SXM-180GB", "AMD MI300X" };

/* A results file of NROWS rows of one workload, 0 to 12 runs a row, in a file of the temporary
 * folder (removed by the caller). */
static void write_rows(char *path, size_t n)
{
	const char *tmp = getenv("TMPDIR");
	struct rng g;

	snprintf(path, 256, "%s/gs_test_report_XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	rng_seed(&g, 7);
	fputs("round,submitter,system,system_name,division,availability,accelerator,nodes,"
	      "accelerators_per_node,accelerators,framework,benchmark,minutes,runs_scored,runs_failed,"
	      "scaling_factor,run_minutes\n", f);
	for (size_t i = 0; i < n; i++) {
		unsigned nodes = 1u << rng_below(&g, 9), per = 8, runs = (unsigned)rng_below(&g, 13);
		double t = 2000.0 / (nodes * per) * (1 + rng_unit(&g));
		fprintf(f, "vtest,Sub%zu,sys%zu,\"System %zu, %ux%u\",closed,available,%s,%u,%u,%u,PyTorch,bert,%.6f,%u,%u,%s,",
			i % 37, i, i, nodes, per, accel[rng_below(&g, 5)], nodes, per, nodes * per, t, runs,
			(unsigned)rng_below(&g, 2), rng_below(&g, 4) ? "1" : "1.25");
		for (unsigned r = 0; r < runs; r++)
			fprintf(f, "%s%.4f", r ? ";" : "", t * (0.9 + 0.2 * rng_unit(&g)));
		fputc('\n', f);
	}
	assert_int_equal(fclose(f), 0);
}

/* The table of rows idx[n] (NULL: the first n) on nth threads, as text. */
static char *table(const struct dataset *ds, const struct analysis *a, const size_t *idx, size_t n,
		   unsigned nth, size_t *len)
{
	struct fileio_mem m;

	pool_force(nth);
	assert_int_equal(fileio_mem_open(&m), 0);
	assert_int_equal(report_csv_rows(ds, a, idx, n, true, m.f), 0);
	assert_int_equal(fileio_mem_close(&m), 0);
	pool_force(0);
	*len = m.len;
	return m.p;
}

static size_t lines(const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

#if defined(__SANITIZE_ADDRESS__)
#define GS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GS_ASAN 1
#endif
#endif

#ifndef GS_ASAN
/* The process's address space in use (kB of VmSize), 0 when unknown. */
static long vm_kb(void)
{
	char line[256];
	long kb = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmSize: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}
#endif

/* The table on two threads with the address space limited to a little more than in use: the
 * threads, the blocks' streams or their growth find no memory at some point, and the table is
 * still the same bytes (into a file whose buffer exists before the limit). */
static void tight_memory(const struct dataset *ds, const struct analysis *a, const char *want, size_t n)
{
#ifdef GS_ASAN
	(void)ds, (void)a, (void)want, (void)n;
	printf("# an address-space limit and the sanitizer's shadow memory do not mix: not run\n");
#else
	static const long spare_kb[] = { 0, 64, 256, 1024, 3072 };
	struct rlimit old;
	char *got = malloc(n + 1);

	assert_non_null(got);
	assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
	/* large blocks from mmap (under the limit), and no free heap kept for them to grow into */
	mallopt(M_MMAP_THRESHOLD, 64 << 10);
	malloc_trim(0);
	for (size_t i = 0; i < sizeof spare_kb / sizeof spare_kb[0]; i++) {
		FILE *f = tmpfile();
		assert_non_null(f);
		fputc('x', f); /* its buffer made now */
		rewind(f);
		long kb = vm_kb();
		if (!kb) {
			fclose(f);
			break;
		}
		struct rlimit lim = { (rlim_t)(kb + spare_kb[i]) * 1024, old.rlim_max };
		pool_force(2);
		assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
		int rc = report_csv_rows(ds, a, NULL, a->n, true, f);
		int fl = fflush(f);
		assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
		pool_force(0);
		assert_int_equal(rc, 0);
		assert_int_equal(fl, 0);
		rewind(f);
		size_t len = fread(got, 1, n + 1, f);
		fclose(f);
		if (len != n || memcmp(got, want, n) != 0)
			fail_msg("with %ld kB to spare: %zu bytes, not the %zu of the table", spare_kb[i], len, n);
	}
	free(got);
#endif
}

static void threads_write_what_one_does(void **state)
{
	const char *top = getenv("GS_TOP");
	char path[256], fam[1024];
	struct dataset ds;
	struct params p;
	struct analysis a = { 0 };
	struct gs_err err;
	(void)state;

	write_rows(path, NROWS);
	snprintf(fam, sizeof fam, "%s/data/families.csv", top ? top : ".");
	memset(&ds, 0, sizeof ds);
	memset(&err, 0, sizeof err);
	if (dataset_load_families(&ds, fam, &err) < 0 || dataset_load_csv(&ds, path, &err) < 0)
		fail_msg("%s", err.msg);
	unlink(path);
	dataset_classify(&ds);
	params_init(&p);
	p.workload = "bert";
	assert_int_equal(analysis_run(&ds, &p, &a, &err), 0);
	assert_int_equal(a.n, NROWS);
	assert_int_equal(analysis_intervals(&ds, &a, 0, a.n, &err), 0);

	size_t n1, n2, n7;
	char *one = table(&ds, &a, NULL, a.n, 1, &n1), *two = table(&ds, &a, NULL, a.n, 2, &n2);
	char *seven = table(&ds, &a, NULL, a.n, 7, &n7);
	size_t n_one = n1;
	assert_int_equal(lines(one, n1), NROWS + 1);
	assert_true(n1 > 100 * NROWS); /* every row has its numbers */
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, n1);
	assert_int_equal(n1, n7);
	assert_memory_equal(one, seven, n1);
	free(two);
	free(seven);

	/* a list of rows: backwards, some twice, and positions past the rows (skipped) */
	size_t nidx = NROWS + 600, *idx = malloc(nidx * sizeof *idx);
	assert_non_null(idx);
	for (size_t i = 0; i < NROWS; i++)
		idx[i] = NROWS - 1 - i;
	for (size_t i = NROWS; i < nidx; i++)
		idx[i] = i % 3 ? (i * 7) % NROWS : NROWS + i;
	char *l1 = table(&ds, &a, idx, nidx, 1, &n1), *l2 = table(&ds, &a, idx, nidx, 2, &n2);
	assert_int_equal(lines(l1, n1), 1 + NROWS + 400);
	assert_int_equal(n1, n2);
	assert_memory_equal(l1, l2, n1);
	/* the first row listed is the table's last */
	size_t s = n1;
	while (s > 0 && one[s - 1] == '\n')
		s--;
	while (s > 0 && one[s - 1] != '\n')
		s--;
	const char *nl = memchr(l1, '\n', n1);
	assert_non_null(nl);
	assert_memory_equal(nl + 1, one + s, strlen(one) - s);
	free(l1);
	free(l2);
	free(idx);
	tight_memory(&ds, &a, one, n_one);
	free(one);
	analysis_free(&a);
	dataset_free(&ds);
}

int main(void)
{
	/* every thread's memory from the main heap: a thread's own arena reserves its address
	 * space ahead, and a limit on it would not reach the blocks (tight_memory) */
	mallopt(M_ARENA_MAX, 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(threads_write_what_one_does),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
