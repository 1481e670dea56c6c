/* table.c: columns, cell texts and layout of the ranked table, one definition for the
 * explorer and --print. Widths are display columns (a CJK character takes two). */
#include "table.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "describe.h"
#include "fmt.h"
#include "text.h"

struct name_key {
	const char *system, *submitter; /* pooled: equal text, equal pointer */
	size_t row;
};

static int name_key_cmp(const void *a, const void *b)
{
	const struct name_key *x = a, *y = b;
	uintptr_t p = (uintptr_t)x->system, q = (uintptr_t)y->system;

	return (p > q) - (p < q);
}

/* Raises *w to the display width of s (bytes, or columns); a string no longer in bytes than *w
 * is not measured (no character is wider than its bytes). */
static void widen(const struct table_view *v, int *w, const char *s, int extra)
{
	size_t n = strlen(s);

	if (n + (size_t)extra > (size_t)*w) {
		int sw = (v->bytes ? (int)n : text_columns(s)) + extra;
		if (sw > *w)
			*w = sw;
	}
}

/* The names of the shown rows to their widths. */
static void names_widen(struct table_view *v, const struct dataset *ds, const struct analysis *a)
{
	const char *round0 = ds->rows[a->rows[0].row].round;

	for (size_t i = 0; i < a->n; i++) {
		const struct row *r = &ds->rows[a->rows[i].row];
		widen(v, &v->need[TC_SYS], r->system, 0);
		widen(v, &v->need[TC_SUB], r->submitter, 0);
		widen(v, &v->need[TC_FAM], r->family, v->letter_col == TC_FAM ? 2 : 0);
		/* rounds are pooled: one pointer, one round; the column shows when two differ, or
		 * when it carries the plot's letters */
		if ((r->round != round0 || v->letter_col == TC_ROUND) && !v->need[TC_ROUND])
			v->need[TC_ROUND] = text_columns(table_cols[TC_ROUND]->head);
	}
}

/* The plot's letters of a's rows into v (letter_col -1 when out of memory: no letters). */
static void letters_make(struct table_view *v, const struct dataset *ds, const struct analysis *a)
{
	enum chart_group g = chart_group_of_analysis(a);

	v->letter_col = g == GROUP_FAMILY ? TC_FAM : g == GROUP_ROUND ? TC_ROUND : -1;
	if (v->letter_col < 0 || a->n == 0)
		return;
	if (v->letter_cap < a->n) {
		char *l = realloc(v->letter, a->n);
		if (!l) {
			v->letter_col = -1;
			return;
		}
		v->letter = l;
		v->letter_cap = a->n;
	}
	chart_letters(ds, a, g, v->letter);
}

/* One sort by id groups the rows of one system id. */
int table_names(struct table_view *v, const struct dataset *ds, const struct analysis *a)
{
	struct name_key *k;
	bool kwh = false, cost = false;

	for (int c = 0; c < TC_COUNT; c++)
		v->need[c] = text_columns(table_cols[c]->head);
	v->need[TC_ROUND] = 0;
	letters_make(v, ds, a);
	for (size_t i = 0; i < a->n; i++) {
		kwh |= isfinite(a->rows[i].kwh);
		cost |= isfinite(a->rows[i].cost_lo);
	}
	if (a->n)
		names_widen(v, ds, a);
	if (v->need[TC_ROUND])
		for (size_t i = 0; i < a->n; i++)
			widen(v, &v->need[TC_ROUND], ds->rows[a->rows[i].row].round,
			      v->letter_col == TC_ROUND ? 2 : 0);
	/* a column no row has a value for is left out */
	for (int c = TC_GBS; c <= TC_ECONV_RCP; c++) {
		size_t i = 0;
		while (i < a->n && isnan(table_cols[c]->value(&a->rows[i])))
			i++;
		if (i == a->n)
			v->need[c] = 0;
	}
	if (!kwh)
		v->need[TC_KWH] = 0;
	if (!cost)
		v->need[TC_COST] = 0;
	if (v->cap < ds->n) {
		unsigned char *q = realloc(v->qualified, ds->n);
		if (!q) {
			free(v->qualified);
			v->qualified = NULL;
			v->cap = 0;
			return -1;
		}
		v->qualified = q;
		v->cap = ds->n;
	}
	if (v->qualified)
		memset(v->qualified, 0, v->cap);
	if (!ds->shared_ids || a->n < 2)
		return 0; /* no id is shared: nothing to look for */
	if (!(k = malloc(a->n * sizeof *k)))
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		const struct row *r = &ds->rows[a->rows[i].row];
		k[i] = (struct name_key){ r->system, r->submitter, a->rows[i].row };
	}
	qsort(k, a->n, sizeof *k, name_key_cmp);
	for (size_t g = 0, e; g < a->n; g = e) {
		bool two = false;
		for (e = g + 1; e < a->n && k[e].system == k[g].system; e++)
			two |= k[e].submitter != k[g].submitter;
		for (size_t j = g; two && j < e; j++) {
			const struct row *r = &ds->rows[k[j].row];
			int sub = v->bytes ? (int)strlen(r->submitter) : text_columns(r->submitter);
			v->qualified[k[j].row] = 1;
			if (*r->submitter)
				widen(v, &v->need[TC_SYS], r->system, sub + 1); /* SUBMITTER/SYSTEM */
		}
	}
	free(k);
	return 0;
}

