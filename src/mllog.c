/* mllog.c: MLLOG log scanner and a strict, allocation-free JSON validator.
 *
 * The official compliance check reads every ":::MLLOG " payload with Python's json.loads;
 * a log with one payload it rejects is a failed run. The validator below accepts exactly
 * what json.loads accepts on a UTF-8 decoded payload: RFC 8259 JSON plus NaN, Infinity and
 * -Infinity, no control characters inside strings, whitespace limited to space, tab, CR, LF.
 * While validating it remembers where the top-level "key", "time_ms" and "metadata"."status"
 * values are (the last duplicate wins, as with a Python dict), so no second parse is needed.
 *
 * Speed: nearly every byte of a log is payload, so the scan is one pass. A payload is parsed
 * straight from the marker with '\n' treated as the end of the text rather than as whitespace
 * (a JSON string cannot hold a raw newline), which finds the end of the line for free; string
 * bodies, most of the bytes, are skipped eight bytes at a time and only quotes, backslashes,
 * control characters and non-ASCII bytes take the byte-wise path. */
#include "mllog.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARK "::" ":MLLOG "
#define MARK_LEN 9
#define MAX_DEPTH 512

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && (defined(__GNUC__) || defined(__clang__))
#define SWAR 1
#else
#define SWAR 0
#endif

struct span {
	const unsigned char *s, *e; /* value text; for strings, without the quotes */
	char type;                  /* 's' string, 'n' number, 'o' anything else, 0 absent */
	char esc;                   /* a string holding a backslash escape */
};

/* Whitespace classes: WS_LINE accepts what may separate tokens inside one line (a payload),
 * WS_ALL adds '\n' (a whole text, as json.loads sees it). */
