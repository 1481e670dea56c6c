/* dataset_csv.c: the results CSV loader. fileio reads the whole file (a file cut short while it
 * loads is then only a shorter input, never a fault); csvr feeds it to libcsv, so that every
 * record knows the line it starts on and a bad field can be located by byte column in that
 * line. */
#include "dataset.h"
#include "fileio.h"
#include "csvr.h"
#include "csvw.h"
#include "bench_reg.h"
#include "schema.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ columns */

/* The loader's names for the schema's columns (schema.h holds the one table). */
#define COLUMN_ENUM(id, name, field, kind, flags) C_##id = SC_##id,
enum column { SCHEMA_COLUMNS(COLUMN_ENUM, COLUMN_ENUM) C_NCOLS = SC_COUNT };
#undef COLUMN_ENUM

#define column_names(c) (schema_cols[c].name)
#define MAX_ACCELERATORS SCHEMA_MAX_ACCELERATORS

/* ------------------------------------------------------------------ numbers */

int dataset_parse_double(const char *s, size_t len, double *out)
{
	char small[64], *buf = small, *end;
	double v;
	int rc = -1;

	s = text_trim(s, &len);
	if (len == 0)
		return -1;
	/* strtod also takes "nan", "inf" and hex floats: none is a measurement */
	for (size_t i = 0; i < len; i++)
		if (!memchr("0123456789.eE+-", s[i], 15))
			return -1;
	/* strtod needs a terminated copy; a long one (many digits) on the heap */
	if (len >= sizeof small && !(buf = malloc(len + 1)))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (end == buf + len && errno != ERANGE && isfinite(v)) {
		*out = v;
		rc = 0;
	}
	if (buf != small)
		free(buf);
	return rc;
}

/* Parses a whole field as an integer (a trailing ".0" is accepted). 0 or -1. */
static int parse_int(const char *s, size_t len, long long *out)
{
	double v;

	/* below 9e15 every integer is an exact double */
	if (dataset_parse_double(s, len, &v) < 0 || v != floor(v) || fabs(v) > 9.0e15)
		return -1;
	*out = (long long)v;
	return 0;
}

/* ------------------------------------------------------------------ loader state */

struct loader {
	struct dataset *ds;
	const char *name;        /* pooled file name, sanitized */
	const char *round_default;
	struct gs_err *err;
	int col_of[C_NCOLS];     /* field index of each known column, -1 absent */
	size_t nheader;          /* fields in the header */
	bool have_header;
	size_t ndup;             /* rows repeating an earlier row: one warning for them all */
	long dup_line;           /* the first of them */
	char dup_text[640];
	struct csvr csv;         /* the reader: the current record, its line and columns */
};

/* A warning about column c of the current record: at its byte column in the line, or at its
 * field number when the line does not say. */
__attribute__((format(printf, 3, 4)))
static void warn_at(struct loader *L, enum column c, const char *fmt, ...)
{
	char text[1024];
	size_t idx = (size_t)L->col_of[c];
	long col = csvr_col(&L->csv, idx);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	warn_add(&L->ds->warn, L->name, L->csv.rec_line, col ? col : (long)idx + 1, "%s", text);
}

/* The text of column c in the current record as the file has it ("" when absent). */
static const char *field_raw(const struct loader *L, enum column c, size_t *len)
{
	int i = L->col_of[c];

	if (i < 0 || (size_t)i >= L->csv.nf) {
		*len = 0;
		return "";
	}
	*len = L->csv.f[i].len;
	return L->csv.f[i].s;
}

/* The text of column c without the spaces and tabs around it. */
static const char *field_text(const struct loader *L, enum column c, size_t *len)
{
	const char *s = field_raw(L, c, len);

	return text_trim(s, len);
}

/* A field's text s[0..len) for a message, in buf (CELL_BUF bytes): its first 40 bytes, a NUL in them
 * shown as \0 (the whole cell is named, not the text before a NUL). */
#define CELL_MAX 40
#define CELL_BUF (2 * CELL_MAX + 1)
static const char *cell(const char *s, size_t len, char *buf)
{
	size_t o = 0;

	for (size_t i = 0; i < len && i < CELL_MAX; i++) {
		if (s[i] == '\0') {
			buf[o++] = '\\';
			buf[o++] = '0';
		} else {
			buf[o++] = s[i];
		}
	}
	buf[o] = '\0';
	return buf;
}

