/* mllog.c: MLLOG log scanner and a strict, allocation-free JSON validator.
 *
 * The official compliance check reads every ":::MLLOG " payload with Python's json.loads;
 * a log with one payload it rejects is a failed run. The validator below accepts exactly
 * what json.loads accepts on a UTF-8 decoded payload: RFC 8259 JSON plus NaN, Infinity and
 * -Infinity, no control characters inside strings, whitespace limited to space, tab, CR, LF.
 * While validating it remembers where the top-level "key", "time_ms" and "metadata"."status"
 * values are (the last duplicate wins, as with a Python dict), so no second parse is needed. */
#define _GNU_SOURCE /* memmem */
#include "mllog.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARK "::" ":MLLOG "
#define MARK_LEN 9
#define MAX_DEPTH 512

struct span {
	const unsigned char *s, *e; /* value text; for strings, without the quotes */
	char type;                  /* 's' string, 'n' number, 'o' anything else, 0 absent */
};

struct jp {
	const unsigned char *p, *end;
	int depth;
	struct span key, time, status;
};

enum { CTX_ANY, CTX_TOP, CTX_META };

static int jp_value(struct jp *j, int ctx, struct span *cap);

static void jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int is_hex(unsigned c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* One UTF-8 sequence starting at a byte >= 0x80, as Python's strict decoder wants it:
 * no overlong forms, no surrogates, nothing above U+10FFFF. */
static int jp_utf8(struct jp *j)
{
	const unsigned char *p = j->p;
	size_t left = (size_t)(j->end - p);
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
		return -1;
	if (left < n || p[1] < lo || p[1] > hi)
		return -1;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return -1;
	j->p += n;
	return 0;
}

/* A string starting at the opening quote; cap (if any) gets its raw inner text. */
static int jp_string(struct jp *j, struct span *cap)
{
	const unsigned char *start;

	j->p++;
	start = j->p;
	for (;;) {
		while (j->p < j->end && *j->p >= 0x20 && *j->p < 0x80 && *j->p != '"' && *j->p != '\\')
			j->p++;
		if (j->p >= j->end)
			return -1;
		if (*j->p == '"')
			break;
		if (*j->p < 0x20)
			return -1;
		if (*j->p == '\\') {
			if (j->end - j->p < 2)
				return -1;
			switch (j->p[1]) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
				j->p += 2;
				break;
			case 'u':
				if (j->end - j->p < 6 || !is_hex(j->p[2]) || !is_hex(j->p[3]) ||
				    !is_hex(j->p[4]) || !is_hex(j->p[5]))
					return -1;
				j->p += 6;
				break;
			default:
				return -1;
			}
		} else if (jp_utf8(j) < 0)
			return -1;
	}
	if (cap) {
		cap->s = start;
		cap->e = j->p;
		cap->type = 's';
	}
	j->p++;
	return 0;
}

static int jp_digits(struct jp *j)
{
	const unsigned char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s ? 0 : -1;
}

static int jp_word(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return -1;
	j->p += n;
	return 0;
}

static int jp_number(struct jp *j)
{
	if (*j->p == '-') {
		j->p++;
		if (j->p < j->end && *j->p == 'I')
			return jp_word(j, "Infinity");
	}
	if (j->p >= j->end)
		return -1;
	if (*j->p == '0')
		j->p++;
	else if (*j->p >= '1' && *j->p <= '9')
		jp_digits(j);
	else
		return -1;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (jp_digits(j) < 0)
			return -1;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (jp_digits(j) < 0)
			return -1;
	}
	return 0;
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

/* 1 when the string span equals w after unescaping. */
static int span_is(const struct span *sp, const char *w)
{
	size_t n = strlen(w);
	char buf[64];

	if (sp->type != 's')
		return 0;
	if (!memchr(sp->s, '\\', (size_t)(sp->e - sp->s)))
		return (size_t)(sp->e - sp->s) == n && memcmp(sp->s, w, n) == 0;
	return str_decode(sp->s, sp->e, buf, sizeof buf) == (long)n && memcmp(buf, w, n) == 0;
}

static int jp_object(struct jp *j, int ctx)
{
	j->p++;
	jp_ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		struct span name = {0};
		struct span *cap = NULL;
		int child = CTX_ANY;

		if (j->p >= j->end || *j->p != '"' || jp_string(j, &name) < 0)
			return -1;
		if (ctx == CTX_TOP) {
			if (span_is(&name, "key"))
				cap = &j->key;
			else if (span_is(&name, "time_ms"))
				cap = &j->time;
			else if (span_is(&name, "metadata")) {
				child = CTX_META;
				j->status.type = 0;
			}
		} else if (ctx == CTX_META && span_is(&name, "status"))
			cap = &j->status;
		jp_ws(j);
		if (j->p >= j->end || *j->p != ':')
			return -1;
		j->p++;
		jp_ws(j);
		if (jp_value(j, child, cap) < 0)
			return -1;
		jp_ws(j);
		if (j->p >= j->end)
			return -1;
		if (*j->p == '}') {
			j->p++;
			return 0;
		}
		if (*j->p != ',')
			return -1;
		j->p++;
		jp_ws(j);
	}
}