int table_measure(struct table_view *v, const struct dataset *ds, const struct analysis *a)
{
	int rc = table_names(v, ds, a);
	char buf[256];

	for (size_t i = 0; i < a->n; i++)
		for (int c = 0; c < TC_COUNT; c++) {
			if (!v->need[c] || c == TC_SYS || c == TC_SUB || c == TC_FAM || c == TC_ROUND)
				continue;
			const char *t = table_cell(v, ds, a, i, (enum tcol)c, buf, sizeof buf);
			/* numbers and marks are ASCII: their bytes are their columns */
			int w = table_cols[c]->fmt == CF_TEXT ? text_columns(t) : (int)strlen(t);
			if (w > v->need[c])
				v->need[c] = w;
		}
	return rc;
}

int table_cols_parse(const char *list, bool *want, char *bad, size_t n)
{
	for (int c = 0; c < TC_COUNT; c++)
		want[c] = c == TC_SYS;
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		char name[64];
		int col, t = -1;
		snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
		col = reg_col_parse(name);
		if (ascii_casecmp(name, "rank") == 0 || strcmp(name, "#") == 0)
			t = TC_RANK;
		for (int c = 0; c < TC_COUNT && col >= 0 && t < 0; c++)
			if (table_cols[c]->sort == col)
				t = c;
		if (t < 0) {
			snprintf(bad, n, "%s", name);
			return -1;
		}
		want[t] = true;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void table_view_free(struct table_view *v)
{
	free(v->qualified);
	free(v->letter);
	memset(v, 0, sizeof *v);
}

/* ---- the planner ---- */

static bool is_name(int c)
{
	return c == TC_SYS || c == TC_FAM || c == TC_SUB;
}

/* Column c whole: its widest cell, or on screen the registry's width (names: their widest),
 * never narrower than its heading and " v" (sorting by it neither cuts the heading nor moves
 * the other columns). */
static int full_w(const struct table_view *v, const struct table_opts *o, int c)
{
	int hw = (int)strlen(table_cols[c]->head) + 2;

	if (o->policy == TABLE_PRINT)
		return v->need[c];
	if (is_name(c))
		return v->need[c] > hw ? v->need[c] : hw;
	return table_cols[c]->w > hw ? table_cols[c]->w : hw;
}

/* Whether column c can show at all under o. */
static bool candidate(const struct table_view *v, const struct table_opts *o, int c)
{
	return v->need[c] > 0 && (c == TC_SYS || c == o->force || !o->want || o->want[c]) &&
	       !(o->policy == TABLE_PRINT && table_cols[c]->asked && !(o->want && o->want[c]));
}

static int total_of(const struct table_opts *o, const bool *on, const int *w)
{
	int t = 0, n = 0;

	for (int c = 0; c < TC_COUNT; c++)
		if (on[c]) {
			t += w[c];
			n++;
		}
	return n ? t + o->sep * (n - 1) : 0;
}

/* Turns off, lowest priority first, the columns on[] of priority below `below` (never the
 * system, the rank or o->force) until the table fits in width; returns its width. */
static int drop(const struct table_opts *o, int width, int below, const int *w, bool *on)
{
	for (;;) {
		int total = total_of(o, on, w), low = -1;
		if (total <= width)
			return total;
		for (int c = 0; c < TC_COUNT; c++)
			if (on[c] && c != TC_SYS && c != TC_RANK && c != o->force && table_cols[c]->prio < below &&
			    (low < 0 || table_cols[c]->prio < table_cols[low]->prio))
				low = c;
		if (low < 0)
			return total;
		on[low] = false;
	}
}

/* Takes up to *cut columns off a name column's width *w, down to `to`. */
static void shrink(int *w, int to, int *cut)
{
	int g = *w - to < *cut ? *w - to : *cut;

	if (g > 0) {
		*w -= g;
		*cut -= g;
	}
}

/* One layout for width, the system column at least sys_floor wide (when its cells need it). */
static int plan_at(const struct table_view *v, const struct table_opts *o, int width, int sys_floor,
		   bool *on, int *w)
{
	static const enum tcol names[] = { TC_SYS, TC_FAM, TC_SUB };
	bool extra[TC_COUNT];
	int total, room;

	for (int c = 0; c < TC_COUNT; c++) {
		on[c] = candidate(v, o, c);
		w[c] = full_w(v, o, c);
		/* the extras come in only where room is left, after the names are whole */
		extra[c] = on[c] && table_cols[c]->extra && c != o->force;
		if (extra[c])
			on[c] = false;
	}
	/* names start at their usual width (or less when no cell needs it) */
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		enum tcol c = names[k];
		int usual = table_cols[c]->w, hw = (int)strlen(table_cols[c]->head) + 2;
		if (o->policy == TABLE_SCREEN && usual < hw)
			usual = hw;
		if (c == TC_SYS && usual < sys_floor)
			usual = sys_floor;
		if (w[c] > usual)
			w[c] = usual;
	}
	total = drop(o, width, TABLE_PRIO_KEEP, w, on);
	if (total > width) {
		/* the names are cut before a kept column goes */
		int cut = total - width;
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
			if (on[names[k]])
				shrink(&w[names[k]], names[k] == TC_SYS && sys_floor > TABLE_NAME_CUT ? sys_floor
								   : TABLE_NAME_CUT, &cut);
		total = drop(o, width, 1 << 30, w, on);
	}
	if (total > width) {
		/* narrower than the kept columns at their least: the name gives way, down to one
		 * cell, then the forced column, then the rank (rows stay countable) */
		int cut = total - width;
		shrink(&w[TC_SYS], 1, &cut);
		total = total_of(o, on, w);
		if (total > width && o->force >= 0 && o->force != TC_RANK && o->force != TC_SYS)
			on[o->force] = false;
		total = total_of(o, on, w);
		if (total > width)
			on[TC_RANK] = false;
		total = total_of(o, on, w);
		if (total > width)
			w[TC_SYS] = width > 0 ? width : 0;
		total = total_of(o, on, w);
	}
	/* spare room to the names: the system, then the family, then the submitter */
	room = width - total;
	for (size_t k = 0; k < sizeof names / sizeof names[0] && room > 0; k++) {
		enum tcol c = names[k];
		int add = full_w(v, o, c) - w[c];
		if (!on[c] || add <= 0)
			continue;
		if (add > room)
			add = room;
		w[c] += add;
		room -= add;
	}
	/* then the extras, most important first, each while it fits whole */
	for (;;) {
		int best = -1;
		for (int c = 0; c < TC_COUNT; c++)
			if (extra[c] && !on[c] && w[c] + o->sep <= room &&
			    (best < 0 || table_cols[c]->prio > table_cols[best]->prio))
				best = c;
		if (best < 0)
			break;
		on[best] = true;
		room -= w[best] + o->sep;
	}
	return width - room;
}

