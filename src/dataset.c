/* dataset.c: the results CSV loader (libcsv), the families table, and dataset queries.
 *
 * The input is taken one physical line at a time, so that every record knows the line it
 * starts on and a bad field can be located by byte column in that line. A plain line, met
 * outside a quoted field, is split in place (the fast path): no CR, and quotes, if any, only
 * around whole fields with none inside. For such a line libcsv's rules come down to "split on
 * the commas outside quotes, a quoted field is the text between its quotes, no record for a
 * line of blanks", which the fast path follows; anything else (a doubled quote, blanks or text
 * around a quoted field, a CR inside the line, a record spanning lines) goes to libcsv, the
 * parser of record. tests/test_dataset.c checks both give the same dataset. */
#define _GNU_SOURCE /* strcasestr */
#include "dataset.h"
#include "mem.h"
#include "utf8.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#endif

/* ------------------------------------------------------------------ columns */

enum column {
	C_ROUND, C_SUBMITTER, C_SYSTEM, C_SYSTEM_NAME, C_DIVISION, C_AVAILABILITY, C_ACCELERATOR,
	C_NODES, C_PER_NODE, C_ACCELERATORS, C_FRAMEWORK, C_BENCHMARK, C_MINUTES, C_RUNS_SCORED,
	C_RUNS_FAILED, C_SCALING, C_RUN_MINUTES, C_NCOLS
};

static const char *const column_names[C_NCOLS] = {
	"round", "submitter", "system", "system_name", "division", "availability", "accelerator",
	"nodes", "accelerators_per_node", "accelerators", "framework", "benchmark", "minutes",
	"runs_scored", "runs_failed", "scaling_factor", "run_minutes",
};

static const enum column required[] = { C_SYSTEM, C_BENCHMARK, C_ACCELERATORS, C_MINUTES };

/* Largest accelerator count taken: far above any real system, far below where doubles lose
 * integers, so N, A and log2 N stay exact. */
#define MAX_ACCELERATORS 1000000000LL

/* ------------------------------------------------------------------ text */

