/* fileio.c: whole files in and out (see fileio.h).
 *
 * Reading uses read() into a reused buffer rather than mmap: a mapped file cut short while it
 * is scanned raises SIGBUS. The file is opened O_NONBLOCK and checked with fstat before any read, so a FIFO
 * or a device named like a data file is refused at once instead of blocking or streaming
 * forever; the cap bounds memory even for a file that grows while it is read.
 *
 * Writing: temporary file in the target's folder (so rename stays on one file system),
 * fsync, then rename. While a temporary exists, every signal whose default action ends the
 * process first removes it; a signal the program handles itself keeps its handler (called
 * from ours), and the program's own exit paths discard the temporary. */
/* fopencookie is a GNU extension: the memory stream needs a write that can report failure */
#define _GNU_SOURCE
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- reading ---- */

/* Reads fd (of kind st) to its end into b, NUL-terminated: at most max bytes, and with
 * max_line (0: any) no line longer than that. Closes fd. 0, or -1 with err and errno. */
static int read_fd(int fd, const char *path, const struct stat *st, size_t max, size_t max_line,
		   struct fbuf *b, struct gs_err *err)
{
	size_t n = 0, line_at = 0; /* where the line being read began */
	int e;

	for (;;) {
		ssize_t k;
		if (n + 1 >= b->cap) {
			/* room for the size fstat gave, or double: one read usually takes it all */
			size_t c = b->cap ? b->cap * 2 : 65536;
			char *p;
			while (S_ISREG(st->st_mode) && c < (size_t)st->st_size + 2)
				c *= 2;
			if (c > max + 2)
				c = max + 2;
			if (c <= b->cap || !(p = realloc(b->p, c))) {
				e = ENOMEM;
				err_oom(err, path, 0);
				goto fail;
			}
			b->p = p;
			b->cap = c;
		}
		k = read(fd, b->p + n, b->cap - n - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN) { /* standard input left non-blocking by its owner */
			struct timespec ts = { 0, 1000000 };
			nanosleep(&ts, NULL);
			continue;
		}
		if (k < 0) {
			e = errno;
			err_set(err, path, 0, 0, "read error: %s", strerror(e));
			goto fail;
		}
		if (k == 0)
			break;
		if (max_line) {
			const char *nl = NULL;
			for (const char *q = b->p + n; (q = memchr(q, '\n', (size_t)(b->p + n + k - q))); q++)
				nl = q;
			if (nl)
				line_at = (size_t)(nl - b->p) + 1;
		}
		n += (size_t)k;
		if (n > max) { /* an endless stream, or a file that grew while read */
			e = EFBIG;
			err_set(err, path, 0, 0, "larger than %zu bytes", max);
			goto fail;
		}
		if (max_line && n - line_at > max_line) {
			e = EFBIG;
			err_set(err, path, 0, 0, "a line longer than %zu bytes", max_line);
			goto fail;
		}
		/* a regular file read to the size fstat gave is whole: no read to see its end (one
		 * syscall a file, and a v4.1 import reads 1,400 files) */
		if (S_ISREG(st->st_mode) && st->st_size > 0 && n == (size_t)st->st_size)
			break;
	}
	close(fd);
	b->p[n] = '\0';
	b->len = n;
	return 0;
fail:
	close(fd);
	errno = e;
	return -1;
}

int fileio_read(const char *path, size_t max, struct fbuf *b, struct gs_err *err)
{
	return fileio_read_at(AT_FDCWD, path, path, max, b, err);
}

int fileio_read_at(int dirfd, const char *name, const char *path, size_t max, struct fbuf *b,
		   struct gs_err *err)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	int e;

	b->len = 0;
	if (fd < 0) {
		e = errno;
		err_set(err, path, 0, 0, "%s", strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		err_set(err, path, 0, 0, "%s", strerror(e));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		e = EINVAL;
		err_set(err, path, 0, 0, "not a regular file");
		goto fail;
	}
	if ((unsigned long long)st.st_size > max) {
		e = EFBIG;
		err_set(err, path, 0, 0, "larger than %zu bytes", max);
		goto fail;
	}
	return read_fd(fd, path, &st, max, 0, b, err);
fail:
	close(fd);
	errno = e;
	return -1;
}

/* ---- data files the user names: files and pipes ---- */

int fileio_open_data(const char *path, struct stat *st, struct gs_err *err)
{
	/* O_NONBLOCK for the open only: a device or a FIFO never opened for writing does not
	 * block the open before its kind is known; reads block as usual once it is */
	int fd = strcmp(path, "-") == 0 ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
					: open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int e, fl;

	if (fd < 0) {
		e = errno;
		err_set(err, path, 0, 0, "cannot open: %s", strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, st) < 0) {
		e = errno;
		err_set(err, path, 0, 0, "%s", strerror(e));
		goto fail;
	}
	if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode) && !S_ISSOCK(st->st_mode)) {
		e = EINVAL;
		err_set(err, path, 0, 0, "not a regular file or a pipe");
		goto fail;
	}
	if ((fl = fcntl(fd, F_GETFL)) >= 0 && (fl & O_NONBLOCK) && strcmp(path, "-") != 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
fail:
	close(fd);
	errno = e;
	return -1;
}

