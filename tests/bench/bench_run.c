/* bench_run.c: runs a command repeatedly and reports its wall time and peak resident memory.
 * hyperfine gives the wall times when installed; this is the fallback timing loop, and the only
 * source of peak RSS, which wait4 reports per child (ru_maxrss, kilobytes on Linux).
 *
 * usage: bench_run WARMUP RUNS COMMAND [ARG...]
 * The command's stdin, stdout and stderr are /dev/null. Prints one line:
 * "n median_s min_s q1_s q3_s max_s maxrss_kb", or fails when a run exits non-zero.
 *
 * usage: bench_run --pair RUNS COMMAND [ARG...] -- FLOOR [ARG...]
 * Runs the command and its floor interleaved (A B A B ...), once each to warm up, then RUNS
 * pairs, so that a machine changing speed moves both alike. Prints one line:
 * "n median_a median_b median_ratio max_ratio maxrss_a_kb": the ratio is the median of the
 * per-pair ratios A/B. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

/* One run; returns its wall time, or -1 when it cannot run or fails. */
static double run(char **argv, long *maxrss)
{
	struct rusage ru;
	double t0 = now(), t;
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) < 0)
		return -1;
	t = now() - t0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench_run: %s: exit status %d\n", argv[0],
			WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return -1;
	}
	if (ru.ru_maxrss > *maxrss)
		*maxrss = ru.ru_maxrss;
	return t;
}

static int pair(int argc, char **argv)
{
	int runs = atoi(argv[2]), sep = 3;
	long rss_a = 0, rss_b = 0;
	double *ta, *tb, *r;

	while (sep < argc && strcmp(argv[sep], "--") != 0)
		sep++;
	if (runs < 1 || sep == 3 || sep >= argc - 1) {
		fprintf(stderr, "usage: bench_run --pair RUNS COMMAND [ARG...] -- FLOOR [ARG...]\n");
		return 2;
	}
	argv[sep] = NULL;
	ta = malloc(sizeof *ta * (size_t)runs);
	tb = malloc(sizeof *tb * (size_t)runs);
	r = malloc(sizeof *r * (size_t)runs);
	if (!ta || !tb || !r)
		return 1;
	if (run(argv + 3, &rss_a) < 0 || run(argv + sep + 1, &rss_b) < 0)
		return 1;
	for (int i = 0; i < runs; i++) {
		if ((ta[i] = run(argv + 3, &rss_a)) < 0 || (tb[i] = run(argv + sep + 1, &rss_b)) < 0)
			return 1;
		r[i] = ta[i] / tb[i];
	}
	qsort(ta, (size_t)runs, sizeof *ta, cmp_double);
	qsort(tb, (size_t)runs, sizeof *tb, cmp_double);
	qsort(r, (size_t)runs, sizeof *r, cmp_double);
	printf("%d %.9f %.9f %.6f %.6f %ld\n", runs, quant(ta, runs, 0.5), quant(tb, runs, 0.5),
	       quant(r, runs, 0.5), r[runs - 1], rss_a);
	free(ta);
	free(tb);
	free(r);
	return 0;
}

int main(int argc, char **argv)
{
	int warm, runs;

	if (argc >= 3 && strcmp(argv[1], "--pair") == 0)
		return pair(argc, argv);
	long maxrss = 0;
	double *t;

	if (argc < 4 || (warm = atoi(argv[1])) < 0 || (runs = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: bench_run WARMUP RUNS COMMAND [ARG...]\n");
		return 2;
	}
	if (!(t = malloc(sizeof *t * (size_t)runs)))
		return 1;
	for (int i = 0; i < warm; i++)
		if (run(argv + 3, &maxrss) < 0)
			return 1;
	for (int i = 0; i < runs; i++)
		if ((t[i] = run(argv + 3, &maxrss)) < 0)
			return 1;
	qsort(t, (size_t)runs, sizeof *t, cmp_double);
	printf("%d %.9f %.9f %.9f %.9f %.9f %ld\n", runs, quant(t, runs, 0.5), t[0],
	       quant(t, runs, 0.25), quant(t, runs, 0.75), t[runs - 1], maxrss);
	free(t);
	return 0;
}
