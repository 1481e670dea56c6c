/* test_plot.c: the plot rasterizer, against golden pictures and by invariants.
 *
 * Golden files live in tests/golden/plot_<name>.txt and hold plot_to_text() output exactly.
 * To accept new pictures after a deliberate change, run the tests with GS_UPDATE_GOLDEN=1
 * (e.g. `GS_UPDATE_GOLDEN=1 build/tests/test_plot`): every golden is rewritten from the
 * current output and those checks pass; review the diff with git before committing.
 * The folder is $GS_TOP/tests/golden when GS_TOP is set (tests/run.sh sets it), else the
 * golden/ folder beside this source file as the compiler named it (tests/golden from the
 * repository root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plot.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static char *render_text(const struct plot_grid *g)
{
	size_t need = plot_to_text(g, NULL, 0);
	char *s = malloc(need + 1);

	assert_non_null(s);
	assert_int_equal(plot_to_text(g, s, need + 1), need);
	return s;
}

static void golden_path(char *buf, size_t n, const char *name)
{
	const char *top = getenv("GS_TOP");

	if (top && *top) {
		snprintf(buf, n, "%s/tests/golden/plot_%s.txt", top, name);
	} else {
		const char *f = __FILE__, *slash = strrchr(f, '/');
		int dir = slash ? (int)(slash - f) : 0;
		snprintf(buf, n, "%.*s%sgolden/plot_%s.txt", dir, f, slash ? "/" : "", name);
	}
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)len + 1);
	if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
		free(s);
		s = NULL;
	}
	if (s)
		s[len] = '\0';
	fclose(f);
	return s;
}

/* Compares the grid's text with the golden file, or rewrites it under GS_UPDATE_GOLDEN=1. */
static void check_golden(const struct plot_grid *g, const char *name)
{
	char path[1024], *got = render_text(g), *want;
	const char *upd = getenv("GS_UPDATE_GOLDEN");

	golden_path(path, sizeof path, name);
	if (upd && strcmp(upd, "1") == 0) {
		FILE *f = fopen(path, "wb");
		if (!f)
			fail_msg("cannot write %s", path);
		fputs(got, f);
		fclose(f);
		fprintf(stderr, "# updated %s\n", path);
		free(got);
		return;
	}
	want = read_all(path);
	if (!want) {
		free(got);
		fail_msg("missing golden %s (run with GS_UPDATE_GOLDEN=1 to create it)", path);
	}
	if (strcmp(want, got) != 0) {
		fprintf(stderr, "# %s differs; expected:\n", path);
		for (const char *l = want; *l;) {
			const char *e = strchr(l, '\n');
			int len = e ? (int)(e - l) : (int)strlen(l);
			fprintf(stderr, "#  |%.*s\n", len, l);
			l += len + (e ? 1 : 0);
		}
		fprintf(stderr, "# got:\n");
		for (const char *l = got; *l;) {
			const char *e = strchr(l, '\n');
			int len = e ? (int)(e - l) : (int)strlen(l);
			fprintf(stderr, "#  |%.*s\n", len, l);
			l += len + (e ? 1 : 0);
		}
		free(want);
		free(got);
		fail_msg("plot differs from golden %s", name);
	}
	free(want);
	free(got);
}

/* The role grid as text, one character per role, so the contract with the UI is pictured too:
 * ' ' blank, '#' axis, '+' tick, 'L' label, 't' theta, 'g' legend, 'P' Pareto, 'R' reference,
 * 'S' selected, 'O' overlap, 'a'.. cluster. Rows keep their trailing blanks trimmed. */
static void roles_as_grid(const struct plot_grid *g, struct plot_grid *out)
{
	static const char map[] = " #+LtgPRSO";

	out->w = g->w;
	out->h = g->h;
	out->ch = malloc((size_t)g->w * g->h);
	out->role = NULL;
	assert_non_null(out->ch);
	for (int i = 0; i < g->w * g->h; i++)
		out->ch[i] = g->role[i] >= ROLE_CLUSTER ? (char)('a' + g->role[i] - ROLE_CLUSTER)
							: map[g->role[i]];
}

static char cell(const struct plot_grid *g, int r, int c)
{
	return g->ch[(size_t)r * g->w + c];
}

static int role_at(const struct plot_grid *g, int r, int c)
{
	return g->role[(size_t)r * g->w + c];
}

