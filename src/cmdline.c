/* cmdline.c: a view as the gpuscale command line that shows it. The options written are the
 * parser's own (cli.c), their names from the same tables, and a value is written so that it
 * reads back to the same number: the line run with --print reports what the screen shows. */
#include "cmdline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner.h"
#include "table.h"

const char *const cmdline_modes[REF_MODE_COUNT] = { [REF_PAPER] = "paper", [REF_PINNED] = "pinned",
						    [REF_FAMILY] = "family" };
const char *const cmdline_feats[FEAT_COUNT] = { [FEAT_N_EP] = "n-ep", [FEAT_N_T] = "n-t",
						[FEAT_N_EP_T] = "n-ep-t" };
const char *const cmdline_rules[RULE_COUNT] = { [RULE_SLOWEST] = "slowest", [RULE_MEDIAN] = "median",
						[RULE_FASTEST] = "fastest" };

struct out {
	char *buf;
	size_t n, len; /* len: what the whole line needs so far */
};

static void put_raw(struct out *o, const char *s, size_t len)
{
	if (o->len < o->n) {
		size_t room = o->n - 1 - o->len;
		memcpy(o->buf + o->len, s, len < room ? len : room);
		o->buf[o->len + (len < room ? len : room)] = '\0';
	}
	o->len += len;
}

/* One word, after a blank unless it is the first: as it is when every byte is one a shell
 * takes literally, else in single quotes (a ' inside as '\''). */
static void put_word(struct out *o, const char *w)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-";

	if (o->len)
		put_raw(o, " ", 1);
	if (*w && strspn(w, safe) == strlen(w)) {
		put_raw(o, w, strlen(w));
		return;
	}
	put_raw(o, "'", 1);
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			put_raw(o, "'\\''", 4);
		else
			put_raw(o, p, 1);
	}
	put_raw(o, "'", 1);
}

static void put_opt(struct out *o, const char *opt, const char *val)
{
	put_word(o, opt);
	if (val)
		put_word(o, val);
}

/* The shortest decimal that reads back as v (0.85 stays 0.85, not 0.84999999999999998). */
static void shortest(double v, char *b, size_t n)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(b, n, "%.*g", prec, v);
		if (strtod(b, NULL) == v)
			return;
	}
}

/* --columns with the columns chosen, when they are not all: the system column always shows, so
 * it is named only when nothing else is (the list cannot be empty). */
static void put_columns(struct out *o, const bool *want)
{
	char list[TC_COUNT * 16] = "";
	size_t len = 0;
	bool all = true;

	for (int c = 0; want && c < TC_COUNT; c++)
		all &= want[c];
	if (!want || all)
		return;
	for (int c = 0; c < TC_COUNT; c++)
		if (want[c] && c != TC_SYS)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? "," : "",
						c == TC_RANK ? "rank" : table_cols[c]->names[0]);
	put_opt(o, "--columns", len ? list : table_cols[TC_SYS]->names[0]);
}

/* The query as its options: each constraint given, and the objective when it is not the
 * default or stands alone (--minimize alone is what asks for the query then). */
static void put_query(struct out *o, const struct query *q)
{
	const struct {
		const char *opt;
		double v;
	} cons[] = { { "--deadline", q->deadline }, { "--max-cost", q->max_cost },
		     { "--max-acc-hours", q->max_acc_hours }, { "--max-kwh", q->max_kwh } };
	char num[40];
	struct query d;

	query_init(&d);
	for (size_t i = 0; i < sizeof cons / sizeof cons[0]; i++)
		if (!isnan(cons[i].v)) {
			shortest(cons[i].v, num, sizeof num);
			put_opt(o, cons[i].opt, num);
		}
	if (q->minimize != d.minimize || !query_constrained(q))
		put_opt(o, "--minimize", q_obj_name(q->minimize));
}