/* The sanitized text of column c of the current record in the pool: interned, or kept for a
 * column only shown (schema.h's SF_SHOWN); NULL when out of memory. The field is ours to
 * change: it is sanitized in place. */
static const char *text_of(struct loader *L, enum column c)
{
	size_t len;
	/* the ' the CSV writer puts before a cell a spreadsheet would take for a formula */
	char *s = (char *)csvw_unguard(field_text(L, c, &len), &len);

	utf8_sanitize(s, len);
	if (schema_cols[c].flags & SF_SHOWN)
		return strpool_keep(&L->ds->pool, s, len);
	return strpool_intern(&L->ds->pool, s, len);
}

/* ------------------------------------------------------------------ duplicates */

/* splitmix64's finalizer: every input bit moves every output bit. */
static uint64_t mix(uint64_t h)
{
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

/* Hash of a row's round, system and benchmark: pooled, so their pointers stand for them. */
static size_t key_hash(const struct row *r)
{
	return (size_t)mix(mix(mix((uintptr_t)r->round) ^ (uintptr_t)r->system) ^ (uintptr_t)r->benchmark);
}

/* Puts row idx in the key set, which must have room. */
static void key_put(struct loader *L, size_t idx)
{
	size_t mask = L->ds->keys_cap - 1, j = key_hash(&L->ds->rows[idx]) & mask;

	while (L->ds->keys[j])
		j = (j + 1) & mask;
	L->ds->keys[j] = (uint32_t)idx + 1;
	L->ds->nkeys++;
}

/* Room for one more row in the key set (at least twice as many slots as rows). 0, or -1 when
 * out of memory or past 2^32 - 2 rows. */
static int key_room(struct loader *L)
{
	if (L->ds->nkeys >= UINT32_MAX - 1)
		return -1;
	if ((L->ds->nkeys + 1) * 2 <= L->ds->keys_cap)
		return 0;
	uint32_t *old = L->ds->keys;
	size_t old_cap = L->ds->keys_cap, cap = old_cap ? old_cap * 2 : 1024;
	if (!(L->ds->keys = calloc(cap, sizeof *L->ds->keys))) {
		L->ds->keys = old;
		return -1;
	}
	L->ds->keys_cap = cap;
	L->ds->nkeys = 0;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i])
			key_put(L, old[i] - 1);
	free(old);
	return 0;
}

/* The index of an earlier row with r's round, submitter, system and benchmark, or SIZE_MAX.
 * The same system id under another submitter (v4.0 has three SMC entries) is another result:
 * counted in ds->shared_ids, so that reports name such rows SUBMITTER/SYSTEM. */
static size_t key_find(struct loader *L, const struct row *r)
{
	size_t mask = L->ds->keys_cap - 1;

	for (size_t j = key_hash(r) & mask; L->ds->keys[j]; j = (j + 1) & mask) {
		const struct row *o = &L->ds->rows[L->ds->keys[j] - 1];
		if (o->round != r->round || o->system != r->system || o->benchmark != r->benchmark)
			continue;
		if (o->submitter == r->submitter)
			return L->ds->keys[j] - 1;
		L->ds->shared_ids++;
	}
	return SIZE_MAX;
}

/* ------------------------------------------------------------------ rows */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One run as minutes and samples, for sorting the two lists as pairs. */
struct run_pair {
	double t, s;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct run_pair *x = a, *y = b;
	int c = (x->t > y->t) - (x->t < y->t);

	/* NAN samples only ever stand beside equal minutes of a row without samples: any order */
	return c ? c : (x->s > y->s) - (x->s < y->s);
}

/* Sorts r's runs by minutes, each run's samples moving with its minutes. 0, or -1 out of
 * memory. */
static int runs_sort_pairs(struct dataset *ds, struct row *r)
{
	struct run_pair *p = malloc(r->run_n * sizeof *p);

	if (!p)
		return -1;
	for (unsigned i = 0; i < r->run_n; i++)
		p[i] = (struct run_pair){ ds->runs[r->run_off + i], ds->run_samples[r->run_off + i] };
	qsort(p, r->run_n, sizeof *p, cmp_pair);
	for (unsigned i = 0; i < r->run_n; i++) {
		ds->runs[r->run_off + i] = p[i].t;
		ds->run_samples[r->run_off + i] = p[i].s;
	}
	free(p);
	return 0;
}