/* Finds the first plotted cell (not axis, tick, label or legend) holding ch, row-major; returns
 * 0 and sets r, c, or -1. */
static int find_ch(const struct plot_grid *g, char ch, int *r, int *c)
{
	*r = *c = 0;
	for (int i = 0; i < g->w * g->h; i++)
		if (g->ch[i] == ch && g->role[i] != ROLE_LABEL && g->role[i] != ROLE_LEGEND &&
		    g->role[i] != ROLE_AXIS && g->role[i] != ROLE_TICK) {
			*r = i / g->w;
			*c = i % g->w;
			return 0;
		}
	return -1;
}

static int count_role(const struct plot_grid *g, int role)
{
	int n = 0;

	for (int i = 0; i < g->w * g->h; i++)
		n += g->role[i] == role;
	return n;
}

/* Every cell is printable ASCII, and the x axis row holds the '+' corner and '-' runs. */
static void check_invariants(const struct plot_grid *g)
{
	int corner = -1;

	for (int i = 0; i < g->w * g->h; i++) {
		assert_true(g->ch[i] >= 0x20 && g->ch[i] < 0x7f);
		assert_true(g->role[i] < ROLE_CLUSTER + 12);
	}
	for (int c = 0; c < g->w; c++)
		if (cell(g, g->h - 3, c) == '+' && role_at(g, g->h - 3, c) == ROLE_AXIS) {
			corner = c;
			break;
		}
	assert_true(corner > 0);
	assert_int_equal(cell(g, g->h - 3, g->w - 1), '-');
	for (int r = 0; r < g->h - 3; r++)
		assert_true(cell(g, r, corner) == '|' || cell(g, r, corner) == '+');
}

/* ---- data ------------------------------------------------------------------------------- */

/* A BERT-like round: E' against N with the paper's kind of reference (a small old system), new
 * 8-GPU systems far above 1, big clusters far below, three k-means clusters. */
static const struct plot_point bert[] = {
	{ 2, 1.00, 0, PT_REF, "krai_7920t_2xa5000" },
	{ 4, 3.10, 0, 0, "dell_xe8545_4xa100" },
	{ 8, 16.9, 0, PT_PARETO, "nvidia_b200_n1" },
	{ 8, 15.2, 0, 0, "supermicro_h200_n1" },
	{ 8, 14.1, 0, 0, "dell_xe9680_h100" },
	{ 8, 12.6, 0, 0, "lenovo_sr680a_h100" },
	{ 8, 6.20, 0, 0, "gigabyte_a100_n1" },
	{ 16, 13.5, 0, 0, "nvidia_h100_n2" },
	{ 32, 12.1, 1, 0, "nvidia_h100_n4" },
	{ 64, 11.4, 1, PT_PARETO, "nvidia_h100_n8" },
	{ 64, 10.9, 1, 0, "azure_nd_h100_n8" },
	{ 128, 9.80, 1, 0, "nvidia_h100_n16" },
	{ 256, 8.70, 1, PT_SELECTED, "nvidia_eos_n32" },
	{ 512, 7.10, 1, PT_PARETO, "nvidia_eos_n64" },
	{ 1024, 5.30, 2, PT_PARETO, "nvidia_eos_n128" },
	{ 1024, 4.80, 2, 0, "google_tpu_v5p_512" },
	{ 2048, 3.60, 2, PT_PARETO, "nvidia_eos_n256" },
	{ 3472, 2.40, 2, PT_PARETO, "nvidia_eos_n434" },
	{ 4096, 1.90, 2, 0, "google_tpu_v5p_2048" },
	{ 3, 0.60, 0, 0, "cpu_baseline_3" },
};
#define N_BERT (sizeof bert / sizeof bert[0])

static struct plot_spec spec_of(int w, int h)
{
	struct plot_spec s = { w, h, false, 0.8, true, "E'" };
	return s;
}

static void render_ok(const struct plot_point *pts, size_t n, const struct plot_spec *s,
		      struct plot_grid *g)
{
	struct gs_err err = { 0 };
	int rc = plot_render(pts, n, s, g, &err);

	if (rc != 0)
		fail_msg("plot_render failed: %s", err.msg);
	assert_int_equal(g->w, s->width);
	assert_int_equal(g->h, s->height);
	check_invariants(g);
}