char *text_sanitize(const char *s, char *buf, size_t n)
{
	size_t len;

	if (n == 0)
		return buf;
	len = strlen(s ? s : "");
	if (len >= n) {
		len = n - 1;
		/* do not cut a UTF-8 sequence in half */
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(buf, s ? s : "", len);
	buf[len] = '\0';
	utf8_sanitize(buf, len);
	return buf;
}

/* a[0..n) and b[0..n) are equal. Texts here are short and often equal (a column repeats from
 * row to row): a word or two at a time, overlapping at the end, instead of a call. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		uint64_t x, y;
		for (size_t i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return false;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		uint32_t x0, y0, x1, y1;
		memcpy(&x0, a, 4);
		memcpy(&y0, b, 4);
		memcpy(&x1, a + n - 4, 4);
		memcpy(&y1, b + n - 4, 4);
		return x0 == y0 && x1 == y1;
	}
	return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/* Spaces and tabs around s[0..*len) dropped: returns the start, shortens *len. */
static inline const char *trim(const char *s, size_t *len)
{
	size_t n = *len;

	if (n == 0 || ((unsigned char)s[0] > ' ' && (unsigned char)s[n - 1] > ' '))
		return s; /* the usual case: nothing to drop */
	while (n && (s[0] == ' ' || s[0] == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	*len = n;
	return s;
}

/* ------------------------------------------------------------------ numbers */

/* Powers of ten that doubles hold exactly. */
static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* The unsigned plain decimal (digits[.digits]) that s[0..len) starts with, under the rule
 * below: its length, its value in *out; 0 when there is none. */
static inline size_t plain_decimal(const char *s, size_t len, double *out)
{
	uint64_t m = 0; /* wraps past 19 digits, refused below */
	size_t i = 0, nint, nfrac = 0;

	for (; i < len && (unsigned)(s[i] - '0') < 10; i++)
		m = m * 10 + (unsigned)(s[i] - '0');
	nint = i;
	if (i < len && s[i] == '.') {
		size_t d = ++i;
		for (; i < len && (unsigned)(s[i] - '0') < 10; i++)
			m = m * 10 + (unsigned)(s[i] - '0');
		nfrac = i - d;
	}
	if (nint + nfrac == 0 || nint + nfrac > 19 || m > (1ull << 53))
		return 0;
	*out = nfrac ? (double)m / pow10_exact[nfrac] : (double)m;
	return i;
}

/* Plain decimals ([+-]digits[.digits], no exponent) of at most 19 digits whose digits make an
 * integer m <= 2^53: m and 10^k (k <= 19) are exact doubles, so m / 10^k, one correctly
 * rounded division, is the correctly rounded value, which is what strtod returns (Clinger's
 * fast path). 0, or -1 when s is not of that form (strtod decides then). */
static int fast_decimal(const char *s, size_t len, double *out)
{
	const char *p = s, *end = s + len;
	bool neg = false;
	double v;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	size_t used = plain_decimal(p, (size_t)(end - p), &v);
	if (used == 0 || p + used != end)
		return -1;
	*out = neg ? -v : v;
	return 0;
}

int dataset_parse_double(const char *s, size_t len, double *out)
{
	char small[64], *buf = small, *end;
	double v;
	int rc = -1;

	/* a field that passes the fast path untrimmed has nothing to trim */
	if (len && len < sizeof small && fast_decimal(s, len, out) == 0)
		return 0;
	s = trim(s, &len);
	if (len == 0)
		return -1;
	if (fast_decimal(s, len, out) == 0)
		return 0;
	/* strtod also takes "nan", "inf" and hex floats: none is a measurement */
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789.eE+-", s[i]))
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

	/* plain [-]digits of at most 15 digits: the value dataset_parse_double would give, exactly */
	if (len && len <= 16) {
		size_t i = s[0] == '-';
		long long m = 0;
		for (; i < len && (unsigned)(s[i] - '0') < 10; i++)
			m = m * 10 + (s[i] - '0');
		if (i == len && len - (s[0] == '-') - 1 < 15) {
			*out = s[0] == '-' ? -m : m;
			return 0;
		}
	}
	if (dataset_parse_double(s, len, &v) < 0 || v != floor(v) || fabs(v) > 9.0e15)
		return -1;
	*out = (long long)v;
	return 0;
}

/* ------------------------------------------------------------------ loader state */

/* One field of the current record: in the input itself (fast path) or in a copy (libcsv). */
struct field {
	const char *s;
	size_t len;
};

struct field_copy {
	char *s;
	size_t cap;
};

/* Duplicate set slot: the key's hash (low 32 bits), so that probes rarely touch the rows and a
 * rehash never does (the table has at most 2^32 slots: the tag gives the position). */
struct dup_slot {
	uint32_t tag;
	uint32_t ref; /* row index + 1; 0 when free, so that a new table is calloc's zero pages */
};
#define DUP_MAX_ROWS ((size_t)UINT32_MAX - 1)

/* The text columns of a row, in the order they are pooled. */
enum { T_ROUND, T_SUBMITTER, T_SYSTEM, T_SYSTEM_NAME, T_DIVISION, T_AVAILABILITY, T_ACCELERATOR,
       T_FRAMEWORK, T_BENCHMARK, NTEXT };
static const enum column text_cols[NTEXT] = {
	C_ROUND, C_SUBMITTER, C_SYSTEM, C_SYSTEM_NAME, C_DIVISION, C_AVAILABILITY,
	C_ACCELERATOR, C_FRAMEWORK, C_BENCHMARK,
};

/* A text column of a row on its way to the pool. Lookups in a big pool miss the cache, so a
 * row first hashes its texts and asks for their slots (text_prepare), parses its numbers
 * meanwhile, and only then interns them (text_pool). */
struct text {
	const char *s;      /* trimmed field, in the input (or a chunk's copy) */
	uint64_t hash;      /* of the pooled text, when known */
	uint32_t len;       /* (chunks hold a few hundred rows of these: kept small) */
	bool known;
	bool same;          /* equal to the previous row's pooled text, L->prev at the commit */
};
#define TEXT_MAX UINT32_MAX

/* A row parsed and checked but not yet pooled nor checked for duplicates: row_parse fills it,
 * row_commit adds it to the dataset, so that the two can run on different threads. */
struct prerow {
	struct text t[NTEXT];
	double minutes, scaling_factor;
	long long nodes, per_node, accelerators;
	long line;               /* of the chunk when parsed in one */
	size_t run_off;          /* in the runs it was parsed into */
	unsigned run_n;
	int runs_scored, runs_failed;
	uint32_t tag;
	bool key_known, own_round, skip;
	size_t warn_end;         /* the row's warnings end there in its chunk's list */
};

/* A warning of a chunk, waiting for its turn: line of the chunk, column, text. */
struct chunk_warn {
	long line, col;
	char *text;
};

/* A piece of the input of whole lines, parsed on its own (see the parallel loader below). */
struct chunk {
	const char *buf;         /* its input */
	size_t len;
	bool last;               /* ends the input (its last line may lack a newline) */
	char *own;               /* buffer read from a file */
	size_t own_cap;
	struct prerow *rows;     /* what parsing gives */
	size_t n, cap;
	double *runs;
	size_t nruns, runs_cap;
	struct chunk_warn *warns;
	size_t nwarns, warns_cap;
	char **blocks;           /* copies of libcsv's texts of its rows */
	size_t nblocks, aused, asize;
	long lines;              /* newlines in buf */
	bool open;               /* ends inside a record: the next chunk's start was a guess */
	bool failed;             /* stopped by err */
	struct gs_err err;       /* lines counted from the chunk's first */
	int state;
};

struct loader {
	struct dataset *ds;
	const char *name;        /* pooled file name */
	const char *round_default;
	struct gs_err *err;
	bool libcsv_only;        /* every line through libcsv (the reference for tests) */
	bool stop_at_header;     /* feed stops once the header is taken and no record is open */
	bool mapped;             /* the input is a file mapping of the loader's own (see par) */
	struct chunk *chunk;     /* rows go there, for a later commit (a worker), not to ds */
	int col_of[C_NCOLS];     /* field index of each known column, -1 absent */
	size_t nheader;          /* fields in the header */
	bool have_header;
	struct field *fields;    /* current record */
	size_t nfields, fcap;
	bool trimmed;            /* its fields have no spaces or tabs around them (fast path) */
	bool in_place;           /* its fields point into the input (fast path), not libcsv's buffers */
	struct field_copy *copies; /* libcsv's fields, copied (buffers reused record to record) */
	size_t ccap;
	long line;               /* physical line being fed */
	long rec_line;           /* line where the current record started */
	const char *raw;         /* the current physical line, in the input, for columns */
	size_t raw_len;
	bool raw_cont;           /* record continues a previous line (quoted newline) */
	int fatal;
	const char *prev[C_NCOLS]; /* pooled text of the previous row, per column (NULL: none) */
	size_t prev_len[C_NCOLS];
	uint64_t prev_hash[C_NCOLS];
	uint64_t round_default_hash;
	char *scratch;           /* a field being sanitized */
	size_t scratch_cap;
	struct dup_slot *dup;    /* open-addressing set of rows keyed by round/system/benchmark */
	size_t dup_cap, dup_n;
};

static int fields_reserve(struct loader *L)
{
	if (L->nfields == L->fcap) {
		size_t cap = L->fcap ? L->fcap * 2 : 32;
		struct field *f = realloc(L->fields, cap * sizeof *f);
		if (!f)
			return -1;
		L->fields = f;
		L->fcap = cap;
	}
	return 0;
}

/* Copies a field handed over by libcsv (its buffer is reused for the next field). */
static int field_push_copy(struct loader *L, const char *s, size_t len)
{
	size_t i = L->nfields;

	if (fields_reserve(L) < 0)
		return -1;
	if (i == L->ccap) {
		size_t cap = L->ccap ? L->ccap * 2 : 32;
		struct field_copy *c = realloc(L->copies, cap * sizeof *c);
		if (!c)
			return -1;
		memset(c + L->ccap, 0, (cap - L->ccap) * sizeof *c);
		L->copies = c;
		L->ccap = cap;
	}
	struct field_copy *c = &L->copies[i];
	if (len + 1 > c->cap) {
		size_t cap = len + 1 < 64 ? 64 : len + 1;
		char *p = realloc(c->s, cap);
		if (!p)
			return -1;
		c->s = p;
		c->cap = cap;
	}
	if (len)
		memcpy(c->s, s, len);
	c->s[len] = '\0';
	L->fields[i].s = c->s;
	L->fields[i].len = len;
	L->nfields++;
	return 0;
}

/* Byte column (1-based) where field idx starts in the current line, or 0 when unknown. */
static long field_col(const struct loader *L, size_t idx)
{
	bool q = false;
	size_t f = 0;

	if (L->raw_cont || L->rec_line != L->line)
		return 0;
	if (idx == 0)
		return 1;
	for (size_t i = 0; i < L->raw_len; i++) {
		char c = L->raw[i];
		if (c == '"')
			q = !q;
		else if (c == ',' && !q && ++f == idx)
			return (long)i + 2;
	}
	return 0;
}

/* A warning about the current record: to the dataset, or kept in the chunk for its commit. */
__attribute__((format(printf, 3, 4)))
static void loader_warn(struct loader *L, long col, const char *fmt, ...)
{
	struct chunk *k = L->chunk;
	char text[1024]; /* as warn_add's */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (!k) {
		warn_add(&L->ds->warn, L->name, L->rec_line, col, "%s", text);
		return;
	}
	if (k->nwarns == k->warns_cap) {
		size_t cap = k->warns_cap ? k->warns_cap * 2 : 16;
		struct chunk_warn *w = realloc(k->warns, cap * sizeof *w);
		if (!w)
			return; /* as warn_add: the text is dropped */
		k->warns = w;
		k->warns_cap = cap;
	}
	k->warns[k->nwarns].line = L->rec_line;
	k->warns[k->nwarns].col = col;
	k->warns[k->nwarns].text = strdup(text);
	k->nwarns++;
}

/* Column of field idx in the current line, or its field number when the line does not say. */
static long warn_col(const struct loader *L, size_t idx)
{
	long col = field_col(L, idx);

	return col ? col : (long)idx + 1;
}

#define WARN_AT(L, idx, ...) loader_warn((L), warn_col((L), (size_t)(idx)), __VA_ARGS__)

static const char *field_text(const struct loader *L, enum column c, size_t *len)
{
	int i = L->col_of[c];

	if (i < 0 || (size_t)i >= L->nfields) {
		*len = 0;
		return "";
	}
	*len = L->fields[i].len;
	return L->fields[i].s;
}

/* Columns repeat from row to row (round, benchmark, submitter...): the previous row's text is
 * tried first. It is compared with the raw field; sanitizing leaves sanitized text as it is, so
 * a raw field equal to it would be pooled as the same text. A worker (L->chunk) does not see
 * the pool: it compares with the previous row of its chunk, prev (NULL: none, or skipped),
 * which the commit will have pooled just before. False for a text longer than TEXT_MAX. */
static bool text_prepare(struct loader *L, enum column c, struct text *t, const struct text *prev)
{
	size_t len;
	const char *s = field_text(L, c, &len);

	if (!L->trimmed)
		s = trim(s, &len);
	if (len > TEXT_MAX)
		return false;
	t->s = s;
	t->len = (uint32_t)len;
	t->same = false;
	if (prev && prev->len == t->len && same_bytes(prev->s, t->s, t->len)) {
		t->same = true;
		t->known = prev->known;
		t->hash = prev->hash;
		return true;
	}
	if (!L->chunk && L->prev[c] && L->prev_len[c] == t->len && same_bytes(L->prev[c], t->s, t->len)) {
		t->same = true; /* L->prev[c] itself */
		t->hash = L->prev_hash[c];
		t->known = true;
		return true;
	}
	t->hash = strpool_hash_plain(t->s, t->len, &t->known); /* not a pool hash unless known */
	if (t->known && !L->chunk)
		strpool_prefetch(&L->ds->pool, t->hash);
	return true;
}

/* The pooled, sanitized text of t (NULL when out of memory). */
static const char *text_pool(struct loader *L, enum column c, struct text *t)
{
	const char *pooled;

	if (t->same) {
		t->hash = L->prev_hash[c];
		t->known = true;
		return L->prev[c];
	}
	if (t->known) {
		pooled = strpool_intern_hashed(&L->ds->pool, t->s, t->len, t->hash);
	} else {
		/* rare: sanitize a copy (the input is not ours to change) */
		if ((size_t)t->len + 1 > L->scratch_cap) {
			char *p = realloc(L->scratch, (size_t)t->len + 1);
			if (!p)
				return NULL;
			L->scratch = p;
			L->scratch_cap = (size_t)t->len + 1;
		}
		memcpy(L->scratch, t->s, t->len);
		utf8_sanitize(L->scratch, t->len);
		t->hash = strpool_hash(L->scratch, t->len);
		t->known = true;
		pooled = strpool_intern_hashed(&L->ds->pool, L->scratch, t->len, t->hash);
	}
	if (pooled) {
		L->prev[c] = pooled;
		L->prev_len[c] = t->len;
		L->prev_hash[c] = t->hash;
	}
	return pooled;
}

/* ------------------------------------------------------------------ duplicates */

/* Hash of a round/system/benchmark key from the pool hashes of the three texts, so that it is
 * known (and its slot fetched) before the texts are interned. */
static uint32_t key_hash(uint64_t round, uint64_t system, uint64_t bench)
{
	uint64_t h = round * 0x9e3779b97f4a7c15ull;
	h ^= system * 0xc2b2ae3d27d4eb4full;
	h ^= bench * 0x165667b19e3779f9ull;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	return (uint32_t)(h ^ (h >> 32));
}

static uint32_t row_key_hash(const struct row *r)
{
	return key_hash(strpool_hash(r->round, strlen(r->round)), strpool_hash(r->system, strlen(r->system)),
			strpool_hash(r->benchmark, strlen(r->benchmark)));
}

static void dup_prefetch(const struct loader *L, uint32_t tag)
{
	if (L->dup_cap)
		__builtin_prefetch(&L->dup[tag & (L->dup_cap - 1)]);
}

/* One result per round, submitter, system and benchmark: the same system id under several
 * submitters (v4.0 has three such SMC entries) is several results, not a duplicate. */
static bool same_key(const struct row *a, const struct row *b)
{
	return a->round == b->round && a->system == b->system && a->benchmark == b->benchmark &&
	       a->submitter == b->submitter;
}

/* Rehashes the duplicate set into cap slots (a power of two). 0, or -1 when out of memory. */
static int dup_resize(struct loader *L, size_t cap)
{
	struct dup_slot *t = calloc(cap, sizeof *t);
	size_t j;

	if (!t)
		return -1;
	mem_table(t, cap * sizeof *t);
	for (size_t i = 0; i < L->dup_cap; i++) {
		if (!L->dup[i].ref)
			continue;
		j = L->dup[i].tag & (cap - 1);
		while (t[j].ref)
			j = (j + 1) & (cap - 1);
		t[j] = L->dup[i];
	}
	free(L->dup);
	L->dup = t;
	L->dup_cap = cap;
	return 0;
}

/* Makes room in the duplicate set for row idx. 0, or -1 when out of memory. */
static int dup_room(struct loader *L, size_t idx)
{
	if (idx >= DUP_MAX_ROWS || L->dup_cap > ((size_t)1 << 31))
		return -1;
	if ((L->dup_n + 1) * 2 > L->dup_cap && dup_resize(L, L->dup_cap ? L->dup_cap * 2 : 1024) < 0)
		return -1;
	return 0;
}

/* Room for n rows in all without a rehash. A hint: failure changes nothing. */
static void dup_reserve(struct loader *L, size_t n)
{
	size_t cap = L->dup_cap ? L->dup_cap : 1024;

	if (n > ((size_t)1 << 30))
		return;
	while (cap < 2 * n)
		cap *= 2;
	if (cap != L->dup_cap)
		dup_resize(L, cap);
}

static void dup_put(struct loader *L, size_t j, uint32_t tag, size_t idx)
{
	L->dup[j].tag = tag;
	L->dup[j].ref = (uint32_t)idx + 1;
	L->dup_n++;
}

/* Sets *first to the index of an earlier row with r's key (whose key_hash is tag), or to
 * SIZE_MAX after remembering idx. Returns 0, or -1 when out of memory. */
static int dup_check(struct loader *L, const struct row *r, uint32_t tag, size_t idx, size_t *first)
{
	struct dataset *ds = L->ds;
	size_t j, mask;

	if (dup_room(L, idx) < 0)
		return -1;
	mask = L->dup_cap - 1;
	for (j = tag & mask; L->dup[j].ref; j = (j + 1) & mask) {
		if (L->dup[j].tag != tag)
			continue;
		const struct row *o = &ds->rows[L->dup[j].ref - 1];
		if (same_key(o, r)) {
			*first = L->dup[j].ref - 1;
			return 0;
		}
		if (o->round == r->round && o->system == r->system && o->benchmark == r->benchmark)
			ds->shared_ids++; /* reports then name such rows SUBMITTER/SYSTEM */
	}
	dup_put(L, j, tag, idx);
	*first = SIZE_MAX;
	return 0;
}

/* ------------------------------------------------------------------ rows */

/* Grows a big array to hold at least want elements of size sz (doubling); huge pages past a few
 * MB. 0, or -1 when out of memory. */
static int big_reserve(void **p, size_t *cap, size_t want, size_t sz)
{
	if (want <= *cap)
		return 0;
	size_t c = *cap ? *cap : 256;
	while (c < want)
		c *= 2;
	void *q = realloc(*p, c * sz);
	if (!q)
		return -1;
	mem_advise_huge(q, c * sz);
	*p = q;
	*cap = c;
	return 0;
}

/* The usual run list, "0.5487;0.5505;0.5893": positive plain decimals (digits[.digits], at most
 * 19 digits, at most 2^53 as an integer; see fast_decimal) split by ';', empty elements
 * skipped. Parses it into out[0..max) in one pass and returns the count, or -1 when it is not
 * of that form (the general parse then decides, with its warnings). */
static long runs_fast(const char *s, size_t len, double *out, size_t max)
{
	size_t i = 0, k = 0;

	for (; i < len; i++) { /* i++: past the ';' */
		double x;
		if (s[i] == ';')
			continue; /* an empty element is skipped */
		size_t used = plain_decimal(s + i, len - i, &x);
		i += used;
		if (used == 0 || (i < len && s[i] != ';') || !(x > 0) || k == max)
			return -1;
		out[k++] = x;
	}
	return (long)k;
}

/* Parses run_minutes into (*v)[*n...], ascending; a bad value warns and keeps none. */
static int runs_parse(struct loader *L, struct prerow *pr, double **v, size_t *n, size_t *cap)
{
	size_t len, start = *n;
	const char *s = field_text(L, C_RUN_MINUTES, &len);
	size_t i = 0;
	double quick[32];
	long nq = runs_fast(s, len, quick, sizeof quick / sizeof quick[0]);

	pr->run_off = start;
	pr->run_n = 0;
	if (nq >= 0) {
		if (*n + (size_t)nq > *cap && big_reserve((void **)v, cap, *n + (size_t)nq, sizeof **v) < 0)
			return -1;
		if (nq > 0)
			memcpy(*v + *n, quick, (size_t)nq * sizeof *quick);
		*n += (size_t)nq;
		i = len; /* parsed */
	}
	while (i < len) {
		const char *semi = memchr(s + i, ';', len - i);
		size_t j = semi ? (size_t)(semi - s) : len;
		double x;
		if (j > i) {
			if (dataset_parse_double(s + i, j - i, &x) < 0 || x <= 0) {
				WARN_AT(L, L->col_of[C_RUN_MINUTES], "run_minutes: '%.*s' is not a positive number; runs ignored",
					(int)(j - i > 40 ? 40 : j - i), s + i);
				*n = start;
				return 0;
			}
			if (*n == *cap && big_reserve((void **)v, cap, *n + 1, sizeof **v) < 0)
				return -1;
			(*v)[(*n)++] = x;
		}
		i = j + 1;
	}
	pr->run_n = (unsigned)(*n - start);
	/* kept ascending: insertion sort, a row has a handful of runs */
	double *r = *v;
	for (size_t a = start + 1; a < *n; a++) {
		double x = r[a];
		size_t b = a;
		while (b > start && r[b - 1] > x) {
			r[b] = r[b - 1];
			b--;
		}
		r[b] = x;
	}
	return 0;
}

/* Optional integer column: absent or empty gives def; garbage warns and gives def. */
static long long opt_int(struct loader *L, enum column c, long long def, long long min)
{
	size_t len;
	const char *s = field_text(L, c, &len);
	long long v;

	if (L->col_of[c] < 0 || len == 0)
		return def;
	if (parse_int(s, len, &v) < 0 || v < min) {
		WARN_AT(L, L->col_of[c], "%s: '%.*s' is not a valid count; ignored", column_names[c],
			(int)(len > 40 ? 40 : len), s);
		return def;
	}
	return v;
}

/* Checks the current record and parses its numbers and runs into pr (pr->skip: no row, its
 * warnings given); needs neither the pool nor the rows. 0, or -1 when out of memory. */
static int row_parse(struct loader *L, struct prerow *pr, const struct prerow *prev)
{
	struct chunk *k = L->chunk;
	size_t len;
	const char *s;
	double v;
	long long n;

	pr->skip = true;
	pr->run_n = 0;
	pr->line = L->rec_line;
	if (L->nfields != L->nheader) {
		loader_warn(L, 0, "row has %zu fields, the header has %zu; row skipped", L->nfields, L->nheader);
		return 0;
	}
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		trim(field_text(L, required[i], &len), &len);
		if (len == 0) {
			WARN_AT(L, L->col_of[required[i]], "%s is empty; row skipped", column_names[required[i]]);
			return 0;
		}
	}
	/* texts hashed and their slots fetched first; the numbers are parsed meanwhile */
	for (size_t i = 0; i < NTEXT; i++) {
		if (!text_prepare(L, text_cols[i], &pr->t[i], prev ? &prev->t[i] : NULL)) {
			WARN_AT(L, L->col_of[text_cols[i]], "%s: longer than %lu bytes; row skipped",
				column_names[text_cols[i]], (unsigned long)TEXT_MAX);
			return 0;
		}
	}
	struct text *t = pr->t;
	pr->own_round = L->col_of[C_ROUND] >= 0 && t[T_ROUND].len > 0;
	pr->key_known = (!pr->own_round || t[T_ROUND].known) && t[T_SYSTEM].known && t[T_BENCHMARK].known;
	if (pr->key_known) {
		pr->tag = key_hash(pr->own_round ? t[T_ROUND].hash : L->round_default_hash, t[T_SYSTEM].hash,
				   t[T_BENCHMARK].hash);
		if (!k)
			dup_prefetch(L, pr->tag);
	}

	s = field_text(L, C_MINUTES, &len);
	if (dataset_parse_double(s, len, &v) < 0 || !(v > 0)) {
		WARN_AT(L, L->col_of[C_MINUTES], "minutes: '%.*s' is not a positive finite number; row skipped",
			(int)(len > 40 ? 40 : len), s);
		return 0;
	}
	pr->minutes = v;
	s = field_text(L, C_ACCELERATORS, &len);
	if (parse_int(s, len, &n) < 0 || n < 1 || n > MAX_ACCELERATORS) {
		WARN_AT(L, L->col_of[C_ACCELERATORS],
			"accelerators: '%.*s' is not a whole number in 1..%lld; row skipped",
			(int)(len > 40 ? 40 : len), s, MAX_ACCELERATORS);
		return 0;
	}
	pr->accelerators = n;
	pr->nodes = opt_int(L, C_NODES, 0, 0);
	pr->per_node = opt_int(L, C_PER_NODE, 0, 0);
	pr->runs_scored = (int)opt_int(L, C_RUNS_SCORED, -1, 0);
	pr->runs_failed = (int)opt_int(L, C_RUNS_FAILED, -1, 0);
	pr->scaling_factor = 1.0;
	s = field_text(L, C_SCALING, &len);
	if (L->col_of[C_SCALING] >= 0 && len > 0) {
		if (dataset_parse_double(s, len, &v) < 0 || !(v > 0))
			WARN_AT(L, L->col_of[C_SCALING], "scaling_factor: '%.*s' is not a positive number; ignored",
				(int)(len > 40 ? 40 : len), s);
		else
			pr->scaling_factor = v;
	}
	int rc = k ? runs_parse(L, pr, &k->runs, &k->nruns, &k->runs_cap)
		   : runs_parse(L, pr, &L->ds->runs, &L->ds->nruns, &L->ds->runs_cap);
	if (rc < 0)
		return -1;
	pr->skip = false;
	return 0;
}

/* Adds a parsed row to the dataset: pools its texts, drops it as a duplicate or appends it.
 * line is its line in the file; runs[pr->run_off..] its runs when parsed in a chunk (chunked;
 * else they are already at the end of ds->runs). 0, or -1 when out of memory. */
static int row_commit(struct loader *L, struct prerow *pr, long line, bool chunked, const double *runs)
{
	struct dataset *ds = L->ds;
	struct text *t = pr->t;
	struct row r;

	if (pr->skip)
		return 0;
	memset(&r, 0, sizeof r);
	r.minutes = pr->minutes;
	r.accelerators = pr->accelerators;
	r.nodes = pr->nodes;
	r.per_node = pr->per_node;
	r.runs_scored = pr->runs_scored;
	r.runs_failed = pr->runs_failed;
	r.scaling_factor = pr->scaling_factor;
	r.file = L->name;
	r.line = line;
	r.run_n = pr->run_n;
	if (chunked) {
		r.run_off = ds->nruns;
		if (big_reserve((void **)&ds->runs, &ds->runs_cap, ds->nruns + pr->run_n, sizeof *ds->runs) < 0)
			return -1;
		if (pr->run_n)
			memcpy(ds->runs + ds->nruns, runs + pr->run_off, pr->run_n * sizeof *runs);
		ds->nruns += pr->run_n;
	} else {
		r.run_off = pr->run_off;
	}

	r.round = pr->own_round ? text_pool(L, C_ROUND, &t[T_ROUND]) : L->round_default;
	r.submitter = text_pool(L, C_SUBMITTER, &t[T_SUBMITTER]);
	r.system = text_pool(L, C_SYSTEM, &t[T_SYSTEM]);
	r.system_name = text_pool(L, C_SYSTEM_NAME, &t[T_SYSTEM_NAME]);
	r.division = text_pool(L, C_DIVISION, &t[T_DIVISION]);
	r.availability = text_pool(L, C_AVAILABILITY, &t[T_AVAILABILITY]);
	r.accelerator = text_pool(L, C_ACCELERATOR, &t[T_ACCELERATOR]);
	r.framework = text_pool(L, C_FRAMEWORK, &t[T_FRAMEWORK]);
	r.benchmark = text_pool(L, C_BENCHMARK, &t[T_BENCHMARK]);
	r.vendor = r.family = r.accelerator;
	if (!r.round || !r.submitter || !r.system || !r.system_name || !r.division || !r.availability ||
	    !r.accelerator || !r.framework || !r.benchmark)
		return -1;
	uint32_t tag = pr->tag;
	if (!pr->key_known)
		tag = key_hash(pr->own_round ? t[T_ROUND].hash : L->round_default_hash, t[T_SYSTEM].hash,
			       t[T_BENCHMARK].hash);
	size_t first;
	if (dup_check(L, &r, tag, ds->n, &first) < 0)
		return -1;
	if (first != SIZE_MAX) {
		const struct row *o = &ds->rows[first];
		warn_add(&ds->warn, L->name, line, 0,
			 "duplicate of %s:%ld (round %s, submitter %s, system %s, benchmark %s); the first is kept",
			 o->file, o->line, r.round, r.submitter, r.system, r.benchmark);
		ds->nruns = r.run_off;
		return 0;
	}
	if (ds->n == ds->cap && big_reserve((void **)&ds->rows, &ds->cap, ds->n + 1, sizeof *ds->rows) < 0)
		return -1;
	ds->rows[ds->n++] = r;
	return 0;
}

/* A copy of s[0..len) that lives as long as chunk k's rows (NULL when out of memory). */
static const char *chunk_copy(struct chunk *k, const char *s, size_t len)
{
	if (!k->nblocks || k->aused + len > k->asize) {
		size_t size = len > 65536 ? len : 65536;
		char **b = realloc(k->blocks, (k->nblocks + 1) * sizeof *b);
		if (!b)
			return NULL;
		k->blocks = b;
		if (!(b[k->nblocks] = malloc(size)))
			return NULL;
		k->nblocks++;
		k->aused = 0;
		k->asize = size;
	}
	char *d = k->blocks[k->nblocks - 1] + k->aused;
	if (len)
		memcpy(d, s, len);
	k->aused += len;
	return d;
}

/* The current record, a row, parsed into chunk k; texts not in the input are copied. */
static int row_collect(struct loader *L, struct chunk *k)
{
	if (k->n == k->cap) {
		/* room for rows of 128 bytes from the start (a 64 KB chunk holds a few hundred): a
		 * realloc would copy them, and these pages are fresh ones in every slot */
		size_t cap = k->cap ? k->cap * 2 : k->len / 128 > 256 ? k->len / 128 : 256;
		struct prerow *p = realloc(k->rows, cap * sizeof *p);
		if (!p)
			return -1;
		k->rows = p;
		k->cap = cap;
	}
	struct prerow *pr = &k->rows[k->n];
	const struct prerow *prev = k->n && !k->rows[k->n - 1].skip ? &k->rows[k->n - 1] : NULL;
	if (row_parse(L, pr, prev) < 0)
		return -1;
	pr->warn_end = k->nwarns;
	if (!pr->skip && !L->in_place) /* libcsv's fields live in buffers reused by the next record */
		for (size_t i = 0; i < NTEXT; i++)
			if (pr->t[i].len && !(pr->t[i].s = chunk_copy(k, pr->t[i].s, pr->t[i].len)))
				return -1;
	k->n++;
	return 0;
}

static int row_take(struct loader *L)
{
	struct prerow pr;

	if (L->chunk)
		return row_collect(L, L->chunk);
	if (row_parse(L, &pr, NULL) < 0)
		return -1;
	return row_commit(L, &pr, pr.line, false, NULL);
}

static int header_take(struct loader *L)
{
	for (int c = 0; c < C_NCOLS; c++)
		L->col_of[c] = -1;
	for (size_t i = 0; i < L->nfields; i++) {
		size_t len = L->fields[i].len;
		const char *s = trim(L->fields[i].s, &len);
		for (int c = 0; c < C_NCOLS; c++) {
			if (strlen(column_names[c]) != len || strncasecmp(s, column_names[c], len) != 0)
				continue;
			if (L->col_of[c] >= 0) {
				err_set(L->err, L->name, L->rec_line, field_col(L, i),
					"column '%s' appears twice (fields %d and %zu)", column_names[c],
					L->col_of[c] + 1, i + 1);
				return -1;
			}
			L->col_of[c] = (int)i;
		}
	}
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		if (L->col_of[required[i]] < 0) {
			err_set(L->err, L->name, L->rec_line, 0,
				"missing required column '%s' (required: system, benchmark, accelerators, minutes)",
				column_names[required[i]]);
			return -1;
		}
	}
	L->nheader = L->nfields;
	L->have_header = true;
	return 0;
}

/* The current record is complete: the header, or a row. */
static void record_take(struct loader *L)
{
	if (L->fatal)
		return;
	if (L->nfields == 0)
		return;
	if (!L->have_header) {
		if (header_take(L) < 0)
			L->fatal = 1;
	} else if (row_take(L) < 0) {
		err_set(L->err, L->name, L->rec_line, 0, "out of memory");
		L->fatal = 1;
	}
	L->nfields = 0;
	L->raw_cont = false;
}

static void on_field(void *s, size_t len, void *data)
{
	struct loader *L = data;

	if (L->fatal)
		return;
	if (field_push_copy(L, s ? s : "", len) < 0) {
		err_set(L->err, L->name, L->line, 0, "out of memory");
		L->fatal = 1;
	}
}

static void on_record(int c, void *data)
{
	(void)c;
	record_take(data);
}

/* Bits of the bytes ',', '"' and CR among the 16 at p (bit i: p[i]). */
static inline unsigned special_mask(const char *p)
{
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')),
					      _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
				 _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
	return (unsigned)_mm_movemask_epi8(m);
#else
	unsigned m = 0;
	for (int i = 0; i < 16; i++)
		m |= (unsigned)(p[i] == ',' || p[i] == '"' || p[i] == '\r') << i;
	return m;
#endif
}

/* Appends field s[0..len) to the current record. 0, or -1 when out of memory. */
static inline int field_push(struct loader *L, const char *s, size_t len)
{
	if (fields_reserve(L) < 0)
		return -1;
	L->fields[L->nfields].s = s;
	L->fields[L->nfields].len = len;
	L->nfields++;
	return 0;
}

/* The fast path: one record from a line s[0..n) (terminator removed) met outside a record,
 * split in place when it is plain: no CR, and quotes only around whole fields ('"' right after
 * the comma before and right before the comma after) with none inside. For such a line
 * libcsv's rules come down to "split on the commas outside quotes; an unquoted field loses the
 * spaces and tabs around it, a quoted one is the text between its quotes; no record for a line
 * of blanks". Returns false, with no record taken, when the line is not plain (libcsv takes
 * it). */
static bool fast_line(struct loader *L, const char *s, size_t n)
{
	const char *fs = s; /* start of the current field */
	const char *q = NULL; /* its opening quote while in one */
	bool closed = false; /* the current field was quoted and is already pushed */
	bool quoted = false; /* some field was: its text may have blanks to trim */
	char tail[16];
	size_t len;

	L->rec_line = L->line;
	L->nfields = 0;
	for (size_t base = 0; base < n; base += 16) {
		unsigned m;
		if (n - base >= 16) {
			m = special_mask(s + base);
		} else {
			memset(tail, 'x', sizeof tail);
			memcpy(tail, s + base, n - base);
			m = special_mask(tail);
		}
		while (m) {
			size_t i = base + (size_t)__builtin_ctz(m);
			m &= m - 1;
			char c = s[i];
			if (q) { /* inside quotes: only the closing quote matters */
				if (c == ',')
					continue;
				if (c == '\r' || (i + 1 < n && s[i + 1] != ','))
					goto slow; /* "" inside, text after the quote, or a CR */
				if (field_push(L, q + 1, (size_t)(s + i - q - 1)) < 0)
					goto oom;
				q = NULL;
				closed = quoted = true;
			} else if (c == ',') {
				if (!closed) {
					len = (size_t)(s + i - fs);
					const char *f = trim(fs, &len);
					if (field_push(L, f, len) < 0)
						goto oom;
				}
				closed = false;
				fs = s + i + 1;
			} else if (c == '"' && s + i == fs && !closed) {
				q = s + i;
			} else {
				goto slow;
			}
		}
	}
	if (q)
		goto slow; /* a quoted newline or an unterminated quote */
	if (!closed) {
		len = (size_t)(s + n - fs);
		fs = trim(fs, &len);
		if (L->nfields == 0 && len == 0)
			return true; /* nothing but blanks */
		if (field_push(L, fs, len) < 0)
			goto oom;
	}
	L->trimmed = !quoted;
	L->in_place = true;
	record_take(L);
	L->trimmed = L->in_place = false;
	return true;
slow:
	L->nfields = 0;
	return false;
oom:
	err_set(L->err, L->name, L->line, 0, "out of memory");
	L->fatal = 1;
	return true;
}

/* Takes one physical line s[0..n), its '\n' included when nl. 0, or -1 with L->err set. */
static int line_take(struct loader *L, struct csv_parser *p, const char *s, size_t n, bool nl)
{
	size_t m = n - nl;

	L->raw = s;
	L->raw_len = n;
	if (m && s[m - 1] == '\r')
		m--;
	if (p->pstate == 0 && !L->libcsv_only && fast_line(L, s, m)) {
		/* taken */
	} else {
		if (p->pstate == 0) /* libcsv's ROW_NOT_BEGUN: a record starts on this line */
			L->rec_line = L->line;
		size_t done = csv_parse(p, s, n, on_field, on_record, L);
		if (done != n) {
			err_set(L->err, L->name, L->line, (long)done + 1,
				"malformed CSV (%s): a quote inside an unquoted field, or text after a closing quote",
				csv_strerror(csv_error(p)));
			return -1;
		}
		/* a record still open at the end of the line spans lines (quoted newline) */
		if (nl && p->pstate != 0)
			L->raw_cont = true;
	}
	if (nl)
		L->line++;
	return L->fatal ? -1 : 0;
}

/* Takes the complete lines of buf[0..len); returns how many bytes they span (the rest is a
 * partial line), or -1 with L->err set. At the end of the input (last) the rest is a line too.
 * With L->stop_at_header, returns as soon as the header is taken and no record is open. */
static long long feed(struct loader *L, struct csv_parser *p, const char *buf, size_t len, bool last)
{
	const char *b = buf, *end = buf + len;

	while (b < end) {
		const char *nl = memchr(b, '\n', (size_t)(end - b));
		if (!nl)
			break;
		if (line_take(L, p, b, (size_t)(nl - b) + 1, true) < 0)
			return -1;
		b = nl + 1;
		if (L->stop_at_header && L->have_header && p->pstate == 0)
			return (long long)(b - buf);
	}
	if (last && b < end) {
		if (line_take(L, p, b, (size_t)(end - b), false) < 0)
			return -1;
		b = end;
	}
	return (long long)(b - buf);
}

static void loader_free(struct loader *L)
{
	for (size_t i = 0; i < L->ccap; i++)
		free(L->copies[i].s);
	free(L->copies);
	free(L->fields);
	free(L->scratch);
	free(L->dup);
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
	buf[len] = '\0';
	utf8_sanitize(buf, len);
	return strpool_intern(&ds->pool, buf, len);
}

/* Rows of files loaded earlier take part in the duplicate check too. They hold no duplicates
 * and their shared ids are counted already: they are only put in the set. */
static int dup_seed(struct loader *L, size_t upto)
{
	for (size_t i = 0; i < upto; i++) {
		uint32_t tag = row_key_hash(&L->ds->rows[i]);
		size_t j;
		if (dup_room(L, i) < 0)
			return -1;
		for (j = tag & (L->dup_cap - 1); L->dup[j].ref; j = (j + 1) & (L->dup_cap - 1))
			;
		dup_put(L, j, tag, i);
	}
	return 0;
}

/* Ends the input: a record still open (no final newline) is taken. 0, or -1 with L->err set.
 * Called while the last line is still in memory, for the columns of its warnings. */
static int finish(struct loader *L, struct csv_parser *p)
{
	if (csv_fini(p, on_field, on_record, L) != 0) {
		err_set(L->err, L->name, L->rec_line ? L->rec_line : L->line, 0,
			"unterminated quoted field (a quote opened here is never closed)");
		return -1;
	}
	return L->fatal ? -1 : 0;
}

static bool has_bom(const char *b, size_t n)
{
	return n >= 3 && memcmp(b, "\xef\xbb\xbf", 3) == 0;
}

static int load_parallel(struct loader *L, struct csv_parser *p, int fd, const char *mem, size_t mem_len,
			 size_t total, size_t chunk_size, bool eof);

/* Reads fd in large blocks, after init[0..init_len) (the rest of an earlier read: no BOM check
 * then, when init is not NULL); each block's complete lines are taken, a partial line moves to
 * the front and the block grows only for a line longer than itself. With L->stop_at_header,
 * the rest goes to the parallel loader once the header is taken (chunks of chunk_size). */
static int read_lines(struct loader *L, struct csv_parser *p, int fd, const char *init, size_t init_len,
		      size_t total, size_t chunk_size)
{
	/* before the parallel loader, a small first read: what it holds past the header becomes
	 * the first chunk, which would otherwise be a big one parsed by one thread */
	size_t cap = chunk_size ? chunk_size / 2 : 1 << 20, have = init_len, skip = 0;
	bool bom_checked = init != NULL;
	char *buf;
	int rc = -1;

	while (cap < 2 * init_len)
		cap *= 2;
	if (!(buf = malloc(cap))) {
		err_set(L->err, L->name, L->line, 0, "out of memory");
		return -1;
	}
	if (init_len)
		memcpy(buf, init, init_len);
#ifdef POSIX_FADV_SEQUENTIAL
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	for (;;) {
		if (have == cap) {
			char *q = realloc(buf, cap * 2);
			if (!q) {
				err_set(L->err, L->name, L->line, 0, "out of memory");
				goto out;
			}
			buf = q;
			cap *= 2;
		}
		ssize_t got = read(fd, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err_set(L->err, L->name, L->line, 0, "read error: %s", strerror(errno));
			goto out;
		}
		have += (size_t)got;
		if (!bom_checked && (have >= 3 || got == 0)) {
			skip = has_bom(buf, have) ? 3 : 0;
			bom_checked = true;
		}
		if (!bom_checked)
			continue;
		long long used = feed(L, p, buf + skip, have - skip, got == 0);
		if (used < 0)
			goto out;
		if (L->stop_at_header && L->have_header && p->pstate == 0) {
			L->stop_at_header = false;
			rc = load_parallel(L, p, fd, buf + skip + used, have - skip - (size_t)used, total,
					   chunk_size, got == 0);
			goto out;
		}
		if (got == 0)
			break;
		have -= skip + (size_t)used;
		memmove(buf, buf + skip + used, have);
		skip = 0;
	}
	rc = finish(L, p);
out:
	free(buf);
	return rc;
}

/* ------------------------------------------------------------------ parallel loader
 *
 * Big inputs use both cores. Past the header the input is cut into chunks of whole lines,
 * each parsed on its own (lines split, libcsv for quoted lines, numbers and runs parsed, texts
 * hashed, warnings formatted: row_parse) by whichever thread is free, while the main thread
 * commits the chunks in file order (row_commit: pool, duplicates, rows), so that rows,
 * warnings and duplicates come out as from one pass. A chunk is parsed as if it began outside
 * a quoted field; that guess holds when the chunk before it ended outside one. When it did not
 * (a quoted newline across the cut, or an unterminated quote at the end), nothing of the chunk
 * is committed and the rest of the input goes through the one-pass loader from that chunk on.
 * Line numbers inside a chunk count from its start; the commit adds the lines before it. */

/* Chunks read ahead. Commits go in file order, so with few slots the committing thread, having
 * parsed the chunks after a slow one, ends up waiting for it with nothing to do (4 slots left
 * each thread idle a third of the time); 16 keep both busy. */
#define PAR_SLOTS 16
enum { SLOT_FREE, SLOT_READY, SLOT_BUSY, SLOT_DONE };

struct par {
	struct loader proto;     /* a parsing loader: the header's columns, no dataset */
	struct chunk slot[PAR_SLOTS];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t next_read, next_claim, next_commit; /* chunk numbers; slot = number % PAR_SLOTS */
	/* A mapped input (L->mapped): the pages before the committed chunks are dropped as the
	 * commit goes, so that the file does not count in the process's memory as a whole; nothing
	 * points there any more (texts are pooled, warnings formatted). From `released` on. */
	uintptr_t released;
	bool stop;
	int fd;                  /* the source: fd after carry, or mem alone (fd < 0) */
	const char *mem;
	size_t mem_len, mem_pos;
	char *carry;             /* the partial line read past the last chunk (fd) */
	size_t carry_len, carry_cap;
	size_t chunk_size;
	bool eof;                /* fd is at its end */
	bool done;               /* no chunk left to read */
	int read_errno;          /* a read error, reported once the chunks before it are in */
	bool inited;             /* mu and cv */
	/* Memory the commit is about to write, faulted in by the worker while it has nothing to
	 * parse: the page zeroing (a good part of a commit otherwise) leaves the busier thread.
	 * Never further than POP_AHEAD past what the commit has written (`end`, moved after each
	 * chunk), so that a size guessed too big costs no memory. Cleared by par_quiesce before
	 * any of it moves. */
	struct { char *p; size_t len; char *end; bool runs; } pop[2]; /* the row array, the runs */
	size_t npop, pop_next;   /* ranges left; the next one to take a piece of */
	int populating;          /* pieces being faulted in now */
	bool pop_queued;         /* (main thread) ranges were queued and not yet quiesced */
};

#define POP_AHEAD ((size_t)32 << 20)

/* Faults in the next piece of a queued range that the commit is near enough; called and
 * returning with P->mu held. False when there is none now. */
static bool par_populate_next(struct par *P)
{
	const size_t piece = (size_t)4 << 20;

	for (size_t tries = 0; tries < P->npop; tries++) {
		size_t i = P->pop_next++ % P->npop;
		char *a = P->pop[i].p;
		size_t ahead = P->pop[i].end + POP_AHEAD > a ? (size_t)(P->pop[i].end + POP_AHEAD - a) : 0;
		size_t len = P->pop[i].len < piece ? P->pop[i].len : piece;
		if (len > ahead)
			continue;
		P->pop[i].p += len;
		P->pop[i].len -= len;
		if (P->pop[i].len == 0)
			P->pop[i] = P->pop[--P->npop];
		P->populating++;
		pthread_mutex_unlock(&P->mu);
		int rc = mem_populate(a, len);
		pthread_mutex_lock(&P->mu);
		if (rc < 0)
			P->npop = 0; /* the kernel cannot: the commit faults its pages itself */
		P->populating--;
		pthread_cond_broadcast(&P->cv);
		return true;
	}
	return false;
}

/* Stops faulting in (main thread): no queued range is touched after this returns, so that the
 * memory can be moved or freed. */
static void par_quiesce(struct par *P)
{
	if (!P->pop_queued)
		return;
	pthread_mutex_lock(&P->mu);
	P->npop = 0;
	while (P->populating)
		pthread_cond_wait(&P->cv, &P->mu);
	pthread_mutex_unlock(&P->mu);
	P->pop_queued = false;
}

/* A loader that parses chunks: the header's columns of L, no dataset. */
static void parse_loader_init(struct loader *W, const struct loader *L)
{
	memset(W, 0, sizeof *W);
	W->name = L->name;
	W->round_default = L->round_default;
	W->round_default_hash = L->round_default_hash;
	memcpy(W->col_of, L->col_of, sizeof W->col_of);
	W->nheader = L->nheader;
	W->have_header = true;
}

static void chunk_reset(struct chunk *k)
{
	for (size_t i = 0; i < k->nwarns; i++)
		free(k->warns[i].text);
	for (size_t i = 0; i < k->nblocks; i++)
		free(k->blocks[i]);
	k->nwarns = k->nblocks = k->n = k->nruns = 0;
	k->aused = k->asize = 0;
	k->open = k->failed = false;
	k->lines = 0;
	memset(&k->err, 0, sizeof k->err);
}

static void chunk_free(struct chunk *k)
{
	chunk_reset(k);
	free(k->own);
	free(k->rows);
	free(k->runs);
	free(k->warns);
	free(k->blocks);
	memset(k, 0, sizeof *k);
}

/* Parses chunk k with W (a parsing loader) and its own fresh libcsv parser. */
static void chunk_parse(struct loader *W, struct chunk *k)
{
	struct csv_parser p;

	chunk_reset(k);
	W->chunk = k;
	W->err = &k->err;
	W->line = 1;
	W->rec_line = 0;
	W->nfields = 0;
	W->raw_cont = false;
	W->fatal = 0;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		err_set(&k->err, W->name, 1, 0, "out of memory");
		k->failed = true;
		return;
	}
	if (feed(W, &p, k->buf, k->len, k->last) < 0 || W->fatal)
		k->failed = true;
	else
		k->open = p.pstate != 0;
	k->lines = W->line - 1;
	csv_free(&p);
}

