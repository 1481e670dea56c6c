/* fileio.h: whole files in and out. Reading: read() into a buffer, regular files only, with a
 * size cap, so a FIFO, a device or a file cut short while it is read never hangs, floods
 * memory or faults. Writing: the one safe write (temporary file beside the target, fsync,
 * rename, with or without replacing), its temporary removed on every exit path, a fatal
 * signal included. */
#ifndef GS_FILEIO_H
#define GS_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "err.h"

/* A buffer fileio_read fills; reuse one across reads. Owned: free(p). */
struct fbuf {
	char *p;     /* NUL-terminated after a read */
	size_t len;  /* bytes read */
	size_t cap;  /* bytes allocated */
};

/* Reads the whole regular file at path into b (at most max bytes). Returns 0, or -1 with err
 * ("path: not a regular file", "larger than max bytes", the system's reason) and errno set
 * (EINVAL for not regular, EFBIG for too large, ENOMEM). Never blocks on a FIFO. */
int fileio_read(const char *path, size_t max, struct fbuf *b, struct gs_err *err);

/* fileio_read of the file name in the folder open as dirfd (AT_FDCWD: name is a path), path
 * being what err names: the file at path when dirfd is that path's folder. */
int fileio_read_at(int dirfd, const char *name, const char *path, size_t max, struct fbuf *b,
		   struct gs_err *err);

/* Opens a data file the user names for reading: a regular file, or a pipe, FIFO or socket
 * (`<(cmd)`), "-" being standard input; a device or a folder is refused at once ("path: not a
 * regular file or a pipe"), so /dev/zero never streams. *st receives its fstat. Returns the
 * descriptor (blocking, close it), or -1 with err and errno (EINVAL: refused). */
int fileio_open_data(const char *path, struct stat *st, struct gs_err *err);

/* Waits, when path is a FIFO, until a writer has opened it (a FIFO whose writer starts late
 * would read as empty), as cat waits. Returns a descriptor that holds what the writer wrote
 * until the file is read (close it then), or -1: not a FIFO, nothing to wait for. */
int fileio_fifo_wait(const char *path);

/* fileio_read for a data file the user names (fileio_open_data's kinds): the whole text, at
 * most max bytes, no line longer than max_line bytes (0: any): an endless pipe stops at either
 * with "larger than max bytes" or "a line longer than max_line bytes" (EFBIG), a stream of
 * zeros within max_line bytes. */
int fileio_read_data(const char *path, size_t max, size_t max_line, struct fbuf *b,
		     struct gs_err *err);

/* Writes buf[0..len) to a new temporary file beside path (".NAME.XXXXXX", mode 0666 & ~umask),
 * fsync'd and closed; its name goes to tmp[0..n). Until fileio_place or fileio_discard takes
 * it, a fatal signal removes it. Returns 0, or -1 with err (nothing left behind). */
int fileio_temp(const char *path, const char *buf, size_t len, char *tmp, size_t n,
		struct gs_err *err);

/* Moves the temporary tmp to path: replace true overwrites, false fails with errno EEXIST
 * when path exists (in one step where the file system allows, else check then rename).
 * Returns 0, or -1 with err and errno; on -1 tmp is still there, still guarded. */
int fileio_place(const char *tmp, const char *path, bool replace, struct gs_err *err);

/* Removes the temporary tmp and stops guarding it. */
void fileio_discard(const char *tmp);

/* fileio_temp + fileio_place + fileio_discard on failure: path holds buf completely or is left
 * as it was. Returns 0, or -1 with err and errno (EEXIST: path exists and replace is false). */
int fileio_write(const char *path, const char *buf, size_t len, bool replace, struct gs_err *err);

/* Flushes f and says whether everything written to it got there: 0, or -1 with err "cannot
 * write NAME: REASON" (the failed write's errno; EIO when none is known) and errno. */
int fileio_stream_check(FILE *f, const char *name, struct gs_err *err);

/* A text made in memory through stdio: unlike open_memstream, a write that finds no memory is
 * recorded here (glibc's memory stream sets no error then, and the text is silently cut). */
struct fileio_mem {
	char *p;      /* owned after fileio_mem_close: the text, NUL-terminated */
	size_t len;   /* bytes of text */
	size_t cap;   /* bytes allocated */
	int failed;   /* a write found no memory: the text is incomplete */
	FILE *f;      /* the stream to write to, until fileio_mem_close */
};

/* Opens m->f, an empty write stream into m. Returns 0, or -1 (errno ENOMEM) with m zeroed. */
int fileio_mem_open(struct fileio_mem *m);

/* Closes m->f. Returns 0 with the whole text in m->p / m->len (free(m->p)), or -1 with errno
 * (ENOMEM when a write found no memory) and m->p freed and NULL: no partial text survives. */
int fileio_mem_close(struct fileio_mem *m);

#endif