/* Renders the points with spec S, checks the picture against the golden file NAME, frees it. */
static void golden_case(const struct plot_point *pts, size_t n, const struct plot_spec *s,
			const char *name)
{
	struct plot_grid g = { 0 };

	render_ok(pts, n, s, &g);
	check_golden(&g, name);
	plot_free(&g);
}

/* ---- golden pictures -------------------------------------------------------------------- */

static void test_golden_bert_80x20(void **state)
{
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(80, 20);

	(void)state;
	render_ok(bert, N_BERT, &s, &g);
	check_golden(&g, "bert_80x20");
	struct plot_grid roles;
	roles_as_grid(&g, &roles);
	check_golden(&roles, "bert_80x20_roles");
	free(roles.ch);
	plot_free(&g);
}

static void test_golden_bert_40x12(void **state)
{
	struct plot_spec s = spec_of(40, 12);

	(void)state;
	golden_case(bert, N_BERT, &s, "bert_40x12");
}

/* Training minutes on a log axis: from hours on small systems to a few minutes. */
static void test_golden_log_y(void **state)
{
	static const struct plot_point pts[] = {
		{ 8, 366.2, 0, PT_REF, "ref" },     { 8, 48.1, 0, 0, NULL },
		{ 16, 27.9, 0, 0, NULL },           { 64, 8.3, 1, PT_PARETO, NULL },
		{ 128, 4.9, 1, 0, NULL },           { 512, 1.9, 1, PT_PARETO, NULL },
		{ 1024, 1.2, 2, PT_SELECTED, "eos_n128" }, { 3472, 0.59, 2, PT_PARETO, NULL },
	};
	struct plot_spec s = { 60, 16, true, NAN, true, "T (min)" };

	(void)state;
	golden_case(pts, sizeof pts / sizeof pts[0], &s, "log_y");
}

static void test_golden_one_point(void **state)
{
	static const struct plot_point pts[] = { { 8, 1.0, 0, PT_REF | PT_SELECTED, "dgx_h100" } };
	struct plot_spec s = spec_of(50, 12);

	(void)state;
	golden_case(pts, 1, &s, "one_point");
}

static void test_golden_zero_points(void **state)
{
	struct plot_spec s = spec_of(50, 12);

	(void)state;
	golden_case(NULL, 0, &s, "zero_points");
}

static void test_golden_equal_y(void **state)
{
	static const struct plot_point pts[] = {
		{ 1, 1.0, 0, PT_REF, NULL }, { 2, 1.0, 0, 0, NULL },  { 4, 1.0, 1, 0, NULL },
		{ 8, 1.0, 1, 0, NULL },      { 16, 1.0, 2, 0, NULL }, { 32, 1.0, 2, 0, NULL },
	};
	struct plot_spec s = spec_of(50, 12);

	(void)state;
	golden_case(pts, sizeof pts / sizeof pts[0], &s, "equal_y");
}

/* Cells with 2, 3, 9 and 12 points; a reference and a selected point win their crowded cells. */
static void test_golden_overlap(void **state)
{
	struct plot_point pts[64];
	size_t n = 0;
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(50, 12);

	(void)state;
	for (int i = 0; i < 2; i++)
		pts[n++] = (struct plot_point){ 4, 2.0, 0, 0, NULL };
	for (int i = 0; i < 3; i++)
		pts[n++] = (struct plot_point){ 16, 4.0, 1, 0, NULL };
	for (int i = 0; i < 9; i++)
		pts[n++] = (struct plot_point){ 64, 6.0, 1, 0, NULL };
	for (int i = 0; i < 12; i++)
		pts[n++] = (struct plot_point){ 256, 8.0, 2, 0, NULL };
	pts[n++] = (struct plot_point){ 2, 1.0, 0, 0, NULL };
	pts[n++] = (struct plot_point){ 2, 1.0, 0, PT_REF, NULL };
	pts[n++] = (struct plot_point){ 2, 1.0, 0, 0, NULL };
	pts[n++] = (struct plot_point){ 1024, 3.0, 2, 0, NULL };
	pts[n++] = (struct plot_point){ 1024, 3.0, 2, PT_SELECTED, "big" };
	pts[n++] = (struct plot_point){ 1024, 3.0, 2, PT_REF, NULL };
	render_ok(pts, n, &s, &g);
	check_golden(&g, "overlap");

	int r, c;
	assert_int_equal(find_ch(&g, '2', &r, &c), 0);
	assert_int_equal(role_at(&g, r, c), ROLE_OVERLAP);
	assert_int_equal(find_ch(&g, '3', &r, &c), 0);
	assert_int_equal(role_at(&g, r, c), ROLE_OVERLAP);
	assert_int_equal(find_ch(&g, '9', &r, &c), 0);
	assert_int_equal(role_at(&g, r, c), ROLE_OVERLAP);
	/* ten points or more: '#' (a '+' would read as a tick), explained in the legend */
	assert_int_equal(find_ch(&g, '#', &r, &c), 0);
	assert_int_equal(role_at(&g, r, c), ROLE_OVERLAP);
	assert_true(r < g.h - 1);
	assert_non_null(strstr(g.ch + (size_t)(g.h - 1) * g.w, "# 10+"));
	assert_int_equal(count_role(&g, ROLE_OVERLAP), 4 + 1); /* and the legend's '#' */
	assert_int_equal(count_role(&g, ROLE_REF), 2); /* the plot's R and the legend's */
	assert_int_equal(count_role(&g, ROLE_SELECTED), 1 + 3);
	plot_free(&g);
}