/* Claims the next chunk read and parses it with W, the lock dropped meanwhile; called and
 * returning with P->mu held. Whoever is free parses: the worker, or the committing thread. */
static void par_parse_next(struct par *P, struct loader *W)
{
	struct chunk *k = &P->slot[P->next_claim++ % PAR_SLOTS];

	k->state = SLOT_BUSY;
	pthread_mutex_unlock(&P->mu);
	chunk_parse(W, k);
	pthread_mutex_lock(&P->mu);
	k->state = SLOT_DONE;
	pthread_cond_broadcast(&P->cv);
}
/* Claims and parses ready chunks until told to stop; called with P->mu held. */
static void *par_worker(void *arg)
{
	struct par *P = arg;
	struct loader W;

	parse_loader_init(&W, &P->proto);
	pthread_mutex_lock(&P->mu);
	while (!P->stop) {
		if (P->next_claim < P->next_read) {
			par_parse_next(P, &W);
		} else if (!par_populate_next(P)) {
			pthread_cond_wait(&P->cv, &P->mu);
		}
	}
	pthread_mutex_unlock(&P->mu);
	loader_free(&W);
	return NULL;
}

/* Fills chunk k with the next whole lines of the source. 1, or 0 at the end of the input
 * (P->eof set; P->read_errno when a read failed). Only the main thread reads. */
