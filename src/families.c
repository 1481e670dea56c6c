/* families.c: the accelerator families table (data/families.csv: pattern,vendor,family, the
 * first pattern found in an accelerator's name, ASCII case folded, gives its family). */
#include "dataset.h"
#include "csvr.h"
#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fam_loader {
	struct dataset *ds;
	const char *name;
	struct gs_err *err;
	char *f[3];
	size_t nf;
	long line;
	bool header;
	size_t cap;
};

/* One record: the header, or a rule. 0, or -1 with err. */
static int fam_record(struct csvr *r, void *ctx)
{
	struct fam_loader *F = ctx;
	struct dataset *ds = F->ds;

	F->nf = r->nf;
	F->line = r->rec_line;
	for (size_t i = 0; i < r->nf && i < 3; i++) {
		size_t len = r->f[i].len;
		/* the field is the reader's copy: cleaned in place before it is pooled */
		char *t = r->f[i].s + (text_trim(r->f[i].s, &len) - r->f[i].s);
		utf8_sanitize(t, len);
		if (!(F->f[i] = (char *)strpool_intern(&ds->pool, t, len))) {
			err_oom(F->err, F->name, F->line);
			return -1;
		}
	}
	if (!F->header) {
		F->header = true;
		if (F->nf < 3 || ascii_casecmp(F->f[0], "pattern") || ascii_casecmp(F->f[1], "vendor") ||
		    ascii_casecmp(F->f[2], "family")) {
			err_set(F->err, F->name, F->line, 1, "header must be 'pattern,vendor,family'");
			return -1;
		}
	} else if (F->nf != 3 || !*F->f[0] || !*F->f[2]) {
		warn_add(&ds->warn, F->name, F->line, 0,
			 "a rule needs pattern, vendor and family (3 fields, pattern and family non-empty); skipped");
	} else {
		if (ds->nrules == F->cap) {
			size_t cap = F->cap ? F->cap * 2 : 64;
			struct family_rule *v = realloc(ds->rules, cap * sizeof *v);
			if (!v) {
				err_oom(F->err, F->name, F->line);
				return -1;
			}
			ds->rules = v;
			F->cap = cap;
		}
		ds->rules[ds->nrules].pattern = F->f[0];
		ds->rules[ds->nrules].vendor = F->f[1];
		ds->rules[ds->nrules].family = F->f[2];
		ds->nrules++;
	}
	return 0;
}

int dataset_load_families(struct dataset *ds, const char *path, struct gs_err *err)
{
	/* capped, a device refused, a pipe read as a file: as every table the user names */
	struct fbuf b = { 0 };
	int rc = fileio_read_data(path, DATASET_TABLE_MAX, DATASET_LINE_MAX, &b, err);

	if (rc == 0)
		rc = dataset_load_families_buffer(ds, path, b.p, b.len, err);
	free(b.p);
	return rc;
}

int dataset_load_families_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
				 struct gs_err *err)
{
	struct fam_loader F;
	struct csvr r;
	int rc;

	if (len == 0) {
		err_set(err, name, 0, 0, "empty file: header 'pattern,vendor,family' expected");
		return -1;
	}
	memset(&F, 0, sizeof F);
	F.ds = ds;
	F.err = err;
	F.name = strpool_intern(&ds->pool, name, strlen(name));
	F.cap = ds->nrules;
	if (!F.name) {
		err_oom(err, name, 0);
		return -1;
	}
	if (csvr_init(&r, F.name, err, fam_record, &F) < 0)
		return -1;
	rc = csvr_parse(&r, buf, len);
	if (rc == 0 && !F.header) {
		err_set(err, name, 0, 0, "empty file: header 'pattern,vendor,family' expected");
		rc = -1;
	}
	csvr_free(&r);
	return rc;
}

static const struct family_rule *rule_match(const struct dataset *ds, const char *acc)
{
	for (size_t i = 0; i < ds->nrules; i++)
		if (ascii_casestr(acc, ds->rules[i].pattern))
			return &ds->rules[i];
	return NULL;
}

void families_apply(struct dataset *ds)
{
	ds->unmatched = 0;
	ds->unmatched_example = NULL;
	for (size_t i = 0; i < ds->n; i++) {
		struct row *r = &ds->rows[i];
		const struct family_rule *m = rule_match(ds, r->accelerator);
		if (m) {
			r->vendor = m->vendor;
			r->family = m->family;
		} else {
			r->vendor = "";
			r->family = *r->accelerator ? r->accelerator : "unknown";
			/* a row without an accelerator has nothing to classify: not counted */
			if (*r->accelerator && !ds->unmatched++)
				ds->unmatched_example = r->accelerator;
		}
	}
}