/* Parses run_samples, in the order of run_minutes, into ds->run_samples beside r's runs (made
 * when the first row has samples; NAN for runs without). A count that differs from the run
 * minutes' or a bad value warns and leaves the row's samples empty. 0, or -1 out of memory. */
static int samples_parse(struct loader *L, struct row *r)
{
	struct dataset *ds = L->ds;
	size_t len, i = 0, k = 0, want = r->run_n;
	const char *s = field_raw(L, C_RUN_SAMPLES, &len);
	bool ok = true;

	if (ds->samples_cap < ds->runs_cap) {
		double *v = realloc(ds->run_samples, ds->runs_cap * sizeof *v);
		if (!v)
			return -1;
		for (size_t j = ds->samples_cap; j < ds->runs_cap; j++)
			v[j] = NAN;
		ds->run_samples = v;
		ds->samples_cap = ds->runs_cap;
	}
	for (size_t j = r->run_off; j < ds->nruns; j++)
		ds->run_samples[j] = NAN;
	if (text_trim(s, &len), len == 0)
		return 0;
	while (i < len && ok) {
		const char *semi = memchr(s + i, ';', len - i);
		size_t j = semi ? (size_t)(semi - s) : len;
		double x;
		if (j == i) { /* skipped as run_minutes skips it */
			i = j + 1;
			continue;
		}
		if (dataset_parse_double(s + i, j - i, &x) < 0 || !(x > 0)) {
			char cb[CELL_BUF];
			warn_at(L, C_RUN_SAMPLES, "run_samples: '%s' is not a positive number; samples ignored",
				cell(s + i, j - i, cb));
			ok = false;
		} else if (k < want) {
			ds->run_samples[r->run_off + k] = x;
		}
		k++;
		i = j + 1;
	}
	if (ok && k != want) {
		warn_at(L, C_RUN_SAMPLES, "run_samples: %zu value%s for %zu run_minutes; samples ignored", k,
			k == 1 ? "" : "s", want);
		ok = false;
	}
	if (!ok)
		for (size_t j = r->run_off; j < ds->nruns; j++)
			ds->run_samples[j] = NAN;
	return 0;
}

/* Parses run_minutes into ds->runs, ascending; a bad value warns and keeps none. Sets
 * r->run_off and r->run_n. 0, or -1 when out of memory. */
static int runs_parse(struct loader *L, struct row *r)
{
	struct dataset *ds = L->ds;
	size_t len, i = 0;
	const char *s = field_raw(L, C_RUN_MINUTES, &len); /* a blank element is a bad one */
	char cb[CELL_BUF];

	r->run_off = ds->nruns;
	r->run_n = 0;
	while (i < len) {
		const char *semi = memchr(s + i, ';', len - i);
		size_t j = semi ? (size_t)(semi - s) : len;
		double x;
		if (j > i) {
			if (dataset_parse_double(s + i, j - i, &x) < 0 || !dataset_minutes_ok(x)) {
				warn_at(L, C_RUN_MINUTES, "run_minutes: '%s' is not a positive number (or too small to compute with); runs ignored",
					cell(s + i, j - i, cb));
				ds->nruns = r->run_off;
				return 0;
			}
			if (ds->nruns == ds->runs_cap) {
				size_t cap = ds->runs_cap ? ds->runs_cap * 2 : 1024;
				double *v = realloc(ds->runs, cap * sizeof *v);
				if (!v)
					return -1;
				ds->runs = v;
				ds->runs_cap = cap;
			}
			ds->runs[ds->nruns++] = x;
		}
		i = j + 1;
	}
	r->run_n = (unsigned)(ds->nruns - r->run_off);
	if (samples_parse(L, r) < 0)
		return -1;
	if (ds->run_samples && r->run_n > 1)
		return runs_sort_pairs(ds, r);
	if (r->run_n > 1) /* with none, ds->runs may be NULL: no pointer into it */
		qsort(ds->runs + r->run_off, r->run_n, sizeof *ds->runs, cmp_double);
	return 0;
}