/* The legend names every cluster that has a point, in lower case, even one drawn only as
 * Pareto glyphs, and says when y is on a log scale. */
static void test_legend_clusters_log(void **state)
{
	struct plot_point pts[] = {
		{ 2, 1.0, 0, PT_REF, NULL },
		{ 4, 2.0, 0, 0, NULL },
		{ 16, 3.0, 1, 0, NULL },
		{ 64, 5.0, 2, PT_PARETO, NULL },
	};
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(80, 16);
	const char *leg;

	(void)state;
	render_ok(pts, 4, &s, &g);
	leg = g.ch + (size_t)(g.h - 1) * g.w;
	assert_true(strncmp(leg, "x: N (log2)  y: E'  a b c clusters  C Pareto", 44) == 0);
	s.log_y = true;
	render_ok(pts, 4, &s, &g);
	leg = g.ch + (size_t)(g.h - 1) * g.w;
	assert_true(strncmp(leg, "x: N (log2)  y: E' (log)  a b c clusters", 40) == 0);
	plot_free(&g);
}

/* The selected point's label goes to the side that covers no point, even when the other side
 * has room for it whole. */
static void test_label_avoids_points(void **state)
{
	struct plot_point pts[] = {
		{ 2, 1.0, 0, 0, NULL },
		{ 64, 5.0, 1, PT_SELECTED, "selected_one" },
		{ 128, 5.0, 2, 0, NULL },
		{ 1024, 1.0, 0, 0, NULL },
	};
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(80, 16);
	int r, c, lr, lc;
	const char *row;

	(void)state;
	render_ok(pts, 4, &s, &g);
	assert_int_equal(find_ch(&g, 'b', &r, &c), 0);
	assert_int_equal(role_at(&g, r, c), ROLE_SELECTED);
	assert_int_equal(find_ch(&g, 'c', &lr, &lc), 0);
	assert_int_equal(lr, r);
	row = g.ch + (size_t)r * g.w;
	assert_true(c - 2 - (int)strlen("selected_one") >= 0);
	assert_true(strncmp(row + c - 1 - (int)strlen("selected_one"), "selected_one", 12) == 0);
	plot_free(&g);
}

static void test_golden_min_20x8(void **state)
{
	struct plot_spec s = spec_of(20, 8);

	(void)state;
	golden_case(bert, N_BERT, &s, "min_20x8");
}

/* ---- errors and sizes ------------------------------------------------------------------- */

static void test_too_small(void **state)
{
	static const int sizes[][2] = { { 19, 8 }, { 20, 7 }, { 0, 0 }, { -5, 10 }, { 401, 20 },
					{ 80, 201 } };
	struct plot_grid g = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		struct plot_spec s = spec_of(sizes[i][0], sizes[i][1]);
		struct gs_err err = { 0 };
		assert_int_equal(plot_render(bert, N_BERT, &s, &g, &err), -1);
		assert_non_null(strstr(err.msg, "too"));
		assert_non_null(strstr(err.msg, i < 4 ? "20x8" : "400x200"));
	}
	assert_null(g.ch);
}

