/* plot_marks.c: the words on the scatterplot: the legend (at the most verbose level that fits)
 * and the selected point's label (placed where it covers no point, cut when it must be). Pure,
 * as plot.c. */
#include <stdio.h>
#include <string.h>

#include "plot_impl.h"
#include "text.h"

/* ---- legend ----------------------------------------------------------------------------- */

struct legend {
	char ch[LEG_MAX];
	unsigned char role[LEG_MAX];
	int n;
	int field[LEG_MAX];      /* where each field after the first begins (at its separator) */
	int nfield;
};


static void leg_put(struct legend *b, const char *s, int role)
{
	for (; *s && b->n < LEG_MAX; s++) {
		b->ch[b->n] = ascii(*s);
		b->role[b->n++] = (unsigned char)role;
	}
}

/* A separator that begins a new field: the legend is cut only there. */
static void leg_sep(struct legend *b, const char *sep)
{
	if (b->nfield < LEG_MAX)
		b->field[b->nfield++] = b->n;
	leg_put(b, sep, ROLE_LEGEND);
}

static void leg_glyph(struct legend *b, char ch, int role)
{
	char s[2] = { ch, 0 };

	leg_put(b, s, role);
}

/* How many clusters mask holds, the first and the last of them into *first, *last (-1: none). */
static int mask_span(unsigned mask, int *first, int *last)
{
	int count = 0;

	*first = *last = -1;
	for (int c = 0; c < N_CLUSTER; c++)
		if (mask & (1u << c)) {
			count++;
			if (*first < 0)
				*first = c;
			*last = c;
		}
	return count;
}

/* Glyphs of the clusters in mask: "a b c" (spaced), "abc", or "a-l" for more than four. */
static void leg_glyphs(struct legend *b, unsigned mask, char base, bool spaced)
{
	int first, last, count = mask_span(mask, &first, &last);

	if (count > 4) {
		leg_glyph(b, (char)(base + first), ROLE_CLUSTER + first);
		leg_put(b, "-", ROLE_LEGEND);
		leg_glyph(b, (char)(base + last), ROLE_CLUSTER + last);
		return;
	}
	for (int c = 0, k = 0; c < N_CLUSTER; c++) {
		if (!(mask & (1u << c)))
			continue;
		if (k++ > 0 && spaced)
			leg_put(b, " ", ROLE_LEGEND);
		leg_glyph(b, (char)(base + c), ROLE_CLUSTER + c);
	}
}

/* The numbers of the clusters in mask, 1 for the first (a): "1 2 3", or "1-12" for more than
 * four, as leg_glyphs lists their glyphs. */
static void leg_numbers(struct legend *b, unsigned mask)
{
	int first, last, count = mask_span(mask, &first, &last);
	char num[32];

	if (count > 4) {
		snprintf(num, sizeof num, "%d-%d", first + 1, last + 1);
		leg_put(b, num, ROLE_LEGEND);
		return;
	}
	for (int c = 0, k = 0; c < N_CLUSTER; c++) {
		if (!(mask & (1u << c)))
			continue;
		snprintf(num, sizeof num, "%s%d", k++ > 0 ? " " : "", c + 1);
		leg_put(b, num, ROLE_LEGEND);
	}
}

static int key_role(int cluster)
{
	return cluster >= 0 && cluster < N_CLUSTER ? ROLE_CLUSTER + cluster : ROLE_LABEL;
}