/* Optional integer column: absent or empty gives def; garbage warns and gives def. */
static long long opt_int(struct loader *L, enum column c, long long def, long long min)
{
	size_t len;
	const char *s = field_text(L, c, &len);
	long long v;
	char cb[CELL_BUF];

	if (len == 0)
		return def;
	if (parse_int(s, len, &v) < 0 || v < min) {
		warn_at(L, c, "%s: '%s' is not a valid count; ignored", column_names(c), cell(s, len, cb));
		return def;
	}
	return v;
}

/* Optional number column: absent or empty gives def; not a finite number above min (or at
 * least min, with min_ok) warns and gives def. */
static double opt_num(struct loader *L, enum column c, double def, double min, bool min_ok, const char *what)
{
	size_t len;
	const char *s = field_text(L, c, &len);
	double v;
	char cb[CELL_BUF];

	if (len == 0)
		return def;
	if (dataset_parse_double(s, len, &v) < 0 || v < min || (!min_ok && v == min)) {
		warn_at(L, c, "%s: '%s' is not %s; ignored", column_names(c), cell(s, len, cb), what);
		return def;
	}
	return v;
}

/* The numbers of the current record into r; false (its warning given) when the row is to be
 * skipped. */
static bool row_numbers(struct loader *L, struct row *r)
{
	size_t len;
	const char *s = field_text(L, C_MINUTES, &len);
	long long n;
	char cb[CELL_BUF];

	if (dataset_parse_double(s, len, &r->minutes) < 0 || !(r->minutes > 0)) {
		warn_at(L, C_MINUTES, "minutes: '%s' is not a positive finite number" DATASET_ROW_SKIPPED, cell(s, len, cb));
		return false;
	}
	if (!dataset_minutes_ok(r->minutes)) {
		warn_at(L, C_MINUTES, "minutes: '%s' is too small to compute with (60/minutes is not finite)" DATASET_ROW_SKIPPED,
			cell(s, len, cb));
		return false;
	}
	s = field_text(L, C_ACCELERATORS, &len);
	/* 0: a CPU-only system (MLPerf counts no accelerator); it loads, and views leave it out */
	if (parse_int(s, len, &n) < 0 || n < 0 || n > MAX_ACCELERATORS) {
		warn_at(L, C_ACCELERATORS, "accelerators: '%s' is not a whole number in 0..%lld" DATASET_ROW_SKIPPED,
			cell(s, len, cb), MAX_ACCELERATORS);
		return false;
	}
	r->accelerators = n;
	r->nodes = opt_int(L, C_NODES, 0, 0);
	r->per_node = opt_int(L, C_PER_NODE, 0, 0);
	r->runs_scored = (int)opt_int(L, C_RUNS_SCORED, -1, 0);
	r->runs_failed = (int)opt_int(L, C_RUNS_FAILED, -1, 0);
	r->scaling_factor = opt_num(L, C_SCALING, 1.0, 0, false, "a positive number");
	r->energy_j = opt_num(L, C_ENERGY, NAN, 0, true, "a finite number >= 0");
	r->gbs = opt_num(L, C_GBS, NAN, 0, false, "a positive number");
	r->stc = opt_num(L, C_STC, NAN, 0, false, "a positive number");
	r->rcp_samples = opt_num(L, C_RCP, NAN, 0, false, "a positive number");
	return true;
}

/* Pools the texts of the current record into r. 0, or -1 when out of memory. */
static int row_texts(struct loader *L, struct row *r)
{
	struct row_extra x;
	size_t len;

	field_text(L, C_ROUND, &len);
	r->round = len ? text_of(L, C_ROUND) : L->round_default;
	if (!r->round)
		return -1;
	for (int c = 0; c < C_NCOLS; c++) {
		if (schema_cols[c].kind != SK_TEXT || c == C_ROUND)
			continue;
		const char *t = text_of(L, (enum column)c);
		if (!t)
			return -1;
		*(const char **)((char *)(schema_cols[c].flags & SF_EXTRA ? (void *)&x : (void *)r) +
				 schema_cols[c].off) = t;
	}
	/* the one id across rounds (bench_reg.c): a v4.1 `ssd` row is RetinaNet, a v1.1 one not;
	 * the registry's id is not pooled, so it is pooled here */
	const char *id = bench_reg_canon(r->benchmark, r->round);
	if (id != r->benchmark) {
		if (!*x.benchmark_published)
			x.benchmark_published = r->benchmark;
		if (!(r->benchmark = strpool_intern(&L->ds->pool, id, strlen(id))))
			return -1;
	}
	if (!(r->x = dataset_extra(L->ds, &x)))
		return -1;
	r->vendor = r->family = r->accelerator;
	r->collapsed_from = r->carried_from = "";
	r->avail = dataset_avail(r->availability);
	r->div = dataset_division(r->division);
	return 0;
}

