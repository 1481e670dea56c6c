/* report_csv_rows: the table has a line per row, and a list of rows in any order, with
 * repeats and with positions past the rows, gives those rows' lines of the whole table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "dataset.h"
#include "fileio.h"
#include "report.h"
#include "rng.h"

#define NROWS 300 /* about a bundled round */

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

/* The table of rows idx[n] (NULL: the first n), as text. */
static char *table(const struct dataset *ds, const struct analysis *a, const size_t *idx, size_t n, size_t *len)
{
	struct fileio_mem m;

	assert_int_equal(fileio_mem_open(&m), 0);
	assert_int_equal(report_csv_rows(ds, a, idx, n, true, m.f), 0);
	assert_int_equal(fileio_mem_close(&m), 0);
	*len = m.len;
	return m.p;
}

/* Where line k (0: the header) of s[0..n) starts, and its length with its newline. */
static const char *line_at(const char *s, size_t n, size_t k, size_t *len)
{
	const char *p = s, *end = s + n;

	while (k-- && p < end)
		p = (const char *)memchr(p, '\n', (size_t)(end - p)) + 1;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	assert_non_null(nl);
	*len = (size_t)(nl - p) + 1;
	return p;
}

static size_t lines(const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

static void rows_listed_are_the_tables_lines(void **state)
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

	size_t n1, n2;
	char *one = table(&ds, &a, NULL, a.n, &n1);
	assert_int_equal(lines(one, n1), NROWS + 1);
	assert_true(n1 > 100 * NROWS); /* every row has its numbers */

	/* a list of rows: backwards, some twice, and positions past the rows (skipped) */
	size_t nidx = NROWS + 60, *idx = malloc(nidx * sizeof *idx);
	assert_non_null(idx);
	for (size_t i = 0; i < NROWS; i++)
		idx[i] = NROWS - 1 - i;
	for (size_t i = NROWS; i < nidx; i++)
		idx[i] = i % 3 ? (i * 7) % NROWS : NROWS + i;
	char *l1 = table(&ds, &a, idx, nidx, &n2);
	assert_int_equal(lines(l1, n2), 1 + NROWS + 40);
	size_t k = 1;
	for (size_t i = 0; i < nidx; i++) {
		if (idx[i] >= NROWS)
			continue;
		size_t lw, lg;
		const char *want = line_at(one, n1, idx[i] + 1, &lw), *got = line_at(l1, n2, k++, &lg);
		assert_int_equal(lw, lg);
		assert_memory_equal(want, got, lw);
	}
	free(l1);
	free(idx);
	free(one);
	analysis_free(&a);
	dataset_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_listed_are_the_tables_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