enum { WS_LINE = 1, WS_ALL = 3 };
static const unsigned char ws_class[256] = {[' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 2};

/* Parser state. Every step takes the current position and returns the position after what it
 * read, or NULL with fail set to where the text stopped being valid JSON. */
struct jp {
	const unsigned char *end, *fail;
	unsigned ws;
	int depth;
	struct span key, time, status;
};

enum { CTX_ANY, CTX_TOP, CTX_META };

static const unsigned char *jp_value(struct jp *j, const unsigned char *p, int ctx, struct span *cap);

static const unsigned char *jp_fail(struct jp *j, const unsigned char *p)
{
	j->fail = p;
	return NULL;
}

static inline const unsigned char *jp_ws(const struct jp *j, const unsigned char *p)
{
	while (p < j->end && *p <= ' ' && (ws_class[*p] & j->ws))
		p++;
	return p;
}

static int is_hex(unsigned c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* One UTF-8 sequence starting at a byte >= 0x80, as Python's strict decoder wants it:
 * no overlong forms, no surrogates, nothing above U+10FFFF. Returns its length, 0 if invalid. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
	size_t left = (size_t)(end - p);
	unsigned c = p[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (left < n || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

#if SWAR
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* High bit set in each byte of x that ends a run of plain string bytes: '"', '\\', a control
 * character (< 0x20) or a non-ASCII byte. Borrows can only mark bytes above a true hit, so the
 * lowest marked byte is always exact. */
static inline uint64_t str_stops(uint64_t x)
{
	uint64_t q = x ^ (ONES * '"'), b = x ^ (ONES * '\\');

	return (((x - ONES * 0x20) & ~x) | ((q - ONES) & ~q) | ((b - ONES) & ~b) | x) & HIGHS;
}
#endif

/* A string starting at the opening quote; cap (if any) gets its raw inner text. */
static const unsigned char *jp_string(struct jp *j, const unsigned char *p, struct span *cap)
{
	const unsigned char *start = ++p, *end = j->end;
	char esc = 0;

	for (;;) {
#if SWAR
		while (end - p >= 8) {
			uint64_t x, t;
			memcpy(&x, p, 8);
			if ((t = str_stops(x)) != 0) {
				p += (unsigned)__builtin_ctzll(t) >> 3;
				goto special;
			}
			p += 8;
		}
#endif
		while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
			p++;
		if (p >= end)
			return jp_fail(j, p);
#if SWAR
special:
#endif
		if (*p == '"')
			break;
		if (*p == '\\') {
			if (end - p < 2)
				return jp_fail(j, p);
			switch (p[1]) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
				p += 2;
				break;
			case 'u':
				if (end - p < 6 || !is_hex(p[2]) || !is_hex(p[3]) || !is_hex(p[4]) ||
				    !is_hex(p[5]))
					return jp_fail(j, p);
				p += 6;
				break;
			default:
				return jp_fail(j, p);
			}
			esc = 1;
		} else if (*p < 0x20) {
			return jp_fail(j, p);
		} else {
			size_t n = utf8_seq(p, end);
			if (!n)
				return jp_fail(j, p);
			p += n;
		}
	}
	if (cap) {
		cap->s = start;
		cap->e = p;
		cap->type = 's';
		cap->esc = esc;
	}
	return p + 1;
}

static const unsigned char *jp_word(struct jp *j, const unsigned char *p, const char *w, size_t n)
{
	if ((size_t)(j->end - p) < n || memcmp(p, w, n) != 0)
		return jp_fail(j, p);
	return p + n;
}

static inline int is_digit(unsigned c)
{
	return c - '0' < 10u;
}

/* A number (the caller has seen neither a quote nor a bracket); -Infinity included. */
static const unsigned char *jp_number(struct jp *j, const unsigned char *p)
{
	const unsigned char *end = j->end;

	if (*p == '-') {
		p++;
		if (p < end && *p == 'I')
			return jp_word(j, p, "Infinity", 8);
	}
	if (p >= end)
		return jp_fail(j, p);
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (++p < end && is_digit(*p))
			;
	else
		return jp_fail(j, p);
	if (p < end && *p == '.') {
		if (++p >= end || !is_digit(*p))
			return jp_fail(j, p);
		while (++p < end && is_digit(*p))
			;
	}
	if (p < end && (*p | 0x20) == 'e') {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || !is_digit(*p))
			return jp_fail(j, p);
		while (++p < end && is_digit(*p))
			;
	}
	return p;
}

/* Decodes the JSON string text s..e into buf (at most n-1 bytes, NUL-terminated);
 * returns the length, or -1 when it does not fit. \u escapes become UTF-8. */
static long str_decode(const unsigned char *s, const unsigned char *e, char *buf, size_t n)
{
	size_t k = 0;

	while (s < e) {
		unsigned long cp;
		unsigned char out[4];
		size_t m = 1;

		if (*s != '\\') {
			out[0] = *s++;
		} else {
			char c = (char)s[1];
			s += 2;
			switch (c) {
			case 'b': out[0] = '\b'; break;
			case 'f': out[0] = '\f'; break;
			case 'n': out[0] = '\n'; break;
			case 'r': out[0] = '\r'; break;
			case 't': out[0] = '\t'; break;
			case 'u': {
				char hex[5] = {(char)s[0], (char)s[1], (char)s[2], (char)s[3], 0};
				cp = strtoul(hex, NULL, 16);
				s += 4;
				if (cp >= 0xd800 && cp <= 0xdbff && e - s >= 6 && s[0] == '\\' && s[1] == 'u') {
					char h2[5] = {(char)s[2], (char)s[3], (char)s[4], (char)s[5], 0};
					unsigned long lo = strtoul(h2, NULL, 16);
					if (lo >= 0xdc00 && lo <= 0xdfff) {
						cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
						s += 6;
					}
				}
				if (cp < 0x80) {
					out[0] = (unsigned char)cp;
				} else if (cp < 0x800) {
					out[0] = (unsigned char)(0xc0 | (cp >> 6));
					out[1] = (unsigned char)(0x80 | (cp & 0x3f));
					m = 2;
				} else if (cp < 0x10000) {
					out[0] = (unsigned char)(0xe0 | (cp >> 12));
					out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
					out[2] = (unsigned char)(0x80 | (cp & 0x3f));
					m = 3;
				} else {
					out[0] = (unsigned char)(0xf0 | (cp >> 18));
					out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
					out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
					out[3] = (unsigned char)(0x80 | (cp & 0x3f));
					m = 4;
				}
				break;
			}
			default: out[0] = (unsigned char)c; break;
			}
		}
		if (k + m >= n)
			return -1;
		memcpy(buf + k, out, m);
		k += m;
	}
	buf[k] = '\0';
	return (long)k;
}

/* 1 when the string span equals w[0..n) after unescaping. */
static inline int span_is(const struct span *sp, const char *w, size_t n)
{
	char buf[64];

	if (sp->type != 's')
		return 0;
	if (!sp->esc)
		return (size_t)(sp->e - sp->s) == n && memcmp(sp->s, w, n) == 0;
	return str_decode(sp->s, sp->e, buf, sizeof buf) == (long)n && memcmp(buf, w, n) == 0;
}

#define SPAN_IS(sp, lit) span_is((sp), (lit), sizeof(lit) - 1)

static const unsigned char *jp_object(struct jp *j, const unsigned char *p, int ctx)
{
	p = jp_ws(j, p + 1);
	if (p < j->end && *p == '}')
		return p + 1;
	for (;;) {
		struct span name;
		struct span *cap = NULL;
		int child = CTX_ANY;

		if (p >= j->end || *p != '"')
			return jp_fail(j, p);
		if (!(p = jp_string(j, p, &name)))
			return NULL;
		if (ctx == CTX_TOP) {
			/* by length first: most names are none of these */
			size_t n = (size_t)(name.e - name.s);
			if (name.esc || n == 3 || n == 7 || n == 8) {
				if (SPAN_IS(&name, "key"))
					cap = &j->key;
				else if (SPAN_IS(&name, "time_ms"))
					cap = &j->time;
				else if (SPAN_IS(&name, "metadata")) {
					child = CTX_META;
					j->status.type = 0;
				}
			}
		} else if (ctx == CTX_META && SPAN_IS(&name, "status"))
			cap = &j->status;
		p = jp_ws(j, p);
		if (p >= j->end || *p != ':')
			return jp_fail(j, p);
		p = jp_ws(j, p + 1);
		if (!(p = jp_value(j, p, child, cap)))
			return NULL;
		p = jp_ws(j, p);
		if (p >= j->end)
			return jp_fail(j, p);
		if (*p == '}')
			return p + 1;
		if (*p != ',')
			return jp_fail(j, p);
		p = jp_ws(j, p + 1);
	}
}

static const unsigned char *jp_array(struct jp *j, const unsigned char *p)
{
	p = jp_ws(j, p + 1);
	if (p < j->end && *p == ']')
		return p + 1;
	for (;;) {
		if (!(p = jp_value(j, p, CTX_ANY, NULL)))
			return NULL;
		p = jp_ws(j, p);
		if (p >= j->end)
			return jp_fail(j, p);
		if (*p == ']')
			return p + 1;
		if (*p != ',')
			return jp_fail(j, p);
		p = jp_ws(j, p + 1);
	}
}

/* One value at p (whitespace already skipped). ctx says whether it is the top-level value or
 * the top-level "metadata" value; cap (if any) receives its span. */
static const unsigned char *jp_value(struct jp *j, const unsigned char *p, int ctx, struct span *cap)
{
	const unsigned char *q;
	char type = 'o';

	if (p >= j->end)
		return jp_fail(j, p);
	switch (*p) {
	case '"':
		return jp_string(j, p, cap);
	case '{':
		if (++j->depth > MAX_DEPTH)
			return jp_fail(j, p);
		q = jp_object(j, p, ctx);
		j->depth--;
		break;
	case '[':
		if (++j->depth > MAX_DEPTH)
			return jp_fail(j, p);
		q = jp_array(j, p);
		j->depth--;
		break;
	case 't': q = jp_word(j, p, "true", 4); break;
	case 'f': q = jp_word(j, p, "false", 5); break;
	case 'n': q = jp_word(j, p, "null", 4); break;
	case 'N': q = jp_word(j, p, "NaN", 3); break;
	case 'I': q = jp_word(j, p, "Infinity", 8); break;
	default:
		q = jp_number(j, p);
		/* -Infinity is no finite number: class 'o', like NaN and Infinity */
		type = q && p[0] == '-' && p[1] == 'I' ? 'o' : 'n';
		break;
	}
	if (q && cap) {
		cap->s = p;
		cap->e = q;
		cap->type = type;
		cap->esc = 0;
	}
	return q;
}

/* Validates the JSON text starting at p: one value, then whitespace up to j->end or, when
 * '\n' is not whitespace (WS_LINE), up to the first newline. Returns that end, or NULL with
 * j->fail set. */
static const unsigned char *jp_run(struct jp *j, const unsigned char *p)
{
	j->depth = 0;
	j->key.type = j->time.type = j->status.type = 0;
	p = jp_value(j, jp_ws(j, p), CTX_TOP, NULL);
	if (!p)
		return NULL;
	p = jp_ws(j, p);
	if (p < j->end && *p != '\n') /* under WS_ALL a newline was skipped as whitespace */
		return jp_fail(j, p);
	return p;
}

int mllog_json_valid(const char *s, size_t n)
{
	struct jp j;

	j.end = (const unsigned char *)s + n;
	j.ws = WS_ALL;
	return jp_run(&j, (const unsigned char *)s) == j.end;
}

/* The number span as a double; 0 on success. JSON number syntax is already checked, so only
 * digits, sign, point and exponent occur; integers are converted exactly without strtod. */
static int span_number(const struct span *sp, double *v)
{
	char buf[64];
	size_t n = (size_t)(sp->e - sp->s);
	int neg = 0;
	const unsigned char *p = sp->s;
	unsigned long long acc = 0;

	if (sp->type != 'n' || n == 0 || n >= sizeof buf)
		return -1;
	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (!memchr(sp->s, '.', n) && !memchr(sp->s, 'e', n) && !memchr(sp->s, 'E', n) &&
	    sp->e - p <= 18) {
		for (; p < sp->e; p++)
			acc = acc * 10 + (unsigned)(*p - '0');
		*v = neg ? -(double)acc : (double)acc;
		return 0;
	}
	/* Callers run under the C numeric locale (import threads set it), so '.' is the point. */
	memcpy(buf, sp->s, n);
	buf[n] = '\0';
	*v = strtod(buf, NULL);
	return isfinite(*v) ? 0 : -1;
}

/* Newlines in [p, e). */
static long count_nl(const unsigned char *p, const unsigned char *e)
{
	long n = 0;

	if (e - p < 32) {
		for (; p < e; p++)
			n += *p == '\n';
		return n;
	}
	while (p < e && (p = memchr(p, '\n', (size_t)(e - p)))) {
		n++;
		p++;
	}
	return n;
}

/* The first ":::MLLOG " at or after p, or NULL. */
static const unsigned char *find_mark(const unsigned char *p, const unsigned char *end)
{
	while (end - p >= MARK_LEN) {
		const unsigned char *q = memchr(p, ':', (size_t)(end - p) - (MARK_LEN - 1));
		if (!q)
			return NULL;
		if (memcmp(q + 1, MARK + 1, MARK_LEN - 1) == 0)
			return q;
		p = q + 1;
	}
	return NULL;
}

void mllog_scan(const char *buf, size_t len, struct mllog_scan *out)
{
	const unsigned char *b = (const unsigned char *)buf, *p = b, *end = b + len, *m;
	long line = 1; /* the line p is on */
	struct jp j;

	memset(out, 0, sizeof *out);
	j.end = end;
	j.ws = WS_LINE;
	while ((m = find_mark(p, end))) {
		const unsigned char *eol;

		line += count_nl(p, m);
		out->events++;
		eol = jp_run(&j, m + MARK_LEN);
		if (!eol) {
			if (!(eol = memchr(j.fail, '\n', (size_t)(end - j.fail))))
				eol = end;
			if (!out->bad_line) {
				const unsigned char *ls = m;
				while (ls > b && ls[-1] != '\n')
					ls--;
				out->bad_line = line;
				out->bad_col = (long)(j.fail - ls) + 1;
			}
		} else if (!out->start_line && SPAN_IS(&j.key, "run_start")) {
			out->start_line = line;
			out->start_has_time = span_number(&j.time, &out->start_ms) == 0;
		} else if (!out->stop_line && SPAN_IS(&j.key, "run_stop")) {
			out->stop_line = line;
			out->stop_has_time = span_number(&j.time, &out->stop_ms) == 0;
			if (j.status.type == 's') {
				out->status_is_str = 1;
				if (str_decode(j.status.s, j.status.e, out->status, sizeof out->status) < 0) {
					size_t n = (size_t)(j.status.e - j.status.s);
					if (n > sizeof out->status - 1)
						n = sizeof out->status - 1;
					memcpy(out->status, j.status.s, n);
					out->status[n] = '\0';
					out->status_is_str = 2; /* too long to be "success" */
				}
			}
		}
		if (eol >= end)
			break;
		p = eol + 1;
		line++;
	}
}

int mllog_verdict(const struct mllog_scan *s, double *minutes, char *why, size_t n, long *line)
{
	*line = 0;
	if (s->bad_line) {
		*line = s->bad_line;
		snprintf(why, n, "MLLOG payload is not valid JSON");
		return -1;
	}
	if (s->events == 0) {
		snprintf(why, n, "no MLLOG events");
		return -1;
	}
	if (!s->start_line) {
		snprintf(why, n, "no run_start event");
		return -1;
	}
	if (!s->stop_line) {
		snprintf(why, n, "no run_stop event");
		return -1;
	}
	if (!s->start_has_time || !s->stop_has_time) {
		*line = s->start_has_time ? s->stop_line : s->start_line;
		snprintf(why, n, "%s has no numeric time_ms", s->start_has_time ? "run_stop" : "run_start");
		return -1;
	}
	if (s->status_is_str != 1 || strcmp(s->status, "success") != 0) {
		*line = s->stop_line;
		if (s->status_is_str)
			snprintf(why, n, "run_stop status is \"%s\", not \"success\"", s->status);
		else
			snprintf(why, n, "run_stop has no metadata.status");
		return -1;
	}
	*minutes = (s->stop_ms - s->start_ms) / 60000.0;
	return 0;
}
