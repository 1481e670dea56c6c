/* table.c: columns, cell texts and layout of the ranked table, one definition for the
 * explorer and --print. Widths are display columns (a CJK character takes two). */
#include "table.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "text.h"

int table_fit(int width, int sep, const int *w, bool *on)
{
	for (;;) {
		int total = 0, ncols = 0, low = -1;
		for (int c = 0; c < TC_COUNT; c++)
			if (on[c]) {
				total += w[c];
				ncols++;
			}
		total += sep * (ncols - 1);
		if (total <= width)
			return total;
		for (int c = 0; c < TC_COUNT; c++)
			if (on[c] && c != TC_SYS && (low < 0 || table_cols[c]->prio < table_cols[low]->prio))
				low = c;
		if (low < 0)
			return total;
		on[low] = false;
	}
}

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

int table_names(struct table_view *v, const struct dataset *ds, const struct analysis *a)
{
	struct name_key *k;

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
	/* one sort by id: a run of one id with two submitters is qualified */
	qsort(k, a->n, sizeof *k, name_key_cmp);
	for (size_t g = 0, e; g < a->n; g = e) {
		bool two = false;
		for (e = g + 1; e < a->n && k[e].system == k[g].system; e++)
			two |= k[e].submitter != k[g].submitter;
		for (size_t j = g; two && j < e; j++)
			v->qualified[k[j].row] = 1;
	}
	free(k);
	return 0;
}

int table_measure(struct table_view *v, const struct dataset *ds, const struct analysis *a)
{
	int rc = table_names(v, ds, a);
	char buf[256];

	bool rounds = false, kwh = false, cost = false;

	for (size_t i = 0; i < a->n; i++) {
		rounds |= ds->rows[a->rows[i].row].round != ds->rows[a->rows[0].row].round; /* pooled */
		kwh |= isfinite(a->rows[i].kwh);
		cost |= isfinite(a->rows[i].cost_lo);
	}
	for (int c = 0; c < TC_COUNT; c++)
		v->need[c] = text_columns(table_cols[c]->head);
	for (size_t i = 0; i < a->n; i++)
		for (int c = 0; c < TC_COUNT; c++) {
			if (c == TC_ROUND && !rounds)
				continue;
			const char *t = table_cell(v, ds, a, i, (enum tcol)c, buf, sizeof buf);
			/* numbers and marks are ASCII: their bytes are their columns */
			int w = table_cols[c]->fmt == CF_TEXT || c == TC_SYS ? text_columns(t) : (int)strlen(t);
			if (w > v->need[c])
				v->need[c] = w;
		}
	/* a column no row has a value for is left out */
	if (!rounds)
		v->need[TC_ROUND] = 0;
	if (!kwh)
		v->need[TC_KWH] = 0;
	if (!cost)
		v->need[TC_COST] = 0;
	return rc;
}

void table_view_free(struct table_view *v)
{
	free(v->qualified);
	memset(v, 0, sizeof *v);
}

/* One layout for width, the system column at least sys_floor wide (when its cells need it). */
static int plan_at(const struct table_view *v, int width, int sep, int sys_floor, bool *on, int *w)
{
	static const enum tcol names[] = { TC_SYS, TC_FAM, TC_SUB };
	int total, room;

	for (int c = 0; c < TC_COUNT; c++) {
		on[c] = v->need[c] > 0;
		w[c] = v->need[c];
	}
	/* names start at their usual width (or less when no cell needs it) */
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		enum tcol c = names[k];
		int start = table_cols[c]->w > sys_floor || c != TC_SYS ? table_cols[c]->w : sys_floor;
		if (w[c] > start)
			w[c] = start;
	}
	total = table_fit(width, sep, w, on);
	if (total > width || !on[TC_RANK]) {
		/* narrow: the rank and the name only (the rank goes last: rows stay countable) */
		int rank = v->need[TC_RANK] + sep, floor = sys_floor < v->need[TC_SYS] ? sys_floor : v->need[TC_SYS];
		if (width - rank < (floor > 1 ? floor : 1))
			rank = 0; /* never at the cost of room the names had */
		for (int c = 0; c < TC_COUNT; c++)
			on[c] = c == TC_SYS || (c == TC_RANK && rank);
		w[TC_SYS] = width - rank < v->need[TC_SYS] ? width - rank : v->need[TC_SYS];
		return rank + w[TC_SYS];
	}
	/* spare room to the names: the system, then the family, then the submitter */
	room = width - total;
	for (size_t k = 0; k < sizeof names / sizeof names[0] && room > 0; k++) {
		enum tcol c = names[k];
		int add = v->need[c] - w[c];
		if (!on[c] || add <= 0)
			continue;
		if (add > room)
			add = room;
		w[c] += add;
		room -= add;
	}
	return width - room;
}

int table_plan(const struct table_view *v, int width, int sep, bool *on, int *w)
{
	int all = 0, floor = 0;

	for (int c = 0; c < TC_COUNT; c++)
		all += v->need[c] ? v->need[c] + (all ? sep : 0) : 0;
	if (width <= 0 || width >= all) {
		for (int c = 0; c < TC_COUNT; c++) {
			on[c] = v->need[c] > 0;
			w[c] = v->need[c];
		}
		return all;
	}
	/* a column that comes back at a wider width would take room from the names: the names
	 * keep the widest room a narrower table gave them (a few hundred cheap steps), counted
	 * from the narrowest table that holds the rank and a name */
	for (int x = v->need[TC_RANK] + sep + 1; x < width; x++) {
		plan_at(v, x, sep, floor, on, w);
		if (on[TC_SYS] && w[TC_SYS] > floor)
			floor = w[TC_SYS];
	}
	return plan_at(v, width, sep, floor, on, w);
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
	case TC_CL:
		buf[0] = ar->cluster >= 0 && ar->cluster < 26 ? (char)('a' + ar->cluster) : '?';
		buf[1] = '\0';
		return buf;
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
		if (*r->carried_from)
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
