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

#include "plot.h"

/* Points and specs by field name: the structs grow optional fields (zero = off). */
#define PT(X, Y, CL, FL, LAB) { .x = (X), .y = (Y), .cluster = (CL), .flags = (FL), .label = (LAB) }
#define SPEC(W, H, LOG, TH, PAR, NAME) { .width = (W), .height = (H), .log_y = (LOG), .theta = (TH), \
					 .show_pareto = (PAR), .y_name = (NAME) }

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
	static const char map[] = " #+LtgPRSO:|c";

	memset(out, 0, sizeof *out);
	out->w = g->w;
	out->h = g->h;
	out->ch = malloc((size_t)g->w * g->h);
	out->role = NULL;
	assert_non_null(out->ch);
	for (int i = 0; i < g->w * g->h; i++)
		out->ch[i] = (g->role[i] & ROLE_MASK) >= ROLE_CLUSTER
				     ? (char)('a' + (g->role[i] & ROLE_MASK) - ROLE_CLUSTER)
				     : map[g->role[i] & ROLE_MASK];
}

static char cell(const struct plot_grid *g, int r, int c)
{
	return g->ch[(size_t)r * g->w + c];
}

static int role_at(const struct plot_grid *g, int r, int c)
{
	return g->role[(size_t)r * g->w + c] & ROLE_MASK;
}

/* The x axis row: above the x labels and the legend's rows. */
static int axis_row(const struct plot_grid *g)
{
	return g->h - 2 - g->legend_rows;
}

/* Finds the first plotted cell (not axis, tick, label or legend) holding ch, row-major; returns
 * 0 and sets r, c, or -1. */
static int find_ch(const struct plot_grid *g, char ch, int *r, int *c)
{
	*r = *c = 0;
	for (int i = 0; i < g->w * g->h; i++)
		if (g->ch[i] == ch && (g->role[i] & ROLE_MASK) != ROLE_LABEL && g->role[i] != ROLE_LEGEND &&
		    g->role[i] != ROLE_AXIS && g->role[i] != ROLE_TICK) {
			*r = i / g->w;
			*c = i % g->w;
			return 0;
		}
	return -1;
}

/* As find_ch, for the next such cell after (r, c); sets r, c or returns -1. */
static int find_ch_after(const struct plot_grid *g, char ch, int *r, int *c)
{
	for (int i = *r * g->w + *c + 1; i < g->w * g->h; i++)
		if (g->ch[i] == ch && (g->role[i] & ROLE_MASK) != ROLE_LABEL && g->role[i] != ROLE_LEGEND &&
		    g->role[i] != ROLE_AXIS && g->role[i] != ROLE_TICK) {
			*r = i / g->w;
			*c = i % g->w;
			return 0;
		}
	return -1;
}

/* Whether the first n bytes of s hold the text t. */
static const char *find_in(const char *s, int n, const char *t, size_t tl)
{
	for (int i = 0; i + (int)tl <= n; i++)
		if (memcmp(s + i, t, tl) == 0)
			return s + i;
	return NULL;
}

static int count_role(const struct plot_grid *g, int role)
{
	int n = 0;

	for (int i = 0; i < g->w * g->h; i++)
		n += (g->role[i] & ROLE_MASK) == role;
	return n;
}

/* Every cell is printable ASCII, and the x axis row holds the '+' corner and '-' runs. */
static void check_invariants(const struct plot_grid *g)
{
	int corner = -1;

	for (int i = 0; i < g->w * g->h; i++) {
		assert_true(g->ch[i] >= 0x20 && g->ch[i] < 0x7f);
		assert_true((g->role[i] & ROLE_MASK) < ROLE_CLUSTER + 12);
	}
	for (int c = 0; c < g->w; c++)
		if (cell(g, axis_row(g), c) == '+' && role_at(g, axis_row(g), c) == ROLE_AXIS) {
			corner = c;
			break;
		}
	assert_true(corner > 0);
	assert_int_equal(cell(g, axis_row(g), g->w - 1), '-');
	for (int r = 0; r < axis_row(g); r++)
		assert_true(cell(g, r, corner) == '|' || cell(g, r, corner) == '+');
}

/* ---- data ------------------------------------------------------------------------------- */

/* A BERT-like round: E' against N with the paper's kind of reference (a small old system), new
 * 8-GPU systems far above 1, big clusters far below, three k-means clusters. */
static const struct plot_point bert[] = {
	PT(2, 1.00, 0, PT_REF, "krai_7920t_2xa5000"),
	PT(4, 3.10, 0, 0, "dell_xe8545_4xa100"),
	PT(8, 16.9, 0, PT_PARETO, "nvidia_b200_n1"),
	PT(8, 15.2, 0, 0, "supermicro_h200_n1"),
	PT(8, 14.1, 0, 0, "dell_xe9680_h100"),
	PT(8, 12.6, 0, 0, "lenovo_sr680a_h100"),
	PT(8, 6.20, 0, 0, "gigabyte_a100_n1"),
	PT(16, 13.5, 0, 0, "nvidia_h100_n2"),
	PT(32, 12.1, 1, 0, "nvidia_h100_n4"),
	PT(64, 11.4, 1, PT_PARETO, "nvidia_h100_n8"),
	PT(64, 10.9, 1, 0, "azure_nd_h100_n8"),
	PT(128, 9.80, 1, 0, "nvidia_h100_n16"),
	PT(256, 8.70, 1, PT_SELECTED, "nvidia_eos_n32"),
	PT(512, 7.10, 1, PT_PARETO, "nvidia_eos_n64"),
	PT(1024, 5.30, 2, PT_PARETO, "nvidia_eos_n128"),
	PT(1024, 4.80, 2, 0, "google_tpu_v5p_512"),
	PT(2048, 3.60, 2, PT_PARETO, "nvidia_eos_n256"),
	PT(3472, 2.40, 2, PT_PARETO, "nvidia_eos_n434"),
	PT(4096, 1.90, 2, 0, "google_tpu_v5p_2048"),
	PT(3, 0.60, 0, 0, "cpu_baseline_3"),
};
#define N_BERT (sizeof bert / sizeof bert[0])