static int par_next(struct par *P, struct chunk *k)
{
	k->last = false;
	if (P->fd < 0) {
		size_t pos = P->mem_pos, left = P->mem_len - pos;
		if (left == 0) {
			P->eof = true;
			return 0;
		}
		size_t len = left;
		if (left > P->chunk_size) {
			const char *nl = memchr(P->mem + pos + P->chunk_size - 1, '\n', left - P->chunk_size + 1);
			len = nl ? (size_t)(nl - (P->mem + pos)) + 1 : left;
		}
		k->buf = P->mem + pos;
		k->len = len;
		k->last = pos + len == P->mem_len;
		P->mem_pos += len;
		return 1;
	}
	size_t have = P->carry_len, cap = k->own_cap;
	while (cap < P->chunk_size || cap < 2 * have)
		cap = cap ? cap * 2 : P->chunk_size;
	if (cap != k->own_cap) {
		char *q = realloc(k->own, cap);
		if (!q)
			goto oom;
		k->own = q;
		k->own_cap = cap;
	}
	if (have)
		memcpy(k->own, P->carry, have);
	P->carry_len = 0;
	for (;;) {
		if (P->eof) {
			if (have == 0)
				return 0;
			k->buf = k->own;
			k->len = have;
			k->last = true;
			return 1;
		}
		if (have == k->own_cap) {
			const char *nl = memrchr(k->own, '\n', have);
			if (nl) {
				size_t len = (size_t)(nl - k->own) + 1;
				if (have - len > P->carry_cap) {
					char *q = realloc(P->carry, have - len);
					if (!q)
						goto oom;
					P->carry = q;
					P->carry_cap = have - len;
				}
				memcpy(P->carry, k->own + len, have - len);
				P->carry_len = have - len;
				k->buf = k->own;
				k->len = len;
				return 1;
			}
			char *q = realloc(k->own, k->own_cap * 2); /* a line longer than the chunk */
			if (!q)
				goto oom;
			k->own = q;
			k->own_cap *= 2;
		}
		ssize_t got = read(P->fd, k->own + have, k->own_cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			P->read_errno = errno;
			P->eof = true;
			/* the lines read so far are taken, then the error is reported */
			have = 0;
			return 0;
		}
		if (got == 0)
			P->eof = true;
		have += (size_t)got;
	}
oom:
	P->read_errno = ENOMEM;
	P->eof = true;
	return 0;
}

