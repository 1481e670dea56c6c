/* dataset_csv.c: the results CSV loader. libcsv parses; the input is fed one physical line at
 * a time so that every record knows the line it starts on and a bad field can be located by
 * byte column in that line. Files are read with read() in blocks (a file cut short while it
 * loads is then only a shorter input, never a fault). */
#include "dataset.h"
#include "fileio.h"
#include "csvr.h"
#include "csvw.h"
#include "bench_reg.h"
#include "schema.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ columns */

/* The loader's names for the schema's columns (schema.h holds the one table). */
#define COLUMN_ENUM(id, name, field, kind, flags) C_##id = SC_##id,
enum column { SCHEMA_COLUMNS(COLUMN_ENUM, COLUMN_ENUM) C_NCOLS = SC_COUNT };
#undef COLUMN_ENUM

#define column_names(c) (schema_cols[c].name)
#define MAX_ACCELERATORS SCHEMA_MAX_ACCELERATORS

/* ------------------------------------------------------------------ numbers */

/* The plain decimals of a results file ("26.8191", "8"): digits with at most one '.', no
 * exponent, read by text_decimal_exact (Clinger's fast path), which gives the value strtod
 * gives. 1 with *out set, or 0: not such a number
 * (strtod decides). With it, the eight shipped rounds' numbers cost 5.9 M instructions
 * instead of 25 M (tests/test_dataset.c compares it with strtod). */
static int parse_plain_decimal(const char *s, size_t len, double *out)
{
	size_t i = 0, digits = 0, frac = 0;
	uint64_t m = 0;
	bool neg = false, dot = false, any = false;

	if (s[0] == '-' || s[0] == '+')
		neg = s[i++] == '-';
	for (; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';
		if (d <= 9) {
			any = true;
			if (m == 0 && d == 0) { /* a leading zero adds no significant digit */
				frac += dot;
				continue;
			}
			if (++digits > 16) /* 10^16 > 2^53: strtod's */
				return 0;
			m = m * 10 + d;
			frac += dot;
		} else if (s[i] == '.' && !dot) {
			dot = true;
		} else {
			return 0;
		}
	}
	return any && text_decimal_exact(m, frac, neg, out);
}

int dataset_parse_double(const char *s, size_t len, double *out)
{
	char small[64], *buf = small, *end;
	double v;
	int rc = -1;

	s = text_trim(s, &len);
	if (len == 0)
		return -1;
	if (parse_plain_decimal(s, len, out))
		return 0;
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

/* Parses a whole field as an integer (a trailing ".0" is accepted). 0 or -1. A field of at
 * most 15 digits alone is read as digits: the same value the double gives (below 2^53 every
 * integer is exact), without it (opt_int was 76 M of 2.45 G instructions at 10^5 rows). */
static int parse_int(const char *s, size_t len, long long *out)
{
	double v;

	if (len > 0 && len <= 15) {
		long long x = 0;
		size_t i = 0;
		while (i < len && (unsigned)(s[i] - '0') <= 9)
			x = x * 10 + (s[i++] - '0');
		if (i == len) {
			*out = x;
			return 0;
		}
	}
	/* below 9e15 every integer is an exact double */
	if (dataset_parse_double(s, len, &v) < 0 || v != floor(v) || fabs(v) > 9.0e15)
		return -1;
	*out = (long long)v;
	return 0;
}

/* ------------------------------------------------------------------ loader state */

/* A row in the duplicate set: its key_hash (probes read rows only when it agrees), and its
 * index + 1 (0: a free slot). Eight bytes a slot: at 10^6 rows the set is 16 MB. */
struct dataset_key {
	uint32_t tag, ref;
};

/* Recent texts kept per text column (text_pool). */
#define MEMO_WAYS 8

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
	struct text_memo {       /* each text column's recent fields, as read, and their
				  * pooled texts: the row before's in way[last], others by
				  * memo_way */
		struct text_way {
			char *raw;
			size_t len, cap;
			const char *pooled;
		} way[MEMO_WAYS];
		unsigned last;
	} memo[C_NCOLS];
	/* what pooled texts gave before (equal pointers, equal text): the row before's benchmark
	 * id across rounds, and the availability and division of recent texts, 16 slots by
	 * pointer (1.5 M of the eight shipped rounds' load instructions, 44 M of 2.45 G at 10^5
	 * rows, asked again for every row) */
	struct canon_memo {      /* the benchmark ids across rounds of recent (benchmark, round)
				  * pairs, by pointer: a round's rows take turns among its
				  * benchmarks */
		const char *of, *round, *canon, *pooled;
	} canon[8];
	struct { const char *of; enum avail v; } avail[16];
	struct text_pending {    /* each text column of the current record, text_prepare's */
		const char *pooled;  /* its pooled text, or NULL: s to pool */
		char *s;
		size_t len;
		uint64_t hash;
		struct text_way *way;
	} pend[C_NCOLS];
	struct row held;         /* the row taken last, until row_commit */
	bool holding;
	struct { const char *of; enum division v; } div[16];
};