int table_full_width(const struct table_view *v, const struct table_opts *o)
{
	bool on[TC_COUNT];
	int w[TC_COUNT];

	for (int c = 0; c < TC_COUNT; c++) {
		on[c] = candidate(v, o, c) && (!table_cols[c]->extra || c == o->force);
		w[c] = full_w(v, o, c);
	}
	return total_of(o, on, w);
}

int table_plan(const struct table_view *v, const struct table_opts *o, int width, bool *on, int *w)
{
	int all, floor = 0;

	for (int c = 0; c < TC_COUNT; c++) {
		on[c] = candidate(v, o, c);
		w[c] = full_w(v, o, c);
	}
	all = total_of(o, on, w);
	if (width <= 0 || width >= all)
		return all;
	/* a column that comes back at a wider width would take room from the names: the names
	 * keep the widest room a narrower table gave them (a few hundred cheap steps), counted
	 * from the narrowest table that holds every kept column (narrower ones give the names
	 * what the kept columns they lose leave, and must not hold them out at wider widths) */
	for (int c = 0; c < TC_COUNT; c++) {
		on[c] &= c == TC_SYS || c == TC_RANK || c == o->force || table_cols[c]->prio >= TABLE_PRIO_KEEP;
		if (is_name(c) && w[c] > TABLE_NAME_CUT)
			w[c] = TABLE_NAME_CUT;
	}
	for (int x = total_of(o, on, w); x < width; x++) {
		plan_at(v, o, x, floor, on, w);
		if (on[TC_SYS] && w[TC_SYS] > floor)
			floor = w[TC_SYS];
	}
	return plan_at(v, o, width, floor, on, w);
}