static struct plot_spec spec_of(int w, int h)
{
	struct plot_spec s = SPEC(w, h, false, 0.8, true, "E'");
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
		PT(8, 366.2, 0, PT_REF, "ref"),     PT(8, 48.1, 0, 0, NULL),
		PT(16, 27.9, 0, 0, NULL),           PT(64, 8.3, 1, PT_PARETO, NULL),
		PT(128, 4.9, 1, 0, NULL),           PT(512, 1.9, 1, PT_PARETO, NULL),
		PT(1024, 1.2, 2, PT_SELECTED, "eos_n128"), PT(3472, 0.59, 2, PT_PARETO, NULL),
	};
	struct plot_spec s = SPEC(60, 16, true, NAN, true, "T (min)");

	(void)state;
	golden_case(pts, sizeof pts / sizeof pts[0], &s, "log_y");
}

static void test_golden_one_point(void **state)
{
	static const struct plot_point pts[] = { PT(8, 1.0, 0, PT_REF | PT_SELECTED, "dgx_h100") };
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
		PT(1, 1.0, 0, PT_REF, NULL), PT(2, 1.0, 0, 0, NULL),  PT(4, 1.0, 1, 0, NULL),
		PT(8, 1.0, 1, 0, NULL),      PT(16, 1.0, 2, 0, NULL), PT(32, 1.0, 2, 0, NULL),
	};
	struct plot_spec s = spec_of(50, 12);

	(void)state;
	golden_case(pts, sizeof pts / sizeof pts[0], &s, "equal_y");
}

/* Cells with 2, 3, 9 and 12 points; a reference wins its crowded cell, and a selected point there
 * leaves the R showing. */
static void test_golden_overlap(void **state)
{
	struct plot_point pts[64];
	size_t n = 0;
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(50, 12);

	(void)state;
	for (int i = 0; i < 2; i++)
		pts[n++] = (struct plot_point)PT(4, 2.0, 0, 0, NULL);
	for (int i = 0; i < 3; i++)
		pts[n++] = (struct plot_point)PT(16, 4.0, 1, 0, NULL);
	for (int i = 0; i < 9; i++)
		pts[n++] = (struct plot_point)PT(64, 6.0, 1, 0, NULL);
	for (int i = 0; i < 12; i++)
		pts[n++] = (struct plot_point)PT(256, 8.0, 2, 0, NULL);
	pts[n++] = (struct plot_point)PT(2, 1.0, 0, 0, NULL);
	pts[n++] = (struct plot_point)PT(2, 1.0, 0, PT_REF, NULL);
	pts[n++] = (struct plot_point)PT(2, 1.0, 0, 0, NULL);
	pts[n++] = (struct plot_point)PT(1024, 3.0, 2, 0, NULL);
	pts[n++] = (struct plot_point)PT(1024, 3.0, 2, PT_SELECTED, "big");
	pts[n++] = (struct plot_point)PT(1024, 3.0, 2, PT_REF, NULL);
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
	/* the selected point shares the reference's cell: the R stays, in the selected role */
	assert_int_equal(find_ch(&g, 'R', &r, &c), 0);
	while (role_at(&g, r, c) != ROLE_SELECTED && find_ch_after(&g, 'R', &r, &c) == 0)
		;
	assert_int_equal(role_at(&g, r, c), ROLE_SELECTED);
	plot_free(&g);
}

/* Selecting a point never hides its cell's mark: a count ('3', '#') or the reference's R stays
 * in its cell, which takes the selected role (the UI draws it reversed, colour or not). */
static void test_selection_keeps_mark(void **state)
{
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(50, 12);
	static const struct { int n; char mark; } cases[] = { { 3, '3' }, { 7, '7' }, { 12, '#' } };

	(void)state;
	for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
		struct plot_point pts[16];
		size_t n = 0;
		int r, c;
		pts[n++] = (struct plot_point)PT(2, 1.0, 0, PT_REF, NULL);
		for (int i = 0; i < cases[t].n; i++)
			pts[n++] = (struct plot_point)PT(64, 4.0, 1, i == 1 ? PT_SELECTED : 0, NULL);
		render_ok(pts, n, &s, &g);
		assert_int_equal(find_ch(&g, cases[t].mark, &r, &c), 0);
		assert_int_equal(role_at(&g, r, c), ROLE_SELECTED);
		assert_int_equal(count_role(&g, ROLE_SELECTED), 1);
		/* '#' is still explained in the legend */
		if (cases[t].mark == '#')
			assert_non_null(strstr(g.ch + (size_t)(g.h - 1) * g.w, "# 10+"));
	}
	/* the reference selected: its R keeps its cell */
	{
		struct plot_point pts[] = { PT(2, 1.0, 0, PT_REF | PT_SELECTED, NULL), PT(2, 1.0, 0, 0, NULL),
					    PT(16, 2.0, 1, 0, NULL) };
		int r, c;
		render_ok(pts, 3, &s, &g);
		assert_int_equal(find_ch(&g, 'R', &r, &c), 0);
		assert_int_equal(role_at(&g, r, c), ROLE_SELECTED);
	}
	plot_free(&g);
}

/* The legend names every cluster that has a point, in lower case, even one drawn only as
 * Pareto glyphs, with its number (a is 1), and says when y is on a log scale. */
