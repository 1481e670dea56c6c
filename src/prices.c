/* prices.c: the prices table (data/prices.csv: family,usd_per_hour_low,usd_per_hour_high,
 * source,date), USD per accelerator-hour by family. A table the user edits by hand and the
 * cost view trusts: anything doubtful is an error with its file, line and column, never a
 * guess. */
#include "dataset.h"
#include "csvr.h"
#include "fileio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_FAMILY, P_LOW, P_HIGH, P_SOURCE, P_DATE, P_NCOLS };

static const char *const price_columns[P_NCOLS] = {
	"family", "usd_per_hour_low", "usd_per_hour_high", "source", "date",
};

struct price_loader {
	struct dataset *ds;
	const char *name;
	struct gs_err *err;
	const struct csvr *csv;  /* the reader: lines and columns */
	char *f[P_NCOLS + 1];    /* the current record's first fields, the reader's copies */
	size_t nf;
	int col_of[P_NCOLS];     /* field index of each column */
	bool header;
	long line, rec_line;
};

/* Byte column (1-based) of field idx in the current line, or 0 when the record spans lines. */
static long price_col(const struct price_loader *P, size_t idx)
{
	return csvr_col(P->csv, idx);
}

static int price_header(struct price_loader *P)
{
	for (int c = 0; c < P_NCOLS; c++)
		P->col_of[c] = -1;
	for (size_t i = 0; i < P->nf; i++) {
		int c = 0;
		if (i > P_NCOLS) {
			err_set(P->err, P->name, P->line, price_col(P, i), "more columns than the header allows");
			return -1;
		}
		while (c < P_NCOLS && ascii_casecmp(P->f[i], price_columns[c]) != 0)
			c++;
		if (c == P_NCOLS || P->col_of[c] >= 0) {
			err_set(P->err, P->name, P->line, price_col(P, i),
				c == P_NCOLS ? "unknown column '%s' (columns: family, usd_per_hour_low, "
					       "usd_per_hour_high, source, date)"
					     : "column '%s' appears twice", P->f[i]);
			return -1;
		}
		P->col_of[c] = (int)i;
	}
	for (int c = 0; c < P_NCOLS; c++) {
		if (P->col_of[c] < 0) {
			err_set(P->err, P->name, P->line, 0, "missing column '%s'", price_columns[c]);
			return -1;
		}
	}
	P->header = true;
	return 0;
}

/* A price of column c of the current record into *v: a finite number >= 0. 0, or -1 with err. */
static int price_number(struct price_loader *P, int c, double *v)
{
	const char *s = P->f[P->col_of[c]];

	if (dataset_parse_double(s, strlen(s), v) < 0 || *v < 0) {
		err_set(P->err, P->name, P->rec_line, price_col(P, (size_t)P->col_of[c]),
			"%s: '%.40s' is not a price (a number >= 0, USD per accelerator-hour)", price_columns[c], s);
		return -1;
	}
	return 0;
}

static int price_row(struct price_loader *P)
{
	struct dataset *ds = P->ds;
	struct price pr;
	const char *fam;

	if (P->nf != (size_t)P_NCOLS) {
		err_set(P->err, P->name, P->rec_line, 0, "row has %zu fields, the header has %d", P->nf, P_NCOLS);
		return -1;
	}
	fam = P->f[P->col_of[P_FAMILY]];
	if (!*fam) {
		err_set(P->err, P->name, P->rec_line, price_col(P, (size_t)P->col_of[P_FAMILY]), "family is empty");
		return -1;
	}
	if (price_number(P, P_LOW, &pr.lo) < 0 || price_number(P, P_HIGH, &pr.hi) < 0)
		return -1;
	if (pr.lo > pr.hi) {
		err_set(P->err, P->name, P->rec_line, price_col(P, (size_t)P->col_of[P_HIGH]),
			"usd_per_hour_high %g is below usd_per_hour_low %g", pr.hi, pr.lo);
		return -1;
	}
	for (size_t i = 0; i < ds->nprices; i++) {
		if (ascii_casecmp(ds->prices[i].family, fam) == 0) {
			err_set(P->err, P->name, P->rec_line, price_col(P, (size_t)P->col_of[P_FAMILY]),
				"family '%s' has a price already (%s:%ld)", fam, ds->prices[i].file, ds->prices[i].line);
			return -1;
		}
	}
	pr.family = strpool_intern(&ds->pool, fam, strlen(fam));
	pr.source = strpool_intern(&ds->pool, P->f[P->col_of[P_SOURCE]], strlen(P->f[P->col_of[P_SOURCE]]));
	pr.date = strpool_intern(&ds->pool, P->f[P->col_of[P_DATE]], strlen(P->f[P->col_of[P_DATE]]));
	pr.file = P->name;
	pr.line = P->rec_line;
	struct price *v = realloc(ds->prices, (ds->nprices + 1) * sizeof *v);
	if (!v || !pr.family || !pr.source || !pr.date) {
		if (v)
			ds->prices = v;
		err_oom(P->err, P->name, P->rec_line);
		return -1;
	}
	ds->prices = v;
	ds->prices[ds->nprices++] = pr;
	return 0;
}

static int price_record(struct csvr *r, void *ctx)
{
	struct price_loader *P = ctx;

	P->nf = r->nf;
	P->line = r->line;
	P->rec_line = r->rec_line;
	for (size_t i = 0; i < r->nf && i <= P_NCOLS; i++) {
		utf8_sanitize(r->f[i].s, r->f[i].len);
		P->f[i] = r->f[i].s;
	}
	return P->header ? price_row(P) : price_header(P);
}

int dataset_load_prices_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
			       struct gs_err *err)
{
	struct price_loader P;
	struct csvr r;
	size_t before = ds->nprices;
	char clean[512];
	int rc;

	memset(&P, 0, sizeof P);
	P.ds = ds;
	P.err = err;
	P.line = 1;
	text_sanitize(name, clean, sizeof clean);
	P.name = strpool_intern(&ds->pool, clean, strlen(clean));
	if (!P.name) {
		err_oom(err, name, 0);
		return -1;
	}
	if (csvr_init(&r, P.name, err, price_record, &P) < 0)
		return -1;
	P.csv = &r;
	rc = csvr_parse(&r, buf, len);
	if (rc == 0 && !P.header) {
		err_set(err, P.name, 0, 0, "empty file: header 'family,usd_per_hour_low,usd_per_hour_high,source,date' expected");
		rc = -1;
	}
	csvr_free(&r);
	if (rc < 0)
		ds->nprices = before; /* a table with an error is not used at all */
	return rc;
}

int dataset_load_prices(struct dataset *ds, const char *path, struct gs_err *err)
{
	/* capped, a device refused, a pipe read as a file: as every table the user names */
	struct fbuf b = { 0 };
	int rc = fileio_read_data(path, DATASET_TABLE_MAX, DATASET_LINE_MAX, &b, err);

	if (rc == 0)
		rc = dataset_load_prices_buffer(ds, path, b.p, b.len, err);
	free(b.p);
	return rc;
}

void prices_apply(struct dataset *ds)
{
	for (size_t i = 0; i < ds->n; i++) {
		struct row *r = &ds->rows[i];
		const struct price *pr = NULL;
		for (size_t q = 0; q < ds->nprices && !pr; q++)
			if (ascii_casecmp(ds->prices[q].family, r->family) == 0)
				pr = &ds->prices[q];
		r->price_lo = pr ? pr->lo : NAN;
		r->price_hi = pr ? pr->hi : NAN;
	}
}