static void test_large_400x200(void **state)
{
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(400, 200);
	int r, c;

	(void)state;
	render_ok(bert, N_BERT, &s, &g);
	assert_int_equal(find_ch(&g, 'R', &r, &c), 0);
	assert_int_equal(role_at(&g, r, c), ROLE_REF);
	/* x labels reach 4096, written out; y labels at least three rows apart */
	char *t = render_text(&g);
	assert_non_null(strstr(t, " 4096"));
	free(t);
	int last = -100;
	for (r = 0; r < g.h - 3; r++)
		for (c = 0; c < g.w; c++)
			if (role_at(&g, r, c) == ROLE_TICK) {
				assert_true(r - last >= 3);
				last = r;
			}
	plot_free(&g);
}

/* ---- roles ------------------------------------------------------------------------------ */

static void test_roles(void **state)
{
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(80, 20);
	int r, c, theta_row = -1;

	(void)state;
	render_ok(bert, N_BERT, &s, &g);

	assert_int_equal(find_ch(&g, 'R', &r, &c), 0);
	assert_int_equal(role_at(&g, r, c), ROLE_REF);

	for (r = 0; r < g.h - 3; r++)
		if (cell(&g, r, g.w - 1) == '-') {
			theta_row = r;
			break;
		}
	assert_true(theta_row >= 0);
	assert_int_equal(role_at(&g, theta_row, g.w - 1), ROLE_THETA);
	const char *tt = strstr(g.ch + (size_t)theta_row * g.w, "theta 0.8");
	assert_non_null(tt);
	assert_true(tt < g.ch + (size_t)(theta_row + 1) * g.w);
	assert_int_equal(g.role[tt - g.ch], ROLE_THETA);

	/* the selected point keeps its glyph with ROLE_SELECTED, its label follows */
	const char *lab = strstr(g.ch, "nvidia_eos_n32");
	assert_non_null(lab);
	size_t k = (size_t)(lab - g.ch);
	assert_int_equal(g.role[k], ROLE_SELECTED);
	assert_int_equal(g.ch[k - 2], 'b');
	assert_int_equal(g.role[k - 2], ROLE_SELECTED);

	/* Pareto points: uppercase letter, cluster role; plain points: lowercase, cluster role */
	int upper = 0, lower = 0;
	for (r = 0; r < g.h - 3; r++)
		for (c = 0; c < g.w; c++) {
			char ch = cell(&g, r, c);
			int ro = role_at(&g, r, c);
			if (ch >= 'A' && ch <= 'C' && ro != ROLE_SELECTED) {
				assert_int_equal(ro, ROLE_CLUSTER + (ch - 'A'));
				upper++;
			}
			if (ch >= 'a' && ch <= 'c' && ro >= ROLE_CLUSTER) {
				assert_int_equal(ro, ROLE_CLUSTER + (ch - 'a'));
				lower++;
			}
		}
	assert_int_equal(upper, 5); /* six Pareto points, one shares its cell: a count */
	assert_true(lower >= 8);

	/* axis, ticks, tick labels, legend */
	int ax_row = g.h - 3;
	c = (int)(strchr(g.ch, '|') - g.ch);
	assert_true(c > 0 && c < g.w);
	assert_int_equal(role_at(&g, 0, c), ROLE_AXIS);
	assert_int_equal(cell(&g, ax_row, c), '+');
	assert_int_equal(role_at(&g, ax_row, c), ROLE_AXIS);
	assert_true(count_role(&g, ROLE_TICK) >= 5);
	const char *one = strstr(g.ch + (size_t)(ax_row + 1) * g.w, "1024");
	assert_non_null(one);
	assert_int_equal(g.role[one - g.ch], ROLE_LABEL);
	const char *leg = g.ch + (size_t)(g.h - 1) * g.w;
	assert_memory_equal(leg, "x: N (log2)  y: E'", 18);
	assert_int_equal(g.role[(size_t)(g.h - 1) * g.w], ROLE_LEGEND);
	const char *lr = memchr(leg, 'R', (size_t)g.w);
	assert_non_null(lr);
	assert_int_equal(g.role[lr - g.ch], ROLE_REF);
	const char *la = memchr(leg, 'a', (size_t)g.w);
	assert_non_null(la);
	assert_int_equal(la[-1], ' ');
	assert_int_equal(g.role[la - g.ch], ROLE_CLUSTER + 0);

	/* Pareto marks off: no uppercase, no Pareto legend item */
	s.show_pareto = false;
	render_ok(bert, N_BERT, &s, &g);
	for (r = 0; r < g.h - 1; r++)
		for (c = 0; c < g.w; c++)
			assert_false(cell(&g, r, c) >= 'A' && cell(&g, r, c) <= 'C');
	char *t = render_text(&g);
	assert_null(strstr(t, "Pareto"));
	free(t);
	plot_free(&g);
}