static void test_legend_clusters_log(void **state)
{
	struct plot_point pts[] = {
		PT(2, 1.0, 0, PT_REF, NULL),
		PT(4, 2.0, 0, 0, NULL),
		PT(16, 3.0, 1, 0, NULL),
		PT(64, 5.0, 2, PT_PARETO, NULL),
	};
	struct plot_grid g = { 0 };
	struct plot_spec s = spec_of(80, 16);
	const char *leg;

	(void)state;
	render_ok(pts, 4, &s, &g);
	leg = g.ch + (size_t)(g.h - 1) * g.w;
	/* clusters are numbered elsewhere: the legend says a is cluster 1 */
	assert_true(strncmp(leg, "x: N (log2)  y: E'  - theta 0.8  a b c clusters 1 2 3  C Pareto", 63) == 0);
	s.log_y = true;
	render_ok(pts, 4, &s, &g);
	leg = g.ch + (size_t)(g.h - 1) * g.w;
	assert_true(strncmp(leg, "x: N (log2)  y: E' (log)  - theta 0.8  a b c clusters", 53) == 0);
	plot_free(&g);
}

/* The selected point's label goes to the side that covers no point, even when the other side
 * has room for it whole. */
static void test_label_avoids_points(void **state)
{
	struct plot_point pts[] = {
		PT(2, 1.0, 0, 0, NULL),
		PT(64, 5.0, 1, PT_SELECTED, "selected_one"),
		PT(128, 5.0, 2, 0, NULL),
		PT(1024, 1.0, 0, 0, NULL),
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
	assert_int_equal(upper, 4); /* six Pareto points, two share their cells: counts */
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
	/* the cluster glyphs, after theta's entry (which has an 'a' of its own) */
	char legtext[512];
	snprintf(legtext, sizeof legtext, "%.*s", g.w, leg);
	const char *la = strstr(legtext, "  a ");
	assert_non_null(la);
	la = leg + (la - legtext) + 2;
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
	pts[N_BERT] = (struct plot_point)PT(NAN, 3, 0, 0, NULL);
	pts[N_BERT + 1] = (struct plot_point)PT(64, INFINITY, 1, 0, NULL);
	pts[N_BERT + 2] = (struct plot_point)PT(-8, 3, 1, 0, NULL);
	pts[N_BERT + 3] = (struct plot_point)PT(0, 3, 1, 0, NULL);
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
		PT(1, 10, 0, 0, NULL), PT(2, 0, 0, 0, NULL), PT(4, -3, 0, 0, NULL), PT(8, 100, 1, 0, NULL),
	};
	static const struct plot_point neg[] = { PT(1, -1, 0, 0, NULL), PT(2, 0, 0, 0, NULL) };
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
		PT(64, 0.9, 0, 0, NULL), PT(64, 1.4, 0, 0, NULL), PT(64, 2.2, 1, 0, NULL),
	};
	static const struct plot_point huge[] = {
		PT(8, 1.0, 0, PT_REF, NULL), PT(16384, 0.41, 1, PT_SELECTED, "tpu_v5p_16384"),
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
		PT(1e300, 1e300, 0, 0, NULL), PT(1, -1e300, 1, 0, NULL), PT(1e-300, 1e-300, 2, 0, "t"),
		PT(3, 1e-310, 0, PT_SELECTED, "tiny"), PT(1e308, 1e308, 0, 0, NULL),
	};
	static const struct plot_point close[] = { PT(2, 1e17, 0, 0, NULL), PT(4, 1e17 + 16, 0, 0, NULL) };
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

/* ---- layers ----------------------------------------------------------------------------- */

/* Llama2-LoRA v4.1 on H100 SXM (E' against the slowest 4-GPU system, with the run-to-run
 * intervals of --print csv): the break-even view. */
static const struct { double n, ep, lo, hi; unsigned fl; } lora[] = {
	{ 8, 1.1234, 1.0108, 1.3205, PT_PARETO }, { 8, 1.1127, 0.9963, 1.1336, 0 },
	{ 8, 1.1124, 1.0108, 1.3235, 0 },         { 8, 1.1077, 1.0227, 1.1704, 0 },
	{ 8, 1.1036, 0.9752, 1.1068, 0 },         { 8, 1.0801, 0.9542, 1.2460, 0 },
	{ 4, 1.0590, 0.9504, 1.0779, 0 },         { 4, 1.0580, 0.9190, 1.2000, 0 },
	{ 4, 1.0000, 0.8561, 1.0840, PT_REF },    { 32, 0.9405, 0.8984, 1.0184, PT_PARETO },
	{ 16, 0.9257, 0.8285, 1.0443, PT_PARETO }, { 64, 0.8456, 0.6993, 1.0240, PT_PARETO },
	{ 64, 0.8141, 0.6731, 0.8555, 0 },        { 32, 0.8132, 0.6741, 0.8669, 0 },
	{ 16, 0.7850, 0.6880, 1.0178, 0 },        { 64, 0.7655, 0.6938, 0.9041, 0 },
	{ 64, 0.7655, 0.6938, 0.9041, 0 },        { 128, 0.6306, 0.5494, 0.6668, PT_PARETO },
	{ 512, 0.2341, 0.2187, 0.2604, PT_PARETO }, { 1024, 0.2035, 0.1897, 0.2147, PT_PARETO },
};
#define N_LORA (sizeof lora / sizeof lora[0])

static size_t lora_points(struct plot_point *pts, long sel)
{
	for (size_t i = 0; i < N_LORA; i++) {
		pts[i] = (struct plot_point)PT(lora[i].n, lora[i].ep, lora[i].n <= 8 ? 0 : lora[i].n <= 64 ? 1 : 2,
					       lora[i].fl, NULL);
		pts[i].lo = lora[i].lo;
		pts[i].hi = lora[i].hi;
	}
	if (sel >= 0) {
		pts[sel].flags |= PT_SELECTED;
		pts[sel].label = "eos_n8_ngc24.09_nemo";
	}
	return N_LORA;
}

/* The explorer's 80x24 screen: the plot pane of the split view (13 rows) and the plot given
 * the whole body (19 rows), break-even mark at N 64, bars on in the zoomed one. */