const char *table_row_name(const struct table_view *v, const struct dataset *ds,
			   const struct arow *r, char *buf, size_t n)
{
	const struct row *d = &ds->rows[r->row];

	if (!v || !v->qualified || r->row >= v->cap || !v->qualified[r->row])
		return d->system;
	return text_row_name(d->submitter, d->system, true, buf, n);
}

/* A cell the registry says how to format. */
static const char *table_reg_cell(const struct col_def *d, const struct arow *ar,
				  const struct row *r, char *buf, size_t n)
{
	switch (d->fmt) {
	case CF_TEXT: return d->text(r);
	case CF_COUNT: return fmt_count(d->value(ar), buf, n);
	case CF_FIXED2: return fmt_fixed(d->value(ar), 2, buf, n);
	case CF_SIG3: return fmt_sig(d->value(ar), 3, buf, n);
	case CF_OWN: break;
	}
	buf[0] = '\0';
	return buf;
}

const char *table_cell(const struct table_view *v, const struct dataset *ds,
		       const struct analysis *a, size_t i, enum tcol c, char *buf, size_t n)
{
	const struct arow *ar = &a->rows[i];
	const struct row *r = &ds->rows[ar->row];
	char *p;

	if ((unsigned)c >= TC_COUNT) {
		buf[0] = '\0';
		return buf;
	}
	switch (c) {
	case TC_RANK: {
		/* digits from the right: this runs for every row of every frame */
		size_t rank = i + 1;
		/* a carried-over row has no rank; the others count only the pooled rows above them */
		if (a->ncarried) {
			if (arow_carried(ar))
				return "-";
			for (size_t j = 0; j < i; j++)
				rank -= arow_carried(&a->rows[j]);
		}
		p = buf + n - 1;
		*p = '\0';
		do
			*--p = (char)('0' + rank % 10);
		while ((rank /= 10) > 0 && p > buf);
		return p;
	}
	case TC_SYS: return table_row_name(v, ds, ar, buf, n);
	case TC_COST: {
		/* the price range of the family: low-high, one number when they agree */
		char lo[32];
		if (!isfinite(ar->cost_lo) || !isfinite(ar->cost_hi))
			return "-";
		fmt_sig(ar->cost_lo, 3, lo, sizeof lo);
		fmt_sig(ar->cost_hi, 3, buf, n);
		if (strcmp(lo, buf) != 0) {
			char hi[32];
			snprintf(hi, sizeof hi, "%s", buf);
			snprintf(buf, n, "%s-%s", lo, hi);
		}
		return buf;
	}
	case TC_FAM:
	case TC_ROUND:
		if (v && v->letter && (int)c == v->letter_col && i < v->letter_cap) {
			snprintf(buf, n, "%c %s", v->letter[i], c == TC_FAM ? nz(r->family) : nz(r->round));
			return buf;
		}
		break;
	case TC_CL:
		if (arow_carried(ar))
			return "-"; /* in no cluster */
		return describe_cluster(ar->cluster, buf, n);
	case TC_MARK:
		p = buf;
		if (ar->is_ref)
			*p++ = 'R';
		if (ar->pareto)
			*p++ = '*';
		if (ar->be)
			*p++ = '>';
		/* comparison hygiene: not yet buyable, open division, carried over from an earlier
		 * round, E' against another family's reference */
		if (r->avail == AVAIL_PREVIEW || r->avail == AVAIL_RESEARCH)
			*p++ = 'v';
		if (ascii_casecmp(r->division, "open") == 0)
			*p++ = 'o';
		/* the cross-round view: carried over in it (listed, not pooled); one round: its
		 * runs were submitted in an earlier loaded round */
		if (a->all_rounds ? arow_carried(ar) : *r->carried_from != '\0')
			*p++ = 'c';
		if (ar->cross_family)
			*p++ = 'x';
		*p = '\0';
		return buf;
	case TC_SPREAD:
		if (isfinite(ar->t_lo) && isfinite(ar->t_hi) && ar->T > 0) {
			char pct[32];
			snprintf(buf, n, "%s%%", fmt_fixed((ar->t_hi - ar->t_lo) / ar->T * 100.0, 1, pct, sizeof pct));
		} else {
			snprintf(buf, n, "-");
		}
		return buf;
	default: break;
	}
	return table_reg_cell(table_cols[c], ar, r, buf, n);
}