/* Queues p[0..len) for the worker to fault in, the commit having written up to end (see
 * struct par). */
static void par_queue(struct par *P, void *p, size_t len, void *end, bool runs)
{
	pthread_mutex_lock(&P->mu);
	if (len && P->npop < sizeof P->pop / sizeof P->pop[0]) {
		P->pop[P->npop].p = p;
		P->pop[P->npop].len = len;
		P->pop[P->npop].end = end;
		P->pop[P->npop].runs = runs;
		P->npop++;
		P->pop_queued = true;
		pthread_cond_broadcast(&P->cv);
	}
	pthread_mutex_unlock(&P->mu);
}

/* Big files have many rows: room for all of them at once (rows and runs), guessed from the
 * rows and runs chunk 0 gave (rows0, runs0, over k->len bytes) and total, the size of the
 * input, and never more rows than total / 8 (the shortest row is "a,b,1,1\n") nor runs than
 * total / 2. The room stays virtual; the worker faults it in a little ahead of the commit.
 * The pool (texts0: the new texts of chunk 0) and the duplicate set are sized too, so that they
 * are not rehashed again and again, each table a fresh one; being hash tables they are touched
 * all over, so they are sized for at most one text and one row per 64 bytes of input (tables
 * of at most 3/4 and 1/2 of the input's size), which a guess from an unusual chunk 0 costs at
 * worst. A hint: failure changes nothing. */
