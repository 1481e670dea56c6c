/* csvr.h: the one CSV reader under the results, prices and families loaders: libcsv fed one
 * physical line at a time, so that every field knows its line and byte column, a byte-order
 * mark skipped, the field buffer grown with the line, and a row callback for each record.
 * Whole files come from fileio_read_data (capped, devices refused, pipes read like files). */
#ifndef GS_CSVR_H
#define GS_CSVR_H

#include <csv.h>
#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* One field of the current record: a NUL-terminated copy, the row callback's to change. */
struct csvr_field {
	char *s;
	size_t len, cap;
};

struct csvr;

/* Called for each record of at least one field; returns 0, or -1 to stop the read, having
 * set the reader's err. */
typedef int (*csvr_row_fn)(struct csvr *r, void *ctx);

struct csvr {
	const char *name;            /* the file, for messages */
	struct gs_err *err;
	csvr_row_fn on_row;
	void *ctx;
	struct csvr_field *f;        /* the current record's fields */
	size_t nf;
	long line;                   /* the physical line being fed, 1-based */
	long rec_line;               /* the line where the current record began */
	/* the reader's own */
	struct csv_parser p;
	size_t fcap;
	const char *raw;             /* the current physical line, for columns */
	size_t raw_len;
	bool raw_cont;               /* the record began on an earlier line (a quoted newline) */
	bool bom_checked;
	int fatal;
};

/* Sets r up to read name. Returns 0, or -1 with err ("out of memory"). */
int csvr_init(struct csvr *r, const char *name, struct gs_err *err, csvr_row_fn on_row, void *ctx);

/* Takes the complete lines of buf[0..len) (a byte-order mark first skipped), the rest too when
 * last. Returns how many bytes were taken (the rest is a partial line to feed again with
 * more), or -1 with err: malformed CSV at its line and column, or the row callback's error. */
long long csvr_feed(struct csvr *r, const char *buf, size_t len, bool last);

/* Ends the input (a record still open is taken). Returns 0, or -1 with err. */
int csvr_finish(struct csvr *r);

/* csvr_feed of the whole of buf[0..len) and csvr_finish. Returns 0, or -1 with err. */
int csvr_parse(struct csvr *r, const char *buf, size_t len);

/* Byte column (1-based) where field idx of the current record starts, or 0 when the record
 * spans lines. */
long csvr_col(const struct csvr *r, size_t idx);

/* Frees what r holds. */
void csvr_free(struct csvr *r);

#endif