/* A row skipped (its warning just given): counted, and the first one's warning kept, so that
 * reports and the status line can say rows were lost and where. Returns 0. */
static int row_skipped(struct loader *L)
{
	struct dataset *ds = L->ds;

	if (ds->skipped++ == 0 && ds->warn.n)
		snprintf(ds->skip_first, sizeof ds->skip_first, "%s", ds->warn.items[ds->warn.n - 1]);
	return 0;
}

/* The current record as a row: checked, pooled, and dropped as a duplicate or appended. 0, or
 * -1 when out of memory. */
static int row_take(struct loader *L)
{
	struct dataset *ds = L->ds;
	struct row r = { 0 };
	size_t len;

	if (L->csv.nf != L->nheader) {
		warn_add(&ds->warn, L->name, L->csv.rec_line, 0, "row has %zu fields, the header has %zu" DATASET_ROW_SKIPPED,
			 L->csv.nf, L->nheader);
		return row_skipped(L);
	}
	for (int c = 0; c < C_NCOLS; c++) {
		if (!(schema_cols[c].flags & SF_REQUIRED))
			continue;
		field_text(L, (enum column)c, &len);
		if (len == 0) {
			warn_at(L, (enum column)c, "%s is empty" DATASET_ROW_SKIPPED, column_names(c));
			return row_skipped(L);
		}
	}
	if (!row_numbers(L, &r))
		return row_skipped(L);
	if (runs_parse(L, &r) < 0 || row_texts(L, &r) < 0)
		return -1;
	r.price_lo = r.price_hi = NAN;
	r.dup_of = -1;
	r.file = L->name;
	r.line = L->csv.rec_line;
	if (key_room(L) < 0)
		return -1;
	size_t first = key_find(L, &r);
	if (first != SIZE_MAX) {
		const struct row *o = &ds->rows[first];
		if (L->ndup++ == 0) {
			L->dup_line = r.line;
			snprintf(L->dup_text, sizeof L->dup_text,
				 "duplicate of %s:%ld (round %s, submitter %s, system %s, benchmark %s)",
				 o->file, o->line, r.round, r.submitter, r.system, r.benchmark);
		}
		/* its runs are the last ones: no row after it has read any yet */
		ds->nruns = r.run_off;
		return 0;
	}
	if (ds->n == ds->cap) {
		size_t cap = ds->cap ? ds->cap * 2 : 256;
		struct row *v = realloc(ds->rows, cap * sizeof *v);
		if (!v)
			return -1;
		ds->rows = v;
		ds->cap = cap;
	}
	ds->rows[ds->n] = r;
	key_put(L, ds->n++);
	return 0;
}

/* The separator a header without its required columns was written with, when it is not ','
 * (a spreadsheet's ';', a tab, '|'): the one appearing most often, and at least three times
 * (four required names need three). 0 when none. Only the failing header is looked at. */
static char other_separator(const struct loader *L)
{
	static const char seps[] = ";\t|";
	size_t best = 2;
	char sep = 0;

	for (const char *c = seps; *c; c++) {
		size_t n = 0;
		for (size_t i = 0; i < L->csv.nf; i++)
			for (size_t j = 0; j < L->csv.f[i].len; j++)
				n += L->csv.f[i].s[j] == *c;
		if (n > best) {
			best = n;
			sep = *c;
		}
	}
	return sep;
}