/* ---- degenerate input ------------------------------------------------------------------- */

static void test_nonfinite_skipped(void **state)
{
	struct plot_point pts[N_BERT + 4];
	struct plot_grid a = { 0 }, b = { 0 };
	struct plot_spec s = spec_of(80, 20);
	char *ta, *tb;

	(void)state;
	memcpy(pts, bert, sizeof bert);
	pts[N_BERT] = (struct plot_point){ NAN, 3, 0, 0, NULL };
	pts[N_BERT + 1] = (struct plot_point){ 64, INFINITY, 1, 0, NULL };
	pts[N_BERT + 2] = (struct plot_point){ -8, 3, 1, 0, NULL };
	pts[N_BERT + 3] = (struct plot_point){ 0, 3, 1, 0, NULL };
	render_ok(bert, N_BERT, &s, &a);
	render_ok(pts, N_BERT + 4, &s, &b);
	ta = render_text(&a);
	tb = render_text(&b);
	/* identical except for the legend's count */
	char *la = strrchr(ta, '\n'), *lb;
	*la = '\0';
	la = strrchr(ta, '\n');
	lb = strrchr(tb, '\n');
	*lb = '\0';
	lb = strrchr(tb, '\n');
	assert_int_equal(la - ta, lb - tb);
	assert_memory_equal(ta, tb, (size_t)(la - ta));
	assert_non_null(strstr(lb, "4 not shown"));
	assert_null(strstr(la, "not shown"));
	free(ta);
	free(tb);
	plot_free(&a);
	plot_free(&b);
}

static void test_log_y_nonpositive_skipped(void **state)
{
	static const struct plot_point pts[] = {
		{ 1, 10, 0, 0, NULL }, { 2, 0, 0, 0, NULL }, { 4, -3, 0, 0, NULL }, { 8, 100, 1, 0, NULL },
	};
	static const struct plot_point neg[] = { { 1, -1, 0, 0, NULL }, { 2, 0, 0, 0, NULL } };
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(40, 12);
	char *t;

	(void)state;
	s.log_y = true;
	render_ok(pts, 4, &s, &g);
	t = render_text(&g);
	assert_true(strstr(t, "2 not shown") || strstr(t, "2 hidden"));
	assert_non_null(strstr(t, "100"));
	free(t);
	/* nothing left: the default decade range, all listed as not shown */
	render_ok(neg, 2, &s, &g);
	t = render_text(&g);
	assert_non_null(strstr(t, "10 +"));
	assert_true(strstr(t, "2 not shown") || strstr(t, "2 hidden"));
	free(t);
	plot_free(&g);
}

static void test_equal_x_and_huge_n(void **state)
{
	static const struct plot_point same_x[] = {
		{ 64, 0.9, 0, 0, NULL }, { 64, 1.4, 0, 0, NULL }, { 64, 2.2, 1, 0, NULL },
	};
	static const struct plot_point huge[] = {
		{ 8, 1.0, 0, PT_REF, NULL }, { 16384, 0.41, 1, PT_SELECTED, "tpu_v5p_16384" },
	};
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(60, 14);
	char *t;
	int r, c;

	(void)state;
	render_ok(same_x, 3, &s, &g);
	t = render_text(&g);
	assert_non_null(strstr(t, "32"));
	assert_non_null(strstr(t, "128"));
	free(t);

	render_ok(huge, 2, &s, &g);
	t = render_text(&g);
	assert_non_null(strstr(t, "16384"));
	free(t);
	/* the selected point at the right edge has its label flipped to its left */
	assert_int_equal(find_ch(&g, 'b', &r, &c), 0);
	assert_int_equal(role_at(&g, r, c), ROLE_SELECTED);
	const char *lab = strstr(g.ch + (size_t)r * g.w, "tpu_v5p_16384");
	assert_non_null(lab);
	assert_int_equal(lab - g.ch, (long)r * g.w + c - 1 - 13);
	plot_free(&g);
}

