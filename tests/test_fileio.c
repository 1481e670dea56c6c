/* test_fileio.c: reading whole files (regular files only, capped, never blocking) and the one
 * atomic write (replace or not, nothing left behind, a fatal signal included). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fileio.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/gs_fileio_XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *at(const char *name)
{
	static char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Entries of dir whose name starts with '.', but "." and "..": leftover temporaries. */
static int hidden(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_read(void **state)
{
	struct fbuf b = {0};
	struct gs_err err;
	(void)state;

	put("a.txt", "hello\n");
	assert_int_equal(fileio_read(at("a.txt"), 100, &b, &err), 0);
	assert_int_equal(b.len, 6);
	assert_string_equal(b.p, "hello\n");
	/* the buffer is reused; a shorter file leaves no tail of the longer one */
	put("b.txt", "hi");
	assert_int_equal(fileio_read(at("b.txt"), 100, &b, &err), 0);
	assert_string_equal(b.p, "hi");
	put("e.txt", "");
	assert_int_equal(fileio_read(at("e.txt"), 100, &b, &err), 0);
	assert_int_equal(b.len, 0);
	/* the cap */
	assert_int_equal(fileio_read(at("a.txt"), 5, &b, &err), -1);
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(err.msg, "larger than 5 bytes"));
	assert_non_null(strstr(err.file, "a.txt"));
	/* missing */
	assert_int_equal(fileio_read(at("none"), 100, &b, &err), -1);
	assert_int_equal(errno, ENOENT);
	free(b.p);
}

/* A file by its name in an open folder: the same text, and errors naming the path given. */
static void test_read_at(void **state)
{
	struct fbuf b = {0};
	struct gs_err err;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	(void)state;

	assert_true(dfd >= 0);
	put("at.txt", "hello at\n");
	assert_int_equal(fileio_read_at(dfd, "at.txt", at("at.txt"), 100, &b, &err), 0);
	assert_string_equal(b.p, "hello at\n");
	assert_int_equal(fileio_read_at(dfd, "at.txt", at("at.txt"), 5, &b, &err), -1);
	assert_int_equal(errno, EFBIG);
	assert_string_equal(err.file, at("at.txt"));
	assert_int_equal(fileio_read_at(dfd, "none", at("none"), 100, &b, &err), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err.file, at("none"));
	assert_int_equal(mkdir(at("at_sub"), 0700), 0);
	assert_int_equal(fileio_read_at(dfd, "at_sub", at("at_sub"), 100, &b, &err), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err.msg, "not a regular file");
	/* AT_FDCWD: name is a path, as fileio_read takes it */
	assert_int_equal(fileio_read_at(AT_FDCWD, at("at.txt"), at("at.txt"), 100, &b, &err), 0);
	assert_string_equal(b.p, "hello at\n");
	close(dfd);
	free(b.p);
}

static void test_read_not_regular(void **state)
{
	struct fbuf b = {0};
	struct gs_err err;
	(void)state;

	/* a FIFO with no writer: refused at once, never waited on */
	assert_int_equal(mkfifo(at("fifo"), 0600), 0);
	alarm(5);
	assert_int_equal(fileio_read(at("fifo"), 100, &b, &err), -1);
	alarm(0);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err.msg, "not a regular file");
	/* a device that never ends, through a symlink */
	assert_int_equal(symlink("/dev/zero", at("zero.json")), 0);
	assert_int_equal(fileio_read(at("zero.json"), 1 << 20, &b, &err), -1);
	assert_int_equal(errno, EINVAL);
	/* a folder */
	assert_int_equal(mkdir(at("sub"), 0700), 0);
	assert_int_equal(fileio_read(at("sub"), 100, &b, &err), -1);
	assert_int_equal(errno, EINVAL);
	free(b.p);
}

static void test_write(void **state)
{
	struct fbuf b = {0};
	struct gs_err err;
	(void)state;

	assert_int_equal(fileio_write(at("out.csv"), "one\n", 4, false, &err), 0);
	assert_int_equal(fileio_read(at("out.csv"), 100, &b, &err), 0);
	assert_string_equal(b.p, "one\n");
	/* without replace an existing file stays as it was */
	assert_int_equal(fileio_write(at("out.csv"), "two\n", 4, false, &err), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(fileio_read(at("out.csv"), 100, &b, &err), 0);
	assert_string_equal(b.p, "one\n");
	assert_int_equal(fileio_write(at("out.csv"), "two\n", 4, true, &err), 0);
	assert_int_equal(fileio_read(at("out.csv"), 100, &b, &err), 0);
	assert_string_equal(b.p, "two\n");
	/* a missing folder: an error, nothing left anywhere */
	assert_int_equal(fileio_write(at("none/out.csv"), "x", 1, true, &err), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(hidden(), 0);
	free(b.p);
}

static void test_temp_place_discard(void **state)
{
	char tmp[256];
	struct gs_err err;
	struct stat st;
	(void)state;

	assert_int_equal(fileio_temp(at("p.csv"), "x", 1, tmp, sizeof tmp, &err), 0);
	assert_int_equal(stat(tmp, &st), 0);
	assert_int_equal(hidden(), 1);
	fileio_discard(tmp);
	assert_int_equal(hidden(), 0);
	assert_int_equal(fileio_temp(at("p.csv"), "x", 1, tmp, sizeof tmp, &err), 0);
	assert_int_equal(fileio_place(tmp, at("p.csv"), false, &err), 0);
	assert_int_equal(hidden(), 0);
	assert_int_equal(stat(at("p.csv"), &st), 0);
	assert_int_equal(st.st_size, 1);
	/* a name too long for the buffer */
	assert_int_equal(fileio_temp(at("p.csv"), "x", 1, tmp, 8, &err), -1);
	assert_int_equal(hidden(), 0);
}

/* A fatal signal while a temporary exists removes it; the process still dies of the signal. */
static void test_signal_removes_temp(void **state)
{
	int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 };
	(void)state;

	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		int status;
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			char tmp[256];
			struct gs_err err;
			/* a shell starts background jobs with SIGINT and SIGQUIT ignored, and an ignored
			 * signal stays ignored (fileio leaves it so): the test wants the default */
			signal(sigs[i], SIG_DFL);
			signal(SIGQUIT, SIG_DFL); /* no core file wanted */
			if (fileio_temp(at("s.csv"), "x", 1, tmp, sizeof tmp, &err) < 0)
				_exit(3);
			raise(sigs[i]);
			_exit(4);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sigs[i]);
		assert_int_equal(hidden(), 0);
	}
}

