/* bench_run.c: runs a command and its floor interleaved (A B A B ...) and reports their costs.
 * The cost of a run is the CPU time the child used, user and system (wait4's rusage): what the
 * command costs, without the turns other processes take on a busy machine; the wall time is
 * reported beside it.
 *
 * usage: bench_run [--pty] RUNS COMMAND [ARG...] -- FLOOR [ARG...]
 * Runs each once to warm up, then RUNS pairs. Without --pty the runs' stdin, stdout and stderr
 * are /dev/null. With --pty each run gets a new 50x160 pseudo-terminal (TERM=xterm-256color)
 * as its controlling terminal, stdin, stdout and stderr; once it has written its first bytes
 * (the first frame on its way), q is typed, and again every 50 ms until it exits (or 20 s
 * have passed: then it is ended and the run fails): a run of the
 * explorer is its launch, its first frame and its quit. Prints one line:
 * "n median_cpu_a median_cpu_b median_ratio max_ratio median_wall_a median_wall_b", the ratio
 * being the median of the per-pair ratios of CPU time A/B; fails when a run exits non-zero. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

static bool use_pty;

/* The child's side of a run: its terminal or /dev/null, then the command. */
static void child(char **argv, const char *pts)
{
	int fd;

	if (pts) {
		setsid();
		if ((fd = open(pts, O_RDWR)) < 0)
			_exit(126);
		ioctl(fd, TIOCSCTTY, 0);
		setenv("TERM", "xterm-256color", 1);
		unsetenv("LINES");
		unsetenv("COLUMNS");
	} else if ((fd = open("/dev/null", O_RDWR)) < 0) {
		_exit(126);
	}
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	execvp(argv[0], argv);
	_exit(127);
}

/* Whether the child has exited (not yet reaped). */
static bool exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == pid;
}

/* Reads what the child writes to the terminal until it exits; types q after its first bytes
 * and again every 50 ms (a q typed while the terminal's modes change can be dropped). After
 * 20 s without an exit the child is ended (the run then fails). */
static void drive(int mfd, pid_t pid)
{
	char buf[65536];
	bool spoke = false;
	double end = now() + 20;

	while (!exited(pid)) {
		struct pollfd pf = { mfd, POLLIN, 0 };
		int rc = poll(&pf, 1, 50);
		if (now() > end) {
			kill(pid, SIGTERM);
			return;
		}
		if (rc > 0) {
			ssize_t n = read(mfd, buf, sizeof buf);
			if (n <= 0)
				return; /* EIO: the child's side is closed */
			if (!spoke) {
				spoke = true;
				if (write(mfd, "q", 1) != 1)
					return;
			}
		} else if (rc == 0 && spoke) {
			if (write(mfd, "q", 1) != 1)
				return;
		} else if (rc < 0 && errno != EINTR) {
			return;
		}
	}
}

/* One run; its CPU seconds (and wall seconds in *wall), or -1 when it cannot run or fails. */
static double run(char **argv, double *wall)
{
	struct rusage ru;
	double t0 = now();
	int st, mfd = -1;
	const char *pts = NULL;
	pid_t pid;

	if (use_pty) {
		struct winsize ws = { .ws_row = 50, .ws_col = 160 };
		if ((mfd = posix_openpt(O_RDWR | O_NOCTTY)) < 0 || grantpt(mfd) < 0 || unlockpt(mfd) < 0 ||
		    !(pts = ptsname(mfd)))
			return -1;
		ioctl(mfd, TIOCSWINSZ, &ws);
	}
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0)
		child(argv, pts);
	if (use_pty) {
		drive(mfd, pid);
		close(mfd);
	}
	if (wait4(pid, &st, 0, &ru) < 0)
		return -1;
	*wall = now() - t0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench_run: %s: exit status %d\n", argv[0],
			WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return -1;
	}
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return quant(v, (size_t)n, 0.5);
}

int main(int argc, char **argv)
{
	int at = 1, runs, sep;
	double *ta, *tb, *wa, *wb, *r, w;

	if (at < argc && strcmp(argv[at], "--pty") == 0) {
		use_pty = true;
		at++;
	}
	runs = at < argc ? atoi(argv[at]) : 0;
	for (sep = at + 1; sep < argc && strcmp(argv[sep], "--") != 0; sep++)
		;
	if (runs < 1 || sep == at + 1 || sep >= argc - 1) {
		fprintf(stderr, "usage: bench_run [--pty] RUNS COMMAND [ARG...] -- FLOOR [ARG...]\n");
		return 2;
	}
	argv[sep] = NULL;
	ta = malloc(sizeof *ta * (size_t)runs * 5);
	if (!ta)
		return 1;
	tb = ta + runs;
	wa = tb + runs;
	wb = wa + runs;
	r = wb + runs;
	if (run(argv + at + 1, &w) < 0 || run(argv + sep + 1, &w) < 0)
		return 1;
	for (int i = 0; i < runs; i++) {
		if ((ta[i] = run(argv + at + 1, &wa[i])) < 0 || (tb[i] = run(argv + sep + 1, &wb[i])) < 0)
			return 1;
		/* a floor too short for the clock counts one microsecond */
		r[i] = ta[i] / (tb[i] > 1e-6 ? tb[i] : 1e-6);
	}
	qsort(r, (size_t)runs, sizeof *r, cmp_double);
	printf("%d %.9f %.9f %.6f %.6f", runs, median(ta, runs), median(tb, runs), quant(r, (size_t)runs, 0.5),
	       r[runs - 1]);
	printf(" %.9f %.9f\n", median(wa, runs), median(wb, runs));
	free(ta);
	return 0;
}
