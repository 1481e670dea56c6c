/* rcp.c: the RCP table (data/rcp.csv) read through the one CSV reader, and the RCP mean at a
 * batch size: a straight scan of a few hundred points. */
#include "rcp.h"
#include "csvr.h"
#include "fileio.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R_RULESET, R_BENCH, R_BS, R_MEAN, R_UNIT, R_NCOLS };
static const char *const rcp_cols[R_NCOLS] = { "ruleset", "benchmark", "bs", "samples_mean", "unit" };

struct rcp_reader {
	struct rcp_table *t;
	size_t cap;
	int col[R_NCOLS];          /* field index of each column; -1 before the header */
	int header_done;
};

/* A whole field as a finite number, or -1. */
static int field_number(const char *s, double *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return *end || errno == ERANGE || !isfinite(*v) ? -1 : 0;
}

static int copy_text(char *dst, size_t n, const char *s)
{
	if (strlen(s) >= n)
		return -1;
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

static int on_row(struct csvr *r, void *ctx)
{
	struct rcp_reader *R = ctx;
	struct rcp_point pt;

	if (!R->header_done) {
		for (int c = 0; c < R_NCOLS; c++) {
			R->col[c] = -1;
			for (size_t i = 0; i < r->nf; i++)
				if (strcmp(r->f[i].s, rcp_cols[c]) == 0)
					R->col[c] = (int)i;
			if (R->col[c] < 0) {
				err_set(r->err, r->name, r->rec_line, 0, "no column '%s'", rcp_cols[c]);
				return -1;
			}
		}
		R->header_done = 1;
		return 0;
	}
	memset(&pt, 0, sizeof pt);
	for (int c = 0; c < R_NCOLS; c++) {
		size_t i = (size_t)R->col[c];
		const char *s = i < r->nf ? r->f[i].s : "";
		int bad;
		switch (c) {
		case R_RULESET: bad = copy_text(pt.ruleset, sizeof pt.ruleset, s) || !*s; break;
		case R_BENCH: bad = copy_text(pt.benchmark, sizeof pt.benchmark, s) || !*s; break;
		case R_UNIT: bad = copy_text(pt.unit, sizeof pt.unit, s) || !*s; break;
		case R_BS: bad = field_number(s, &pt.bs) || !(pt.bs > 0); break;
		default: bad = field_number(s, &pt.mean) || !(pt.mean > 0); break;
		}
		if (bad) {
			err_set(r->err, r->name, r->rec_line, i < r->nf ? csvr_col(r, i) : 0,
				"%s: '%.40s' is not a valid value", rcp_cols[c], s);
			return -1;
		}
	}
	if (R->t->n == R->cap) {
		size_t cap = R->cap ? R->cap * 2 : 64;
		struct rcp_point *p = realloc(R->t->p, cap * sizeof *p);
		if (!p) {
			err_oom(r->err, r->name, r->rec_line);
			return -1;
		}
		R->t->p = p;
		R->cap = cap;
	}
	R->t->p[R->t->n++] = pt;
	return 0;
}

int rcp_parse(const char *buf, size_t len, const char *name, struct rcp_table *t, struct gs_err *err)
{
	struct rcp_reader R = { .t = t };
	struct csvr r;
	int rc;

	memset(t, 0, sizeof *t);
	if (csvr_init(&r, name, err, on_row, &R) < 0)
		return -1;
	rc = csvr_parse(&r, buf, len);
	csvr_free(&r);
	if (rc == 0 && !R.header_done) {
		err_set(err, name, 1, 0, "no header");
		rc = -1;
	}
	if (rc < 0)
		rcp_free(t);
	return rc;
}

int rcp_load(const char *path, struct rcp_table *t, struct gs_err *err)
{
	struct fbuf b = { 0 };
	int rc;

	memset(t, 0, sizeof *t);
	if (fileio_read(path, (size_t)1 << 24, &b, err) < 0) {
		free(b.p);
		return -1;
	}
	rc = rcp_parse(b.p, b.len, path, t, err);
	free(b.p);
	return rc;
}

double rcp_at(const struct rcp_table *t, const char *ruleset, const char *benchmark, double bs,
	      const char **unit)
{
	const struct rcp_point *lo = NULL, *hi = NULL;

	*unit = "";
	for (size_t i = 0; i < t->n; i++) {
		const struct rcp_point *p = &t->p[i];
		if (strcmp(p->ruleset, ruleset) != 0 || strcmp(p->benchmark, benchmark) != 0)
			continue;
		if (p->bs <= bs && (!lo || p->bs > lo->bs))
			lo = p;
		if (p->bs >= bs && (!hi || p->bs < hi->bs))
			hi = p;
	}
	if (!lo || !hi)
		return NAN;
	*unit = lo->unit;
	if (lo->bs == hi->bs)
		return lo->mean;
	return lo->mean + (hi->mean - lo->mean) * (bs - lo->bs) / (hi->bs - lo->bs);
}

void rcp_free(struct rcp_table *t)
{
	free(t->p);
	memset(t, 0, sizeof *t);
}