static void test_extreme_values(void **state)
{
	static const struct plot_point pts[] = {
		{ 1e300, 1e300, 0, 0, NULL }, { 1, -1e300, 1, 0, NULL }, { 1e-300, 1e-300, 2, 0, "t" },
		{ 3, 1e-310, 0, PT_SELECTED, "tiny" }, { 1e308, 1e308, 0, 0, NULL },
	};
	static const struct plot_point close[] = { { 2, 1e17, 0, 0, NULL }, { 4, 1e17 + 16, 0, 0, NULL } };
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(20, 8);

	(void)state;
	for (int lg = 0; lg < 2; lg++)
		for (int w = 20; w <= 200; w += 60) {
			s.width = w;
			s.log_y = lg;
			render_ok(pts, sizeof pts / sizeof pts[0], &s, &g);
			render_ok(close, 2, &s, &g);
			render_ok(pts, 1, &s, &g);
		}
	plot_free(&g);
}

/* ---- text output ------------------------------------------------------------------------ */

static void test_to_text(void **state)
{
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(40, 12);
	char small[10];
	size_t need, lines = 0;
	char *t;

	(void)state;
	render_ok(bert, N_BERT, &s, &g);
	need = plot_to_text(&g, NULL, 0);
	assert_true(need > 12);
	t = render_text(&g);
	assert_int_equal(strlen(t), need);
	for (const char *p = t; *p; p++) {
		if (*p == '\n') {
			lines++;
			assert_true(p == t || p[-1] != ' ');
		}
	}
	assert_int_equal(lines, 12);
	assert_int_equal(t[need - 1], '\n');
	/* truncation: n - 1 bytes and a NUL, the return value unchanged */
	memset(small, 'x', sizeof small);
	assert_int_equal(plot_to_text(&g, small, sizeof small), need);
	assert_int_equal(small[9], '\0');
	assert_memory_equal(small, t, 9);
	assert_int_equal(plot_to_text(&g, small, 1), need);
	assert_int_equal(small[0], '\0');
	free(t);
	plot_free(&g);
	assert_int_equal(plot_to_text(&g, small, sizeof small), 0);
	assert_int_equal(small[0], '\0');
}

/* The same input gives the same grid, whatever the grid held before or its previous size. */
static void test_reuse_and_determinism(void **state)
{
	struct plot_grid a = { 0 }, b = { 0 };
	struct plot_spec s = spec_of(80, 20), t = spec_of(33, 9);

	(void)state;
	render_ok(bert, N_BERT, &s, &a);
	render_ok(bert, N_BERT, &t, &b);
	render_ok(bert + 3, 5, &s, &b);
	render_ok(bert, N_BERT, &s, &b);
	assert_memory_equal(a.ch, b.ch, 80 * 20);
	assert_memory_equal(a.role, b.role, 80 * 20);
	plot_free(&a);
	plot_free(&b);
}

/* ---- speed ------------------------------------------------------------------------------ */