static int header_take(struct loader *L)
{
	for (int c = 0; c < C_NCOLS; c++)
		L->col_of[c] = -1;
	for (size_t i = 0; i < L->csv.nf; i++) {
		size_t len = L->csv.f[i].len;
		const char *s = text_trim(L->csv.f[i].s, &len);
		for (int c = 0; c < C_NCOLS; c++) {
			if (strlen(column_names(c)) != len || ascii_ncasecmp(s, column_names(c), len) != 0)
				continue;
			if (L->col_of[c] >= 0) {
				err_set(L->err, L->name, L->csv.rec_line, csvr_col(&L->csv, i),
					"column '%s' appears twice (fields %d and %zu)", column_names(c),
					L->col_of[c] + 1, i + 1);
				return -1;
			}
			L->col_of[c] = (int)i;
		}
	}
	for (int c = 0; c < C_NCOLS; c++) {
		char sep;
		if (!(schema_cols[c].flags & SF_REQUIRED) || L->col_of[c] >= 0)
			continue;
		if ((sep = other_separator(L))) {
			err_set(L->err, L->name, L->csv.rec_line, 0,
				"fields are separated by %s, not ','; save the file comma-separated "
				"(required columns: system, benchmark, accelerators, minutes)",
				sep == ';' ? "';'" : sep == '|' ? "'|'" : "tabs");
			return -1;
		}
		err_set(L->err, L->name, L->csv.rec_line, 0,
			"missing required column '%s' (required: system, benchmark, accelerators, minutes)",
			column_names(c));
		return -1;
	}
	L->nheader = L->csv.nf;
	L->have_header = true;
	return 0;
}

/* ------------------------------------------------------------------ feeding libcsv */

/* A record is complete: the header, or a row. */
static int on_row(struct csvr *r, void *ctx)
{
	struct loader *L = ctx;

	if (!L->have_header)
		return header_take(L);
	if (row_take(L) < 0) {
		err_oom(L->err, L->name, r->rec_line);
		return -1;
	}
	return 0;
}

/* Ends the input: a record still open (no final newline) is taken. 0, or -1 with L->err set. */
static int finish(struct loader *L)
{
	if (csvr_finish(&L->csv) < 0)
		return -1;
	if (!L->have_header) {
		err_set(L->err, L->name, 0, 0, "empty file: no header line");
		return -1;
	}
	/* a file given twice repeats every row: one warning, not one a row */
	if (L->ndup == 1)
		warn_add(&L->ds->warn, L->name, L->dup_line, 0, "%s; the first is kept", L->dup_text);
	else if (L->ndup > 1)
		warn_add(&L->ds->warn, L->name, L->dup_line, 0,
			 "%zu rows repeat an earlier row (same round, submitter, system and benchmark; the "
			 "first is kept), from this one: %s", L->ndup, L->dup_text);
	return 0;
}

