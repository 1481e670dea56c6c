/* families.c: the accelerator families table (data/families.csv: pattern,vendor,family, the
 * first pattern found in an accelerator's name, ASCII case folded, gives its family). */
#include "dataset.h"
#include "fileio.h"

#include <csv.h>
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
	int fatal;
	size_t cap;
};

static void fam_field(void *s, size_t len, void *data)
{
	struct fam_loader *F = data;
	char *t;

	if (F->fatal)
		return;
	if (F->nf < 3) {
		char empty[1] = "";
		/* the field is libcsv's own buffer: cleaned in place before it is pooled */
		t = s ? (char *)s + (text_trim(s, &len) - (const char *)s) : empty;
		utf8_sanitize(t, len);
		F->f[F->nf] = (char *)strpool_intern(&F->ds->pool, t, len);
		if (!F->f[F->nf]) {
			err_set(F->err, F->name, F->line, 0, "out of memory");
			F->fatal = 1;
			return;
		}
	}
	F->nf++;
}

static void fam_record(int c, void *data)
{
	struct fam_loader *F = data;
	struct dataset *ds = F->ds;

	(void)c;
	if (F->fatal || F->nf == 0)
		return;
	if (!F->header) {
		F->header = true;
		if (F->nf < 3 || ascii_casecmp(F->f[0], "pattern") || ascii_casecmp(F->f[1], "vendor") ||
		    ascii_casecmp(F->f[2], "family")) {
			err_set(F->err, F->name, F->line, 1, "header must be 'pattern,vendor,family'");
			F->fatal = 1;
		}
	} else if (F->nf != 3 || !*F->f[0] || !*F->f[2]) {
		warn_add(&ds->warn, F->name, F->line, 0,
			 "a rule needs pattern, vendor and family (3 fields, pattern and family non-empty); skipped");
	} else {
		if (ds->nrules == F->cap) {
			size_t cap = F->cap ? F->cap * 2 : 64;
			struct family_rule *r = realloc(ds->rules, cap * sizeof *r);
			if (!r) {
				err_set(F->err, F->name, F->line, 0, "out of memory");
				F->fatal = 1;
				return;
			}
			ds->rules = r;
			F->cap = cap;
		}
		ds->rules[ds->nrules].pattern = F->f[0];
		ds->rules[ds->nrules].vendor = F->f[1];
		ds->rules[ds->nrules].family = F->f[2];
		ds->nrules++;
	}
	F->nf = 0;
}

/* Reads family rules from fp; name is used in messages. */
static int families_stream(struct dataset *ds, const char *name, FILE *fp, struct gs_err *err)
{
	struct fam_loader F;
	struct csv_parser p;
	char line[4096];
	int rc = -1;

	memset(&F, 0, sizeof F);
	F.ds = ds;
	F.err = err;
	F.name = strpool_intern(&ds->pool, name, strlen(name));
	F.line = 1;
	F.cap = ds->nrules;
	if (!F.name || csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		err_set(err, name, 0, 0, "out of memory");
		return -1;
	}
	for (bool first = true;; first = false) {
		size_t n = fread(line, 1, sizeof line, fp);
		char *b = line;
		if (n == 0)
			break;
		if (first && n >= 3 && memcmp(b, "\xef\xbb\xbf", 3) == 0)
			b += 3, n -= 3;
		/* one physical line at a time, so that messages name the right line */
		while (n > 0) {
			char *nl = memchr(b, '\n', n);
			size_t seg = nl ? (size_t)(nl - b) + 1 : n;
			if (csv_parse(&p, b, seg, fam_field, fam_record, &F) != seg) {
				err_set(err, name, F.line, 0, "malformed CSV (%s)", csv_strerror(csv_error(&p)));
				goto out;
			}
			if (F.fatal)
				goto out;
			if (nl)
				F.line++;
			b += seg;
			n -= seg;
		}
	}
	if (ferror(fp)) {
		err_set(err, name, F.line, 0, "read error");
		goto out;
	}
	if (csv_fini(&p, fam_field, fam_record, &F) != 0) {
		err_set(err, name, F.line, 0, "unterminated quoted field");
		goto out;
	}
	if (F.fatal)
		goto out;
	if (!F.header) {
		err_set(err, name, 0, 0, "empty file: header 'pattern,vendor,family' expected");
		goto out;
	}
	rc = 0;
out:
	csv_free(&p);
	return rc;
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
	FILE *fp;
	int rc;

	if (len == 0) {
		err_set(err, name, 0, 0, "empty file: header 'pattern,vendor,family' expected");
		return -1;
	}
	fp = fmemopen((void *)buf, len, "r");
	if (!fp) {
		err_set(err, name, 0, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	rc = families_stream(ds, name, fp, err);
	fclose(fp);
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
	/* accelerators are pooled and few: the match is remembered per pointer (the first 64) */
	struct {
		const char *acc;
		const struct family_rule *rule;
	} seen[64];
	size_t nseen = 0;

	ds->unmatched = 0;
	ds->unmatched_example = NULL;
	for (size_t i = 0; i < ds->n; i++) {
		struct row *r = &ds->rows[i];
		const struct family_rule *m;
		size_t k = 0;
		while (k < nseen && seen[k].acc != r->accelerator)
			k++;
		if (k < nseen) {
			m = seen[k].rule;
		} else {
			m = rule_match(ds, r->accelerator);
			if (nseen < sizeof seen / sizeof seen[0]) {
				seen[nseen].acc = r->accelerator;
				seen[nseen++].rule = m;
			}
		}
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