static void test_golden_lora_80x24(void **state)
{
	struct plot_point pts[N_LORA];
	struct plot_spec s = SPEC(80, 13, false, 0.8, true, "E'");
	struct plot_grid g = { 0 };
	int rows = 0;

	(void)state;
	s.mark_x = 64;
	snprintf(s.mark_name, sizeof s.mark_name, "break-even N 64");
	lora_points(pts, 11);
	render_ok(pts, N_LORA, &s, &g);
	check_golden(&g, "lora_80x24_split");
	s.height = 19;
	s.show_bars = true;
	render_ok(pts, N_LORA, &s, &g);
	check_golden(&g, "lora_80x24_zoomed");
	/* zoomed, the band theta +- 0.2 spans at least 8 rows: count the rows between the labels
	 * 0.6 and 1.0 (both on the axis) */
	int r6 = -1, r10 = -1;
	for (int r = 0; r < g.h - 3; r++) {
		if (strncmp(g.ch + (size_t)r * g.w, "0.6 +", 5) == 0)
			r6 = r;
		if (strncmp(g.ch + (size_t)r * g.w, "1.0 +", 5) == 0)
			r10 = r;
	}
	assert_true(r6 > 0 && r10 >= 0);
	rows = r6 - r10 + 1;
	assert_true(rows >= 8);
	/* the break-even mark and the bars are drawn and explained */
	assert_true(count_role(&g, ROLE_BREAKEVEN) >= 3);
	assert_true(count_role(&g, ROLE_BAR) >= 10);
	char *t = render_text(&g);
	assert_non_null(strstr(t, ": break-even N 64"));
	free(t);
	plot_free(&g);
}

/* One outlier far above the rest is clipped to a '^' in the top row and counted; the rest
 * keeps the rows. With full_range every point is in its row. */
static void test_golden_clipped_outlier(void **state)
{
	struct plot_point pts[N_LORA + 1];
	struct plot_spec s = SPEC(80, 19, false, 0.8, true, "E'");
	struct plot_grid g = { 0 };
	int r, c;

	(void)state;
	lora_points(pts, -1);
	pts[N_LORA] = (struct plot_point)PT(2, 24.1, 0, 0, NULL);
	render_ok(pts, N_LORA + 1, &s, &g);
	check_golden(&g, "clipped_outlier");
	assert_int_equal(g.clipped, 1 + 2); /* the outlier above, the two 512+ systems below */
	assert_int_equal(cell(&g, 0, 0), ' ');
	assert_int_equal(find_ch(&g, '^', &r, &c), 0);
	assert_int_equal(r, 0);
	char *t = render_text(&g);
	assert_non_null(strstr(t, "^ 1 "));
	assert_non_null(strstr(t, "24.1"));
	free(t);
	s.full_range = true;
	render_ok(pts, N_LORA + 1, &s, &g);
	assert_int_equal(g.clipped, 0);
	assert_int_equal(find_ch(&g, '^', &r, &c), -1);
	plot_free(&g);
}

/* Points below theta carry ROLE_F_BELOW, the others not; Preview points ROLE_F_PREVIEW and a
 * legend entry. */
static void test_below_and_preview_bits(void **state)
{
	struct plot_point pts[] = {
		PT(2, 1.0, 0, PT_REF, NULL), PT(8, 0.9, 0, 0, NULL), PT(64, 0.7, 1, PT_PREVIEW, NULL),
		PT(256, 0.3, 2, 0, NULL),
	};
	struct plot_spec s = SPEC(80, 16, false, 0.8, true, "E'");
	struct plot_grid g = { 0 };
	int cells[4];
	struct gs_err err = { 0 };

	(void)state;
	render_ok(pts, 4, &s, &g);
	assert_int_equal(plot_locate(pts, 4, &s, cells, &err), 0);
	assert_int_equal(g.role[cells[0]] & (ROLE_F_BELOW | ROLE_F_PREVIEW), 0);
	assert_int_equal(g.role[cells[1]] & (ROLE_F_BELOW | ROLE_F_PREVIEW), 0);
	assert_int_equal(g.role[cells[2]] & (ROLE_F_BELOW | ROLE_F_PREVIEW), ROLE_F_BELOW | ROLE_F_PREVIEW);
	assert_int_equal(g.role[cells[3]] & (ROLE_F_BELOW | ROLE_F_PREVIEW), ROLE_F_BELOW);
	assert_int_equal(g.role[cells[3]] & ROLE_MASK, ROLE_CLUSTER + 2);
	char *t = render_text(&g);
	assert_non_null(strstr(t, "preview"));
	free(t);
	/* no theta: nothing is below it */
	s.theta = NAN;
	render_ok(pts, 4, &s, &g);
	for (int i = 0; i < g.w * g.h; i++)
		assert_int_equal(g.role[i] & ROLE_F_BELOW, 0);
	plot_free(&g);
}

/* Keys replace the cluster legend; a glyph override draws the point in its glyph, upper case
 * when it is a shown Pareto point; curves are drawn in their glyph between their samples,
 * never over a point, and named in the legend. */