static int jp_array(struct jp *j)
{
	j->p++;
	jp_ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return 0;
	}
	for (;;) {
		if (jp_value(j, CTX_ANY, NULL) < 0)
			return -1;
		jp_ws(j);
		if (j->p >= j->end)
			return -1;
		if (*j->p == ']') {
			j->p++;
			return 0;
		}
		if (*j->p != ',')
			return -1;
		j->p++;
		jp_ws(j);
	}
}

/* One value at j->p (whitespace already skipped). ctx says whether it is the top-level
 * value or the top-level "metadata" value; cap (if any) receives its span. */
static int jp_value(struct jp *j, int ctx, struct span *cap)
{
	const unsigned char *s = j->p;
	int r;

	if (j->p >= j->end)
		return -1;
	switch (*j->p) {
	case '{':
		if (++j->depth > MAX_DEPTH)
			return -1;
		r = jp_object(j, ctx == CTX_ANY ? CTX_ANY : ctx);
		j->depth--;
		break;
	case '[':
		if (++j->depth > MAX_DEPTH)
			return -1;
		r = jp_array(j);
		j->depth--;
		break;
	case '"':
		return jp_string(j, cap);
	case 't': r = jp_word(j, "true"); break;
	case 'f': r = jp_word(j, "false"); break;
	case 'n': r = jp_word(j, "null"); break;
	case 'N': r = jp_word(j, "NaN"); break;
	case 'I': r = jp_word(j, "Infinity"); break;
	default:
		r = jp_number(j);
		if (r == 0 && cap) {
			cap->s = s;
			cap->e = j->p;
			cap->type = 'n';
			return 0;
		}
		break;
	}
	if (r == 0 && cap) {
		cap->s = s;
		cap->e = j->p;
		cap->type = 'o';
	}
	return r;
}

/* Validates s[0..n); on failure *fail gets the offset where parsing stopped. */
static int jp_run(struct jp *j, const char *s, size_t n, size_t *fail)
{
	memset(j, 0, sizeof *j);
	j->p = (const unsigned char *)s;
	j->end = j->p + n;
	jp_ws(j);
	if (jp_value(j, CTX_TOP, NULL) == 0) {
		jp_ws(j);
		if (j->p == j->end)
			return 1;
	}
	if (fail)
		*fail = (size_t)(j->p - (const unsigned char *)s);
	return 0;
}

int mllog_json_valid(const char *s, size_t n)
{
	struct jp j;

	return jp_run(&j, s, n, NULL);
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

/* Line number of position pos, counting from a cached (position, line) pair that only moves on. */
static long line_of(const char *buf, size_t pos, size_t *cpos, long *cline)
{
	const char *p = buf + *cpos, *end = buf + pos, *q;

	while (p < end && (q = memchr(p, '\n', (size_t)(end - p)))) {
		(*cline)++;
		p = q + 1;
	}
	*cpos = pos;
	return *cline;
}

void mllog_scan(const char *buf, size_t len, struct mllog_scan *out)
{
	const char *p = buf, *end = buf + len, *m;
	size_t cpos = 0;
	long cline = 1;
	struct jp j;

	memset(out, 0, sizeof *out);
	while (p < end && (m = memmem(p, (size_t)(end - p), MARK, MARK_LEN))) {
		const char *pl = m + MARK_LEN;
		const char *eol = memchr(pl, '\n', (size_t)(end - pl));
		size_t fail;

		if (!eol)
			eol = end;
		out->events++;
		if (!jp_run(&j, pl, (size_t)(eol - pl), &fail)) {
			if (!out->bad_line) {
				const char *ls = m;
				while (ls > buf && ls[-1] != '\n')
					ls--;
				out->bad_line = line_of(buf, (size_t)(m - buf), &cpos, &cline);
				out->bad_col = (long)(pl + fail - ls) + 1;
			}
		} else if (!out->start_line && span_is(&j.key, "run_start")) {
			out->start_line = line_of(buf, (size_t)(m - buf), &cpos, &cline);
			out->start_has_time = span_number(&j.time, &out->start_ms) == 0;
		} else if (!out->stop_line && span_is(&j.key, "run_stop")) {
			out->stop_line = line_of(buf, (size_t)(m - buf), &cpos, &cline);
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
		p = eol < end ? eol + 1 : end;
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