static void par_reserve(struct par *P, struct loader *L, const struct chunk *k, size_t total, size_t rows0,
			size_t runs0, size_t texts0)
{
	struct dataset *ds = L->ds;

	if (k->len == 0 || total < k->len)
		return;
	double f = (double)total / (double)k->len;
	size_t rows = ds->n + (size_t)((double)rows0 * f), runs = ds->nruns + (size_t)((double)runs0 * f);
	if (rows > ds->n + total / 8)
		rows = ds->n + total / 8;
	if (runs > ds->nruns + total / 2)
		runs = ds->nruns + total / 2;
	if (rows >= ((size_t)1 << 31) || runs >= ((size_t)1 << 32))
		return;
	/* nine tenths of the guesses: a guess a little high would double a table at a power of
	 * two for nothing, while one a little low costs at most the one rehash it would */
	size_t texts = (size_t)((double)texts0 * f * 0.9), drows = ds->n + (rows - ds->n) / 10 * 9;
	strpool_reserve(&ds->pool, ds->pool.n + (texts < total / 64 ? texts : total / 64));
	dup_reserve(L, drows < ds->n + total / 64 ? drows : ds->n + total / 64);
	if (big_reserve((void **)&ds->rows, &ds->cap, rows + rows / 20 + 64, sizeof *ds->rows) < 0 ||
	    big_reserve((void **)&ds->runs, &ds->runs_cap, runs + runs / 20 + 64, sizeof *ds->runs) < 0)
		return;
	par_queue(P, ds->rows + ds->n, (rows > ds->n ? rows - ds->n : 0) * sizeof *ds->rows, ds->rows + ds->n,
		  false);
	par_queue(P, ds->runs + ds->nruns, (runs > ds->nruns ? runs - ds->nruns : 0) * sizeof *ds->runs,
		  ds->runs + ds->nruns, true);
}