/* The memo slot of a pooled text. */
static size_t memo_slot(const char *s)
{
	return (size_t)(((uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ull) >> 60);
}

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

/* Quoted field text in messages is cut to this many bytes. */
#define QUOTE(len) (int)((len) > 40 ? 40 : (len))

/* The way of text_memo that a field of len bytes at raw takes: of its length and its first,
 * middle and last bytes (a column's few repeated texts, a submitter or an accelerator, mostly
 * differ there). */
static unsigned memo_way(const char *raw, size_t len)
{
	const unsigned char *u = (const unsigned char *)raw;
	unsigned h = len ? (unsigned)len * 31u + u[0] * 7u + u[len / 2] * 3u + u[len - 1] : 0;

	return (h ^ h >> 3 ^ h >> 6) % MEMO_WAYS;
}

/* Column c's text of the current record made ready for text_pool: the pooled text a recent
 * row's equal field gave, or else the field sanitized in place (it is ours to change) with
 * its hash, whose slot in the pool starts coming into the cache. A field as the row before
 * had it gives the same text (trimming, unguarding and sanitizing read the field alone)
 * without doing them again: rows repeat their round, submitter, accelerator, framework and
 * benchmark, and absent columns (the eight shipped rounds' text pooling: 9.6 M instructions
 * before, 6.2 M with this; tests/test_dataset.c loads rows together and alone). Every text
 * column is made ready before the row's numbers are read, and pooled after: a name seen for
 * the first time waits on the pool's table, and the numbers are read meanwhile. 0, or -1
 * when out of memory. */
static int text_prepare(struct loader *L, enum column c)
{
	struct text_memo *mc = &L->memo[c];
	struct text_way *m = &mc->way[mc->last];
	struct text_pending *pd = &L->pend[c];
	size_t len;
	const char *raw = field_raw(L, c, &len);

	pd->pooled = NULL;
	if (m->pooled && m->len == len && memcmp(m->raw, raw, len) == 0) {
		pd->pooled = m->pooled;
		return 0;
	}
	/* a text a recent row had, in the way its ends and length choose */
	m = &mc->way[mc->last = memo_way(raw, len)];
	if (m->pooled && m->len == len && memcmp(m->raw, raw, len) == 0) {
		pd->pooled = m->pooled;
		return 0;
	}
	if (len + 1 > m->cap) {
		char *b = realloc(m->raw, len + 1 > 2 * m->cap ? len + 1 : 2 * m->cap);
		if (!b)
			return -1;
		m->raw = b;
		m->cap = len + 1 > 2 * m->cap ? len + 1 : 2 * m->cap;
	}
	memcpy(m->raw, raw, len);
	m->len = len;
	m->pooled = NULL; /* until text_pool pools it: a row skipped before leaves no text here */
	/* the ' the CSV writer puts before a cell a spreadsheet would take for a formula */
	pd->s = (char *)csvw_unguard(field_text(L, c, &len), &len);
	pd->len = len;
	utf8_sanitize(pd->s, len);
	pd->hash = schema_cols[c].flags & SF_SHOWN ? 0 : strpool_hash(&L->ds->pool, pd->s, len);
	pd->way = m;
	return 0;
}

/* The sanitized text of column c, made ready by text_prepare, in the pool: interned, or kept
 * for a column only shown (schema.h's SF_SHOWN); NULL when out of memory. */
static const char *text_pool(struct loader *L, enum column c)
{
	struct text_pending *pd = &L->pend[c];

	if (pd->pooled)
		return pd->pooled;
	if (schema_cols[c].flags & SF_SHOWN)
		return pd->way->pooled = strpool_keep(&L->ds->pool, pd->s, pd->len);
	return pd->way->pooled = strpool_intern_hashed(&L->ds->pool, pd->s, pd->len, pd->hash);
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
static uint32_t key_hash(const struct row *r)
{
	return (uint32_t)mix(mix(mix((uintptr_t)r->round) ^ (uintptr_t)r->system) ^ (uintptr_t)r->benchmark);
}

/* Puts row idx, whose key_hash is tag, in the key set, which must have room. */
static void key_put(struct loader *L, uint32_t tag, size_t idx)
{
	size_t mask = L->ds->keys_cap - 1, j = tag & mask;

	while (L->ds->keys[j].ref)
		j = (j + 1) & mask;
	L->ds->keys[j].tag = tag;
	L->ds->keys[j].ref = (uint32_t)idx + 1;
	L->ds->nkeys++;
}

/* Makes the key set's table hold at least n more rows without growing (at least twice as
 * many slots). 0, or -1 when out of memory (the set is as it was). */
static int key_grow(struct loader *L, size_t n)
{
	size_t cap = L->ds->keys_cap ? L->ds->keys_cap : 1024;

	while ((L->ds->nkeys + n) * 2 > cap)
		cap *= 2;
	if (cap == L->ds->keys_cap)
		return 0;
	struct dataset_key *old = L->ds->keys;
	size_t old_cap = L->ds->keys_cap;
	if (!(L->ds->keys = calloc(cap, sizeof *L->ds->keys))) {
		L->ds->keys = old;
		return -1;
	}
	L->ds->keys_cap = cap;
	L->ds->nkeys = 0;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].ref)
			key_put(L, old[i].tag, old[i].ref - 1);
	free(old);
	return 0;
}