static size_t skip_bom(const char *b, size_t n)
{
	return n >= 3 && memcmp(b, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

/* Round name for files without a round column: the file name without folder and extension. */
static const char *round_from_name(struct dataset *ds, const char *name)
{
	const char *b = strrchr(name, '/');
	const char *dot;
	char buf[256];

	b = b ? b + 1 : name;
	dot = strrchr(b, '.');
	size_t len = dot && dot > b ? (size_t)(dot - b) : strlen(b);
	if (len >= sizeof buf)
		len = sizeof buf - 1;
	memcpy(buf, b, len);
	utf8_sanitize(buf, len);
	return strpool_intern(&ds->pool, buf, len);
}

/* Sets up L for a load of name into ds, its key set holding the rows loaded before. 0, or -1
 * with err. */
static int loader_init(struct loader *L, struct dataset *ds, const char *name, struct gs_err *err)
{
	char clean[512];

	memset(L, 0, sizeof *L);
	L->ds = ds;
	L->err = err;
	text_sanitize(name, clean, sizeof clean);
	L->name = strpool_intern(&ds->pool, clean, strlen(clean));
	L->round_default = round_from_name(ds, name);
	if (!L->name || !L->round_default) {
		err_oom(err, name, 0);
		return -1;
	}
	/* the key set is the dataset's: each load adds its rows, and only rows put in some other
	 * way (a dataset made by hand) are put here */
	if (ds->nkeys > ds->n) {
		free(ds->keys);
		ds->keys = NULL;
		ds->keys_cap = ds->nkeys = 0;
	}
	for (size_t i = ds->nkeys; i < ds->n; i++) {
		if (key_room(L) < 0) {
			err_oom(err, name, 0);
			return -1;
		}
		key_put(L, i);
	}
	if (csvr_init(&L->csv, L->name, err, on_row, L) < 0)
		return -1;
	return 0;
}

static void loader_free(struct loader *L)
{
	csvr_free(&L->csv);
}

/* ------------------------------------------------------------------ other tables */

enum table { T_RESULTS, T_FAMILIES, T_PRICES, T_RCP };

/* What the first line of buf[0..len) heads: the families table (pattern,vendor,family), the
 * prices table (its five columns in any order), the RCP table (ruleset,benchmark,bs,...: what
 * the importer reads, data/rcp.csv), or else results. */
static enum table table_kind(const char *buf, size_t len)
{
	static const char *const families[] = { "pattern", "vendor", "family" };
	static const char *const prices[] = { "family", "usd_per_hour_low", "usd_per_hour_high", "source", "date" };
	static const char *const rcp[] = { "ruleset", "benchmark", "bs" };
	const char *end = memchr(buf, '\n', len);
	size_t n = end ? (size_t)(end - buf) : len, k = 0, seen = 0;
	char line[256], *tok, *save;

	if (n >= sizeof line)
		return T_RESULTS;
	memcpy(line, buf, n);
	line[n] = '\0';
	for (tok = strtok_r(line, ",\r", &save); tok; tok = strtok_r(NULL, ",\r", &save), k++) {
		size_t tl = strlen(tok);
		char *t = tok + (text_trim(tok, &tl) - tok);
		t[tl] = '\0';
		if (k < 3 && ascii_casecmp(t, families[k]) == 0)
			seen |= 1u << k;
		if (k < 3 && ascii_casecmp(t, rcp[k]) == 0)
			seen |= 256u << k;
		for (size_t i = 0; i < 5; i++)
			if (ascii_casecmp(t, prices[i]) == 0)
				seen |= 8u << i;
	}
	if (k == 3 && (seen & 7) == 7)
		return T_FAMILIES;
	if (k == 5 && (seen >> 3 & 31) == 31)
		return T_PRICES;
	if ((seen >> 8 & 7) == 7)
		return T_RCP;
	return T_RESULTS;
}

/* Loads a families or prices table met among the results files as that table (a families
 * table replaces the rules loaded before), or passes over an RCP table, with a note. 0, or -1
 * with err. */
static int load_table(struct dataset *ds, enum table t, const char *name, const char *buf, size_t len,
		      struct gs_err *err)
{
	int rc;

	if (t == T_RCP) {
		/* no row of it is a result, and no analysis reads it: the importer does */
		warn_add(&ds->warn, name, 0, 0, "an RCP table, not results: not loaded (gpuscale import reads it)");
		return 0;
	}
	if (t == T_FAMILIES) {
		ds->nrules = 0;
		rc = dataset_load_families_buffer(ds, name, buf, len, err);
	} else {
		ds->nprices = 0;
		rc = dataset_load_prices_buffer(ds, name, buf, len, err);
	}
	if (rc == 0)
		warn_add(&ds->warn, name, 0, 0, "a %s table, not results: used as the %s table",
			 t == T_FAMILIES ? "families" : "prices", t == T_FAMILIES ? "families" : "prices");
	return rc;
}

int dataset_load_csv(struct dataset *ds, const char *path, struct gs_err *err)
{
	struct fbuf b = { 0 };
	/* a device is refused at once (/dev/zero would stream until memory ran out) */
	int rc = fileio_read_data(path, DATASET_CSV_MAX, DATASET_LINE_MAX, &b, err);

	if (rc == 0)
		rc = dataset_load_buffer(ds, path, b.p, b.len, err);
	free(b.p);
	return rc;
}

int dataset_load_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
			struct gs_err *err)
{
	struct loader L;
	size_t start = skip_bom(buf, len);
	enum table t = table_kind(buf + start, len - start);
	int rc = -1;

	if (t != T_RESULTS)
		return load_table(ds, t, name, buf, len, err);
	if (loader_init(&L, ds, name, err) < 0)
		return -1;
	if (csvr_feed(&L.csv, buf, len, true) >= 0)
		rc = finish(&L);
	loader_free(&L);
	return rc;
}