/* Commits chunk k (its start is known to be outside a record). 0, or -1 with L->err set. */
static int chunk_commit(struct par *P, struct loader *L, struct chunk *k)
{
	struct dataset *ds = L->ds;
	long base = L->line - 1;
	size_t w = 0;

	for (size_t i = 0; i < k->n; i++) {
		struct prerow *pr = &k->rows[i];
		/* nothing the worker may be faulting in moves while it does */
		if (P->pop_queued && (ds->n == ds->cap || ds->nruns + pr->run_n > ds->runs_cap))
			par_quiesce(P);
		if (i + 4 < k->n && !k->rows[i + 4].skip) {
			const struct prerow *a = &k->rows[i + 4];
			for (size_t j = 0; j < NTEXT; j++)
				if (a->t[j].known && !a->t[j].same)
					strpool_prefetch(&ds->pool, a->t[j].hash);
			if (a->key_known)
				dup_prefetch(L, a->tag);
		}
		for (; w < pr->warn_end; w++)
			warn_add(&ds->warn, L->name, k->warns[w].line + base, k->warns[w].col, "%s",
				 k->warns[w].text ? k->warns[w].text : "");
		if (row_commit(L, pr, pr->line + base, true, k->runs) < 0) {
			err_set(L->err, L->name, pr->line + base, 0, "out of memory");
			return -1;
		}
	}
	if (k->failed) {
		if (L->err) {
			*L->err = k->err;
			if (L->err->line > 0)
				L->err->line += base;
		}
		return -1;
	}
	L->line += k->lines;
	return 0;
}

/* Drops the mapped input's pages before end, a few MB at a time (see struct par). */
static void par_release(struct par *P, const char *end)
{
	const uintptr_t page = 4096, step = (uintptr_t)4 << 20;
	uintptr_t e = (uintptr_t)end & ~(page - 1);

	if (e >= P->released + step) {
		madvise((void *)P->released, e - P->released, MADV_DONTNEED);
		P->released = e;
	}
}

/* Tells the worker th to stop and waits for it. */
static void par_stop(struct par *P, pthread_t th)
{
	pthread_mutex_lock(&P->mu);
	P->stop = true;
	pthread_cond_broadcast(&P->cv);
	pthread_mutex_unlock(&P->mu);
	pthread_join(th, NULL);
}

/* Takes the rest of the input after the header: mem[0..mem_len) then fd (or mem alone when
 * fd < 0; eof: fd is at its end), total bytes in all; ends it (finish). 0, or -1 with L->err. */
static int load_parallel(struct loader *L, struct csv_parser *p, int fd, const char *mem, size_t mem_len,
			 size_t total, size_t chunk_size, bool eof)
{
	struct dataset *ds = L->ds;
	struct par *P = calloc(1, sizeof *P);
	pthread_t th;
	bool threaded = false;
	struct loader W;
	int rc = -1;

	if (!P) {
		err_set(L->err, L->name, L->line, 0, "out of memory");
		return -1;
	}
	parse_loader_init(&P->proto, L);
	parse_loader_init(&W, L);
	P->fd = fd;
	P->chunk_size = chunk_size ? chunk_size : 1;
	P->eof = eof;
	if (fd < 0) {
		P->mem = mem;
		P->mem_len = mem_len;
		P->released = (uintptr_t)mem & ~(uintptr_t)4095; /* the mapping starts on a page */
	} else if (mem_len) {
		if (!(P->carry = malloc(mem_len))) {
			err_set(L->err, L->name, L->line, 0, "out of memory");
			goto out;
		}
		memcpy(P->carry, mem, mem_len);
		P->carry_len = P->carry_cap = mem_len;
	}
	pthread_mutex_init(&P->mu, NULL);
	pthread_cond_init(&P->cv, NULL);
	P->inited = true;
	threaded = pthread_create(&th, NULL, par_worker, P) == 0; /* else the main thread does all */

	for (;;) {
		/* read ahead into free slots (only this thread reads and frees slots) */
		while (!P->done && P->next_read - P->next_commit < PAR_SLOTS) {
			struct chunk *k = &P->slot[P->next_read % PAR_SLOTS];
			if (!par_next(P, k)) {
				P->done = true;
				break;
			}
			pthread_mutex_lock(&P->mu);
			k->state = SLOT_READY;
			P->next_read++;
			pthread_cond_broadcast(&P->cv);
			pthread_mutex_unlock(&P->mu);
		}
		pthread_mutex_lock(&P->mu);
		struct chunk *k = &P->slot[P->next_commit % PAR_SLOTS];
		if (P->next_commit < P->next_read && k->state == SLOT_DONE) {
			pthread_mutex_unlock(&P->mu);
			if (k->open)
				break; /* the next chunk's start was guessed wrong: one pass from here */
			size_t n0 = ds->n, nruns0 = ds->nruns, texts0 = ds->pool.n;
			if (chunk_commit(P, L, k) < 0)
				goto out;
			if (P->next_commit == 0)
				par_reserve(P, L, k, total, ds->n - n0, ds->nruns - nruns0, ds->pool.n - texts0);
			if (L->mapped)
				par_release(P, k->buf + k->len);
			pthread_mutex_lock(&P->mu);
			k->state = SLOT_FREE;
			P->next_commit++;
			for (size_t i = 0; i < P->npop; i++) /* what the commit has written */
				P->pop[i].end = P->pop[i].runs ? (char *)(ds->runs + ds->nruns) : (char *)(ds->rows + ds->n);
			pthread_cond_broadcast(&P->cv);
			pthread_mutex_unlock(&P->mu);
		} else if (P->next_commit == P->next_read && P->done) {
			pthread_mutex_unlock(&P->mu);
			break;
		} else if (P->next_claim < P->next_read) {
			par_parse_next(P, &W);
			pthread_mutex_unlock(&P->mu);
		} else {
			pthread_cond_wait(&P->cv, &P->mu);
			pthread_mutex_unlock(&P->mu);
		}
	}
	if (threaded) {
		par_stop(P, th);
		threaded = false;
	}
	/* one pass over what is left: chunks read and not committed, then the rest of the source */
	for (size_t s = P->next_commit; s < P->next_read; s++) {
		struct chunk *k = &P->slot[s % PAR_SLOTS];
		if (feed(L, p, k->buf, k->len, k->last) < 0)
			goto out;
	}
	if (P->read_errno == ENOMEM) {
		err_set(L->err, L->name, L->line, 0, "out of memory");
		goto out;
	}
	if (P->read_errno) {
		err_set(L->err, L->name, L->line, 0, "read error: %s", strerror(P->read_errno));
		goto out;
	}
	if (fd >= 0 && !(P->eof && P->carry_len == 0))
		rc = read_lines(L, p, fd, P->carry ? P->carry : "", P->carry_len, 0, 0);
	else if (fd < 0 && P->mem_pos < P->mem_len)
		rc = feed(L, p, P->mem + P->mem_pos, P->mem_len - P->mem_pos, true) < 0 ? -1 : finish(L, p);
	else
		rc = finish(L, p);
out:
	if (threaded)
		par_stop(P, th);
	if (P->inited) {
		pthread_mutex_destroy(&P->mu);
		pthread_cond_destroy(&P->cv);
	}
	for (size_t i = 0; i < PAR_SLOTS; i++)
		chunk_free(&P->slot[i]);
	free(P->carry);
	loader_free(&P->proto);
	loader_free(&W);
	free(P);
#ifdef __GLIBC__
	/* the chunks' memory, freed in the worker's arena, back to the system; not worth it for a
	 * small input, whose next load would only fault the same pages in again */
	if (total >= ((size_t)32 << 20))
		malloc_trim(0);
#endif
	return rc;
}

/* Inputs from this size on (four chunks) are parsed by two threads. */
#define PAR_MIN_BYTES ((size_t)256 << 10)
#define PAR_CHUNK ((size_t)64 << 10)

static int load_stream(struct dataset *ds, const char *name, int fd, const char *buf, size_t len,
		       bool libcsv_only, size_t par_chunk, bool mapped, struct gs_err *err)
{
	struct loader L;
	struct csv_parser p;
	int rc = -1;

	memset(&L, 0, sizeof L);
	L.ds = ds;
	L.mapped = mapped;
	L.err = err;
	L.line = 1;
	L.libcsv_only = libcsv_only;
	L.name = strpool_intern(&ds->pool, name, strlen(name));
	L.round_default = round_from_name(ds, name);
	if (L.round_default)
		L.round_default_hash = strpool_hash(L.round_default, strlen(L.round_default));
	if (!L.name || !L.round_default || csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		err_set(err, name, 0, 0, "out of memory");
		return -1;
	}
	if (dup_seed(&L, ds->n) < 0) {
		err_set(err, name, 0, 0, "out of memory");
		goto out;
	}
	size_t total = len;
	if (fd >= 0 && par_chunk) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size >= PAR_MIN_BYTES)
			total = (size_t)st.st_size;
		else
			par_chunk = 0;
	}
	L.stop_at_header = par_chunk > 0;
	if (fd >= 0) {
		if (read_lines(&L, &p, fd, NULL, 0, total, par_chunk) < 0)
			goto out;
	} else {
		if (has_bom(buf, len))
			buf += 3, len -= 3;
		long long used = feed(&L, &p, buf, len, true);
		if (used < 0)
			goto out;
		if (L.stop_at_header && L.have_header && p.pstate == 0) {
			L.stop_at_header = false;
			if (load_parallel(&L, &p, -1, buf + used, len - (size_t)used, len, par_chunk, true) < 0)
				goto out;
		} else if (finish(&L, &p) < 0) {
			goto out;
		}
	}
	if (!L.have_header) {
		err_set(err, name, 0, 0, "empty file: no header line");
		goto out;
	}
	rc = 0;