/* The y axis name, with "(log)" when logarithmic. */
static void leg_axis(struct legend *b, int lv, const struct legend_info *li)
{
	if (lv == 0) {
		leg_put(b, "x: N (log2)  y: ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
		if (li->log_y)
			leg_put(b, " (log)", ROLE_LEGEND);
	} else if (lv == 1) {
		leg_put(b, "y: ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
		if (li->log_y)
			leg_put(b, " (log)", ROLE_LEGEND);
	} else {
		if (li->log_y)
			leg_put(b, "log ", ROLE_LEGEND);
		leg_put(b, li->y_name, ROLE_LEGEND);
	}
}

/* How many points are clipped on one side and the farthest value: glyph '^' above (words
 * "above", "up to"), 'v' below ("below", "down to"). */
static void leg_clip(struct legend *b, int lv, const char *sep, const char *glyph, size_t count,
		     double far, const char *side, const char *reach)
{
	char num[LAB_MAX + 64], val[LAB_MAX];

	plot_axis_value(val, far);
	leg_sep(b, sep);
	leg_put(b, glyph, ROLE_LEGEND);
	if (lv == 0)
		snprintf(num, sizeof num, " %zu %s, %s %s", count, side, reach, val);
	else if (lv == 1)
		snprintf(num, sizeof num, " %zu to %s", count, val);
	else
		snprintf(num, sizeof num, "%zu", count);
	leg_put(b, num, ROLE_LEGEND);
}

/* The groups: the spec's keys (and "upper case: Pareto"), else the cluster and Pareto glyphs. */
static void leg_groups(struct legend *b, int lv, const char *sep, const struct legend_info *li)
{
	const struct plot_spec *sp = li->spec;

	if (sp->nkeys > 0) {
		for (size_t i = 0; i < sp->nkeys && i < PLOT_KEYS_MAX; i++) {
			leg_sep(b, i == 0 ? sep : " ");
			leg_glyph(b, sp->keys[i].glyph, key_role(sp->keys[i].cluster));
			leg_put(b, " ", ROLE_LEGEND);
			leg_put(b, sp->keys[i].text ? sp->keys[i].text : "", ROLE_LEGEND);
		}
		if (li->keys_pareto) {
			leg_sep(b, sep);
			leg_put(b, lv == 0 ? "upper case: Pareto" : "CAPS Pareto", ROLE_LEGEND);
		}
		return;
	}
	/* clusters are numbered wherever they are named (table, clusters line, reports): the
	 * legend says which number each letter is when there is room (a is always 1) */
	if (li->clusters) {
		leg_sep(b, sep);
		leg_glyphs(b, li->clusters, 'a', lv < 2);
		if (lv == 0) {
			leg_put(b, " clusters ", ROLE_LEGEND);
			leg_numbers(b, li->clusters);
		}
	}
	if (li->pareto) {
		leg_sep(b, sep);
		leg_glyphs(b, li->pareto, 'A', lv < 2);
		leg_put(b, " Pareto", ROLE_LEGEND);
	}
}

/* One entry: sep, a glyph in its role, then text. */
static void leg_entry(struct legend *b, const char *sep, const char *glyph, int role,
		      const char *text)
{
	leg_sep(b, sep);
	leg_put(b, glyph, role);
	leg_put(b, text, ROLE_LEGEND);
}

/* The lines: theta (drawn or off scale), the break-even mark, interval bars, fitted curves. */
static void leg_lines(struct legend *b, int lv, const char *sep, const struct legend_info *li)
{
	const struct plot_spec *sp = li->spec;
	char num[LAB_MAX + 64], val[LAB_MAX];

	if (li->theta_set) {
		plot_axis_value(val, li->theta);
		leg_sep(b, sep);
		if (li->theta_drawn) {
			leg_put(b, "-", ROLE_THETA);
			snprintf(num, sizeof num, lv < 2 ? " theta %s" : " %s", val);
		} else {
			snprintf(num, sizeof num, lv < 2 ? "theta %s off scale" : "theta %s off", val);
		}
		leg_put(b, num, ROLE_LEGEND);
	}
	if (li->mark) {
		leg_entry(b, sep, ":", ROLE_BREAKEVEN, " ");
		leg_put(b, sp->mark_name[0] ? sp->mark_name : "break-even", ROLE_LEGEND);
	}
	if (li->bars)
		leg_entry(b, sep, "|", ROLE_BAR,
			  lv == 0 ? " run-to-run interval" : lv == 1 ? " interval" : " CI");
	for (size_t i = 0; i < sp->ncurves && i < 16; i++)
		if (li->curve[i] && sp->curves[i].name) {
			const struct plot_curve *cv = &sp->curves[i];
			leg_sep(b, sep);
			leg_glyph(b, cv->glyph, curve_role(cv));
			leg_put(b, " ", ROLE_LEGEND);
			leg_put(b, cv->name, ROLE_LEGEND);
		}
}

/* Legend at verbosity lv: 0 full words, 1 shorter, 2 terse, 3 terse with single spaces. */
static void leg_build(struct legend *b, int lv, const struct legend_info *li)
{
	const char *sep = lv < 3 ? "  " : " ";
	char num[LAB_MAX + 64];

	b->n = 0;
	b->nfield = 0;
	leg_axis(b, lv, li);
	/* the clipping changes how the y axis reads: it comes first */
	if (li->clipped)
		leg_clip(b, lv, sep, "^", li->clipped, li->clip_max, "above", "up to");
	if (li->clipped_low)
		leg_clip(b, lv, sep, "v", li->clipped_low, li->clip_min, "below", "down to");
	/* theta and the break-even before the keys: a long list of families must not push them
	 * off the line */
	leg_lines(b, lv, sep, li);
	leg_groups(b, lv, sep, li);
	if (li->ref)
		leg_entry(b, sep, "R", ROLE_REF, " ref");
	if (li->many)
		leg_entry(b, sep, "#", ROLE_OVERLAP, lv == 0 ? " 10+ in a cell" : lv == 1 ? " 10+" : "10+");
	if (li->preview) {
		leg_sep(b, sep);
		leg_put(b, lv == 0 ? "underlined: preview/research" : lv == 1 ? "ul: preview" : "ul prev",
			ROLE_LEGEND);
	}
	if (li->hidden) {
		leg_sep(b, sep);
		snprintf(num, sizeof num, lv < 2 ? "%zu not shown" : "%zu hidden", li->hidden);
		leg_put(b, num, ROLE_LEGEND);
	}
}

/* The lines of b wrapped at width w between its fields (a line's leading blanks, the field's
 * separator, dropped): their starts and ends into start, end (max entries). Returns how many,
 * max + 1 when more are needed, or -1 when one field is wider than w. */
static int leg_wrap(const struct legend *b, int w, int max, int *start, int *end)
{
	int lines = 0, p = 0;

	while (p < b->n) {
		int e = -1;
		if (lines > 0)
			while (p < b->n && b->ch[p] == ' ')
				p++;
		if (p >= b->n)
			break;
		if (lines == max)
			return max + 1;
		if (b->n - p <= w)
			e = b->n;
		else
			for (int f = 0; f < b->nfield; f++)
				if (b->field[f] > p && b->field[f] - p <= w)
					e = b->field[f];
		if (e < 0)
			return -1;
		start[lines] = p;
		end[lines] = e;
		lines++;
		p = e;
	}
	return lines;
}

/* The level (0..3) and lines of the fewest rows, up to max, that hold the legend whole; the
 * most verbose level among them. Returns the lines, 0 when none fits. */
static int leg_fit(struct legend *b, const struct legend_info *li, int w, int max, int *start,
		   int *end)
{
	for (int rows = 1; rows <= max; rows++)
		for (int lv = 0; lv < 4; lv++) {
			int k;
			leg_build(b, lv, li);
			k = leg_wrap(b, w, rows, start, end);
			if (k >= 1 && k <= rows)
				return k;
		}
	return 0;
}

int plot_marks_legend_rows(const struct legend_info *li, int w, int max)
{
	struct legend b;
	int start[MAX_H], end[MAX_H], k;

	if (max > MAX_H)
		max = MAX_H;
	k = leg_fit(&b, li, w, max, start, end);
	return k > 0 ? k : max;
}

void plot_marks_legend(struct plot_grid *g, const struct legend_info *li, int rows)
{
	struct legend b;
	int start[MAX_H], end[MAX_H], k, top;

	if (rows < 1)
		rows = 1;
	if (rows > MAX_H)
		rows = MAX_H;
	top = g->h - rows;
	k = leg_fit(&b, li, g->w, rows, start, end);
	if (k == 0) {
		/* the tersest level does not fit: whole lines while there are rows, then the rest cut
		 * at the last field boundary that leaves room for the mark, never inside a word or a
		 * number */
		int p = 0, at = 0, w = g->w;
		leg_build(&b, 3, li);
		k = leg_wrap(&b, w, rows - 1, start, end);
		if (k < 0 || k > rows - 1)
			k = rows - 1;
		if (k > 0)
			p = end[k - 1];
		while (p < b.n && b.ch[p] == ' ')
			p++;
		for (int f = 0; f < b.nfield; f++)
			if (b.field[f] > p && b.field[f] - p + 2 <= w)
				at = b.field[f];
		if (at > 0 && at + 1 < LEG_MAX) {
			b.ch[at] = ' ';
			b.role[at] = ROLE_LEGEND;
			b.ch[at + 1] = '~';
			b.role[at + 1] = ROLE_LEGEND;
			end[k] = at + 2;
		} else {
			/* a field wider than the plot: cut with the mark */
			end[k] = p + w < b.n ? p + w : b.n;
			if (end[k] > p && p + w < b.n) {
				b.ch[end[k] - 1] = '~';
				b.role[end[k] - 1] = ROLE_LEGEND;
			}
		}
		start[k] = p;
		k++;
	}
	for (int i = 0; i < k; i++)
		for (int c = start[i]; c < end[i] && c - start[i] < g->w; c++)
			put(g, top + i, c - start[i], b.ch[c], b.role[c]);
}

/* ---- the selected label ----------------------------------------------------------------- */

/* Display columns of the code point at s (len bytes): 0 for combining marks, 2 for the wide
 * East Asian blocks, else 1. A table of the common ranges, the same in every locale. */
static int cp_width(const unsigned char *s, size_t len)
{
	unsigned long cp;

	if (len == 1)
		return 1;
	cp = len == 2 ? (s[0] & 0x1fu) : len == 3 ? (s[0] & 0x0fu) : (s[0] & 0x07u);
	for (size_t i = 1; i < len; i++)
		cp = (cp << 6) | (s[i] & 0x3fu);
	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || cp == 0xfe0f)
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/* The label as characters: byte offset and display width of each, controls and invalid bytes
 * as '?' (one column). */
struct ltext {
	char s[PLOT_LABEL_MAX];     /* sanitized UTF-8 */
	int off[PLOT_LABEL_MAX], wid[PLOT_LABEL_MAX];
	int n, width;
};

static void ltext_make(struct ltext *t, const char *label)
{
	size_t len = strlen(label), i = 0, o = 0;

	t->n = t->width = 0;
	while (i < len && o + 5 < sizeof t->s) {
		const unsigned char *u = (const unsigned char *)label + i;
		size_t sl = u[0] < 0x80 ? 1 : utf8_seq_len(u, len - i);
		int w;
		t->off[t->n] = (int)o;
		/* the one sanitizer's rule (text.h), character by character as widths are needed */
		if (sl == 0 || (sl == 1 && (u[0] < 0x20 || u[0] == 0x7f)) || utf8_is_c1(u, sl) ||
		    utf8_is_bidi(u, sl)) {
			t->s[o++] = '?';
			w = 1;
			i += sl ? sl : 1;
		} else {
			w = cp_width(u, sl);
			memcpy(t->s + o, u, sl);
			o += sl;
			i += sl;
		}
		t->wid[t->n++] = w;
		t->width += w;
	}
	t->off[t->n] = (int)o;
	t->s[o] = '\0';
}

/* The cut of t to `room` columns: characters [head, tail) give way to one '~' (none when it
 * fits: head = tail = n). Returns the columns used. */
static int label_cut(const struct ltext *t, int room, int *head, int *tail)
{
	int wh = 0, wt = 0, keep_t = (room - 1) / 2, keep_h = room - 1 - keep_t;

	*head = *tail = t->n;
	if (t->width <= room)
		return t->width;
	*head = 0;
	while (*head < t->n && wh + t->wid[*head] <= keep_h)
		wh += t->wid[(*head)++];
	*tail = t->n;
	while (*tail > *head && wt + t->wid[*tail - 1] <= keep_t)
		wt += t->wid[--(*tail)];
	return wh + 1 + wt;
}

/* Writes into g, from (r, c), the label cut to `room` columns (see label_cut); sets g->label*,
 * the cells '?' per column of a non-ASCII character. */
static void label_put(struct plot_grid *g, const struct ltext *t, int r, int c, int room)
{
	int head, tail, used = 0, o = 0;

	label_cut(t, room, &head, &tail);
	for (int i = 0; i < t->n; i++) {
		if (i == head && head < tail) {
			g->label[o++] = '~';
			put(g, r, c + used++, '~', ROLE_SELECTED);
			i = tail - 1;
			continue;
		}
		int len = t->off[i + 1] - t->off[i];
		memcpy(g->label + o, t->s + t->off[i], (size_t)len);
		o += len;
		for (int k = 0; k < t->wid[i]; k++)
			put(g, r, c + used++, len == 1 ? t->s[t->off[i]] : '?', ROLE_SELECTED);
	}
	g->label[o] = '\0';
	g->label_row = r;
	g->label_col = c;
	g->label_w = used;
}

/* Free run of data cells in row r from column c in direction dir (cells with no point), up to
 * max: how many. */
static int free_run(const struct layout *L, const unsigned char *cnt, int r, int c, int dir, int max)
{
	int n = 0;

	if (r < 0 || r >= L->ar)
		return 0;
	for (; n < max && c > L->ax && c < L->w; c += dir, n++)
		if (cnt[(size_t)r * L->w + c])
			break;
	return n;
}

/* Room for a label in row r from column c in direction dir, up to max columns: the free run,
 * less the cell next to a point that ends it, so that a label (whole or cut) keeps one blank
 * before any neighbouring mark; the plot's edges need none. */
static int label_room(const struct layout *L, const unsigned char *cnt, int r, int c, int dir, int max)
{
	int n = free_run(L, cnt, r, c, dir, max + 1), end = c + dir * n;

	if (n > max)
		return max;
	if (n > 0 && end > L->ax && end < L->w && cnt[(size_t)r * L->w + end])
		return n - 1;
	return n;
}

/* The selected point's label (plot.h): the places, in order of preference, are its row right
 * of it then left of it (one blank cell between), then the rows above and below, starting at
 * its column then ending there; the first where the whole text covers no point wins; else the
 * first with room for LABEL_MIN columns, cut; else none. A label keeps one blank between it and
 * any other point (label_room). label_off says it was not shown whole. */
void plot_marks_label(const struct layout *L, struct plot_grid *g, const unsigned char *cnt,
		      int r, int c, const char *label)
{
	struct ltext t;
	struct { int r, c, dir; } at[6] = {
		{ r, c + 2, 1 }, { r, c - 2, -1 }, { r - 1, c, 1 }, { r - 1, c, -1 },
		{ r + 1, c, 1 }, { r + 1, c, -1 },
	};
	int want;

	ltext_make(&t, label);
	if (t.width == 0)
		return;
	want = t.width < LABEL_MIN ? t.width : LABEL_MIN;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 6; i++) {
			int room = label_room(L, cnt, at[i].r, at[i].c, at[i].dir, t.width);
			/* a label starting next to a point would run into it: one blank first */
			int before = at[i].c - at[i].dir;
			if (at[i].r >= 0 && at[i].r < L->ar && before > L->ax && before < L->w &&
			    cnt[(size_t)at[i].r * L->w + before])
				continue;
			int need = pass == 0 ? t.width : want, start, used, h0, t0;
			if (room < need)
				continue;
			used = label_cut(&t, room, &h0, &t0);
			start = at[i].dir > 0 ? at[i].c : at[i].c - used + 1;
			label_put(g, &t, at[i].r, start, room);
			g->label_off = used < t.width;
			/* blank the cells around a label on the point's row (a theta line through
			 * it reads badly), never a point */
			int pads[2] = { g->label_col - 1, g->label_col + used };
			for (int k = 0; k < 2; k++)
				if (pads[k] > L->ax && pads[k] < L->w && pads[k] != c &&
				    !cnt[(size_t)at[i].r * L->w + pads[k]] && at[i].r == r)
					put(g, at[i].r, pads[k], ' ', ROLE_BLANK);
			return;
		}
	g->label_off = true;
}