int fileio_fifo_wait(const char *path)
{
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISFIFO(st.st_mode))
		return -1;
	/* opening a FIFO for reading returns once a writer has opened it; while this end is open
	 * what the writer writes stays for the loader's own open, even if the writer is gone */
	while ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR)
		;
	return fd;
}

int fileio_read_data(const char *path, size_t max, size_t max_line, struct fbuf *b,
		     struct gs_err *err)
{
	struct stat st;
	int fd = fileio_open_data(path, &st, err);

	b->len = 0;
	if (fd < 0)
		return -1;
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max) {
		close(fd);
		err_set(err, path, 0, 0, "larger than %zu bytes", max);
		errno = EFBIG;
		return -1;
	}
	return read_fd(fd, path, &st, max, max_line, b, err);
}

/* ---- temporaries guarded against fatal signals ---- */

#define SLOTS 4
#define SLOT_PATH 4096

static const int guarded[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2, SIGPIPE,
	SIGXFSZ, SIGXCPU, SIGVTALRM, SIGPROF,
};
#define NGUARDED (sizeof guarded / sizeof guarded[0])

static struct {
	volatile sig_atomic_t used;
	char path[SLOT_PATH];
} slots[SLOTS];
static struct sigaction old_act[NGUARDED];
static int installed[NGUARDED];
static int nused;

static void on_fatal(int sig, siginfo_t *info, void *ctx)
{
	int e = errno;
	size_t i;

	for (i = 0; i < NGUARDED && guarded[i] != sig; i++)
		;
	if (i == NGUARDED)
		return;
	/* the program handles this signal itself: it decides, and its exit path discards */
	if (old_act[i].sa_flags & SA_SIGINFO) {
		old_act[i].sa_sigaction(sig, info, ctx);
	} else if (old_act[i].sa_handler != SIG_DFL && old_act[i].sa_handler != SIG_IGN) {
		old_act[i].sa_handler(sig);
	} else {
		for (int k = 0; k < SLOTS; k++)
			if (slots[k].used)
				unlink(slots[k].path);
		/* the default action, delivered once this handler returns */
		sigaction(sig, &old_act[i], NULL);
		raise(sig);
	}
	errno = e;
}

/* Takes a slot for tmp; -1 when all are taken (the temporary is then unguarded). */
static int guard_add(const char *tmp)
{
	int slot = -1;

	if (strlen(tmp) >= SLOT_PATH)
		return -1;
	for (int k = 0; k < SLOTS; k++) {
		if (!slots[k].used) {
			slot = k;
			break;
		}
	}
	if (slot >= 0) {
		memcpy(slots[slot].path, tmp, strlen(tmp) + 1);
		slots[slot].used = 1;
		if (nused++ == 0) {
			struct sigaction sa;
			memset(&sa, 0, sizeof sa);
			sa.sa_sigaction = on_fatal;
			sa.sa_flags = SA_SIGINFO | SA_RESTART;
			sigfillset(&sa.sa_mask);
			for (size_t i = 0; i < NGUARDED; i++) {
				installed[i] = 0;
				if (sigaction(guarded[i], NULL, &old_act[i]) < 0 ||
				    (!(old_act[i].sa_flags & SA_SIGINFO) && old_act[i].sa_handler == SIG_IGN))
					continue; /* an ignored signal stays ignored */
				if (sigaction(guarded[i], &sa, NULL) == 0)
					installed[i] = 1;
			}
		}
	}
	return slot;
}

static void guard_drop(const char *tmp, int unlink_it)
{
	if (unlink_it)
		unlink(tmp);
	for (int k = 0; k < SLOTS; k++) {
		if (slots[k].used && strcmp(slots[k].path, tmp) == 0) {
			slots[k].used = 0;
			if (--nused == 0)
				for (size_t i = 0; i < NGUARDED; i++)
					if (installed[i]) {
						sigaction(guarded[i], &old_act[i], NULL);
						installed[i] = 0;
					}
			break;
		}
	}
}

/* ---- writing ---- */

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t k = write(fd, buf, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return -1;
		}
		buf += k;
		len -= (size_t)k;
	}
	return 0;
}

int fileio_temp(const char *path, const char *buf, size_t len, char *tmp, size_t n,
		struct gs_err *err)
{
	const char *slash = strrchr(path, '/');
	mode_t mask;
	int fd, k, e;