static void test_keys_glyphs_curves(void **state)
{
	static const struct plot_key keys[] = { { 'h', 0, "H100 SXM" }, { 'b', 1, "B200" } };
	static const double cx[] = { 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 };
	double cy[10];
	struct plot_curve cv = { cx, cy, 10, '.', -1, "fit" };
	struct plot_point pts[] = {
		PT(2, 1.0, 0, PT_REF, NULL), PT(8, 0.95, 0, 0, NULL), PT(64, 0.8, 1, PT_PARETO, NULL),
		PT(512, 0.5, 1, 0, NULL),
	};
	struct plot_spec s = SPEC(80, 16, false, 0.8, true, "E'");
	struct plot_grid g = { 0 };
	int cells[4], r, c;
	struct gs_err err = { 0 };

	(void)state;
	for (int i = 0; i < 10; i++)
		cy[i] = 1.0 - 0.055 * i;
	pts[1].glyph = 'h';
	pts[2].glyph = 'b';
	pts[3].glyph = 'b';
	memcpy(s.keys, keys, sizeof keys);
	s.nkeys = 2;
	s.curves = &cv;
	s.ncurves = 1;
	render_ok(pts, 4, &s, &g);
	assert_int_equal(plot_locate(pts, 4, &s, cells, &err), 0);
	assert_int_equal(g.ch[cells[1]], 'h');
	assert_int_equal(g.role[cells[1]] & ROLE_MASK, ROLE_CLUSTER + 0);
	assert_int_equal(g.ch[cells[2]], 'B');
	assert_int_equal(g.ch[cells[3]], 'b');
	assert_int_equal(g.ch[cells[0]], 'R');
	const char *leg = g.ch + (size_t)(g.h - 1) * g.w;
	assert_non_null(find_in(leg, g.w, "h H100 SXM b B200", 17));
	assert_null(find_in(leg, g.w, "clusters", 8));
	assert_non_null(find_in(leg, g.w, ". fit", 5));
	/* the curve: a '.' in every data column from N 2 to N 1024, none over a point */
	int curve_cells = 0;
	for (r = 0; r < g.h - 3; r++)
		for (c = 0; c < g.w; c++)
			if (role_at(&g, r, c) == ROLE_CURVE) {
				assert_int_equal(cell(&g, r, c), '.');
				curve_cells++;
			}
	assert_true(curve_cells >= 50);
	/* a curve sample on a point's cell leaves the point */
	for (int i = 0; i < 4; i++)
		assert_int_not_equal(g.ch[cells[i]], '.');
	plot_free(&g);
}

/* The selected label never covers a point: crowded on both sides, it goes above or below;
 * with no room anywhere, it is left out and label_off says so. UTF-8 names keep their
 * characters (one cell per column) and are cut in the middle with one '~'. */
static void test_label_placement(void **state)
{
	struct plot_point pts[64];
	struct plot_spec s = SPEC(40, 12, false, NAN, false, "E'");
	struct plot_grid g = { 0 };
	int cells[64], n = 0;
	struct gs_err err = { 0 };

	(void)state;
	/* a row of points on both sides of the selected one */
	for (int e = 0; e <= 10; e++)
		pts[n++] = (struct plot_point)PT((double)(1 << e), 5.0, 0, e == 5 ? PT_SELECTED : 0,
						 e == 5 ? "café-1" : NULL);
	pts[n++] = (struct plot_point)PT(1, 0.0, 1, 0, NULL);
	pts[n++] = (struct plot_point)PT(1, 10.0, 1, 0, NULL);
	render_ok(pts, (size_t)n, &s, &g);
	assert_int_equal(plot_locate(pts, (size_t)n, &s, cells, &err), 0);
	assert_true(g.label_w > 0);
	assert_false(g.label_off);
	assert_string_equal(g.label, "café-1");
	assert_int_equal(g.label_w, 6);
	assert_int_not_equal(g.label_row, cells[5] / g.w);
	for (int i = 0; i < n; i++)
		if (cells[i] / g.w == g.label_row)
			assert_false(cells[i] % g.w >= g.label_col && cells[i] % g.w < g.label_col + g.label_w);
	char *t = render_text(&g);
	assert_non_null(strstr(t, "café-1"));
	assert_null(strstr(t, "caf?"));
	free(t);

	/* a long name in a narrow plot: cut in the middle, one '~', the tail kept */
	n = 0;
	pts[n++] = (struct plot_point)PT(2, 1.0, 0, PT_SELECTED, "8xXE9680x8H100-SXM-80GB-POWER");
	pts[n++] = (struct plot_point)PT(4, 2.0, 0, 0, NULL);
	s.width = 24;
	render_ok(pts, (size_t)n, &s, &g);
	assert_true(g.label_off);
	assert_true(g.label_w >= 8);
	assert_non_null(strchr(g.label, '~'));
	assert_null(strchr(strchr(g.label, '~') + 1, '~'));
	assert_true(strstr("8xXE9680x8H100-SXM-80GB-POWER", strchr(g.label, '~') + 1) != NULL);

	/* points everywhere around it: no label, label_off set */
	n = 0;
	s.width = 20;
	s.height = 8;
	for (int e = 0; e <= 12; e++)
		for (int k = 0; k < 5; k++)
			if (n < 64)
				pts[n++] = (struct plot_point)PT((double)(1 << e), k, 0, 0, NULL);
	pts[32].flags |= PT_SELECTED;
	pts[32].label = "nowhere_to_go";
	render_ok(pts, (size_t)n, &s, &g);
	assert_int_equal(g.label_w, 0);
	assert_true(g.label_off);
	plot_free(&g);
}

/* A label, whole or cut, keeps one blank before any point beside it on its row (the cut label
 * "GX25~Bx45" ran into a count digit): the crowding seen on the bundled data, then random crowds. */
static void test_label_keeps_a_blank(void **state)
{
	struct plot_point pts[48];
	struct plot_spec s = SPEC(30, 10, false, NAN, false, "E'");
	struct plot_grid g = { 0 };
	int cells[48];
	struct gs_err err = { 0 };
	uint32_t seed = 7;
	int cut = 0;

	(void)state;
	for (int round = 0; round < 400; round++) {
		size_t n = 4 + (size_t)(seed % 40);
		seed = seed * 1664525u + 1013904223u;
		s.width = 24 + (int)(seed >> 24) % 40;
		s.height = 8 + (int)(seed >> 16) % 6;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1664525u + 1013904223u;
			pts[i] = (struct plot_point)PT((double)(1u << ((seed >> 8) % 10)), (double)((seed >> 18) % 5),
						       0, 0, NULL);
		}
		/* the selected point on a crowded row */
		pts[0].flags = PT_SELECTED;
		pts[0].y = pts[1].y;
		pts[0].label = "GX25x8H100-SXM-80GB-POWER-Bx45";
		render_ok(pts, n, &s, &g);
		assert_int_equal(plot_locate(pts, n, &s, cells, &err), 0);
		if (g.label_w == 0)
			continue;
		cut += g.label_off;
		for (size_t i = 0; i < n; i++) {
			int r = cells[i] / g.w, c = cells[i] % g.w;
			if (cells[i] < 0 || r != g.label_row)
				continue;
			if (c >= g.label_col - 1 && c <= g.label_col + g.label_w)
				fail_msg("%dx%d: point %zu at column %d touches the label at %d..%d (%s)", s.width,
					 s.height, i, c, g.label_col, g.label_col + g.label_w - 1, g.label);
		}
	}
	assert_true(cut > 20); /* the cut labels were tried too */
	plot_free(&g);
}

