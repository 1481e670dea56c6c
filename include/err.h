/* err.h: error records and warning lists shared by every core module. */
#ifndef GS_ERR_H
#define GS_ERR_H

#include <stddef.h>

/* What kind of failure an error is: bad input (the user's to fix: exit status 2), or running
 * out of memory (a runtime failure: exit status 1). */
enum gs_err_kind { GS_ERR_INPUT, GS_ERR_OOM };

/* One error: what went wrong and where (file, 1-based line and column; 0 = unknown). */
struct gs_err {
	enum gs_err_kind kind;
	char msg[512];
	char file[512];
	long line;
	long col;
};

/* Warnings collected while loading; the first WARN_KEEP are kept verbatim, all are counted. */
#define WARN_KEEP 200
struct gs_warn {
	char **items; /* owned; formatted "file:line:col: text" */
	size_t n;     /* kept */
	size_t total; /* seen, kept or not */
};

/* Fills e (if non-NULL) with a printf-style message and a location, of kind GS_ERR_INPUT;
 * file may be NULL. */
void err_set(struct gs_err *e, const char *file, long line, long col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Fills e (if non-NULL) with "out of memory" at a location, of kind GS_ERR_OOM. */
void err_oom(struct gs_err *e, const char *file, long line);

/* Writes "file:line:col: msg" (parts that are unknown left out) into buf; returns buf. */
char *err_format(const struct gs_err *e, char *buf, size_t n);

/* Adds a located warning to w (NULL w: ignored); never fails (drops text on OOM). */
void warn_add(struct gs_warn *w, const char *file, long line, long col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Appends from's warnings to to as if each had been added to to in turn (to's limit applies,
 * every one counts in to->total), then zeroes from. */
void warn_move(struct gs_warn *to, struct gs_warn *from);

/* Frees the kept warning texts and zeroes w. */
void warn_free(struct gs_warn *w);

#endif
