/* cmdline.c: a view as the gpuscale command line that shows it. The options written are the
 * parser's own (cli.c), their names from the same tables, and a value is written so that it
 * reads back to the same number: the line run with --print reports what the screen shows. */
#include "cmdline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

size_t cmdline_wrap(const char *line, int width, char *lines, size_t w, size_t max)
{
	size_t count = 0, len = strlen(line), at = 0;

	while (at < len && count < max) {
		int indent = count ? 2 : 0, room = width - indent - 2;
		size_t cut = at, end = at;
		bool quoted = false;

		/* the last blank outside quotes that keeps the piece within room; the quoting is the
		 * shell's: inside '...' nothing but ' ends it, outside a backslash takes the next
		 * byte as it is (put_word writes a ' inside a word as '\'') */
		for (size_t i = at; i <= len; i++) {
			if (i == len || (line[i] == ' ' && !quoted)) {
				bool over = (int)(i - at) > room;
				if (over && cut > at)
					break;
				cut = i;
				if (over || i == len)
					break;
			}
			if (quoted)
				quoted = line[i] != '\'';
			else if (line[i] == '\\' && i + 1 < len)
				i++;
			else
				quoted = line[i] == '\'';
		}
		end = cut > at ? cut : len;
		snprintf(lines + count * w, w, "%*s%.*s%s", indent, "", (int)(end - at), line + at,
			 end < len ? " \\" : "");
		count++;
		at = end < len ? end + 1 : len;
	}
	return count;
}