/* ---- geometry that tells the truth: properties over random data and sizes -------------- */

static uint32_t rng_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static double rng_unit(uint32_t *s)
{
	return rng_next(s) / 16777216.0;
}

/* A tick label's value: a number with an optional k/M/G/T suffix (thousands). */
static double label_value(const char *s, int len)
{
	char buf[32], *end;
	double v, mul = 1;

	if (len <= 0 || len >= (int)sizeof buf)
		return NAN;
	memcpy(buf, s, (size_t)len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	if (end == buf)
		return NAN;
	switch (*end) {
	case 'k': mul = 1e3; end++; break;
	case 'M': mul = 1e6; end++; break;
	case 'G': mul = 1e9; end++; break;
	case 'T': mul = 1e12; end++; break;
	default: break;
	}
	return *end ? NAN : v * mul;
}

/* The y scale as the picture states it: the tick labels, left of the axis column ax. Checks they
 * sit on evenly spaced rows with evenly spaced values (at least two), and gives the value of
 * row r as v0 + (r0 - r) * d. */
struct yscale {
	int ax, r0;
	double v0, d;
};

static void read_yscale(const struct plot_grid *g, struct yscale *ys)
{
	int rows[256], n = 0, ar = axis_row(g);
	double vals[256];

	ys->ax = -1;
	for (int c = 0; c < g->w; c++)
		if (cell(g, ar, c) == '+' && role_at(g, ar, c) == ROLE_AXIS) {
			ys->ax = c;
			break;
		}
	assert_true(ys->ax > 0);
	for (int r = 0; r < ar; r++) {
		const char *row = g->ch + (size_t)r * g->w;
		int s = 0;
		if (cell(g, r, ys->ax) != '+')
			continue;
		while (s < ys->ax && row[s] == ' ')
			s++;
		rows[n] = r;
		vals[n] = label_value(row + s, ys->ax - 1 - s);
		if (!isfinite(vals[n]))
			fail_msg("row %d: tick label '%.*s' is not a number", r, ys->ax - 1 - s, row + s);
		n++;
	}
	if (n < 2)
		fail_msg("%dx%d: %d y tick labels", g->w, g->h, n);
	int m = rows[1] - rows[0];
	double step = vals[0] - vals[1];
	assert_true(m >= 1);
	assert_true(step > 0);
	for (int i = 1; i < n; i++) {
		if (rows[i] - rows[i - 1] != m)
			fail_msg("ticks not evenly spaced: rows %d %d %d", rows[i - 2 < 0 ? 0 : i - 2],
				 rows[i - 1], rows[i]);
		double dv = vals[i - 1] - vals[i];
		if (fabs(dv - step) > 1e-9 * fmax(fabs(vals[i - 1]), step))
			fail_msg("tick values not evenly spaced: %g %g %g", vals[0], vals[i - 1], vals[i]);
	}
	ys->r0 = rows[0];
	ys->v0 = vals[0];
	ys->d = step / m;
}

static double row_value(const struct yscale *ys, int r)
{
	return ys->v0 + (ys->r0 - r) * ys->d;
}

/* |v - centre of row r| within half a row step (and the rounding of the arithmetic). */
static bool row_holds(const struct yscale *ys, int r, double v)
{
	double c = row_value(ys, r), tol = ys->d * (0.5 + 1e-6) + 1e-12 * fabs(c);

	return fabs(v - c) <= tol;
}

/* One random case: points (powers of two and odd counts, values of several shapes, sometimes
 * an outlier), a random size, theta, bars, a break-even mark; then every placement rule. */
static void property_case(uint32_t *seed, struct plot_grid *g)
{
	struct plot_point pts[48];
	int cells[48], mark_cell[1];
	struct plot_spec s = SPEC(20 + (int)(rng_next(seed) % 181), 8 + (int)(rng_next(seed) % 63),
				  false, rng_unit(seed) < 0.7 ? 0.8 : NAN, true, "E'");
	size_t n = rng_next(seed) % 40;
	int shape = (int)(rng_next(seed) % 5);
	struct gs_err err = { 0 };
	struct yscale ys;
	double scale = shape == 0 ? 2 : shape == 1 ? 30 : shape == 2 ? 0.05 : 1500;

	s.full_range = rng_unit(seed) < 0.3;
	s.show_bars = rng_unit(seed) < 0.5;
	for (size_t i = 0; i < n; i++) {
		double x = rng_unit(seed) < 0.7 ? (double)(1u << (rng_next(seed) % 15))
						: 1 + rng_next(seed) % 5000;
		double y = rng_unit(seed) * scale;
		if (shape == 4) /* crowded about theta, where a row could straddle it */
			y = 0.8 + (rng_unit(seed) - 0.5) * (rng_unit(seed) < 0.5 ? 0.02 : 0.4);
		else if (rng_unit(seed) < 0.05)
			y *= 100;
		pts[i] = (struct plot_point)PT(x, y, (int)(rng_next(seed) % 12),
					       rng_unit(seed) < 0.2 ? PT_PARETO : 0, NULL);
		if (rng_unit(seed) < 0.5) {
			pts[i].lo = y * (1 - 0.3 * rng_unit(seed));
			pts[i].hi = y * (1 + 0.3 * rng_unit(seed));
		}
	}
	if (n > 0) {
		pts[0].flags |= PT_REF;
		pts[n / 2].flags |= PT_SELECTED;
		pts[n / 2].label = "selected_point";
		s.mark_x = pts[n / 3].x;
	}
	render_ok(pts, n, &s, g);
	assert_int_equal(plot_locate(pts, n, &s, cells, &err), 0);
	read_yscale(g, &ys);
	int ar = axis_row(g);
	bool clip = false, clip_low = false;
	double kept_max = -INFINITY, kept_min = INFINITY;

	/* clip rows, as the legend states them: the top row then holds '^' marks only, the
	 * bottom data row 'v' marks only; the legend's rows read as one line */
	const char *leg = g->ch + (size_t)(g->h - g->legend_rows) * g->w;
	int leg_n = g->w * g->legend_rows;
	for (int c = 0; c + 1 < leg_n; c++) {
		char nx = leg[c + 1] == ' ' && c + 2 < leg_n ? leg[c + 2] : leg[c + 1];
		if ((leg[c] == '^' || leg[c] == 'v') && isdigit((unsigned char)nx)) {
			if (leg[c] == '^')
				clip = true;
			else
				clip_low = true;
		}
	}
	/* the theta line's row, when drawn */
	int trow = -1;
	for (int r = 0; r < ar && trow < 0 && isfinite(s.theta); r++)
		for (int c = ys.ax + 1; c < g->w && trow < 0; c++)
			if (role_at(g, r, c) == ROLE_THETA)
				trow = r;
	/* every point: in the data rows, in the row holding its value (a point below theta whose
	 * row holds theta: the row under it), or '^' in a clip row */
	for (size_t i = 0; i < n; i++) {
		int r = cells[i] / g->w, c = cells[i] % g->w;
		assert_true(cells[i] >= 0);
		assert_true(r >= 0 && r < ar);
		assert_true(c > ys.ax && c <= g->w - 2);
		if ((clip && r == 0) || (clip_low && r == ar - 1)) {
			assert_false(s.full_range);
			assert_true(cell(g, r, c) == (r == 0 ? '^' : 'v') || role_at(g, r, c) == ROLE_OVERLAP);
			continue;
		}
		if (!row_holds(&ys, r, pts[i].y) &&
		    !(trow >= 0 && r == trow + 1 && pts[i].y < s.theta && row_holds(&ys, trow, pts[i].y)))
			fail_msg("%dx%d: point %zu y=%.17g in row %d (value %.17g, step %g)", g->w, g->h,
				 i, pts[i].y, r, row_value(&ys, r), ys.d);
		/* position alone tells above from below: on or over the line means >= theta */
		if (trow >= 0 && (r <= trow) != (pts[i].y >= s.theta))
			fail_msg("%dx%d: point %zu y=%.17g in row %d, theta %g on row %d", g->w, g->h, i,
				 pts[i].y, r, s.theta, trow);
		if (pts[i].y > kept_max)
			kept_max = pts[i].y;
		if (pts[i].y < kept_min)
			kept_min = pts[i].y;
	}
	for (size_t i = 0; i < n; i++) {
		if (clip && cells[i] / g->w == 0)
			assert_true(pts[i].y > kept_max);
		if (clip_low && cells[i] / g->w == ar - 1)
			assert_true(pts[i].y < kept_min);
	}
	if (clip)
		assert_non_null(memchr(leg, '^', (size_t)leg_n));
	/* tick rows: the '+' rows are the label rows (read_yscale), and nothing else in the data
	 * area is a tick; x: a point at a labelled power of two sits under its label */
	for (int r = 0; r < ar; r++)
		for (int c = ys.ax + 1; c < g->w; c++)
			assert_int_not_equal(role_at(g, r, c), ROLE_TICK);
	for (size_t i = 0; i < n; i++) {
		char lab[32];
		int c = cells[i] % g->w, len;
		double x = pts[i].x;
		if (x != floor(x) || ((unsigned long)x & ((unsigned long)x - 1)) != 0)
			continue;
		len = snprintf(lab, sizeof lab, "%.0f", x);
		const char *row = g->ch + (size_t)(axis_row(g) + 1) * g->w;
		int start = c - len / 2;
		if (start <= 0 || start + len >= g->w)
			continue;
		/* where a label is centred on the point's column, it states the point's N, or on a
		 * plot with less than a column a power the next power sharing that column */
		if (row[start - 1] == ' ' && row[start + len] == ' ' && role_at(g, axis_row(g), c) == ROLE_TICK &&
		    isdigit((unsigned char)row[start])) {
			double v = label_value(row + start, len);
			if (memcmp(row + start, lab, (size_t)len) != 0 && !(fabs(log2(v) - log2(x)) <= 1))
				fail_msg("%dx%d: N %g under label %g", g->w, g->h, x, v);
		}
	}
	/* theta: the line is in the row holding theta */
	if (isfinite(s.theta))
		for (int r = 0; r < ar; r++)
			if (role_at(g, r, g->w - 1) == ROLE_THETA && !row_holds(&ys, r, s.theta))
				fail_msg("theta line in row %d (value %g)", r, row_value(&ys, r));
	/* bars: in the point's column, rows whose interval meets [lo, hi] */
	for (int r = 0; r < ar; r++)
		for (int c = ys.ax + 1; c < g->w; c++) {
			if (role_at(g, r, c) != ROLE_BAR)
				continue;
			bool ok = false;
			for (size_t i = 0; i < n && !ok; i++) {
				int pr = cells[i] / g->w;
				if (cells[i] % g->w != c || !(pts[i].lo < pts[i].hi) || (clip && pr == 0) ||
				    (clip_low && pr == ar - 1))
					continue;
				double cv = row_value(&ys, r), h = ys.d / 2 * (1 + 1e-6);
				int bottom = clip_low ? ar - 2 : ar - 1;
				ok = (pts[i].hi >= cv - h && pts[i].lo <= cv + h) ||
				     (r == bottom && pts[i].lo < cv) || (r == (clip ? 1 : 0) && pts[i].hi > cv);
			}
			if (!ok)
				fail_msg("bar cell (%d, %d) meets no point's interval", r, c);
		}
	/* the break-even mark is in the column of a point at its N */
	if (n > 0) {
		struct plot_point mp = PT(s.mark_x, pts[n / 3].y, 0, 0, NULL);
		(void)mp;
		mark_cell[0] = cells[n / 3] % g->w;
		for (int r = 0; r < ar; r++)
			for (int c = ys.ax + 1; c < g->w; c++)
				if (role_at(g, r, c) == ROLE_BREAKEVEN)
					assert_int_equal(c, mark_cell[0]);
	}
	/* the selected label covers no point */
	if (g->label_w > 0)
		for (size_t i = 0; i < n; i++) {
			int r = cells[i] / g->w, c = cells[i] % g->w;
			if (r == g->label_row && c >= g->label_col && c < g->label_col + g->label_w)
				fail_msg("label over point %zu at (%d, %d)", i, r, c);
		}
}

static void test_geometry_properties(void **state)
{
	struct plot_grid g = { 0 };
	uint32_t seed = 20261130;

	(void)state;
	for (int k = 0; k < 2000; k++)
		property_case(&seed, &g);
	plot_free(&g);
}

/* A legend longer than a row at its tersest wraps between entries over the fewest rows that
 * hold it, taken from the plot: every family is named whole (never cut, no '~'), the x axis and
 * its labels move up, and plot_locate puts each point where the render drew it. Past the rows a
 * plot of that height may give, the last one is cut with '~' between entries. */
static const char *const long_fams[] = {
	"B200", "B300", "GB200", "GB300", "H100 SXM", "H200 SXM", "Instinct MI300X",
	"Instinct MI325X", "Instinct MI350X", "Instinct MI355X", "TPU v5p",
};

static void test_legend_wraps(void **state)
{
	struct plot_point pts[11];
	struct plot_spec s = SPEC(80, 24, false, 0.8, true, "E'");
	struct plot_grid g = { 0 };
	int cells[11];
	struct gs_err err = { 0 };
	char *t;

	(void)state;
	for (int i = 0; i < 11; i++) {
		pts[i] = (struct plot_point)PT((double)(8 << (i % 6)), 1.2 - 0.07 * i, i, i == 0 ? PT_REF : 0,
					       NULL);
		pts[i].glyph = (char)('a' + i);
		s.keys[i] = (struct plot_key){ (char)('a' + i), i, long_fams[i] };
	}
	s.nkeys = 11;
	render_ok(pts, 11, &s, &g);
	assert_true(g.legend_rows >= 2);
	assert_true(g.legend_rows <= 1 + (24 - 8) / 2);
	check_invariants(&g);
	t = render_text(&g);
	for (int i = 0; i < 11; i++) {
		char key[40];
		snprintf(key, sizeof key, "%c %s", 'a' + i, long_fams[i]);
		if (!strstr(t, key))
			fail_msg("the legend does not name '%s':\n%s", key, t);
	}
	assert_null(strchr(t, '~'));
	/* the x labels sit right above the legend's rows */
	assert_non_null(find_in(g.ch + (size_t)(g.h - g.legend_rows - 1) * g.w, g.w, "16", 2));
	free(t);
	assert_int_equal(plot_locate(pts, 11, &s, cells, &err), 0);
	for (int i = 1; i < 11; i++)
		assert_int_equal(g.ch[cells[i]] | 0x20, 'a' + i);
	/* 20 columns by 8 rows give the legend one row: cut between entries, with the mark */
	s.width = 20;
	s.height = 8;
	render_ok(pts, 11, &s, &g);
	assert_int_equal(g.legend_rows, 1);
	check_invariants(&g);
	assert_non_null(memchr(g.ch + (size_t)(g.h - 1) * g.w, '~', (size_t)g.w));
	plot_free(&g);
}

/* ---- speed ------------------------------------------------------------------------------ */

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
		for (int k = 0; k < g.w * (g.h - g.legend_rows); k++)
			if ((g.role[k] & ROLE_MASK) == ROLE_SELECTED) {
				found = k;
				count++;
			}
		if (cells[i] < 0) {
			assert_int_equal(count, 0);
			continue;
		}
		if (count != 1)
			fail_msg("point %zu (%g, %g) %dx%d log %d: %d selected cells", i, pts[i].x,
				 pts[i].y, s->width, s->height, s->log_y, count);
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
	pts[n++] = (struct plot_point)PT(NAN, 3, 0, 0, NULL);
	pts[n++] = (struct plot_point)PT(0, 3, 1, 0, NULL);
	pts[n++] = (struct plot_point)PT(8, 16.9, 1, 0, NULL);      /* shares a cell */
	pts[n++] = (struct plot_point)PT(8, 16.9, 1, PT_REF, NULL);
	pts[n++] = (struct plot_point)PT(1 << 20, 0.01, 13, PT_PARETO, NULL);
	pts[n++] = (struct plot_point)PT(2, -1, 0, 0, NULL);        /* skipped on log y only */
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
		cmocka_unit_test(test_selection_keeps_mark),
		cmocka_unit_test(test_legend_wraps),
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
		cmocka_unit_test(test_golden_lora_80x24),
		cmocka_unit_test(test_golden_clipped_outlier),
		cmocka_unit_test(test_below_and_preview_bits),
		cmocka_unit_test(test_keys_glyphs_curves),
		cmocka_unit_test(test_label_placement),
		cmocka_unit_test(test_label_keeps_a_blank),
		cmocka_unit_test(test_geometry_properties),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