size_t cmdline_format(const struct cmdline_view *v, char *buf, size_t n)
{
	const struct params *p = v->p;
	const struct filter *f = &p->filter;
	struct params d;
	struct out o = { buf, n, 0 };
	char num[40];
	bool dash = false;

	if (n)
		buf[0] = '\0';
	params_init(&d);
	put_word(&o, "gpuscale");
	if (p->round)
		put_opt(&o, "--round", p->round);
	if (p->workload)
		put_opt(&o, "-w", p->workload);
	if (p->all_rounds)
		put_opt(&o, "--all-rounds", NULL);
	for (size_t i = 0; i < f->nfamilies; i++)
		put_opt(&o, "-f", f->families[i]);
	for (size_t i = 0; i < f->nvendors; i++)
		put_opt(&o, "--vendor", f->vendors[i]);
	for (size_t i = 0; i < f->navailability; i++)
		put_opt(&o, "--availability", f->availability[i]);
	for (size_t i = 0; i < f->ndivisions; i++)
		put_opt(&o, "--division", f->divisions[i]);
	if (p->available_only)
		put_opt(&o, "--available-only", NULL);
	if (!p->collapse)
		put_opt(&o, "--no-collapse", NULL);
	/* -r implies pinned mode; a pin kept while another mode is shown is not the view */
	if (p->mode == REF_PINNED && p->pinned)
		put_opt(&o, "-r", p->pinned);
	else if (p->mode != d.mode && p->mode != REF_PINNED)
		put_opt(&o, "-m", cmdline_modes[p->mode]);
	if (p->ref_rule != d.ref_rule)
		put_opt(&o, "--ref-rule", cmdline_rules[p->ref_rule]);
	if (p->theta != d.theta) {
		shortest(p->theta, num, sizeof num);
		put_opt(&o, "--theta", num);
	}
	if (p->k != d.k) {
		snprintf(num, sizeof num, "%d", p->k);
		put_opt(&o, "-k", p->k ? num : "auto");
	}
	if (p->feats != d.feats)
		put_opt(&o, "--features", cmdline_feats[p->feats]);
	/* --sort sets its column's own direction; --reverse then turns it */
	if (p->sort != d.sort)
		put_opt(&o, "--sort", reg_col(p->sort)->names[0]);
	if (p->desc != reg_col(p->sort)->desc)
		put_opt(&o, "--reverse", NULL);
	if (p->pareto_cost)
		put_opt(&o, "--pareto-cost", NULL);
	if (v->y_metric != MET_EP)
		put_opt(&o, "--y-metric", reg_metric(v->y_metric)->names[0]);
	if (v->log_y)
		put_opt(&o, "--log-y", NULL);
	put_columns(&o, v->columns);
	if (v->query)
		put_query(&o, v->query);
	if (v->families_path)
		put_opt(&o, "--families", v->families_path);
	if (v->prices_path)
		put_opt(&o, "--prices", v->prices_path);
	for (int i = 0; v->files && i < v->nfiles; i++)
		dash |= v->files[i][0] == '-';
	if (dash)
		put_word(&o, "--");
	for (int i = 0; v->files && i < v->nfiles; i++)
		put_word(&o, v->files[i]);
	return o.len;
}

/* The end of the word of line that starts at at: the first blank outside quotes. The quoting
 * is the shell's: inside '...' nothing but ' ends it; outside, a backslash takes the next byte
 * as it is (put_word writes a ' inside a word as '\''). */
static size_t word_end(const char *line, size_t at)
{
	bool quoted = false;
	size_t i;

	for (i = at; line[i] && (quoted || line[i] != ' '); i++) {
		if (quoted)
			quoted = line[i] != '\'';
		else if (line[i] == '\\' && line[i + 1])
			i++;
		else
			quoted = line[i] == '\'';
	}
	return i;
}

struct text {
	char *s;
	size_t len, cap;
	bool oom;
};

static void add(struct text *t, const char *s, size_t n)
{
	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = (t->len + n + 1) * 2;
		char *b = realloc(t->s, cap);
		if (!b) {
			t->oom = true;
			return;
		}
		t->s = b;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

/* Adds word w (wl bytes, quoted as put_word quotes) to t in pieces of at most width bytes, the
 * first after *used bytes of its piece; a piece ends where the rest of the word no longer fits
 * with "\" (outside quotes) or "'\" (inside: the quotes closed, and opened again by the next
 * piece), never inside a backslash's pair or a UTF-8 character. room_after: what the last piece
 * must keep free behind the word (2 for a " \" when more words follow). */
static void add_cut_word(struct text *t, const char *w, size_t wl, size_t width, size_t *used,
			 size_t room_after)
{
	size_t i = 0;
	bool quoted = false;

	while (*used + (wl - i) + room_after > width) {
		size_t best = 0, first = 0;
		bool q = quoted, best_q = false, first_q = false, escaped = false;

		for (size_t j = i; j < wl; j++) {
			/* a cut before byte j, the quoting then q */
			bool legal = j > i && !escaped && ((unsigned char)w[j] & 0xC0) != 0x80;
			if (legal && !first)
				first = j, first_q = q;
			if (legal && *used + (j - i) + (q ? 2 : 1) <= width)
				best = j, best_q = q;
			if (escaped)
				escaped = false; /* the byte after a backslash is only itself */
			else if (q)
				q = w[j] != '\'';
			else if (w[j] == '\\')
				escaped = true;
			else
				q = w[j] == '\'';
		}
		if (!best)
			best = first, best_q = first_q;
		if (!best)
			break; /* one character: it stays whole */
		add(t, w + i, best - i);
		add(t, best_q ? "'\\\n'" : "\\\n", best_q ? 4 : 2);
		*used = best_q ? 1 : 0;
		i = best;
		quoted = best_q;
	}
	add(t, w + i, wl - i);
	*used += wl - i;
}

char *cmdline_wrap(const char *line, int width)
{
	struct text t = { NULL, 0, 0, false };
	size_t at = 0, len = strlen(line), used = 0, w = (size_t)(width < 20 ? 20 : width);
	bool content = false; /* the piece holds a word (a blank goes before the next) */

	add(&t, "", 0);
	while (at < len && !t.oom) {
		size_t end = word_end(line, at), wl = end - at, sep = content ? 1 : 0;
		size_t after = end < len ? 2 : 0;

		if (used + sep + wl + after <= w) {
			add(&t, " ", sep);
			add(&t, line + at, wl);
			used += sep + wl;
		} else if (content) {
			add(&t, " \\\n  ", 5);
			used = 2;
			content = false;
			continue;
		} else {
			add_cut_word(&t, line + at, wl, w, &used, after);
		}
		content = true;
		at = end < len ? end + 1 : len;
	}
	if (t.oom) {
		free(t.s);
		return NULL;
	}
	return t.s;
}