static double now_ms(void)
{
	struct timespec ts;

	/* CPU time, not wall time: a loaded or throttled machine must not fail the test */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* It runs on every keypress: 10^5 points at 200x60 must stay well under 10 ms (best of 5;
 * a sanitizer build gets ten times the budget). */
/* plot_locate agrees with plot_render: drawn as the only selected point (no label), each point's
 * glyph is the one ROLE_SELECTED cell of the plot area, at the cell plot_locate gives; skipped
 * points get -1. Over the BERT set, overlaps, skipped points, log y and several sizes. */
static void check_locate(const struct plot_point *src, size_t n, const struct plot_spec *s)
{
	struct plot_point *pts = malloc((n + 1) * sizeof *pts);
	int *cells = malloc((n + 1) * sizeof *cells);
	struct plot_grid g = { 0 };
	struct gs_err err = { 0 };

	assert_non_null(pts);
	assert_non_null(cells);
	for (size_t i = 0; i < n; i++) {
		pts[i] = src[i];
		pts[i].flags &= ~(unsigned)PT_SELECTED;
		pts[i].label = NULL;
	}
	assert_int_equal(plot_locate(pts, n, s, cells, &err), 0);
	for (size_t i = 0; i < n; i++) {
		int found = -1, count = 0;
		pts[i].flags |= PT_SELECTED;
		render_ok(pts, n, s, &g);
		pts[i].flags &= ~(unsigned)PT_SELECTED;
		/* the legend row has no selected cell; rows above it hold the plot */
		for (int k = 0; k < g.w * (g.h - 1); k++)
			if (g.role[k] == ROLE_SELECTED) {
				found = k;
				count++;
			}
		if (cells[i] < 0) {
			assert_int_equal(count, 0);
			continue;
		}
		assert_int_equal(count, 1);
		if (found != cells[i])
			fail_msg("point %zu (%g, %g): drawn at %d, located at %d", i, pts[i].x, pts[i].y,
				 found, cells[i]);
	}
	plot_free(&g);
	free(pts);
	free(cells);
}

static void test_locate_matches_render(void **state)
{
	struct plot_point pts[N_BERT + 8];
	struct plot_spec s;
	struct gs_err err = { 0 };
	int cell;
	size_t n = N_BERT;

	(void)state;
	memcpy(pts, bert, sizeof bert);
	pts[n++] = (struct plot_point){ NAN, 3, 0, 0, NULL };
	pts[n++] = (struct plot_point){ 0, 3, 1, 0, NULL };
	pts[n++] = (struct plot_point){ 8, 16.9, 1, 0, NULL };      /* shares a cell */
	pts[n++] = (struct plot_point){ 8, 16.9, 1, PT_REF, NULL };
	pts[n++] = (struct plot_point){ 1 << 20, 0.01, 13, PT_PARETO, NULL };
	pts[n++] = (struct plot_point){ 2, -1, 0, 0, NULL };        /* skipped on log y only */
	for (int sz = 0; sz < 4; sz++) {
		static const int wh[4][2] = { { 80, 20 }, { 40, 12 }, { 20, 8 }, { 157, 43 } };
		s = spec_of(wh[sz][0], wh[sz][1]);
		check_locate(pts, n, &s);
		s.log_y = true;
		check_locate(pts, n, &s);
	}
	s = spec_of(80, 20);
	check_locate(pts, 0, &s);
	s = spec_of(19, 20);
	assert_int_equal(plot_locate(pts, 1, &s, &cell, &err), -1);
	assert_non_null(strstr(err.msg, "too small"));
}

static void test_speed(void **state)
{
	enum { NP = 100000 };
	struct plot_point *pts = malloc(NP * sizeof *pts);
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(200, 60);
	uint32_t seed = 12345;
	double best = 1e9;
	const char *san = getenv("SANITIZE");

	(void)state;
	assert_non_null(pts);
	for (int i = 0; i < NP; i++) {
		seed = seed * 1664525u + 1013904223u;
		int e = (int)(seed >> 28);
		seed = seed * 1664525u + 1013904223u;
		pts[i] = (struct plot_point){ (double)(1u << e), 0.2 + (seed >> 8) / 16777216.0 * 20,
					      (int)(seed % 12), (seed % 7 == 0) ? PT_PARETO : 0, NULL };
	}
	pts[17].flags |= PT_SELECTED;
	pts[17].label = "selected";
	pts[99].flags |= PT_REF;
	for (int k = 0; k < 5; k++) {
		double t0 = now_ms();
		render_ok(pts, NP, &s, &g);
		double dt = now_ms() - t0;
		if (dt < best)
			best = dt;
	}
	fprintf(stderr, "# 200x60, %d points: %.2f ms\n", NP, best);
	assert_true(best < (san && strcmp(san, "1") == 0 ? 100.0 : 10.0));
	free(pts);
	plot_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_bert_80x20),
		cmocka_unit_test(test_golden_bert_40x12),
		cmocka_unit_test(test_golden_log_y),
		cmocka_unit_test(test_golden_one_point),
		cmocka_unit_test(test_golden_zero_points),
		cmocka_unit_test(test_golden_equal_y),
		cmocka_unit_test(test_golden_overlap),
		cmocka_unit_test(test_golden_min_20x8),
		cmocka_unit_test(test_legend_clusters_log),
		cmocka_unit_test(test_label_avoids_points),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_large_400x200),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_nonfinite_skipped),
		cmocka_unit_test(test_log_y_nonpositive_skipped),
		cmocka_unit_test(test_equal_x_and_huge_n),
		cmocka_unit_test(test_extreme_values),
		cmocka_unit_test(test_to_text),
		cmocka_unit_test(test_reuse_and_determinism),
		cmocka_unit_test(test_locate_matches_render),
		cmocka_unit_test(test_speed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