/* Room for one more row in the key set. 0, or -1 when out of memory or past 2^32 - 2 rows. */
static int key_room(struct loader *L)
{
	if (L->ds->nkeys >= UINT32_MAX - 1)
		return -1;
	return key_grow(L, 1);
}

/* The index of an earlier row with r's round, submitter, system and benchmark, or SIZE_MAX.
 * The same system id under another submitter (v4.0 has three SMC entries) is another result:
 * counted in ds->shared_ids, so that reports name such rows SUBMITTER/SYSTEM. */
static size_t key_find(struct loader *L, const struct row *r, uint32_t tag)
{
	size_t mask = L->ds->keys_cap - 1;

	for (size_t j = tag & mask; L->ds->keys[j].ref; j = (j + 1) & mask) {
		if (L->ds->keys[j].tag != tag)
			continue;
		const struct row *o = &L->ds->rows[L->ds->keys[j].ref - 1];
		if (o->round != r->round || o->system != r->system || o->benchmark != r->benchmark)
			continue;
		if (o->submitter == r->submitter)
			return L->ds->keys[j].ref - 1;
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

/* Parses run_minutes into ds->runs, ascending; a bad value warns and keeps none. Sets
 * r->run_off and r->run_n. 0, or -1 when out of memory. */
static int runs_parse(struct loader *L, struct row *r)
{
	struct dataset *ds = L->ds;
	size_t len, i = 0;
	const char *s = field_raw(L, C_RUN_MINUTES, &len); /* a blank element is a bad one */

	r->run_off = ds->nruns;
	r->run_n = 0;
	while (i < len) {
		const char *semi = memchr(s + i, ';', len - i);
		size_t j = semi ? (size_t)(semi - s) : len;
		double x;
		if (j > i) {
			if (dataset_parse_double(s + i, j - i, &x) < 0 || x <= 0) {
				warn_at(L, C_RUN_MINUTES, "run_minutes: '%.*s' is not a positive number; runs ignored",
					QUOTE(j - i), s + i);
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
	/* ascending: one sort of the row's runs, O(k log k) however many there are (an
	 * insertion per run took 22 s for a row of 100,000); a list written ascending, as the
	 * importer writes it, is left as it is (its sort was 1.9 M of the eight shipped rounds'
	 * 29.5 M load instructions) */
	if (r->run_n < 2)
		return 0; /* and ds->runs may be NULL: no pointer into it */
	const double *v = ds->runs + r->run_off;
	size_t k = 1;
	while (k < r->run_n && v[k - 1] <= v[k])
		k++;
	if (k < r->run_n)
		qsort(ds->runs + r->run_off, r->run_n, sizeof *ds->runs, cmp_double);
	return 0;
}

/* Optional integer column: absent or empty gives def; garbage warns and gives def. */
static long long opt_int(struct loader *L, enum column c, long long def, long long min)
{
	size_t len;
	const char *s = field_text(L, c, &len);
	long long v;

	if (len == 0)
		return def;
	if (parse_int(s, len, &v) < 0 || v < min) {
		warn_at(L, c, "%s: '%.*s' is not a valid count; ignored", column_names(c), QUOTE(len), s);
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

	if (len == 0)
		return def;
	if (dataset_parse_double(s, len, &v) < 0 || v < min || (!min_ok && v == min)) {
		warn_at(L, c, "%s: '%.*s' is not %s; ignored", column_names(c), QUOTE(len), s, what);
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

	if (dataset_parse_double(s, len, &r->minutes) < 0 || !(r->minutes > 0)) {
		warn_at(L, C_MINUTES, "minutes: '%.*s' is not a positive finite number; row skipped", QUOTE(len), s);
		return false;
	}
	s = field_text(L, C_ACCELERATORS, &len);
	/* 0: a CPU-only system (MLPerf counts no accelerator); it loads, and views leave it out */
	if (parse_int(s, len, &n) < 0 || n < 0 || n > MAX_ACCELERATORS) {
		warn_at(L, C_ACCELERATORS, "accelerators: '%.*s' is not a whole number in 0..%lld; row skipped",
			QUOTE(len), s, MAX_ACCELERATORS);
		return false;
	}
	r->accelerators = n;
	r->nodes = opt_int(L, C_NODES, 0, 0);
	r->per_node = opt_int(L, C_PER_NODE, 0, 0);
	r->runs_scored = (int)opt_int(L, C_RUNS_SCORED, -1, 0);
	r->runs_failed = (int)opt_int(L, C_RUNS_FAILED, -1, 0);
	r->scaling_factor = opt_num(L, C_SCALING, 1.0, 0, false, "a positive number");
	r->energy_j = opt_num(L, C_ENERGY, NAN, 0, true, "a finite number >= 0");
	return true;
}

/* Pools the texts of the current record into r. 0, or -1 when out of memory. */
static int row_texts(struct loader *L, struct row *r)
{
	struct row_extra x;
	size_t len;

	field_text(L, C_ROUND, &len);
	r->round = len ? text_pool(L, C_ROUND) : L->round_default;
	if (!r->round)
		return -1;
	for (int c = 0; c < C_NCOLS; c++) {
		if (schema_cols[c].kind != SK_TEXT || c == C_ROUND)
			continue;
		const char *t = text_pool(L, (enum column)c);
		if (!t)
			return -1;
		*(const char **)((char *)(schema_cols[c].flags & SF_EXTRA ? (void *)&x : (void *)r) +
				 schema_cols[c].off) = t;
	}
	/* the one id across rounds (bench_reg.c): a v4.1 `ssd` row is RetinaNet, a v1.1 one not */
	struct canon_memo *cm = &L->canon[memo_slot(r->benchmark) % 8];
	if (r->benchmark != cm->of || r->round != cm->round || !cm->canon) {
		const char *id = bench_reg_canon(r->benchmark, r->round);
		/* the registry's id (not pooled: unequal to every pooled text), and its pooled copy */
		if (!(cm->pooled = id == r->benchmark ? id : strpool_intern(&L->ds->pool, id, strlen(id)))) {
			cm->canon = NULL;
			return -1;
		}
		cm->canon = id;
		cm->of = r->benchmark;
		cm->round = r->round;
	}
	if (cm->canon != r->benchmark) {
		if (!*x.benchmark_published)
			x.benchmark_published = r->benchmark;
		r->benchmark = cm->pooled;
	}
	if (!(r->x = dataset_extra(L->ds, &x)))
		return -1;
	r->vendor = r->family = r->accelerator;
	r->collapsed_from = r->carried_from = "";
	size_t a = memo_slot(r->availability), d = memo_slot(r->division);
	if (L->avail[a].of != r->availability) {
		L->avail[a].of = r->availability;
		L->avail[a].v = dataset_avail(r->availability);
	}
	if (L->div[d].of != r->division) {
		L->div[d].of = r->division;
		L->div[d].v = dataset_division(r->division);
	}
	r->avail = L->avail[a].v;
	r->div = L->div[d].v;
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

/* The row taken before (L->held), dropped as a duplicate or appended. Each row is kept back
 * until the next record is read: its key's slot in the set, fetched meanwhile, is then in the
 * cache (at 10^6 rows each lookup waited on memory). 0, or -1 when out of memory. */
static int row_commit(struct loader *L)
{
	struct dataset *ds = L->ds;
	struct row *r = &L->held;

	if (!L->holding)
		return 0;
	L->holding = false;
	if (key_room(L) < 0)
		return -1;
	uint32_t tag = key_hash(r);
	size_t first = key_find(L, r, tag);
	if (first != SIZE_MAX) {
		const struct row *o = &ds->rows[first];
		if (L->ndup++ == 0) {
			L->dup_line = r->line;
			snprintf(L->dup_text, sizeof L->dup_text,
				 "duplicate of %s:%ld (round %s, submitter %s, system %s, benchmark %s)",
				 o->file, o->line, r->round, r->submitter, r->system, r->benchmark);
		}
		/* its runs are the last ones: no row after it has read any yet */
		ds->nruns = r->run_off;
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
	ds->rows[ds->n] = *r;
	key_put(L, tag, ds->n++);
	return 0;
}

/* The current record as a row: checked, pooled, and held for row_commit. 0, or -1 when out
 * of memory. */
static int row_take(struct loader *L)
{
	struct row r = { 0 };
	size_t len;

	if (row_commit(L) < 0)
		return -1;
	if (L->csv.nf != L->nheader) {
		warn_add(&L->ds->warn, L->name, L->csv.rec_line, 0, "row has %zu fields, the header has %zu; row skipped",
			 L->csv.nf, L->nheader);
		return row_skipped(L);
	}
	for (int c = 0; c < C_NCOLS; c++) {
		if (!(schema_cols[c].flags & SF_REQUIRED))
			continue;
		field_text(L, (enum column)c, &len);
		if (len == 0) {
			warn_at(L, (enum column)c, "%s is empty; row skipped", column_names(c));
			return row_skipped(L);
		}
	}
	for (int c = 0; c < C_NCOLS; c++)
		if (schema_cols[c].kind == SK_TEXT && text_prepare(L, (enum column)c) < 0)
			return -1;
	if (!row_numbers(L, &r))
		return row_skipped(L);
	if (runs_parse(L, &r) < 0 || row_texts(L, &r) < 0)
		return -1;
	r.price_lo = r.price_hi = NAN;
	r.dup_of = -1;
	r.file = L->name;
	r.line = L->csv.rec_line;
	if (L->ds->keys_cap)
		__builtin_prefetch(&L->ds->keys[key_hash(&r) & (L->ds->keys_cap - 1)]);
	L->held = r;
	L->holding = true;
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
	if (row_commit(L) < 0) {
		err_oom(L->err, L->name, L->held.line);
		return -1;
	}
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

/* Reads fd to its end in blocks; each block's complete lines are taken, a partial line moves to
 * the front, and the buffer grows only for a line longer than itself, up to DATASET_LINE_MAX;
 * at most DATASET_CSV_MAX bytes in all (a file that grows while read). 0, or -1 with L->err. */
static int read_lines(struct loader *L, int fd)
{
	size_t cap = 1 << 16, have = 0;
	unsigned long long total = 0;
	char *buf = malloc(cap);
	int rc = -1;

	if (!buf) {
		err_oom(L->err, L->name, 0);
		return -1;
	}
	for (;;) {
		if (have == cap) {
			if (cap >= DATASET_LINE_MAX) {
				err_set(L->err, L->name, L->csv.line, 0, "a line longer than %zu bytes",
					(size_t)DATASET_LINE_MAX);
				goto out;
			}
			char *b = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
			if (!b) {
				err_set(L->err, L->name, L->csv.line, 0, "out of memory (a line of %zu bytes)", have);
				if (L->err)
					L->err->kind = GS_ERR_OOM;
				goto out;
			}
			buf = b;
			cap *= 2;
		}
		ssize_t got = read(fd, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err_set(L->err, L->name, L->csv.line, 0, "read error: %s", strerror(errno));
			goto out;
		}
		have += (size_t)got;
		if ((total += (size_t)got) > DATASET_CSV_MAX) {
			err_set(L->err, L->name, 0, 0, "larger than %zu bytes", (size_t)DATASET_CSV_MAX);
			goto out;
		}
		long long used = csvr_feed(&L->csv, buf, have, got == 0);
		if (used < 0)
			goto out;
		memmove(buf, buf + used, have - (size_t)used);
		have -= (size_t)used;
		if (got == 0)
			break;
	}
	rc = finish(L);
out:
	free(buf);
	return rc;
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

/* Sets up L for a load of name into ds. The key set of the earlier rows stays in ds from file
 * to file (each file re-inserting every row loaded before made 4,000 files of 30 rows take
 * 40 s); it is rebuilt only when it does not hold every row. 0, or -1 with err. */
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
	if (csvr_init(&L->csv, L->name, err, on_row, L) < 0)
		return -1;
	if (ds->nkeys == ds->n)
		return 0;
	free(ds->keys);
	ds->keys = NULL;
	ds->keys_cap = ds->nkeys = 0;
	for (size_t i = 0; i < ds->n; i++) {
		if (key_room(L) < 0) {
			csvr_free(&L->csv);
			err_oom(err, name, 0);
			return -1;
		}
		key_put(L, key_hash(&ds->rows[i]), i);
	}
	return 0;
}

static void loader_free(struct loader *L)
{
	csvr_free(&L->csv);
	for (int c = 0; c < C_NCOLS; c++)
		for (int w = 0; w < MEMO_WAYS; w++)
			free(L->memo[c].way[w].raw);
}

/* ------------------------------------------------------------------ other tables */

enum table { T_RESULTS, T_FAMILIES, T_PRICES };

/* What the first line of buf[0..len) heads: the families table (pattern,vendor,family), the
 * prices table (its five columns in any order), or else results. */
static enum table table_kind(const char *buf, size_t len)
{
	static const char *const families[] = { "pattern", "vendor", "family" };
	static const char *const prices[] = { "family", "usd_per_hour_low", "usd_per_hour_high", "source", "date" };
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
		for (size_t i = 0; i < 5; i++)
			if (ascii_casecmp(t, prices[i]) == 0)
				seen |= 8u << i;
	}
	if (k == 3 && (seen & 7) == 7)
		return T_FAMILIES;
	if (k == 5 && seen >> 3 == 31)
		return T_PRICES;
	return T_RESULTS;
}

/* Loads a families or prices table met among the results files as that table (a families
 * table replaces the rules loaded before), with a note. 0, or -1 with err. */
static int load_table(struct dataset *ds, enum table t, const char *name, const char *buf, size_t len,
		      struct gs_err *err)
{
	int rc;

	if (t == T_FAMILIES) {
		ds->nrules = 0;
		rc = buf ? dataset_load_families_buffer(ds, name, buf, len, err) : dataset_load_families(ds, name, err);
	} else {
		ds->nprices = 0;
		rc = buf ? dataset_load_prices_buffer(ds, name, buf, len, err) : dataset_load_prices(ds, name, err);
	}
	if (rc == 0)
		warn_add(&ds->warn, name, 0, 0, "a %s table, not results: used as the %s table",
			 t == T_FAMILIES ? "families" : "prices", t == T_FAMILIES ? "families" : "prices");
	return rc;
}

/* The kind of table the file at fd starts with; fd is left at its start. */
static enum table file_kind(int fd)
{
	char head[256];
	ssize_t got = pread(fd, head, sizeof head, 0);

	if (got <= 0)
		return T_RESULTS;
	size_t bom = skip_bom(head, (size_t)got);
	return table_kind(head + bom, (size_t)got - bom);
}

int dataset_load_csv(struct dataset *ds, const char *path, struct gs_err *err)
{
	struct loader L;
	struct stat st;
	enum table t;
	int fd, rc;

	/* a device is refused at once (/dev/zero streamed 2 GB before running out of memory) */
	fd = fileio_open_data(path, &st, err);
	if (fd < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		/* a pipe (`<(cmd)`, "-"): read whole, capped, then as a file is (its kind included) */
		struct fbuf b = { 0 };
		close(fd);
		rc = fileio_read_data(path, DATASET_CSV_MAX, DATASET_LINE_MAX, &b, err);
		if (rc == 0)
			rc = dataset_load_buffer(ds, path, b.p, b.len, err);
		free(b.p);
		return rc;
	}
	if ((unsigned long long)st.st_size > DATASET_CSV_MAX) {
		close(fd);
		err_set(err, path, 0, 0, "larger than %zu bytes", (size_t)DATASET_CSV_MAX);
		return -1;
	}
	if ((t = file_kind(fd)) != T_RESULTS) {
		close(fd);
		return load_table(ds, t, path, NULL, 0, err);
	}
	if (loader_init(&L, ds, path, err) < 0) {
		close(fd);
		return -1;
	}
	/* a row holds about one text of its own to intern (its system id; its name is kept, not
	 * interned) in some 180 bytes: the pool's table sized for one a 180 bytes does not rehash
	 * them all as it grows (at most 2^22 of them: 2^24 slots, 80 MB with their tags; a file
	 * of long run lists and few names asks no more) */
	size_t guess = (size_t)st.st_size / 180;
	strpool_reserve(&ds->pool, ds->pool.n + (guess < ((size_t)1 << 22) ? guess : (size_t)1 << 22));
	/* and the key set sized for rows of some 180 bytes, not grown through every power of two
	 * (each growth rehashed every row; a hint: out of memory it grows as it goes) */
	guess = (size_t)st.st_size / 180;
	(void)key_grow(&L, guess < ((size_t)1 << 22) ? guess : (size_t)1 << 22);
	rc = read_lines(&L, fd);
	loader_free(&L);
	close(fd);
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