/* A signal the program handles itself keeps its handler, and the temporary stays for the
 * program's own exit path to discard. */
static volatile sig_atomic_t handled;
static void on_usr2(int sig)
{
	handled = sig;
}

static void test_signal_handled_by_program(void **state)
{
	char tmp[256];
	struct gs_err err;
	struct sigaction sa, old;
	(void)state;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr2;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR2, &sa, &old), 0);
	assert_int_equal(fileio_temp(at("h.csv"), "x", 1, tmp, sizeof tmp, &err), 0);
	raise(SIGUSR2);
	assert_int_equal(handled, SIGUSR2);
	assert_int_equal(hidden(), 1);
	fileio_discard(tmp);
	assert_int_equal(hidden(), 0);
	/* once no temporary is left, the program's handler is back in place */
	assert_int_equal(sigaction(SIGUSR2, NULL, &sa), 0);
	assert_ptr_equal(sa.sa_handler, on_usr2);
	sigaction(SIGUSR2, &old, NULL);
}

/* A text made in memory holds every byte written, across the stream's buffer and many growths. */
static void test_mem_text(void **state)
{
	struct fileio_mem m;
	char *want = malloc(1 << 20);
	(void)state;

	assert_non_null(want);
	for (size_t i = 0; i < (1 << 20); i++)
		want[i] = (char)('a' + i % 26);
	assert_int_equal(fileio_mem_open(&m), 0);
	fputs("head,", m.f);
	fwrite(want, 1, 1 << 20, m.f);
	fprintf(m.f, ",%d\n", 42);
	assert_int_equal(fileio_mem_close(&m), 0);
	assert_int_equal(m.len, 5 + (1 << 20) + 4);
	assert_memory_equal(m.p, "head,", 5);
	assert_memory_equal(m.p + 5, want, 1 << 20);
	assert_string_equal(m.p + 5 + (1 << 20), ",42\n");
	free(m.p);
	/* nothing written: an empty text, not NULL */
	assert_int_equal(fileio_mem_open(&m), 0);
	assert_int_equal(fileio_mem_close(&m), 0);
	assert_non_null(m.p);
	assert_int_equal(m.len, 0);
	assert_string_equal(m.p, "");
	free(m.p);
	free(want);
}

/* Out of memory while the text grows: the close says so (ENOMEM) and keeps no partial text;
 * open_memstream cut the text and reported success. In a child under an address-space limit. */
static void test_mem_out_of_memory(void **state)
{
#if defined(__SANITIZE_ADDRESS__)
	(void)state;
	skip(); /* AddressSanitizer reserves terabytes of address space: no limit applies */
#else
	int status;
	pid_t pid;
	(void)state;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static char chunk[65536];
		struct fileio_mem m;
		struct rlimit rl;
		unsigned long pages = 0;
		FILE *f = fopen("/proc/self/statm", "r");
		if (!f || fscanf(f, "%lu", &pages) != 1)
			_exit(3);
		fclose(f);
		memset(chunk, 'x', sizeof chunk);
		if (fileio_mem_open(&m) < 0)
			_exit(4);
		/* 16 MB more than now, then 256 MB written */
		rl.rlim_cur = rl.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (16u << 20);
		if (setrlimit(RLIMIT_AS, &rl) < 0)
			_exit(5);
		for (int i = 0; i < 4096; i++)
			fwrite(chunk, 1, sizeof chunk, m.f);
		if (fileio_mem_close(&m) != -1)
			_exit(6);
		_exit(errno == ENOMEM && m.p == NULL && m.len == 0 ? 0 : 7);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

/* A stream whose writes failed says so, naming the output and the failed write's error,
 * whether the failure came at the last flush or at an earlier one. */
static void test_stream_check(void **state)
{
	struct gs_err err;
	char big[10000];
	FILE *f;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	memset(big, 'x', sizeof big);
	for (int early = 0; early < 2; early++) {
		memset(&err, 0, sizeof err);
		assert_non_null(f = fopen("/dev/full", "w"));
		if (early) /* more than the buffer: a write fails now, and the flag stays */
			fwrite(big, 1, sizeof big, f);
		fputs("a line\n", f);
		errno = 0;
		assert_int_equal(fileio_stream_check(f, "the report", &err), -1);
		assert_string_equal(err.msg, "cannot write the report: No space left on device");
		fclose(f);
	}
	memset(&err, 0, sizeof err);
	assert_non_null(f = fopen("/dev/null", "w"));
	fputs("a line\n", f);
	assert_int_equal(fileio_stream_check(f, "the report", &err), 0);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_read_at),
		cmocka_unit_test(test_read_not_regular),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_temp_place_discard),
		cmocka_unit_test(test_signal_removes_temp),
		cmocka_unit_test(test_signal_handled_by_program),
		cmocka_unit_test(test_mem_text),
		cmocka_unit_test(test_mem_out_of_memory),
		cmocka_unit_test(test_stream_check),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