out:
	csv_free(&p);
	loader_free(&L);
	return rc;
}

int dataset_load_csv(struct dataset *ds, const char *path, struct gs_err *err)
{
	struct stat st;
	int fd, rc;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		err_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	/* A file big enough for two threads is mapped, not read: the chunks are parsed where the
	 * page cache has them, with no copy and no fresh buffers to fault in (a good part of a
	 * small load). Like the importer's logs, a file cut short while it loads is not handled. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long long)st.st_size >= PAR_MIN_BYTES && (unsigned long long)st.st_size <= SIZE_MAX) {
		size_t len = (size_t)st.st_size;
		void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			rc = load_stream(ds, path, -1, map, len, false, PAR_CHUNK, true, err);
			munmap(map, len);
			close(fd);
			return rc;
		}
	}
	rc = load_stream(ds, path, fd, NULL, 0, false, PAR_CHUNK, false, err);
	close(fd);
	return rc;
}

int dataset_load_buffer(struct dataset *ds, const char *name, const char *buf, size_t len,
			struct gs_err *err)
{
	return load_stream(ds, name, -1, buf, len, false, 0, false, err);
}

int dataset_load_buffer_reference(struct dataset *ds, const char *name, const char *buf, size_t len,
				  struct gs_err *err)
{
	return load_stream(ds, name, -1, buf, len, true, 0, false, err);
}

int dataset_load_buffer_parallel(struct dataset *ds, const char *name, const char *buf, size_t len,
				 size_t chunk, struct gs_err *err)
{
	return load_stream(ds, name, -1, buf, len, false, chunk ? chunk : 1, false, err);
}

/* ------------------------------------------------------------------ families */

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
		t = (char *)trim(s ? s : "", &len);
		utf8_sanitize(t, len);
		F->f[F->nf] = (char *)strpool_intern(&F->ds->pool, t, len);
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
		if (F->nf < 3 || strcasecmp(F->f[0], "pattern") || strcasecmp(F->f[1], "vendor") ||
		    strcasecmp(F->f[2], "family")) {
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
		if (first && has_bom(b, n))
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
	FILE *fp = fopen(path, "r");
	int rc;

	if (!fp) {
		err_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	rc = families_stream(ds, path, fp, err);
	fclose(fp);
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
		if (strcasestr(acc, ds->rules[i].pattern))
			return &ds->rules[i];
	return NULL;
}

/* Fills ds->names from the rows (see struct dataset); left unused past NAMES_MAX pairs, which
 * the scans then handle as before. */
#define NAMES_MAX 4096
static void names_index(struct dataset *ds)
{
	size_t n = 0, cap = 0;
	struct ds_names *v = NULL;
	const char *lr = NULL, *lb = NULL;

	free(ds->names);
	ds->names = NULL;
	ds->nnames = ds->names_rows = 0;
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		size_t j;
		if (r->round == lr && r->benchmark == lb)
			continue;
		lr = r->round;
		lb = r->benchmark;
		for (j = 0; j < n && (v[j].round != lr || v[j].benchmark != lb); j++)
			;
		if (j < n)
			continue;
		if (n == cap) {
			struct ds_names *w = n < NAMES_MAX ? realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v) : NULL;
			if (!w) {
				free(v);
				return;
			}
			v = w;
		}
		v[n].round = lr;
		v[n++].benchmark = lb;
	}
	ds->names = v;
	ds->nnames = n;
	ds->names_rows = ds->n;
}

void dataset_classify(struct dataset *ds)
{
	/* accelerators are pooled and few: the answer is cached per distinct pointer */
	struct {
		const char *acc;
		const struct family_rule *rule;
	} seen[64];
	size_t nseen = 0, last = 0;

	ds->unmatched = 0;
	ds->unmatched_example = NULL;
	for (size_t i = 0; i < ds->n; i++) {
		struct row *r = &ds->rows[i];
		if (!nseen || seen[last].acc != r->accelerator) {
			for (last = 0; last < nseen && seen[last].acc != r->accelerator; last++)
				;
			if (last == nseen) { /* new: matched now, cached while there is room */
				const struct family_rule *m = rule_match(ds, r->accelerator);
				last = nseen < sizeof seen / sizeof seen[0] ? nseen++ : 0;
				seen[last].acc = r->accelerator;
				seen[last].rule = m;
			}
		}
		const struct family_rule *m = seen[last].rule;
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
	names_index(ds);
}

void dataset_free(struct dataset *ds)
{
	free(ds->names);
	free(ds->rows);
	free(ds->runs);
	free(ds->rules);
	strpool_free(&ds->pool);
	warn_free(&ds->warn);
	memset(ds, 0, sizeof *ds);
}

/* ------------------------------------------------------------------ queries */

size_t dataset_rounds(const struct dataset *ds, const char **out, size_t max)
{
	size_t n = 0;
	const char *last = NULL;
	bool named = ds->names && ds->names_rows == ds->n;
	size_t count = named ? ds->nnames : ds->n;

	for (size_t i = 0; i < count; i++) {
		const char *r = named ? ds->names[i].round : ds->rows[i].round;
		size_t j;
		if (r == last)
			continue;
		last = r;
		for (j = 0; j < n && out[j] != r; j++)
			;
		if (j == n && n < max)
			out[n++] = r;
	}
	return n;
}

static const struct {
	const char *id, *label;
} workloads[] = {
	{ "bert", "BERT" }, { "llama2_70b_lora", "Llama2-LoRA" }, { "ssd", "RetinaNet" },
	{ "retinanet", "RetinaNet" }, { "stable_diffusion", "StableDiff" }, { "gpt3", "GPT3" },
	{ "dlrm_dcnv2", "DLRM" }, { "gnn", "R-GAT" }, { "rgat", "R-GAT" }, { "resnet", "ResNet" },
	{ "unet3d", "3D-UNet" }, { "llama31_8b", "Llama3.1-8B" }, { "llama31_405b", "Llama3.1-405B" },
	{ "flux1", "Flux.1" },
};
#define NWORKLOADS (sizeof workloads / sizeof workloads[0])

static size_t workload_order(const char *id)
{
	for (size_t i = 0; i < NWORKLOADS; i++)
		if (strcmp(workloads[i].id, id) == 0)
			return i;
	return NWORKLOADS;
}

int ascii_casecmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)(a ? a : ""), *y = (const unsigned char *)(b ? b : "");

	while (*x && ascii_fold(*x) == ascii_fold(*y)) {
		x++;
		y++;
	}
	return ascii_fold(*x) - ascii_fold(*y);
}

size_t name_find(const char *const *list, size_t n, const char *name, bool labels)
{
	if (!name)
		return n;
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return i;
	for (size_t i = 0; i < n; i++)
		if (ascii_casecmp(list[i], name) == 0 || (labels && ascii_casecmp(workload_label(list[i]), name) == 0))
			return i;
	return n;
}

const char *workload_label(const char *id)
{
	size_t i = workload_order(id);

	return i < NWORKLOADS ? workloads[i].label : id;
}

size_t dataset_workloads(const struct dataset *ds, const char *round, const char **out, size_t max)
{
	size_t n = 0;
	const char *last = NULL;
	bool named = ds->names && ds->names_rows == ds->n;
	size_t count = named ? ds->nnames : ds->n;

	for (size_t i = 0; i < count; i++) {
		const char *rr = named ? ds->names[i].round : ds->rows[i].round;
		const char *rb = named ? ds->names[i].benchmark : ds->rows[i].benchmark;
		size_t j;
		if (rb == last || (rr != round && strcmp(rr, round) != 0))
			continue;
		last = rb;
		for (j = 0; j < n && out[j] != rb; j++)
			;
		if (j == n && n < max)
			out[n++] = rb;
	}
	/* known workloads in their usual order, then the rest by name */
	for (size_t a = 1; a < n; a++) {
		const char *v = out[a];
		size_t b = a, ov = workload_order(v);
		while (b > 0) {
			size_t ob = workload_order(out[b - 1]);
			if (ob < ov || (ob == ov && strcmp(out[b - 1], v) <= 0))
				break;
			out[b] = out[b - 1];
			b--;
		}
		out[b] = v;
	}
	return n;
}

bool row_named(const struct row *r, const char *name)
{
	size_t ls;
	const char *slash;

	if (!name)
		return false;
	if (strcmp(r->system, name) == 0)
		return true;
	/* SUBMITTER/SYSTEM: system ids may hold a '/' themselves, so the submitter is matched whole */
	ls = strlen(r->submitter);
	slash = name + ls;
	return ls > 0 && strncmp(name, r->submitter, ls) == 0 && *slash == '/' &&
	       strcmp(slash + 1, r->system) == 0;
}

long dataset_find(const struct dataset *ds, const char *round, const char *bench, const char *system)
{
	long found = -1;

	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		if (!row_named(r, system) || strcmp(r->benchmark, bench) != 0 || strcmp(r->round, round) != 0)
			continue;
		if (found >= 0 && ds->rows[found].submitter != r->submitter)
			return -2;
		if (found < 0)
			found = (long)i;
	}
	return found;
}