	if (slash)
		k = snprintf(tmp, n, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		k = snprintf(tmp, n, ".%s.XXXXXX", path);
	if (k < 0 || (size_t)k >= n) {
		err_set(err, path, 0, 0, "name too long");
		errno = ENAMETOOLONG;
		return -1;
	}
	/* signals held while the name is made and guarded: no window leaves it behind */
	{
		sigset_t all, old;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		fd = mkstemp(tmp);
		e = errno;
		if (fd >= 0)
			guard_add(tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (fd < 0) {
		err_set(err, path, 0, 0, "cannot create a temporary file beside it: %s", strerror(e));
		errno = e;
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || write_all(fd, buf, len) < 0 || fsync(fd) < 0) {
		e = errno;
		close(fd);
		goto fail;
	}
	if (close(fd) < 0) {
		e = errno;
		goto fail;
	}
	return 0;
fail:
	guard_drop(tmp, 1);
	err_set(err, path, 0, 0, "cannot write: %s", strerror(e));
	errno = e;
	return -1;
}

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/* Moves from to to unless to exists: 0 moved, -1 with errno (EEXIST: to exists). */
static int rename_noreplace(const char *from, const char *to)
{
#ifdef SYS_renameat2
	if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno == EEXIST)
		return -1;
	/* EINVAL or ENOSYS: no RENAME_NOREPLACE here; the fallbacks say why otherwise */
#endif
	if (link(from, to) == 0) {
		unlink(from);
		return 0;
	}
	if (errno == EEXIST)
		return -1;
	/* file systems without hard links: check, then rename (a narrow race, but no loss) */
	if (access(to, F_OK) == 0) {
		errno = EEXIST;
		return -1;
	}
	return rename(from, to);
}

int fileio_place(const char *tmp, const char *path, bool replace, struct gs_err *err)
{
	int e;

	if ((replace ? rename(tmp, path) : rename_noreplace(tmp, path)) < 0) {
		e = errno;
		if (e == EEXIST)
			err_set(err, path, 0, 0, "exists");
		else
			err_set(err, path, 0, 0, "cannot write: %s", strerror(e));
		errno = e;
		return -1;
	}
	guard_drop(tmp, 0);
	return 0;
}

void fileio_discard(const char *tmp)
{
	guard_drop(tmp, 1);
}

int fileio_write(const char *path, const char *buf, size_t len, bool replace, struct gs_err *err)
{
	char tmp[SLOT_PATH];
	int e;

	if (fileio_temp(path, buf, len, tmp, sizeof tmp, err) < 0)
		return -1;
	if (fileio_place(tmp, path, replace, err) < 0) {
		e = errno;
		fileio_discard(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

/* ---- texts in memory ---- */

/* stdio hands the buffered bytes over here; 0 (the cookie convention for an error) when the
 * text cannot grow, and the failure is kept, so no later flush can hide it. */
static ssize_t mem_write(void *cookie, const char *buf, size_t n)
{
	struct fileio_mem *m = cookie;

	if (m->failed)
		return 0;
	if (n >= m->cap - m->len || !m->p) {
		size_t c = m->cap ? m->cap : 4096;
		char *p;
		while (c - m->len <= n) {
			if (c > SIZE_MAX / 2) {
				m->failed = 1;
				return 0;
			}
			c *= 2; /* geometric: a large text costs O(len) copies, not O(len^2) */
		}
		if (!(p = realloc(m->p, c))) {
			m->failed = 1;
			return 0;
		}
		m->p = p;
		m->cap = c;
	}
	memcpy(m->p + m->len, buf, n);
	m->len += n;
	m->p[m->len] = '\0';
	return (ssize_t)n;
}

int fileio_mem_open(struct fileio_mem *m)
{
	cookie_io_functions_t io = { .write = mem_write };

	memset(m, 0, sizeof *m);
	if (!(m->f = fopencookie(m, "w", io))) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int fileio_mem_close(struct fileio_mem *m)
{
	int bad = ferror(m->f);

	if (fclose(m->f) != 0)
		bad = 1;
	m->f = NULL;
	if (!bad && !m->failed && !m->p && !(m->p = calloc(1, 1)))
		m->failed = 1;
	if (bad || m->failed) {
		free(m->p);
		m->p = NULL;
		m->len = m->cap = 0;
		errno = m->failed ? ENOMEM : EIO;
		return -1;
	}
	return 0;
}

int fileio_stream_check(FILE *f, const char *name, struct gs_err *err)
{
	/* a write that failed before (the error flag) left its errno: nothing since has failed */
	int e = errno;

	if (fflush(f) != 0)
		e = errno;
	else if (!ferror(f))
		return 0;
	if (!e)
		e = EIO;
	err_set(err, NULL, 0, 0, "cannot write %s: %s", name, strerror(e));
	errno = e;
	return -1;
}
