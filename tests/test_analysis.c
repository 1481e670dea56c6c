/* test_analysis.c: every metric against hand-computed values on a small made-up round,
 * reference modes, filters, Pareto, the comparison groups and their break-even brackets (by
 * hand and against a brute-force bracket over random data), reference sensitivity, the fit
 * verdict, clusters (against the exhaustive optimum of the z-scored features), ranking, edge
 * cases, determinism, a large input, and the paper's reference systems on the bundled v4.1
 * data when it is present. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "../src/analysis_impl.h"
#include "dataset.h"
#include "describe.h"
#include "kmeans.h"
#include "kmeans_ref.h"

/* A shown row's intervals (struct aci), as everything that shows one reads them. */
#define CI(an, o) analysis_ci((an), (o))

#define EPS 1e-12

/* ---- a hand-made dataset ---- */

struct spec {
	const char *sys, *sub, *fam, *ven, *avail, *div;
	long long n;
	double t, sf;
	unsigned nruns;
	double runs[5];
	const char *round, *bench; /* NULL: v4.1, bert */
};

/* Rows are plain structs with string literals: the analysis compares names by text. */
static void build(struct dataset *ds, const struct spec *s, size_t n)
{
	size_t nr = 0;

	memset(ds, 0, sizeof *ds);
	ds->rows = calloc(n ? n : 1, sizeof *ds->rows);
	ds->runs = calloc(5 * (n ? n : 1), sizeof *ds->runs);
	assert_non_null(ds->rows);
	assert_non_null(ds->runs);
	for (size_t i = 0; i < n; i++) {
		struct row *r = &ds->rows[i];
		r->round = s[i].round ? s[i].round : "v4.1";
		r->benchmark = s[i].bench ? s[i].bench : "bert";
		r->system = s[i].sys;
		r->system_name = s[i].sys;
		r->submitter = s[i].sub;
		r->family = s[i].fam;
		r->accelerator = s[i].fam;
		r->vendor = s[i].ven;
		r->availability = s[i].avail;
		r->division = s[i].div;
		r->framework = "";
		r->accelerators = s[i].n;
		r->minutes = s[i].t;
		r->scaling_factor = s[i].sf ? s[i].sf : 1;
		r->runs_scored = -1;
		r->runs_failed = -1;
		r->run_off = nr;
		r->run_n = s[i].nruns;
		for (unsigned j = 0; j < s[i].nruns; j++)
			ds->runs[nr++] = s[i].runs[j];
		r->file = "test.csv";
		r->line = (long)i + 2;
		r->avail = dataset_avail(r->availability);
		r->energy_j = r->price_lo = r->price_hi = NAN;
		r->dup_of = -1;
		r->collapsed_from = r->carried_from = "";
	}
	ds->n = ds->cap = n;
	ds->nruns = ds->runs_cap = nr;
}

static void unbuild(struct dataset *ds)
{
	free(ds->rows);
	free(ds->runs);
	memset(ds, 0, sizeof *ds);
}

/* Reference by the paper rule: a_2x (N 2, 360 min; b_2x has N 2 too but is faster). */
static const struct spec base[] = {
	{"b_2x", "Sub B", "H100", "NVIDIA", "available", "closed", 2, 300, 0, 0, {0}, 0, 0},
	{"a_2x", "Krai", "A5000", "NVIDIA", "available", "closed", 2, 360, 0, 5,
	 {350, 355, 360, 365, 370}, 0, 0},
	{"c_8x", "Sub C", "H100", "NVIDIA", "preview", "closed", 8, 60, 0, 0, {0}, 0, 0},
	{"d_64x", "Sub D", "H100", "NVIDIA", "available", "open", 64, 10, 0, 0, {0}, 0, 0},
	{"e_8x", "Sub E", "TPU v5p", "Google", "available", "closed", 8, 90, 0, 0, {0}, 0, 0},
	{"f_16x", "Sub E", "TPU v5p", "Google", "available", "closed", 16, 50, 1.1, 3,
	 {40, 45, 50}, 0, 0},
	/* other workload and other round: never part of v4.1 bert */
	{"a_2x", "Krai", "A5000", "NVIDIA", "available", "closed", 1, 1, 0, 0, {0}, 0,
	 "llama2_70b_lora"},
	{"z_1x", "Old", "A100", "NVIDIA", "available", "closed", 1, 999, 0, 0, {0}, "v4.0",
	 "bert"},
};
#define NBASE (sizeof base / sizeof base[0])

static const struct arow *find(const struct dataset *ds, const struct analysis *a,
			       const char *sys)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(ds->rows[a->rows[i].row].system, sys) == 0)
			return &a->rows[i];
	return NULL;
}

static const char *sys_at(const struct dataset *ds, const struct analysis *a, size_t i)
{
	return ds->rows[a->rows[i].row].system;
}

static void run_ok(const struct dataset *ds, const struct params *p, struct analysis *a)
{
	struct gs_err err;

	memset(&err, 0, sizeof err);
	if (analysis_run(ds, p, a, &err) != 0)
		fail_msg("analysis_run: %s", err.msg);
}

/* run_ok, then every shown row's interval (analysis_run draws only those the break-even
 * range needs). */
static void run_all(const struct dataset *ds, const struct params *p, struct analysis *a)
{
	run_ok(ds, p, a);
	assert_int_equal(analysis_intervals(ds, a, 0, a->n, NULL), 0);
}

static void base_params(struct params *p)
{
	/* room for the filter lists the tests fill (the caller's, as for the command line) */
	static const char *lists[4][8];

	params_init(p);
	/* most tests below were written for the paper rule (one group of every shown row); those
	 * of family mode ask for it */
	p->mode = REF_PAPER;
	p->filter.families = lists[0];
	p->filter.vendors = lists[1];
	p->filter.availability = lists[2];
	p->filter.divisions = lists[3];
	p->round = "v4.1";
	p->workload = "bert";
}

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < EPS * (1 + fabs((double)(b))))

/* The system of the row giving group g's lower end, NULL when none; the row carries the mark. */
static const char *be_sys(const struct dataset *ds, const struct analysis *a, size_t g)
{
	const struct group *gr;
	long i;

	assert_true(g < a->ngroups);
	gr = &a->groups[g];
	i = analysis_be_index(a, gr);
	if (gr->be_row < 0) {
		assert_int_equal(i, -1);
		return NULL;
	}
	assert_true(i >= 0);
	assert_int_equal(a->rows[i].row, (size_t)gr->be_row);
	assert_true(a->rows[i].be);
	assert_int_equal(a->rows[i].group, g);
	assert_true(gr->be.lo == (long)a->rows[i].N);
	return ds->rows[gr->be_row].system;
}

static void expect_bracket(const struct be_bracket *b, enum be_kind kind, long lo, long hi,
			   bool beyond)
{
	if (b->kind != kind || b->lo != lo || b->hi != hi || b->beyond != beyond)
		fail_msg("bracket kind %d lo %ld hi %ld beyond %d, expected kind %d lo %ld hi %ld "
			 "beyond %d", (int)b->kind, b->lo, b->hi, (int)b->beyond, (int)kind, lo, hi,
			 (int)beyond);
}

static bool same_bracket(const struct be_bracket *x, const struct be_bracket *y)
{
	return x->kind == y->kind && x->lo == y->lo && x->hi == y->hi && x->beyond == y->beyond;
}

/* ---- names and defaults ---- */

static void test_params_and_names(void **state)
{
	struct params p;

	(void)state;
	params_init(&p);
	assert_int_equal(p.mode, REF_FAMILY); /* the hardware-controlled view by default */
	assert_int_equal(p.k, 3);
	assert_int_equal(p.feats, FEAT_N_EP);
	assert_true(p.theta == 0.8);
	assert_int_equal(p.sort, COL_EP);
	assert_true(p.desc);
	assert_null(p.round);
	assert_null(p.workload);
	assert_string_equal(ref_mode_name(REF_PAPER), "paper");
	assert_string_equal(ref_mode_name(REF_PINNED), "pinned");
	assert_string_equal(ref_mode_name(REF_FAMILY), "family");
	assert_string_equal(feat_set_name(FEAT_N_EP), "log2 N, E'");
	assert_string_equal(feat_set_name(FEAT_N_T), "log2 N, log T");
	assert_string_equal(feat_set_name(FEAT_N_EP_T), "log2 N, E', log T");
	assert_string_equal(metric_name(MET_EP), "E'");
	assert_string_equal(metric_name(MET_S), "S");
	assert_string_equal(metric_name(MET_T), "T");
	assert_string_equal(metric_name(MET_A), "A");
	assert_string_equal(metric_name(MET_E), "E");
	assert_string_equal(reg_col(COL_EP)->sym, "E'");
	assert_string_equal(reg_col(COL_N)->head, "N");
}

/* ---- metrics ---- */

static void test_metrics_by_hand(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	const struct arow *r;

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	run_ok(&ds, &p, &a);
	assert_string_equal(a.round, "v4.1");
	assert_string_equal(a.workload, "bert");
	assert_int_equal(a.n, 6);
	assert_int_equal(a.total, 6);
	assert_int_equal(a.ref, 1);
	assert_false(a.ref_hidden);

	/* reference: T_r = 360, N_r = 2 */
	r = find(&ds, &a, "a_2x");
	assert_true(r->is_ref);
	assert_true(r->Ep == 1.0 && r->S == 1.0);
	NEAR(arow_e(r), 0.5);
	NEAR(r->A, 12);
	assert_true(isnan(analysis_kf(&ds, r)));
	NEAR(r->t_lo, 350);
	NEAR(r->t_hi, 370);
	NEAR(analysis_spread(&ds, r).s_lo, 360.0 / 370);
	NEAR(analysis_spread(&ds, r).s_hi, 360.0 / 350);
	NEAR(analysis_spread(&ds, r).ep_lo, 360.0 / 370);
	NEAR(analysis_spread(&ds, r).ep_hi, 360.0 / 350);

	r = find(&ds, &a, "b_2x"); /* same N, faster: p = 1, no Karp-Flatt */
	assert_false(r->is_ref);
	NEAR(r->S, 1.2);
	NEAR(arow_e(r), 0.6);
	NEAR(r->Ep, 1.2);
	NEAR(r->A, 10);
	assert_true(isnan(analysis_kf(&ds, r)));
	assert_true(isnan(r->t_lo) && isnan(r->t_hi) && isnan(analysis_spread(&ds, r).s_lo) && isnan(analysis_spread(&ds, r).s_hi));
	assert_true(isnan(analysis_spread(&ds, r).ep_lo) && isnan(analysis_spread(&ds, r).ep_hi));

	/* H100 and TPU rows against an A5000 reference: no Karp-Flatt (family mode has them) */
	r = find(&ds, &a, "c_8x");
	NEAR(r->T, 60);
	NEAR(r->N, 8);
	NEAR(r->S, 6);
	NEAR(arow_e(r), 0.75);
	NEAR(r->Ep, 1.5);
	NEAR(r->A, 8);
	assert_true(isnan(analysis_kf(&ds, r)));
	assert_int_equal(r->kf_why, KF_CROSS_FAMILY);
	assert_true(r->cross_family);

	r = find(&ds, &a, "d_64x"); /* S 36, p 32 */
	NEAR(r->S, 36);
	NEAR(arow_e(r), 36.0 / 64);
	NEAR(r->Ep, 1.125);
	NEAR(r->A, 64.0 * 10 / 60);
	assert_true(isnan(analysis_kf(&ds, r)));

	r = find(&ds, &a, "e_8x");
	NEAR(r->S, 4);
	assert_true(r->Ep == 1.0);
	assert_int_equal(r->kf_why, KF_CROSS_FAMILY);

	/* S 7.2, p 8: e = (1/7.2 - 1/8) / (7/8) = 1/63; raw runs 40..50 scaled by 1.1 */
	r = find(&ds, &a, "f_16x");
	NEAR(r->S, 7.2);
	NEAR(arow_e(r), 0.45);
	NEAR(r->Ep, 0.9);
	NEAR(r->A, 16.0 * 50 / 60);
	assert_true(isnan(analysis_kf(&ds, r)));
	NEAR(r->t_lo, 44);
	NEAR(r->t_hi, 55);
	NEAR(analysis_spread(&ds, r).s_lo, 360.0 / 55);
	NEAR(analysis_spread(&ds, r).s_hi, 360.0 / 44);
	NEAR(analysis_spread(&ds, r).ep_lo, 360.0 / 55 * 2 / 16);
	NEAR(analysis_spread(&ds, r).ep_hi, 360.0 / 44 * 2 / 16);
	assert_true(r->t_lo <= r->T && r->T <= r->t_hi);

	/* metric accessor */
	assert_true(arow_metric(r, MET_EP) == r->Ep);
	assert_true(arow_metric(r, MET_S) == r->S);
	assert_true(arow_metric(r, MET_T) == r->T);
	assert_true(arow_metric(r, MET_A) == r->A);
	assert_true(arow_metric(r, MET_E) == arow_e(r));
	for (size_t i = 0; i < a.n; i++)
		assert_int_equal(a.rows[i].ref, 1);
	assert_false(find(&ds, &a, "a_2x")->cross_family);
	assert_int_equal(a.ncross, 5);

	/* Karp-Flatt within each family: H100 against b_2x (300 min), TPU against e_8x */
	p.mode = REF_FAMILY;
	run_ok(&ds, &p, &a);
	r = find(&ds, &a, "c_8x"); /* S 5 > p 4: superlinear */
	assert_true(isnan(analysis_kf(&ds, r)));
	assert_int_equal(r->kf_why, KF_SUPERLINEAR);
	r = find(&ds, &a, "d_64x"); /* S 30, p 32 */
	NEAR(analysis_kf(&ds, r), (1.0 / 30 - 1.0 / 32) / (1 - 1.0 / 32));
	r = find(&ds, &a, "f_16x"); /* S 1.8, p 2 */
	NEAR(analysis_kf(&ds, r), (1 / 1.8 - 0.5) / 0.5);
	assert_int_equal(a.ncross, 0);
	analysis_free(&a);
	assert_null(a.rows);
	unbuild(&ds);
}

/* ---- references ---- */

static void test_paper_tie_breaks(void **state)
{
	struct spec s[4];
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	memcpy(s, base, sizeof s);
	/* fewest accelerators wins even when slow ones exist with more */
	build(&ds, s, 4);
	base_params(&p);
	run_ok(&ds, &p, &a);
	assert_string_equal(ds.rows[a.ref].system, "a_2x"); /* slowest of the two N = 2 */
	unbuild(&ds);
	/* equal N and equal T: the smaller system id, wherever it sits in the file */
	s[0].t = 360;
	s[0].sys = "a_0x";
	build(&ds, s, 4);
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ref, 0);
	assert_true(find(&ds, &a, "a_2x")->Ep == 1.0);
	unbuild(&ds);
	s[0].sys = "zz";
	build(&ds, s, 4);
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ref, 1);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_paper_ref_follows_filter(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	p.filter.families[p.filter.nfamilies++] = "h100";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.total, 6);
	assert_string_equal(ds.rows[a.ref].system, "b_2x");
	NEAR(find(&ds, &a, "c_8x")->S, 5);
	NEAR(find(&ds, &a, "c_8x")->Ep, 1.25);
	NEAR(find(&ds, &a, "d_64x")->Ep, 30.0 * 2 / 64);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_pinned_hidden(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	p.mode = REF_PINNED;
	p.pinned = "a_2x";
	p.filter.families[p.filter.nfamilies++] = "tpu V5P";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.ref, 1);
	assert_true(a.ref_hidden);
	assert_true(find(&ds, &a, "e_8x")->Ep == 1.0);
	assert_false(find(&ds, &a, "e_8x")->is_ref);
	NEAR(find(&ds, &a, "f_16x")->Ep, 0.9);
	/* pinned and shown */
	p.pinned = "e_8x";
	run_ok(&ds, &p, &a);
	assert_false(a.ref_hidden);
	assert_true(find(&ds, &a, "e_8x")->is_ref);
	NEAR(find(&ds, &a, "f_16x")->Ep, 90.0 / 50 * 8 / 16);
	/* a pinned system beats the paper rule even with no filter */
	p.filter.nfamilies = 0;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ref, 4);
	NEAR(find(&ds, &a, "a_2x")->Ep, 90.0 / 360 * 8 / 2);
	/* nothing pinned: the paper rule */
	p.pinned = NULL;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ref, 1);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_pinned_unknown(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	struct gs_err err;

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	p.mode = REF_PINNED;
	p.pinned = "z_1x"; /* exists, but in another round */
	memset(&err, 0, sizeof err);
	assert_int_equal(analysis_run(&ds, &p, &a, &err), -1);
	assert_non_null(strstr(err.msg, "z_1x"));
	assert_int_equal(a.n, 0);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_family_mode(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	const struct arow *r;

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	p.mode = REF_FAMILY;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ref, -1);
	assert_int_equal(a.n, 6);
	assert_true(find(&ds, &a, "a_2x")->is_ref);
	assert_true(find(&ds, &a, "b_2x")->is_ref);
	assert_true(find(&ds, &a, "e_8x")->is_ref);
	assert_false(find(&ds, &a, "c_8x")->is_ref);
	r = find(&ds, &a, "c_8x"); /* against b_2x: S 5, E' 1.25 */
	assert_int_equal(r->ref, 0);
	NEAR(r->Ep, 1.25);
	r = find(&ds, &a, "f_16x"); /* against e_8x: S 1.8, p 2, E' 0.9, e = 1/9 */
	assert_int_equal(r->ref, 4);
	NEAR(r->S, 1.8);
	NEAR(r->Ep, 0.9);
	NEAR(analysis_kf(&ds, r), 1.0 / 9);
	assert_true(find(&ds, &a, "a_2x")->Ep == 1.0);
	/* a group per family, by name, each its own reference and candidates */
	assert_int_equal(a.ngroups, 3);
	assert_string_equal(a.groups[0].family, "A5000");
	assert_string_equal(a.groups[1].family, "H100");
	assert_string_equal(a.groups[2].family, "TPU v5p");
	assert_int_equal(a.groups[0].ref, 1);
	assert_int_equal(a.groups[1].ref, 0);
	assert_int_equal(a.groups[2].ref, 4);
	assert_int_equal(a.groups[1].nrows, 3);
	assert_true(a.groups[1].n_max == 64);
	for (size_t g = 0; g < 3; g++) {
		assert_int_equal(a.groups[g].ncand, 1);
		assert_int_equal(a.groups[g].cand[0].row, (size_t)a.groups[g].ref);
	}
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.groups[a.rows[i].group].family, ds.rows[a.rows[i].row].family);
	/* theta 0.8: A5000 is one row; H100's fastest is d_64x (E' 0.9375), TPU's f_16x (0.9),
	 * neither with a larger N */
	expect_bracket(&a.groups[0].be, BE_ONE_ROW, -1, -1, false);
	assert_string_equal(be_sys(&ds, &a, 1), "d_64x");
	expect_bracket(&a.groups[1].be, BE_CENSORED, 64, -1, false);
	assert_string_equal(be_sys(&ds, &a, 2), "f_16x");
	expect_bracket(&a.groups[2].be, BE_CENSORED, 16, -1, false);
	/* the row giving each family's lower end is found wherever a sort puts it (the place it
	 * was found at may hold another family's by then) */
	for (int c = 0; c < COL_COUNT; c++)
		for (int desc = 0; desc < 2; desc++) {
			assert_int_equal(analysis_sort(&ds, &a, (enum col)c, desc, NULL), 0);
			for (size_t g = 0; g < a.ngroups; g++) {
				long at = analysis_be_index(&a, &a.groups[g]);
				if (a.groups[g].be_row < 0) {
					assert_int_equal(at, -1);
					continue;
				}
				assert_true(at >= 0);
				assert_int_equal(a.rows[at].row, (size_t)a.groups[g].be_row);
				assert_true(a.rows[at].be);
			}
		}
	analysis_free(&a);
	unbuild(&ds);
}

/* ---- filters ---- */

static size_t shown_with(const struct dataset *ds, struct params *p)
{
	struct analysis a = {0};
	size_t n;

	run_ok(ds, p, &a);
	n = a.n;
	analysis_free(&a);
	return n;
}

static void test_filters(void **state)
{
	struct dataset ds;
	struct params p;

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	assert_int_equal(shown_with(&ds, &p), 6);
	p.filter.vendors[p.filter.nvendors++] = "GOOGLE";
	assert_int_equal(shown_with(&ds, &p), 2);
	base_params(&p);
	p.filter.availability[p.filter.navailability++] = "Preview";
	assert_int_equal(shown_with(&ds, &p), 1);
	base_params(&p);
	p.filter.divisions[p.filter.ndivisions++] = "open";
	assert_int_equal(shown_with(&ds, &p), 1);
	base_params(&p);
	p.filter.families[p.filter.nfamilies++] = "H100";
	p.filter.families[p.filter.nfamilies++] = "TPU v5p";
	assert_int_equal(shown_with(&ds, &p), 5);
	p.filter.divisions[p.filter.ndivisions++] = "CLOSED";
	assert_int_equal(shown_with(&ds, &p), 4);
	/* exact, not substring */
	base_params(&p);
	p.filter.families[p.filter.nfamilies++] = "H10";
	assert_int_equal(shown_with(&ds, &p), 0);
	unbuild(&ds);
}

static void test_round_and_workload(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	struct gs_err err;

	(void)state;
	build(&ds, base, NBASE);
	params_init(&p); /* NULL round and workload: the first round, its first workload */
	p.mode = REF_PAPER;
	run_ok(&ds, &p, &a);
	assert_string_equal(a.round, "v4.1");
	assert_string_equal(a.workload, "bert");
	assert_int_equal(a.n, 6);
	p.workload = "BERT"; /* the label, any case */
	run_ok(&ds, &p, &a);
	assert_string_equal(a.workload, "bert");
	p.workload = "LLAMA2_70B_LORA";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 1);
	p.round = "v4.0";
	p.workload = NULL;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 1);
	assert_string_equal(ds.rows[a.ref].system, "z_1x");
	memset(&err, 0, sizeof err);
	p.workload = "resnet";
	assert_int_equal(analysis_run(&ds, &p, &a, &err), -1);
	assert_non_null(strstr(err.msg, "resnet"));
	assert_non_null(strstr(err.msg, "bert"));
	p.round = "v9.9";
	assert_int_equal(analysis_run(&ds, &p, &a, &err), -1);
	assert_non_null(strstr(err.msg, "v9.9"));
	analysis_free(&a);
	unbuild(&ds);
}

/* ---- Pareto and break-even ---- */

static void test_pareto(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	run_ok(&ds, &p, &a);
	/* (T, A): a 360,12  b 300,10  c 60,8  d 10,10.7  e 90,12  f 50,13.3 */
	assert_int_equal(a.npareto, 2);
	assert_true(find(&ds, &a, "c_8x")->pareto);
	assert_true(find(&ds, &a, "d_64x")->pareto);
	assert_false(find(&ds, &a, "a_2x")->pareto);
	assert_false(find(&ds, &a, "b_2x")->pareto);
	assert_false(find(&ds, &a, "e_8x")->pareto);
	assert_false(find(&ds, &a, "f_16x")->pareto);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_pareto_ties(void **state)
{
	/* equal T: only the least A survives; exact duplicates both survive (neither beats the
	 * other strictly); equal A with larger T is beaten. */
	static const struct spec s[] = {
		{"p1", "", "X", "", "", "", 4, 100, 0, 0, {0}, 0, 0},  /* A 6.67 */
		{"p2", "", "X", "", "", "", 8, 100, 0, 0, {0}, 0, 0},  /* A 13.3, same T */
		{"p3", "", "X", "", "", "", 16, 50, 0, 0, {0}, 0, 0},  /* A 13.3, faster */
		{"p4", "", "X", "", "", "", 16, 50, 0, 0, {0}, 0, 0},  /* duplicate of p3 */
		{"p5", "", "X", "", "", "", 2, 200, 0, 0, {0}, 0, 0},  /* A 6.67, slower than p1 */
		{"p6", "", "X", "", "", "", 1, 300, 0, 0, {0}, 0, 0},  /* A 5 */
	};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, s, 6);
	base_params(&p);
	run_ok(&ds, &p, &a);
	assert_true(find(&ds, &a, "p1")->pareto);
	assert_false(find(&ds, &a, "p2")->pareto);
	assert_true(find(&ds, &a, "p3")->pareto);
	assert_true(find(&ds, &a, "p4")->pareto);
	assert_false(find(&ds, &a, "p5")->pareto);
	assert_true(find(&ds, &a, "p6")->pareto);
	assert_int_equal(a.npareto, 4);
	analysis_free(&a);
	unbuild(&ds);
}

/* The frontier of many rows (the sort by T past a few hundred) against its definition: on it
 * when no row has T and the cost axis both <= and one <; NAN never qualifies. Ties in T, in A
 * and in both; on (T, A) and on (T, cost) with some rows without a price. */
static void test_pareto_many(void **state)
{
	enum { NS = 700 };
	static struct spec r[NS];
	static char names[NS][16];
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	(void)state;

	for (size_t i = 0; i < NS; i++) {
		snprintf(names[i], sizeof names[i], "q%04zu", (i * 37) % NS);
		/* few T values and few N: many equal T, equal A, equal (T, A) */
		double t = 10.0 * (double)(1 + (i * 13) % 23) / (double)(1 + i % 3);
		r[i] = (struct spec){ names[i], "S", i % 2 ? "F1" : "F2", "V", "", "closed",
				      (long long)1 << ((i * 7) % 5), t, 0, 0, {0}, 0, 0 };
	}
	build(&ds, r, NS);
	for (size_t i = 0; i < NS; i++)
		if (i % 5) { /* the rest have no price: no cost */
			ds.rows[i].price_lo = 1 + (double)(i % 3);
			ds.rows[i].price_hi = ds.rows[i].price_lo + 1;
		}
	for (int cost = 0; cost < 2; cost++) {
		base_params(&p);
		p.pareto_cost = cost;
		run_ok(&ds, &p, &a);
		assert_int_equal(a.n, NS);
		size_t on = 0;
		for (size_t i = 0; i < a.n; i++) {
			const struct arow *x = &a.rows[i];
			double xa = cost ? arow_cost(x) : x->A;
			bool beaten = isnan(x->T) || isnan(xa);
			for (size_t j = 0; j < a.n && !beaten; j++) {
				const struct arow *y = &a.rows[j];
				double ya = cost ? arow_cost(y) : y->A;
				beaten = y->T <= x->T && ya <= xa && (y->T < x->T || ya < xa);
			}
			if (x->pareto == beaten)
				fail_msg("%s (T %g, %s %g): pareto %d", ds.rows[x->row].system, x->T,
					 cost ? "cost" : "A", xa, x->pareto);
			on += x->pareto;
		}
		assert_int_equal(a.npareto, on);
		assert_true(on >= 2);
	}
	analysis_free(&a);
	unbuild(&ds);
}

static void test_breakeven(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	run_ok(&ds, &p, &a); /* theta 0.8: every row qualifies, d_64x is the fastest */
	assert_int_equal(a.ngroups, 1);
	assert_null(a.groups[0].family);
	assert_int_equal(a.groups[0].nrows, 6);
	assert_int_equal(a.groups[0].ref, 1);
	assert_string_equal(be_sys(&ds, &a, 0), "d_64x");
	/* no N beyond 64: censored */
	expect_bracket(&a.groups[0].be, BE_CENSORED, 64, -1, false);
	p.theta = 1.13; /* b (1.2) and c (1.5): c is faster; at 16 only f (0.9) */
	run_ok(&ds, &p, &a);
	assert_string_equal(be_sys(&ds, &a, 0), "c_8x");
	expect_bracket(&a.groups[0].be, BE_BRACKET, 8, 16, false);
	p.theta = 1.125; /* >= includes d exactly at theta */
	run_ok(&ds, &p, &a);
	assert_string_equal(be_sys(&ds, &a, 0), "d_64x");
	expect_bracket(&a.groups[0].be, BE_CENSORED, 64, -1, false);
	p.theta = 1.6;
	run_ok(&ds, &p, &a);
	assert_null(be_sys(&ds, &a, 0));
	expect_bracket(&a.groups[0].be, BE_NONE, -1, -1, false);
	for (size_t i = 0; i < a.n; i++)
		assert_false(a.rows[i].be);
	/* the mark follows its row through every re-sort */
	p.theta = 1.13;
	run_ok(&ds, &p, &a);
	for (int c = 0; c < COL_COUNT; c++)
		for (int desc = 0; desc < 2; desc++) {
			assert_int_equal(analysis_sort(&ds, &a, (enum col)c, desc, NULL), 0);
			assert_string_equal(be_sys(&ds, &a, 0), "c_8x");
			assert_ptr_equal(analysis_group(&a, (size_t)analysis_be_index(&a, &a.groups[0])),
					 &a.groups[0]);
		}
	assert_null(analysis_group(&a, a.n));
	analysis_free(&a);
	unbuild(&ds);
}

static void test_breakeven_tie(void **state)
{
	static const struct spec s[] = {
		{"r", "", "X", "", "", "", 1, 100, 0, 0, {0}, 0, 0},
		{"y", "", "X", "", "", "", 2, 50, 0, 0, {0}, 0, 0},
		{"x", "", "X", "", "", "", 2, 50, 0, 0, {0}, 0, 0},
	};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, s, 3);
	base_params(&p);
	run_ok(&ds, &p, &a);
	assert_string_equal(be_sys(&ds, &a, 0), "x");
	assert_int_equal(a.groups[0].be_row, 2);
	expect_bracket(&a.groups[0].be, BE_CENSORED, 2, -1, false);
	/* the same in family mode: X is the one group */
	p.mode = REF_FAMILY;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ngroups, 1);
	assert_string_equal(a.groups[0].family, "X");
	assert_string_equal(be_sys(&ds, &a, 0), "x");
	analysis_free(&a);
	unbuild(&ds);
}

/* ---- comparison groups: the bracket ---- */

static void run_theta(const struct dataset *ds, struct params *p, struct analysis *a, double th)
{
	p->theta = th;
	run_ok(ds, p, a);
}

static void test_bracket_kinds(void **state)
{
	/* against r (N 4, 100 min, A 6.67): fast_8x E' 4 is the fastest reaching theta 0.8 */
	struct spec s[] = {
		{"r", "", "X", "", "", "", 4, 100, 0, 0, {0}, 0, 0},
		{"fast_8x", "", "X", "", "", "", 8, 12.5, 0, 0, {0}, 0, 0},   /* E' 4 */
		{"low_16x", "", "X", "", "", "", 16, 50, 0, 0, {0}, 0, 0},    /* E' 0.5 */
		{"up_32x", "", "X", "", "", "", 32, 13, 0, 0, {0}, 0, 0},     /* E' 0.96, slower */
		{"mid_16x", "", "X", "", "", "", 16, 30, 0, 0, {0}, 0, 0},    /* E' 0.833 */
		{"end_64x", "", "X", "", "", "", 64, 100, 0, 0, {0}, 0, 0},   /* E' 0.0625 */
	};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	base_params(&p);
	/* one row past the lower end, below theta: a bracket */
	build(&ds, s, 3);
	run_theta(&ds, &p, &a, 0.8);
	assert_string_equal(be_sys(&ds, &a, 0), "fast_8x");
	expect_bracket(&a.groups[0].be, BE_BRACKET, 8, 16, false);
	/* theta above every E' (fast_8x's 4 the largest) */
	run_theta(&ds, &p, &a, 4.5);
	expect_bracket(&a.groups[0].be, BE_NONE, -1, -1, false);
	assert_null(be_sys(&ds, &a, 0));
	unbuild(&ds);
	/* non-monotone: 32 climbs above theta again, but 16 is wholly below: the bracket ends at
	 * the smallest such N, not the last */
	build(&ds, s, 4);
	run_theta(&ds, &p, &a, 0.8);
	expect_bracket(&a.groups[0].be, BE_BRACKET, 8, 16, false);
	unbuild(&ds);
	/* 16 has a row at or above theta (mid_16x) and one below: not wholly below; 32 reaches:
	 * larger N were observed, none wholly below */
	struct spec t[] = {s[0], s[1], s[2], s[3], s[4]};
	build(&ds, t, 5);
	run_theta(&ds, &p, &a, 0.8);
	expect_bracket(&a.groups[0].be, BE_CENSORED, 8, -1, true);
	/* at 0.9 mid_16x is below: 16 wholly below again */
	run_theta(&ds, &p, &a, 0.9);
	expect_bracket(&a.groups[0].be, BE_BRACKET, 8, 16, false);
	/* at 0.5 low_16x reaches (exactly 0.5) as well */
	run_theta(&ds, &p, &a, 0.5);
	expect_bracket(&a.groups[0].be, BE_CENSORED, 8, -1, true);
	unbuild(&ds);
	/* and 64, far below, closes it */
	build(&ds, s, 6);
	run_theta(&ds, &p, &a, 0.8);
	expect_bracket(&a.groups[0].be, BE_BRACKET, 8, 64, false);
	/* theta alone, without a run, gives the same */
	assert_int_equal(analysis_breakeven(&ds, &a, 0.9, NULL), 0);
	expect_bracket(&a.groups[0].be, BE_BRACKET, 8, 16, false);
	assert_string_equal(be_sys(&ds, &a, 0), "fast_8x");
	analysis_free(&a);
	unbuild(&ds);
}

/* E' exactly at theta counts as reaching it, for the lower end and for the upper end alike. */
static void test_bracket_at_theta(void **state)
{
	static const struct spec s[] = {
		{"r", "", "X", "", "", "", 2, 100, 0, 0, {0}, 0, 0},
		{"lo_4x", "", "X", "", "", "", 4, 25, 0, 0, {0}, 0, 0},   /* E' 2 */
		{"eq_8x", "", "X", "", "", "", 8, 50, 0, 0, {0}, 0, 0},   /* E' 0.5 exactly */
		{"lo_16x", "", "X", "", "", "", 16, 100, 0, 0, {0}, 0, 0}, /* E' 0.125 */
	};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, s, 4);
	base_params(&p);
	run_theta(&ds, &p, &a, 0.5);
	assert_true(find(&ds, &a, "eq_8x")->Ep == 0.5);
	expect_bracket(&a.groups[0].be, BE_BRACKET, 4, 16, false);
	run_theta(&ds, &p, &a, nextafter(0.5, 1));
	expect_bracket(&a.groups[0].be, BE_BRACKET, 4, 8, false);
	/* the sensitivity against the one candidate computes the same way */
	expect_bracket(&a.groups[0].cand[0].b, BE_BRACKET, 4, 8, false);
	run_theta(&ds, &p, &a, 0.5);
	expect_bracket(&a.groups[0].cand[0].b, BE_BRACKET, 4, 16, false);
	/* eq_8x as the fastest at theta: the lower end exactly at theta */
	ds.rows[1].minutes = 60;  /* lo_4x E' 100/60*2/4 = 0.83, slower than eq_8x */
	run_theta(&ds, &p, &a, 0.5);
	assert_string_equal(be_sys(&ds, &a, 0), "eq_8x");
	expect_bracket(&a.groups[0].be, BE_BRACKET, 8, 16, false);
	analysis_free(&a);
	unbuild(&ds);
}

/* The fastest row is found by T, then system id, then submitter, then dataset row, whatever
 * the N or the order of the file. */
static void test_bracket_ties(void **state)
{
	static const struct spec s[] = {
		{"r", "", "X", "", "", "", 1, 100, 0, 0, {0}, 0, 0},
		{"b_8x", "", "X", "", "", "", 8, 10, 0, 0, {0}, 0, 0},   /* E' 1.25 */
		{"a_16x", "", "X", "", "", "", 16, 10, 0, 0, {0}, 0, 0}, /* E' 0.625: same T */
		{"c_32x", "", "X", "", "", "", 32, 10, 0, 0, {0}, 0, 0}, /* E' 0.3125 */
	};
	static const struct spec u[] = {
		{"r", "", "X", "", "", "", 1, 100, 0, 0, {0}, 0, 0},
		{"s_4x", "Z", "X", "", "", "", 4, 20, 0, 0, {0}, 0, 0},
		{"s_4x", "A", "X", "", "", "", 8, 20, 0, 0, {0}, 0, 0},
		{"s_4x", "A", "X", "", "", "", 2, 20, 0, 0, {0}, 0, 0},
	};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	base_params(&p);
	build(&ds, s, 4);
	run_theta(&ds, &p, &a, 0.6); /* a_16x and b_8x reach, equally fast: a_16x by id */
	assert_string_equal(be_sys(&ds, &a, 0), "a_16x");
	expect_bracket(&a.groups[0].be, BE_BRACKET, 16, 32, false);
	run_theta(&ds, &p, &a, 0.7); /* only b_8x; 16 is below, 32 too */
	assert_string_equal(be_sys(&ds, &a, 0), "b_8x");
	expect_bracket(&a.groups[0].be, BE_BRACKET, 8, 16, false);
	run_theta(&ds, &p, &a, 0.3); /* every row: a_16x first; 32 reaches, nothing beyond it */
	assert_string_equal(be_sys(&ds, &a, 0), "a_16x");
	expect_bracket(&a.groups[0].be, BE_CENSORED, 16, -1, true);
	unbuild(&ds);
	/* one system id: the submitter, then the dataset row (the N 8 row before the N 2 one) */
	build(&ds, u, 4);
	run_theta(&ds, &p, &a, 0.5); /* all four reach: A before Z, row 2 before row 3 */
	assert_int_equal(a.groups[0].be_row, 2);
	expect_bracket(&a.groups[0].be, BE_CENSORED, 8, -1, false);
	run_theta(&ds, &p, &a, 0.7); /* row 2 (E' 0.625) no longer: row 3, N 2; 4 reaches (1.25) */
	assert_int_equal(a.groups[0].be_row, 3);
	expect_bracket(&a.groups[0].be, BE_BRACKET, 2, 8, false);
	run_theta(&ds, &p, &a, 1.5);
	assert_int_equal(a.groups[0].be_row, 3);
	expect_bracket(&a.groups[0].be, BE_BRACKET, 2, 4, false);
	analysis_free(&a);
	unbuild(&ds);
}

/* ---- comparison groups: reference sensitivity, per group ---- */

static void test_group_sensitivity(void **state)
{
	/* P has the fewest accelerators of all (2), Q's fewest are 4: in family mode Q's
	 * candidates are its own three rows at 4, never P's */
	static const struct spec s[] = {
		{"p_slow", "A", "P", "", "", "", 2, 100, 0, 0, {0}, 0, 0},
		{"p_fast", "A", "P", "", "", "", 2, 70, 0, 0, {0}, 0, 0},
		{"p_8x", "A", "P", "", "", "", 8, 30, 0, 0, {0}, 0, 0},
		{"p_16x", "A", "P", "", "", "", 16, 20, 0, 0, {0}, 0, 0},
		{"p_32x", "A", "P", "", "", "", 32, 14, 0, 0, {0}, 0, 0},
		{"q_a", "B", "Q", "", "", "", 4, 50, 0, 0, {0}, 0, 0},
		{"q_b", "B", "Q", "", "", "", 4, 45, 0, 0, {0}, 0, 0},
		{"q_c", "B", "Q", "", "", "", 4, 36, 0, 0, {0}, 0, 0},
		{"q_8x", "B", "Q", "", "", "", 8, 24, 0, 0, {0}, 0, 0},
		{"q_16x", "B", "Q", "", "", "", 16, 15, 0, 0, {0}, 0, 0},
		{"q_64x", "B", "Q", "", "", "", 64, 6, 0, 0, {0}, 0, 0},
	};
	static const char *const want_p[] = {"p_slow", "p_fast"};
	static const char *const want_q[] = {"q_a", "q_b", "q_c"};
	struct dataset ds;
	struct params p, q;
	struct analysis a = {0}, c = {0};
	size_t nspread = 0;

	(void)state;
	build(&ds, s, sizeof s / sizeof s[0]);
	base_params(&p);
	run_ok(&ds, &p, &a); /* paper: the candidates are P's two rows at N 2 */
	assert_int_equal(a.groups[0].ncand, 2);
	for (size_t i = 0; i < 2; i++)
		assert_string_equal(ds.rows[a.groups[0].cand[i].row].system, want_p[i]);
	p.mode = REF_FAMILY;
	for (double th = 0.3; th <= 1.3; th += 0.05) {
		run_theta(&ds, &p, &a, th);
		assert_int_equal(a.ngroups, 2);
		assert_string_equal(a.groups[0].family, "P");
		assert_string_equal(a.groups[1].family, "Q");
		assert_int_equal(a.groups[0].ncand, 2);
		assert_int_equal(a.groups[1].ncand, 3);
		assert_int_equal(a.ncand, 5);
		for (size_t g = 0; g < 2; g++) {
			const struct group *gr = &a.groups[g];
			long lo = -1, hi = -1;
			for (size_t i = 0; i < gr->ncand; i++) {
				const struct row *cr = &ds.rows[gr->cand[i].row];
				assert_string_equal(cr->system, g ? want_q[i] : want_p[i]);
				assert_string_equal(cr->family, gr->family);
				/* the bracket of a run of the family alone, pinned to the candidate */
				base_params(&q);
				q.theta = th;
				q.mode = REF_PINNED;
				q.pinned = cr->system;
				q.filter.families[q.filter.nfamilies++] = gr->family;
				run_ok(&ds, &q, &c);
				if (!same_bracket(&gr->cand[i].b, &c.groups[0].be))
					fail_msg("theta %g %s: candidate bracket %ld..%ld kind %d, pinned run "
						 "%ld..%ld kind %d", th, cr->system, gr->cand[i].b.lo,
						 gr->cand[i].b.hi, (int)gr->cand[i].b.kind, c.groups[0].be.lo,
						 c.groups[0].be.hi, (int)c.groups[0].be.kind);
				long n = gr->cand[i].b.lo;
				if (n >= 0 && (lo < 0 || n < lo))
					lo = n;
				if (n > hi)
					hi = n;
			}
			assert_int_equal(gr->sens_lo, lo);
			assert_int_equal(gr->sens_hi, hi);
			assert_true(gr->sens_lo <= gr->sens_hi);
			nspread += lo != hi;
		}
	}
	assert_true(nspread > 0); /* some theta where the candidates disagree */
	analysis_free(&a);
	analysis_free(&c);
	unbuild(&ds);
}

/* ---- the bracket by brute force ---- */

/* E' of dataset row o against dataset row c, as the metrics compute it. */
static double bf_ep(const struct dataset *ds, size_t o, size_t c)
{
	const struct row *r = &ds->rows[o], *f = &ds->rows[c];

	return f->minutes / r->minutes * (double)f->accelerators / (double)r->accelerators;
}

/* Whether dataset row x comes before y in "fastest" order: T, system id, submitter, row. */
static bool bf_faster(const struct dataset *ds, size_t x, size_t y)
{
	const struct row *a = &ds->rows[x], *b = &ds->rows[y];
	int c;

	if (a->minutes != b->minutes)
		return a->minutes < b->minutes;
	if ((c = strcmp(a->system, b->system)))
		return c < 0;
	if ((c = strcmp(a->submitter, b->submitter)))
		return c < 0;
	return x < y;
}

/* The bracket of the rows g[n] (dataset rows) against reference c at theta, straight from the
 * definition; *lo_row the row giving the lower end (-1 none). */
static struct be_bracket bf_bracket(const struct dataset *ds, const size_t *g, size_t n, size_t c,
				    double theta, bool alone, long *lo_row)
{
	struct be_bracket b = { BE_NONE, -1, -1, false };
	long best = -1, at;

	*lo_row = -1;
	if (alone) {
		b.kind = BE_ONE_ROW;
		return b;
	}
	for (size_t i = 0; i < n; i++)
		if (bf_ep(ds, g[i], c) >= theta && (best < 0 || bf_faster(ds, g[i], (size_t)best)))
			best = (long)g[i];
	if (best < 0)
		return b;
	*lo_row = best;
	b.kind = BE_CENSORED;
	b.lo = at = (long)ds->rows[best].accelerators;
	for (;;) {
		long next = -1;
		bool any = false;
		for (size_t i = 0; i < n; i++) {
			long m = (long)ds->rows[g[i]].accelerators;
			if (m > at && (next < 0 || m < next))
				next = m;
		}
		if (next < 0)
			return b;
		b.beyond = true;
		for (size_t i = 0; i < n; i++)
			any |= ds->rows[g[i]].accelerators == next && bf_ep(ds, g[i], c) >= theta;
		if (!any) {
			b.kind = BE_BRACKET;
			b.hi = next;
			b.beyond = false;
			return b;
		}
		at = next;
	}
}

/* The firm (which 1) or loose (2) lower end over the shown rows at[n] (indices into a->rows):
 * the fastest whose interval lies wholly at or above / reaches theta, a row without interval
 * counting as its E'. */
static long bf_end(const struct dataset *ds, const struct analysis *a, const size_t *at, size_t n,
		   double theta, int which)
{
	long best = -1;

	for (size_t i = 0; i < n; i++) {
		const struct arow *o = &a->rows[at[i]];
		bool ci = !isnan(CI(a, o)->ep_lo);
		double v = !ci ? o->Ep : which == 1 ? CI(a, o)->ep_lo : CI(a, o)->ep_hi;
		if (v >= theta && (best < 0 || bf_faster(ds, o->row, a->rows[best].row)))
			best = (long)at[i];
	}
	return best < 0 ? -1 : (long)a->rows[best].N;
}

/* Rows with few distinct N and T, repeated system ids and submitters: ties, censoring, rows
 * at theta; some with runs (an interval), some without. */
static size_t bracket_specs(struct spec *s, size_t max, struct rng *r)
{
	static const char *const fams[] = {"F1", "F2", "F3", "F4"};
	static const char *const sys[] = {"s0", "s1", "s2", "s3", "s4", "s5"};
	static const char *const subs[] = {"A", "B"};
	static const long long ns[] = {1, 2, 4, 8, 16, 32};
	static const double f[] = {0.5, 0.8, 1, 1.25, 2, 4};
	size_t n = 1 + rng_next(r) % max;

	for (size_t i = 0; i < n; i++) {
		memset(&s[i], 0, sizeof s[i]);
		s[i].sys = sys[rng_next(r) % 6];
		s[i].sub = subs[rng_next(r) % 2];
		s[i].fam = fams[rng_next(r) % 4];
		s[i].ven = s[i].avail = "";
		s[i].div = "closed";
		s[i].n = ns[rng_next(r) % 6];
		s[i].t = 400.0 / (double)s[i].n * f[rng_next(r) % 6];
		if (rng_next(r) % 2) {
			s[i].nruns = 3 + (unsigned)(rng_next(r) % 3);
			for (unsigned j = 0; j < s[i].nruns; j++)
				s[i].runs[j] = s[i].t * (0.7 + 0.15 * j);
		}
	}
	return n;
}

/* Every group of a against the definition: its rows, reference (dataset row pinned when >= 0,
 * else by the rule), candidates, bracket, the row giving its lower end, firm, loose, range,
 * every candidate's bracket and the sensitivity; in family mode nothing of a group comes from
 * another family. */
static void check_groups_brute(const struct dataset *ds, const struct analysis *a, enum ref_mode mode,
			       enum ref_rule rule, long pinned, double theta)
{
	size_t *g = malloc((ds->n + 1) * sizeof *g), *at = malloc((ds->n + 1) * sizeof *at);
	size_t *cand = malloc((ds->n + 1) * sizeof *cand);
	size_t covered = 0;

	assert_true(g && at && cand);
	assert_int_equal(a->n, ds->n);
	for (size_t k = 0; k < a->ngroups; k++) {
		const struct group *gr = &a->groups[k];
		size_t n = 0, nc = 0;
		long nmin = -1, lo_row;
		double nmax = 0;
		if (mode == REF_FAMILY) {
			assert_non_null(gr->family);
			if (k > 0)
				assert_true(strcmp(a->groups[k - 1].family, gr->family) < 0);
		} else {
			assert_null(gr->family);
			assert_int_equal(a->ngroups, 1);
		}
		for (size_t i = 0; i < a->n; i++) {
			const struct row *r = &ds->rows[a->rows[i].row];
			if (gr->family && strcmp(r->family, gr->family) != 0)
				continue;
			assert_int_equal(a->rows[i].group, k);
			at[n] = i;
			g[n++] = a->rows[i].row;
			if (nmin < 0 || r->accelerators < nmin)
				nmin = (long)r->accelerators;
			if ((double)r->accelerators > nmax)
				nmax = (double)r->accelerators;
		}
		assert_int_equal(gr->nrows, n);
		assert_true(gr->n_max == nmax);
		covered += n;
		/* candidates: the fewest accelerators, slowest first (then system id, submitter, row) */
		for (size_t i = 0; i < n; i++) {
			if (ds->rows[g[i]].accelerators != nmin)
				continue;
			size_t j = nc++;
			for (; j > 0; j--) {
				const struct row *x = &ds->rows[cand[j - 1]], *y = &ds->rows[g[i]];
				bool after = x->minutes > y->minutes ||
					     (x->minutes == y->minutes && !bf_faster(ds, g[i], cand[j - 1]));
				if (after)
					break;
				cand[j] = cand[j - 1];
			}
			cand[j] = g[i];
		}
		assert_int_equal(gr->ncand, nc);
		for (size_t c = 0; c < nc; c++)
			assert_int_equal(gr->cand[c].row, cand[c]);
		size_t ref = pinned >= 0 ? (size_t)pinned
					 : cand[rule == RULE_FASTEST ? nc - 1 : rule == RULE_MEDIAN ? nc / 2 : 0];
		assert_int_equal(gr->ref, (long)ref);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(a->rows[at[i]].ref, ref);
		/* the bracket against the group's reference, and the row giving its lower end */
		bool alone = n == 1 && g[0] == ref;
		struct be_bracket b = bf_bracket(ds, g, n, ref, theta, alone, &lo_row);
		if (!same_bracket(&gr->be, &b))
			fail_msg("group %zu theta %g: bracket kind %d %ld..%ld beyond %d, by definition "
				 "kind %d %ld..%ld beyond %d", k, theta, (int)gr->be.kind, gr->be.lo,
				 gr->be.hi, (int)gr->be.beyond, (int)b.kind, b.lo, b.hi, (int)b.beyond);
		assert_int_equal(gr->be_row, lo_row);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(a->rows[at[i]].be, (long)a->rows[at[i]].row == lo_row);
		/* firm, loose and the range */
		long firm = alone ? -1 : bf_end(ds, a, at, n, theta, 1);
		long loose = alone ? -1 : bf_end(ds, a, at, n, theta, 2);
		long rlo = -1, rhi = -1;
		assert_int_equal(gr->firm, firm);
		assert_int_equal(gr->loose, loose);
		for (int e = 0; e < 3; e++) {
			long v = e == 0 ? b.lo : e == 1 ? firm : loose;
			if (v >= 0 && (rlo < 0 || v < rlo))
				rlo = v;
			if (v > rhi)
				rhi = v;
		}
		assert_int_equal(gr->range_lo, rlo);
		assert_int_equal(gr->range_hi, rhi);
		assert_true(gr->range_lo <= gr->range_hi);
		/* every candidate's bracket and the sensitivity */
		long slo = -1, shi = -1;
		for (size_t c = 0; c < nc; c++) {
			long row;
			struct be_bracket cb = bf_bracket(ds, g, n, cand[c], theta, n == 1, &row);
			if (!same_bracket(&gr->cand[c].b, &cb))
				fail_msg("group %zu candidate %zu theta %g: kind %d %ld..%ld, by definition "
					 "kind %d %ld..%ld", k, c, theta, (int)gr->cand[c].b.kind,
					 gr->cand[c].b.lo, gr->cand[c].b.hi, (int)cb.kind, cb.lo, cb.hi);
			if (cb.lo >= 0 && (slo < 0 || cb.lo < slo))
				slo = cb.lo;
			if (cb.lo > shi)
				shi = cb.lo;
		}
		assert_int_equal(gr->sens_lo, slo);
		assert_int_equal(gr->sens_hi, shi);
		/* nothing from another family */
		if (gr->family) {
			if (gr->be_row >= 0)
				assert_string_equal(ds->rows[gr->be_row].family, gr->family);
			assert_string_equal(ds->rows[gr->ref].family, gr->family);
			for (size_t c = 0; c < gr->ncand; c++)
				assert_string_equal(ds->rows[gr->cand[c].row].family, gr->family);
			for (int e = 0; e < 2; e++) {
				long v = e ? gr->range_hi : gr->range_lo;
				bool own = v < 0;
				for (size_t i = 0; i < n && !own; i++)
					own = (long)ds->rows[g[i]].accelerators == v;
				assert_true(own);
			}
		}
	}
	assert_int_equal(covered, a->n);
	free(g);
	free(at);
	free(cand);
}

/* The trend's run (brackets_only) gives a's references and brackets, group by group. */
static void expect_same_brackets(const struct dataset *ds, const struct params *p,
				 const struct analysis *a)
{
	struct params q = *p;
	struct analysis b = {0};

	q.brackets_only = true;
	run_ok(ds, &q, &b);
	assert_int_equal(b.ngroups, a->ngroups);
	for (size_t g = 0; g < a->ngroups; g++) {
		const struct group *x = &a->groups[g], *y = &b.groups[g];
		assert_int_equal(y->ref, x->ref);
		assert_int_equal(y->nrows, x->nrows);
		assert_int_equal(y->be.kind, x->be.kind);
		assert_int_equal(y->be.lo, x->be.lo);
		assert_int_equal(y->be.hi, x->be.hi);
		assert_int_equal(y->be.beyond, x->be.beyond);
		assert_int_equal(y->be_row, x->be_row);
	}
	analysis_free(&b);
}

static void test_bracket_property(void **state)
{
	static const double thetas[] = {0.5, 0.8, 1.2};
	struct spec s[24];
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	struct rng r;
	size_t kinds[BE_BRACKET + 1] = {0}, beyond = 0, npinned = 0;

	(void)state;
	rng_seed(&r, 2112);
	for (int it = 0; it < 250; it++) {
		size_t n = bracket_specs(s, sizeof s / sizeof s[0], &r);
		analysis_free(&a); /* the intervals it keeps are of the dataset before */
		build(&ds, s, n);
		base_params(&p);
		p.k = 1;
		for (int mode = 0; mode < 2; mode++)
			for (int rule = 0; rule < RULE_COUNT; rule++)
				for (size_t t = 0; t < 3; t++) {
					p.mode = mode ? REF_FAMILY : REF_PAPER;
					p.ref_rule = (enum ref_rule)rule;
					run_theta(&ds, &p, &a, thetas[t]);
					/* every interval drawn: the lazily computed ends are the ones
					 * every interval gives */
					assert_int_equal(analysis_intervals(&ds, &a, 0, a.n, NULL), 0);
					check_groups_brute(&ds, &a, p.mode, p.ref_rule, -1, thetas[t]);
					expect_same_brackets(&ds, &p, &a);
					for (size_t g = 0; g < a.ngroups; g++) {
						kinds[a.groups[g].be.kind]++;
						beyond += a.groups[g].be.kind == BE_CENSORED && a.groups[g].be.beyond;
					}
				}
		/* pinned to a row whose submitter/system names it alone */
		for (size_t i = 0; i < n; i++) {
			char name[32];
			size_t same = 0;
			for (size_t j = 0; j < n; j++)
				same += strcmp(s[i].sys, s[j].sys) == 0 && strcmp(s[i].sub, s[j].sub) == 0;
			if (same > 1)
				continue;
			snprintf(name, sizeof name, "%s/%s", s[i].sub, s[i].sys);
			p.mode = REF_PINNED;
			p.pinned = name;
			for (size_t t = 0; t < 3; t++) {
				run_theta(&ds, &p, &a, thetas[t]);
				assert_int_equal(analysis_intervals(&ds, &a, 0, a.n, NULL), 0);
				check_groups_brute(&ds, &a, REF_PINNED, RULE_SLOWEST, (long)i, thetas[t]);
				npinned++;
			}
			break;
		}
		p.pinned = NULL;
		unbuild(&ds);
	}
	assert_true(npinned > 0);
	/* the data reached every kind */
	for (int k = BE_ONE_ROW; k <= BE_BRACKET; k++)
		assert_true(kinds[k] > 0);
	print_message("# groups: one row %zu, none %zu, censored %zu (%zu beyond), bracket %zu\n",
		      kinds[BE_ONE_ROW], kinds[BE_NONE], kinds[BE_CENSORED], beyond, kinds[BE_BRACKET]);
	assert_true(beyond > 0 && beyond < kinds[BE_CENSORED]);
	analysis_free(&a);
}

/* ---- the fit verdict ---- */

/* Minutes of the law X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)), X per hour. */
static double usl_minutes(double n, double lambda, double sigma, double kappa)
{
	return 60 / (lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)));
}

/* The shown row of a furthest off its fitted E' (largest |ln(E'/fitted)|) among family fam. */
static const struct arow *worst_of(const struct dataset *ds, const struct analysis *a,
				   const char *fam)
{
	const struct arow *w = NULL;
	double off = -1;

	for (size_t i = 0; i < a->n; i++) {
		const struct arow *o = &a->rows[i];
		double d = fabs(log(o->Ep / o->ep_fit));
		if (strcmp(ds->rows[o->row].family, fam) == 0 && d > off) {
			off = d;
			w = o;
		}
	}
	return w;
}

static void test_fit_verdict(void **state)
{
	static const double ns[] = {1, 1, 2, 4, 8, 16, 32, 64, 128};
	static char names[2][9][24];
	struct spec s[18];
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	const struct fam_fit *ff;
	const struct arow *w, *o;

	(void)state;
	/* G and H follow the law; the second N 1 row of each is 5% slower (the reference), so
	 * that the E' are on an observed reference, not the law's */
	for (size_t f = 0; f < 2; f++)
		for (size_t i = 0; i < 9; i++) {
			struct spec *x = &s[f * 9 + i];
			snprintf(names[f][i], sizeof names[f][i], "%c%zu_%gx", f ? 'h' : 'g', i, ns[i]);
			memset(x, 0, sizeof *x);
			x->sys = names[f][i];
			x->sub = "S";
			x->fam = f ? "H" : "G";
			x->ven = x->avail = "";
			x->div = "closed";
			x->n = (long long)ns[i];
			x->t = usl_minutes(ns[i], f ? 0.4 : 0.5, f ? 0.03 : 0.05, f ? 1e-4 : 2e-4) *
			       (i == 1 ? 1.05 : 1);
		}
	build(&ds, s, 18);
	base_params(&p);
	p.mode = REF_FAMILY;
	p.fit = true;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.nfits, 2);
	for (size_t f = 0; f < 2; f++) {
		ff = &a.fits[f];
		assert_string_equal(ff->family, f ? "H" : "G");
		assert_int_equal(ff->fit.state, FIT_OK);
		assert_int_equal(ff->group, f);
		assert_int_equal(a.groups[f].fit, (long)f);
		assert_true(ff->v.judged);
		assert_true(ff->v.ok);
		/* on the group's reference, the observed one */
		assert_string_equal(ds.rows[a.groups[f].ref].system, names[f][1]);
		assert_true(ff->v.n_ref == 1 && ff->v.t_ref == ds.rows[a.groups[f].ref].minutes);
		w = worst_of(&ds, &a, ff->family);
		assert_true(ff->v.worst_n == w->N && ff->v.worst_obs == w->Ep &&
			    ff->v.worst_fit == w->ep_fit);
		/* the prediction on that reference, at theta, and after theta alone changes */
		const char *why;
		double be = fit_breakeven_on(&ff->fit, 0.8, ff->v.n_ref, ff->v.t_ref, &why);
		assert_true(isfinite(be) && ff->v.be == be);
		assert_int_equal(ff->v.extrapolated, be > ff->fit.n_max);
		assert_int_equal(analysis_breakeven(&ds, &a, 0.3, NULL), 0);
		be = fit_breakeven_on(&ff->fit, 0.3, ff->v.n_ref, ff->v.t_ref, &why);
		assert_true(ff->v.be == be || (isnan(be) && isnan(ff->v.be)));
		assert_int_equal(ff->v.extrapolated, isfinite(be) && be > ff->fit.n_max);
		assert_int_equal(analysis_breakeven(&ds, &a, 0.8, NULL), 0);
	}
	for (size_t i = 0; i < a.n; i++) {
		o = &a.rows[i];
		const struct row *rf = &ds.rows[o->ref];
		ff = analysis_fam_fit_of(&ds, &a, o->row);
		assert_non_null(ff);
		assert_true(o->ep_fit == rf->minutes / fit_t(&ff->fit, o->N) * (double)rf->accelerators / o->N);
		assert_true(fabs(o->Ep / o->ep_fit - 1) <= FIT_VERDICT_TOL);
	}
	/* H's N 16 row 30% slower and no interval: H is poor, and that row is the one named; G
	 * is still ok */
	ds.rows[9 + 5].minutes *= 1.3;
	run_ok(&ds, &p, &a);
	ff = &a.fits[1];
	o = find(&ds, &a, names[1][5]);
	assert_true(isnan(CI(&a, o)->ep_lo));
	assert_true(fabs(o->Ep / o->ep_fit - 1) > FIT_VERDICT_TOL);
	assert_true(fit_usable(&ff->fit));
	assert_true(ff->v.judged);
	assert_false(ff->v.ok);
	assert_ptr_equal(worst_of(&ds, &a, "H"), o);
	assert_true(ff->v.worst_n == 16);
	assert_true(ff->v.worst_obs == o->Ep);
	assert_true(ff->v.worst_fit == o->ep_fit);
	assert_true(o->ep_fit == ds.rows[o->ref].minutes / fit_t(&ff->fit, 16) * 1 / 16.0);
	assert_true(a.fits[0].v.ok);
	{
		/* and the words say so: that row's N, observed and fitted E' */
		char b[200], want[200];
		snprintf(want, sizeof want, "poor fit: worst N=16 observed %.2f, fitted %.2f", o->Ep,
			 o->ep_fit);
		assert_string_equal(describe_verdict(ff, b, sizeof b), want);
		assert_string_equal(describe_verdict(&a.fits[0], b, sizeof b), "ok");
	}
	/* the same row with runs whose interval holds the fitted E': within its own interval (a
	 * fresh analysis: the intervals kept are those of the rows before) */
	analysis_free(&a);
	unbuild(&ds);
	s[9 + 5].t *= 1.3;
	s[9 + 5].nruns = 5;
	for (unsigned j = 0; j < 5; j++)
		s[9 + 5].runs[j] = s[9 + 5].t * (0.6 + 0.1 * j);
	build(&ds, s, 18);
	run_ok(&ds, &p, &a);
	ff = &a.fits[1];
	o = find(&ds, &a, names[1][5]);
	assert_true(fabs(o->Ep / o->ep_fit - 1) > FIT_VERDICT_TOL);
	assert_true(CI(&a, o)->ep_lo <= o->ep_fit && o->ep_fit <= CI(&a, o)->ep_hi);
	assert_true(ff->v.ok);
	assert_true(ff->v.worst_n == 16); /* still the furthest off, if within its interval */
	/* another row 50% slower, without an interval: poor again, and that row is named */
	ds.rows[9 + 6].minutes *= 1.5;
	run_ok(&ds, &p, &a);
	assert_false(a.fits[1].v.ok);
	assert_true(a.fits[1].v.worst_n == 32);
	analysis_free(&a);
	unbuild(&ds);
}

/* x and y the same double, NAN alike */
static bool same_bits(double x, double y)
{
	return memcmp(&x, &y, sizeof x) == 0;
}

/* A run without the fit, its fits added afterwards (the explorer's export), has every row's
 * fitted E' and residual of a run with the fit, in any order the rows have been ranked in;
 * dropped, it is the run without the fit again. */
static void test_fits_add_drop(void **state)
{
	struct dataset ds;
	struct params p, pf;
	struct analysis a = {0}, b = {0};
	(void)state;

	build(&ds, base, NBASE);
	for (int v = 0; v < 4; v++) {
		base_params(&p);
		p.mode = v % 2 ? REF_FAMILY : REF_PAPER;
		p.workload = v < 2 ? "bert" : NULL;
		p.sort = COL_T; /* ranked otherwise than the fits group their points */
		pf = p;
		pf.fit = true;
		run_ok(&ds, &p, &a);
		run_ok(&ds, &pf, &b);
		assert_int_equal(a.nfits, 0);
		assert_true(b.nfits > 0);
		assert_int_equal(analysis_fits_add(&ds, &a, NULL), 0);
		assert_int_equal(a.nfits, b.nfits);
		assert_int_equal(a.n, b.n);
		size_t filled = 0;
		for (size_t i = 0; i < a.n; i++) {
			assert_int_equal(a.rows[i].row, b.rows[i].row);
			assert_true(same_bits(a.rows[i].ep_fit, b.rows[i].ep_fit));
			assert_true(same_bits(a.rows[i].fit_resid, b.rows[i].fit_resid));
			filled += !isnan(a.rows[i].ep_fit);
		}
		assert_true(filled > 0);
		for (size_t g = 0; g < a.ngroups; g++)
			assert_int_equal(a.groups[g].fit, b.groups[g].fit);
		/* a second add keeps what is there */
		struct fam_fit *had = a.fits;
		assert_int_equal(analysis_fits_add(&ds, &a, NULL), 0);
		assert_ptr_equal(a.fits, had);
		analysis_fits_drop(&a);
		assert_null(a.fits);
		assert_int_equal(a.nfits, 0);
		for (size_t g = 0; g < a.ngroups; g++)
			assert_int_equal(a.groups[g].fit, -1);
		for (size_t i = 0; i < a.n; i++)
			assert_true(isnan(a.rows[i].ep_fit) && isnan(a.rows[i].fit_resid));
	}
	analysis_free(&a);
	analysis_free(&b);
	unbuild(&ds);
}

/* ---- ranking ---- */

static void expect_order(const struct dataset *ds, const struct analysis *a,
			 const char *const *want, size_t n)
{
	assert_int_equal(a->n, n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(sys_at(ds, a, i), want[i]) != 0)
			fail_msg("rank %zu: %s, expected %s", i, sys_at(ds, a, i), want[i]);
}

/* A run that ranks nothing (params.unranked) leaves the rows in the order collected, with
 * every metric and flag the ranked run gives each row; analysis_rank_cmp orders every pair
 * of neighbours of every ranking as analysis_sort put them, ties included (rows equal in
 * every number, told apart by system id, submitter, row). */
static void test_unranked_is_ranked(void **state)
{
	enum { N = 400 };
	struct spec s[N];
	static char names[N][16];
	static const char *const subs[] = { "Sub A", "Sub B", "Sub C" };
	static const char *const fams[] = { "H100", "A100", "MI300X" };
	struct dataset ds;
	struct params p;
	struct analysis a = { 0 }, u = { 0 };

	(void)state;
	for (int i = 0; i < N; i++) {
		/* many rows alike: N and T from few values, names repeated under other submitters */
		snprintf(names[i], sizeof names[i], "s%03d", i % 150);
		s[i] = (struct spec){ names[i], subs[i % 3], fams[(i / 7) % 3], "V", "available", "closed",
				      1LL << (i % 6), 10.0 + (double)((i * 37) % 11), 0, 0, { 0 }, 0, 0 };
	}
	build(&ds, s, N);
	base_params(&p);
	for (int mode = 0; mode < 2; mode++) {
		p.mode = mode % 2 ? REF_PAPER : REF_FAMILY;
		for (int c = 0; c < COL_COUNT; c++)
			for (int desc = 0; desc < 2; desc++) {
				p.sort = (enum col)c;
				p.desc = desc;
				p.unranked = false;
				run_ok(&ds, &p, &a);
				for (size_t i = 0; i + 1 < a.n; i++)
					assert_true(analysis_rank_cmp(&ds, &a, p.sort, p.desc, i, i + 1) < 0);
				p.unranked = true;
				run_ok(&ds, &p, &u);
				assert_int_equal(u.n, a.n);
				assert_int_equal(u.npareto, a.npareto);
				for (size_t i = 1; i < u.n; i++)
					assert_true(u.rows[i - 1].row < u.rows[i].row);
				for (size_t i = 0; i < a.n; i++) {
					const struct arow *x = &a.rows[i], *y = NULL;
					for (size_t j = 0; j < u.n && !y; j++)
						if (u.rows[j].row == x->row)
							y = &u.rows[j];
					assert_non_null(y);
					assert_memory_equal(&x->T, &y->T, offsetof(struct arow, row));
					assert_int_equal(x->ref, y->ref);
					assert_int_equal(x->cluster, y->cluster);
					assert_int_equal(x->pareto, y->pareto);
					assert_int_equal(x->be, y->be);
				}
				for (size_t g = 0; g < a.ngroups; g++) {
					assert_int_equal(a.groups[g].be.kind, u.groups[g].be.kind);
					assert_int_equal(a.groups[g].be.lo, u.groups[g].be.lo);
					assert_int_equal(a.groups[g].be.hi, u.groups[g].be.hi);
					assert_int_equal(a.groups[g].be_row, u.groups[g].be_row);
				}
			}
	}
	analysis_free(&a);
	analysis_free(&u);
	unbuild(&ds);
}

static void test_ranking(void **state)
{
	static const char *const ep_desc[] = {"c_8x", "b_2x", "d_64x", "a_2x", "e_8x", "f_16x"};
	static const char *const ep_asc[] = {"f_16x", "a_2x", "e_8x", "d_64x", "b_2x", "c_8x"};
	static const char *const spread_desc[] = {"f_16x", "a_2x", "b_2x", "c_8x", "d_64x", "e_8x"};
	static const char *const spread_asc[] = {"a_2x", "f_16x", "b_2x", "c_8x", "d_64x", "e_8x"};
	static const char *const n_asc[] = {"a_2x", "b_2x", "c_8x", "e_8x", "f_16x", "d_64x"};
	static const char *const sys_desc[] = {"f_16x", "e_8x", "d_64x", "c_8x", "b_2x", "a_2x"};
	static const char *const sub_asc[] = {"a_2x", "b_2x", "c_8x", "d_64x", "e_8x", "f_16x"};
	static const char *const fam_asc[] = {"a_2x", "b_2x", "c_8x", "d_64x", "e_8x", "f_16x"};
	static const char *const par_desc[] = {"c_8x", "d_64x", "a_2x", "b_2x", "e_8x", "f_16x"};
	static const char *const t_asc[] = {"d_64x", "f_16x", "c_8x", "e_8x", "b_2x", "a_2x"};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	run_ok(&ds, &p, &a); /* default: E' descending; a and e tie at 1, by system id */
	expect_order(&ds, &a, ep_desc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_EP, false, NULL), 0);
	expect_order(&ds, &a, ep_asc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_SPREAD, true, NULL), 0); /* f 11/50, a 20/360, the rest NAN last */
	expect_order(&ds, &a, spread_desc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_SPREAD, false, NULL), 0);
	expect_order(&ds, &a, spread_asc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_N, false, NULL), 0);
	expect_order(&ds, &a, n_asc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_SYSTEM, true, NULL), 0);
	expect_order(&ds, &a, sys_desc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_SUBMITTER, false, NULL), 0); /* "Krai" < "Sub B" ... case-insensitive */
	expect_order(&ds, &a, sub_asc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_FAMILY, false, NULL), 0);
	expect_order(&ds, &a, fam_asc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_PARETO, true, NULL), 0);
	expect_order(&ds, &a, par_desc, 6);
	assert_int_equal(analysis_sort(&ds, &a, COL_T, false, NULL), 0);
	expect_order(&ds, &a, t_asc, 6);
	p.sort = COL_T;
	p.desc = false;
	run_ok(&ds, &p, &a);
	expect_order(&ds, &a, t_asc, 6);
	/* cluster column: non-decreasing, ties by system id */
	assert_int_equal(analysis_sort(&ds, &a, COL_CLUSTER, false, NULL), 0);
	for (size_t i = 1; i < a.n; i++) {
		assert_true(a.rows[i - 1].cluster <= a.rows[i].cluster);
		if (a.rows[i - 1].cluster == a.rows[i].cluster)
			assert_true(strcmp(sys_at(&ds, &a, i - 1), sys_at(&ds, &a, i)) < 0);
	}
	analysis_free(&a);
	unbuild(&ds);
}

/* ---- run-to-run intervals, break-even range, sensitivity, hygiene ---- */

/* One family, so that E' and Karp-Flatt compare like with like. ref_4x is the reference
 * (fewest accelerators, the slowest of three); two_16x has 2 runs (no interval). */
static const struct spec boot[] = {
	{"ref_4x", "R", "H100", "NVIDIA", "", "closed", 4, 62, 0, 5, {60, 61, 62, 63, 64}, 0, 0},
	{"mid_4x", "M", "H100", "NVIDIA", "", "closed", 4, 61, 0, 3, {59, 61, 63}, 0, 0},
	{"fast_4x", "F", "H100", "NVIDIA", "", "closed", 4, 58, 0, 0, {0}, 0, 0},
	{"x_8x", "X", "H100", "NVIDIA", "", "closed", 8, 32, 0, 5, {30, 31, 32, 33, 34}, 0, 0},
	{"wide_16x", "W", "H100", "NVIDIA", "", "closed", 16, 19, 0, 5, {14, 17, 19, 21, 25}, 0, 0},
	{"two_16x", "T", "H100", "NVIDIA", "", "closed", 16, 16.5, 0, 2, {16, 17}, 0, 0},
	{"sf_32x", "S", "H100", "NVIDIA", "", "closed", 32, 10, 1.25, 4, {7, 8, 8, 9}, 0, 0},
};
#define NBOOT (sizeof boot / sizeof boot[0])

/* Two analyses sharing one store of resamples, run in turn as the explorer's two buffers are,
 * with a new pinned reference each time, give the intervals of a fresh analysis; with more
 * rows than the store keeps resamples of (2048), so that some are drawn again. */
static void test_intervals_shared_store(void **state)
{
	enum { NS = 2600 };
	static struct spec r[NS];
	static char names[NS][16];
	struct dataset ds;
	struct params p;
	struct analysis buf[2] = { 0 }, fresh = { 0 };
	(void)state;

	for (size_t i = 0; i < NS; i++) {
		double t = 100.0 / (double)(1 + i % 64) + (double)(i % 7);
		snprintf(names[i], sizeof names[i], "s%04zu", i);
		r[i] = (struct spec){ names[i], "S", "H100", "NVIDIA", "", "closed", (long long)(1 + i % 64),
				      t, 0, 3 + (unsigned)(i % 3), { t * 0.97, t * 0.99, t, t * 1.02, t * 1.05 }, 0, 0 };
	}
	build(&ds, r, NS);
	base_params(&p);
	p.mode = REF_PINNED;
	assert_int_equal(analysis_share_boot(&buf[1], &buf[0]), 0);
	static const char *const pins[] = { "s0000", "s0064", "s0001", "s0000", "s2599" };
	for (size_t k = 0; k < sizeof pins / sizeof pins[0]; k++) {
		struct analysis *a = &buf[k % 2];
		p.pinned = pins[k];
		run_all(&ds, &p, a);
		run_all(&ds, &p, &fresh);
		assert_int_equal(a->n, fresh.n);
		for (size_t i = 0; i < a->n; i++) {
			const struct arow *x = &a->rows[i], *y = &fresh.rows[i];
			assert_int_equal(x->row, y->row);
			assert_memory_equal(&CI(a, x)->t_lo, &CI(&fresh, y)->t_lo, sizeof(double));
			assert_memory_equal(&CI(a, x)->t_hi, &CI(&fresh, y)->t_hi, sizeof(double));
			assert_memory_equal(&CI(a, x)->s_lo, &CI(&fresh, y)->s_lo, sizeof(double));
			assert_memory_equal(&CI(a, x)->s_hi, &CI(&fresh, y)->s_hi, sizeof(double));
			assert_memory_equal(&CI(a, x)->ep_lo, &CI(&fresh, y)->ep_lo, sizeof(double));
			assert_memory_equal(&CI(a, x)->ep_hi, &CI(&fresh, y)->ep_hi, sizeof(double));
		}
		analysis_free(&fresh);
		memset(&fresh, 0, sizeof fresh);
	}
	/* either may go first: the store lives until the last */
	analysis_free(&buf[0]);
	p.pinned = pins[1];
	run_all(&ds, &p, &buf[1]);
	analysis_free(&buf[1]);
	unbuild(&ds);
}

/* a and b, two analyses of the same dataset, agree on every shown row and every group. */
static void expect_same_analysis(const struct analysis *a, const struct analysis *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->total, b->total);
	assert_int_equal(a->ref, b->ref);
	assert_int_equal(a->ngroups, b->ngroups);
	assert_int_equal(a->nfits, b->nfits);
	assert_int_equal(a->k, b->k);
	assert_int_equal(a->npareto, b->npareto);
	assert_memory_equal(&a->inertia, &b->inertia, sizeof(double));
	assert_true(a->round == b->round && a->workload == b->workload);
	for (size_t i = 0; i < a->n; i++) {
		const struct arow *x = &a->rows[i], *y = &b->rows[i];
		assert_int_equal(x->row, y->row);
		assert_int_equal(x->ref, y->ref);
		assert_int_equal(x->group, y->group);
		assert_int_equal(x->cluster, y->cluster);
		assert_true(x->be == y->be && x->pareto == y->pareto && x->is_ref == y->is_ref);
		assert_memory_equal(&x->T, &y->T, 6 * sizeof(double)); /* T N A S E Ep */
		assert_memory_equal(&x->ep_fit, &y->ep_fit, sizeof(double));
	}
	for (size_t g = 0; g < a->ngroups; g++) {
		assert_int_equal(a->groups[g].be_row, b->groups[g].be_row);
		assert_true(same_bracket(&a->groups[g].be, &b->groups[g].be));
	}
}

/* analysis_check, then analysis_run on the same analysis (the names check, then the first
 * report): the result is a fresh run's, whether the run shows the check's rows or others. */
static void test_check_then_run(void **state)
{
	struct dataset ds;
	struct analysis a = { 0 }, fresh = { 0 };
	struct gs_err err;
	(void)state;

	build(&ds, base, NBASE);
	for (int v = 0; v < 16; v++) {
		struct params chk, run;
		base_params(&chk);
		chk.mode = v % 3 == 0 ? REF_FAMILY : v % 3 == 1 ? REF_PAPER : REF_PINNED;
		chk.pinned = chk.mode == REF_PINNED ? "b_2x" : NULL;
		chk.workload = v % 4 == 3 ? NULL : "bert";
		run = chk;
		/* what only the finish reads: the run may go on from the check */
		run.fit = v % 2;
		run.k = 1 + v % 3;
		run.theta = 0.6 + 0.1 * (v % 3);
		/* what picks the rows: the run must start afresh */
		switch (v / 4) {
		case 1:
			run.filter.families[0] = "H100 SXM";
			run.filter.nfamilies = 1;
			break;
		case 2:
			run.available_only = !run.available_only;
			run.collapse = !run.collapse;
			break;
		case 3:
			run.all_rounds = true;
			run.ref_rule = RULE_FASTEST;
			break;
		}
		memset(&err, 0, sizeof err);
		assert_int_equal(analysis_check(&ds, &chk, &a, &err), 0);
		run_ok(&ds, &run, &a);
		run_ok(&ds, &run, &fresh);
		expect_same_analysis(&a, &fresh);
		/* and a second run on a: the same again */
		run_ok(&ds, &run, &a);
		expect_same_analysis(&a, &fresh);
		analysis_free(&fresh);
		memset(&fresh, 0, sizeof fresh);
		base_params(&chk); /* the lists are shared: empty them again */
	}
	analysis_free(&a);
	unbuild(&ds);
}

/* analysis_drop_draws between runs (as a report does between workloads): the rows whose
 * resamples were let go are drawn again for a new reference, to the same bits as a fresh
 * analysis; with more rows than the store keeps, so that reused and round-robin slots mix. */
static void test_drop_draws(void **state)
{
	enum { NS = 2600 };
	static struct spec r[NS];
	static char names[NS][16];
	struct dataset ds;
	struct params p;
	struct analysis a = { 0 }, fresh = { 0 };
	(void)state;

	for (size_t i = 0; i < NS; i++) {
		double t = 90.0 / (double)(1 + i % 50) + (double)(i % 5);
		snprintf(names[i], sizeof names[i], "d%04zu", i);
		r[i] = (struct spec){ names[i], "S", "H100", "NVIDIA", "", "closed", (long long)(1 + i % 50),
				      t, 0, 3 + (unsigned)(i % 3), { t * 0.96, t * 0.99, t, t * 1.01, t * 1.04 }, 0, 0 };
	}
	build(&ds, r, NS);
	base_params(&p);
	p.mode = REF_PINNED;
	analysis_drop_draws(&a); /* nothing kept yet: nothing to do */
	static const char *const pins[] = { "d0000", "d0050", "d0001", "d0000", "d2599", "d0007" };
	for (size_t k = 0; k < sizeof pins / sizeof pins[0]; k++) {
		p.pinned = pins[k];
		if (k % 2)
			analysis_drop_draws(&a);
		run_all(&ds, &p, &a);
		run_all(&ds, &p, &fresh);
		assert_int_equal(a.n, fresh.n);
		for (size_t i = 0; i < a.n; i++) {
			const struct arow *x = &a.rows[i], *y = &fresh.rows[i];
			assert_int_equal(x->row, y->row);
			assert_memory_equal(&CI(&a, x)->t_lo, &CI(&fresh, y)->t_lo, sizeof(double));
			assert_memory_equal(&CI(&a, x)->t_hi, &CI(&fresh, y)->t_hi, sizeof(double));
			assert_memory_equal(&CI(&a, x)->ep_lo, &CI(&fresh, y)->ep_lo, sizeof(double));
			assert_memory_equal(&CI(&a, x)->ep_hi, &CI(&fresh, y)->ep_hi, sizeof(double));
		}
		analysis_free(&fresh);
		memset(&fresh, 0, sizeof fresh);
	}
	analysis_free(&a);
	unbuild(&ds);
}

/* T order with the tie-break, for the plain scan below. */
static const struct dataset *scan_ds;
static const struct analysis *scan_a;
static int scan_cmp(const void *pa, const void *pb)
{
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	const struct arow *ox = &scan_a->rows[x], *oy = &scan_a->rows[y];
	int c = analysis_cmp_num(ox->T, oy->T, 1);

	return c ? c : analysis_cmp_tie(&scan_ds->rows[ox->row], ox->row, &scan_ds->rows[oy->row], oy->row);
}

/* The plain, firm and loose lower ends of every group are what a scan of each group's rows in
 * T order gives, testing every row (the break-even passes over rows that can reach theta
 * neither by E' nor by any resample): rows with too few runs, with a run of 0 (no spread), with
 * every run above or below T, scaled runs, over thetas, reference rules and modes. */
static void test_breakeven_scan_is_plain(void **state)
{
	enum { NS = 240 };
	static struct spec r[NS];
	static char names[NS][16];
	static const char *const fams[] = { "H100", "A100", "B200" };
	struct dataset ds;
	struct params p;
	struct analysis a = { 0 }, b = { 0 };
	uint64_t x = 99;
	(void)state;

	for (size_t i = 0; i < NS; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned u = (unsigned)(x >> 33);
		long long n = (long long)1 << (u % 8);
		/* E' spread around 1 against a 1-accelerator reference of 100 min */
		double t = 100.0 / (double)n * (0.4 + (double)(u % 97) / 60.0);
		snprintf(names[i], sizeof names[i], "s%03zu", i);
		r[i] = (struct spec){ names[i], i % 2 ? "A" : "B", fams[i % 3], "V", "", "closed", n, t,
				      u % 11 == 0 ? 1.1 : 0, 3 + u % 3,
				      { t * 0.9, t, t * 1.15, t * 0.97, t * 1.05 }, 0, 0 };
		if (u % 13 == 1)
			r[i].nruns = 2; /* no interval */
		if (u % 17 == 2)
			r[i].runs[1] = 0; /* no spread (t_lo unknown) */
		if (u % 19 == 3)
			for (int k = 0; k < 5; k++)
				r[i].runs[k] = t * (1.2 + 0.1 * k); /* every run above T */
		if (u % 23 == 4)
			for (int k = 0; k < 5; k++)
				r[i].runs[k] = t * (0.5 + 0.1 * k); /* every run below T */
	}
	/* the references: N 1 in each family, the slowest by far */
	for (size_t f = 0; f < 3; f++) {
		r[f].n = 1;
		r[f].t = 100;
		r[f].nruns = 5;
		for (int k = 0; k < 5; k++)
			r[f].runs[k] = 95 + 3 * k;
	}
	/* a family of its own where only a row with a run of 0 can reach a high theta: by its
	 * resamples (two or three of its five draws at 0 make it 1.5 or 3 times as fast) */
	static const struct { long long n; double ep; bool zero; } own[] = {
		{ 1, 1, false }, { 8, 0.5, false }, { 4, 0.45, true }, { 2, 0.6, false },
	};
	for (size_t q = 0; q < 4; q++) {
		struct spec *o = &r[NS - 4 + q];
		double t = q == 0 ? 100 : 100.0 / (double)own[q].n / own[q].ep;
		*o = (struct spec){ o->sys, "Z", "X1", "V", "", "closed", own[q].n, t, 0, 5,
				    { t * 0.95, own[q].zero ? 0 : t, t, t * 1.02, t * 1.05 }, 0, 0 };
	}
	build(&ds, r, NS);
	base_params(&p);
	for (int step = 0; step < 30; step++) {
		p.mode = step % 2 ? REF_FAMILY : REF_PAPER;
		p.ref_rule = (enum ref_rule)(step % RULE_COUNT);
		p.theta = 0.3 + 0.05 * (step % 19);
		run_ok(&ds, &p, &a);
		scan_ds = &ds;
		scan_a = &a;
		for (size_t g = 0; g < a.ngroups; g++) {
			size_t *ord = malloc(a.n * sizeof *ord), m = 0;
			long plain = -1, be_row = -1, firm = -1, loose = -1;
			assert_non_null(ord);
			for (size_t i = 0; i < a.n; i++)
				if (a.rows[i].group == g)
					ord[m++] = i;
			qsort(ord, m, sizeof *ord, scan_cmp);
			bool alone = m == 1 && a.groups[g].ref >= 0 && a.rows[ord[0]].row == (size_t)a.groups[g].ref;
			for (size_t j = 0; j < m && !alone; j++) {
				const struct arow *o = &a.rows[ord[j]];
				bool fi = false, lo = false;
				assert_int_equal(boot_range_test(&ds, &a, ord[j], p.theta, true, &fi, &lo), 0);
				if (plain < 0 && o->Ep >= p.theta) {
					plain = (long)o->N;
					be_row = (long)o->row;
				}
				if (firm < 0 && fi)
					firm = (long)o->N;
				if (loose < 0 && lo)
					loose = (long)o->N;
			}
			assert_int_equal(a.groups[g].be_row, be_row);
			assert_int_equal(a.groups[g].firm, firm);
			assert_int_equal(a.groups[g].loose, loose);
			assert_false(a.groups[g].range_open);
			free(ord);
		}
		/* the range left open (the explorer's way) and settled step by step is the same,
		 * a step drawing at most one row's interval */
		struct params q = p;
		q.range_later = true;
		run_ok(&ds, &q, &b);
		for (size_t g = 0; g < b.ngroups; g++) {
			int rc, steps = 0;
			assert_true(b.groups[g].range_open);
			assert_int_equal(b.groups[g].be_row, a.groups[g].be_row);
			while ((rc = analysis_range_step(&ds, &b, g, q.theta)) == 1)
				assert_true(++steps <= (int)b.groups[g].nrows);
			assert_int_equal(rc, 0);
			assert_false(b.groups[g].range_open);
			assert_int_equal(b.groups[g].firm, a.groups[g].firm);
			assert_int_equal(b.groups[g].loose, a.groups[g].loose);
			assert_int_equal(b.groups[g].range_lo, a.groups[g].range_lo);
			assert_int_equal(b.groups[g].range_hi, a.groups[g].range_hi);
		}
	}
	analysis_free(&a);
	analysis_free(&b);
	unbuild(&ds);
}

/* Family mode with many families (more than the family table's first size), each family's
 * text at several addresses (equal text is one family) and the rows in no order: one group a
 * family in name order, each with its own count, its slowest fewest-accelerator row as the
 * reference of every row in it. */

static void test_family_groups_many(void **state)
{
	enum { NS = 600, NF = 97 };
	static struct spec r[NS];
	static char names[NS][16], fams[NS][16];
	struct dataset ds;
	struct params p;
	struct analysis a = { 0 };
	(void)state;

	for (size_t i = 0; i < NS; i++) {
		size_t f = (i * 37) % NF; /* a row's own copy of its family's text */
		snprintf(fams[i], sizeof fams[i], "F%02u", (unsigned)f);
		snprintf(names[i], sizeof names[i], "s%03zu", (i * 7) % NS);
		double t = 10.0 + (double)((i * 13) % 29) + (double)i / 1024; /* no two alike */
		r[i] = (struct spec){ names[i], i % 2 ? "A" : "B", fams[i], "V", "", "closed",
				      (long long)1 << (i % 4), t, 0, 0, { 0 }, 0, 0 };
	}
	build(&ds, r, NS);
	base_params(&p);
	p.mode = REF_FAMILY;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, NS);
	assert_int_equal(a.ngroups, NF);
	for (size_t g = 0; g < a.ngroups; g++) {
		char want[16];
		snprintf(want, sizeof want, "F%02u", (unsigned)g); /* name order is number order here */
		assert_non_null(a.groups[g].family);
		assert_string_equal(a.groups[g].family, want);
		size_t count = 0;
		long ref = -1;
		for (size_t i = 0; i < NS; i++) {
			const struct row *x = &ds.rows[i];
			if (strcmp(x->family, want) != 0)
				continue;
			count++;
			/* the rule within the family: fewest accelerators, then slowest */
			const struct row *b = ref < 0 ? NULL : &ds.rows[ref];
			if (!b || x->accelerators < b->accelerators ||
			    (x->accelerators == b->accelerators && x->minutes > b->minutes))
				ref = (long)i;
		}
		assert_int_equal(a.groups[g].nrows, count);
		assert_int_equal(a.groups[g].ref, ref);
	}
	for (size_t i = 0; i < a.n; i++) {
		const struct arow *o = &a.rows[i];
		assert_true(o->group < a.ngroups);
		assert_string_equal(a.groups[o->group].family, ds.rows[o->row].family);
		assert_int_equal((long)o->ref, a.groups[o->group].ref);
	}
	analysis_free(&a);
	unbuild(&ds);
}

static void test_intervals(void **state)
{
	struct dataset ds, rev;
	struct spec r[NBOOT];
	struct params p;
	struct analysis a = {0}, b = {0};
	const struct arow *o;

	(void)state;
	build(&ds, boot, NBOOT);
	base_params(&p);
	run_all(&ds, &p, &a);
	assert_string_equal(ds.rows[a.ref].system, "ref_4x");
	/* the reference against itself: exactly 1 in every resample */
	o = find(&ds, &a, "ref_4x");
	assert_true(CI(&a, o)->ep_lo == 1.0 && CI(&a, o)->ep_hi == 1.0);
	assert_true(CI(&a, o)->s_lo == 1.0 && CI(&a, o)->s_hi == 1.0);
	assert_int_equal(CI(&a, o)->runs, 5);
	/* fewer than 3 runs: none */
	for (size_t i = 0; i < a.n; i++) {
		o = &a.rows[i];
		const struct row *w = &ds.rows[o->row];
		if (w->run_n < 3) {
			assert_true(isnan(CI(&a, o)->t_lo) && isnan(CI(&a, o)->t_hi) && isnan(CI(&a, o)->ep_lo) &&
				    isnan(CI(&a, o)->ep_hi) && isnan(CI(&a, o)->s_lo) && isnan(CI(&a, o)->a_hi));
			assert_int_equal(CI(&a, o)->runs, 0);
			continue;
		}
		/* every resampled score lies within the scaled runs; A and E' follow T and S */
		double sf = w->scaling_factor;
		const double *run = ds.runs + w->run_off;
		assert_true(CI(&a, o)->t_lo >= run[0] * sf && CI(&a, o)->t_hi <= run[w->run_n - 1] * sf);
		assert_true(CI(&a, o)->t_lo <= CI(&a, o)->t_hi && CI(&a, o)->ep_lo <= CI(&a, o)->ep_hi);
		NEAR(CI(&a, o)->a_lo, o->N * CI(&a, o)->t_lo / 60);
		NEAR(CI(&a, o)->ep_hi, CI(&a, o)->s_hi * 4 / o->N);
		assert_int_equal(CI(&a, o)->runs, w->run_n);
	}
	/* the spread of the runs shows: the wide row's interval is wider than the narrow one's */
	o = find(&ds, &a, "wide_16x");
	double wide = (CI(&a, o)->t_hi - CI(&a, o)->t_lo) / o->T;
	o = find(&ds, &a, "x_8x");
	assert_true(wide > (CI(&a, o)->t_hi - CI(&a, o)->t_lo) / o->T);
	assert_true(CI(&a, o)->t_lo < o->T && o->T < CI(&a, o)->t_hi);

	/* deterministic, and independent of row order and of what was computed before */
	for (size_t i = 0; i < NBOOT; i++)
		r[i] = boot[NBOOT - 1 - i];
	build(&rev, r, NBOOT);
	run_all(&rev, &p, &b);
	for (size_t i = 0; i < a.n; i++) {
		const struct arow *x = &a.rows[i];
		const struct arow *y = find(&rev, &b, ds.rows[x->row].system);
		assert_memory_equal(&CI(&a, x)->t_lo, &CI(&b, y)->t_lo, sizeof(double));
		assert_memory_equal(&CI(&a, x)->t_hi, &CI(&b, y)->t_hi, sizeof(double));
		assert_memory_equal(&CI(&a, x)->ep_lo, &CI(&b, y)->ep_lo, sizeof(double));
		assert_memory_equal(&CI(&a, x)->ep_hi, &CI(&b, y)->ep_hi, sizeof(double));
	}
	/* a new reference (the slowest hidden by the rule): the rows' E' intervals are drawn
	 * again against it, the same as in a fresh analysis */
	p.ref_rule = RULE_FASTEST;
	run_all(&ds, &p, &a);
	analysis_free(&b);
	run_all(&ds, &p, &b);
	assert_string_equal(ds.rows[a.ref].system, "fast_4x");
	for (size_t i = 0; i < a.n; i++) {
		assert_memory_equal(&CI(&a, &a.rows[i])->ep_lo, &CI(&b, &b.rows[i])->ep_lo, sizeof(double));
		assert_memory_equal(&CI(&a, &a.rows[i])->ep_hi, &CI(&b, &b.rows[i])->ep_hi, sizeof(double));
	}
	/* fast_4x has no runs: it counts as exact, so x_8x's S interval is 58 over its T's */
	o = find(&ds, &a, "x_8x");
	NEAR(CI(&a, o)->s_lo, 58 / CI(&a, o)->t_hi);
	NEAR(CI(&a, o)->s_hi, 58 / CI(&a, o)->t_lo);
	analysis_free(&a);
	analysis_free(&b);
	unbuild(&ds);
	unbuild(&rev);
}

/* The fastest row (ties: system id) of a whose value v(row) is >= theta; N, or -1. */
static long brute_n(const struct dataset *ds, const struct analysis *a, double theta, int which)
{
	long best = -1;

	for (size_t i = 0; i < a->n; i++) {
		const struct arow *o = &a->rows[i];
		bool ci = !isnan(CI(a, o)->ep_lo);
		double v = which == 0 ? o->Ep : which == 1 ? (ci ? CI(a, o)->ep_lo : o->Ep)
							  : (ci ? CI(a, o)->ep_hi : o->Ep);
		if (!(v >= theta))
			continue;
		if (best < 0 || o->T < a->rows[best].T ||
		    (o->T == a->rows[best].T &&
		     strcmp(ds->rows[o->row].system, ds->rows[a->rows[best].row].system) < 0))
			best = (long)i;
	}
	return best < 0 ? -1 : (long)a->rows[best].N;
}

static void test_breakeven_range(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, boot, NBOOT);
	base_params(&p);
	for (double th = 0.5; th <= 1.2; th += 0.05) {
		p.theta = th;
		run_ok(&ds, &p, &a);
		/* the range from the rows drawn lazily, against brute force over every interval */
		assert_int_equal(analysis_intervals(&ds, &a, 0, a.n, NULL), 0);
		const struct group *g = &a.groups[0];
		long plain = brute_n(&ds, &a, th, 0), firm = brute_n(&ds, &a, th, 1);
		long loose = brute_n(&ds, &a, th, 2), lo = -1, hi = -1;
		assert_int_equal(g->be.lo, plain);
		assert_int_equal(g->firm, firm);
		assert_int_equal(g->loose, loose);
		/* the range spans the three, never reversed */
		for (int k = 0; k < 3; k++) {
			long v = k == 0 ? plain : k == 1 ? firm : loose;
			if (v >= 0 && (lo < 0 || v < lo))
				lo = v;
			if (v > hi)
				hi = v;
		}
		assert_int_equal(g->range_lo, lo);
		assert_int_equal(g->range_hi, hi);
		assert_true(g->range_lo <= g->range_hi);
	}
	/* break-even and firm 16: two_16x (E' 0.94, no interval: its E' counts), faster than
	 * wide_16x (E' 62*4/(19*16) = 0.816, interval reaching below 0.8); loose 32: sf_32x, E'
	 * 0.775, but its interval reaches above 0.8. Without two_16x: firm 8. */
	p.theta = 0.8;
	run_all(&ds, &p, &a);
	assert_true(CI(&a, find(&ds, &a, "wide_16x"))->ep_lo < 0.8);
	assert_true(CI(&a, find(&ds, &a, "sf_32x"))->ep_hi >= 0.8);
	assert_int_equal(a.groups[0].be.lo, 16);
	assert_string_equal(be_sys(&ds, &a, 0), "two_16x");
	assert_int_equal(a.groups[0].loose, 32);
	assert_int_equal(a.groups[0].firm, 16);
	assert_int_equal(a.groups[0].range_lo, 16);
	assert_int_equal(a.groups[0].range_hi, 32);
	unbuild(&ds);
	{
		struct spec s5[NBOOT - 1];
		size_t m = 0;
		for (size_t i = 0; i < NBOOT; i++)
			if (strcmp(boot[i].sys, "two_16x") != 0)
				s5[m++] = boot[i];
		build(&ds, s5, m);
	}
	run_ok(&ds, &p, &a);
	assert_int_equal(a.groups[0].be.lo, 16);
	assert_int_equal(a.groups[0].firm, 8);
	assert_int_equal(a.groups[0].loose, 32);
	assert_int_equal(a.groups[0].range_lo, 8);
	assert_int_equal(a.groups[0].range_hi, 32);
	/* theta alone moves them the same way as a full run */
	assert_int_equal(analysis_breakeven(&ds, &a, 1.5, NULL), 0);
	assert_int_equal(a.groups[0].firm, -1);
	assert_int_equal(a.groups[0].loose, -1);
	assert_int_equal(a.groups[0].range_lo, -1);
	assert_int_equal(a.groups[0].range_hi, -1);
	expect_bracket(&a.groups[0].be, BE_NONE, -1, -1, false);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_ref_rule_and_sensitivity(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	static const char *const want[RULE_COUNT] = {"ref_4x", "mid_4x", "fast_4x"};

	(void)state;
	build(&ds, boot, NBOOT);
	base_params(&p);
	for (int rule = 0; rule < RULE_COUNT; rule++) {
		p.ref_rule = (enum ref_rule)rule;
		run_ok(&ds, &p, &a);
		assert_string_equal(ds.rows[a.ref].system, want[rule]);
		assert_int_equal(a.rule, rule);
		/* candidates: the three 4x rows, slowest first, whatever the rule */
		assert_int_equal(a.ncand, 3);
		assert_string_equal(ds.rows[a.cand[0].row].system, "ref_4x");
		assert_string_equal(ds.rows[a.cand[1].row].system, "mid_4x");
		assert_string_equal(ds.rows[a.cand[2].row].system, "fast_4x");
	}
	p.ref_rule = RULE_SLOWEST;
	for (double th = 0.7; th <= 1.0; th += 0.02) {
		long lo = -1, hi = -1;
		struct analysis c = {0};
		p.theta = th;
		run_ok(&ds, &p, &a);
		/* each candidate's N is the break-even of a run pinned to it */
		for (size_t i = 0; i < a.ncand; i++) {
			struct params q = p;
			q.mode = REF_PINNED;
			q.pinned = ds.rows[a.cand[i].row].system;
			run_ok(&ds, &q, &c);
			long n = c.groups[0].be.lo;
			assert_true(same_bracket(&a.cand[i].b, &c.groups[0].be));
			if (n >= 0 && (lo < 0 || n < lo))
				lo = n;
			if (n > hi)
				hi = n;
		}
		assert_ptr_equal(a.groups[0].cand, a.cand);
		assert_int_equal(a.groups[0].ncand, a.ncand);
		assert_int_equal(a.groups[0].sens_lo, lo);
		assert_int_equal(a.groups[0].sens_hi, hi);
		analysis_free(&c);
	}
	/* median of two: the faster */
	struct spec two[2] = {boot[0], boot[2]};
	unbuild(&ds);
	build(&ds, two, 2);
	p.ref_rule = RULE_MEDIAN;
	run_ok(&ds, &p, &a);
	assert_string_equal(ds.rows[a.ref].system, "fast_4x");
	analysis_free(&a);
	unbuild(&ds);
}

static void test_karp_flatt_reasons(void **state)
{
	struct spec s[5] = {
		{"r_2x", "A", "H100", "NVIDIA", "", "closed", 2, 100, 0, 0, {0}, 0, 0},
		{"lin_8x", "A", "H100", "NVIDIA", "", "closed", 8, 30, 0, 0, {0}, 0, 0},
		{"super_8x", "A", "H100", "NVIDIA", "", "closed", 8, 20, 0, 0, {0}, 0, 0},
		{"tpu_8x", "G", "TPU v5p", "Google", "", "closed", 8, 30, 0, 0, {0}, 0, 0},
		{"same_2x", "A", "H100", "NVIDIA", "", "closed", 2, 90, 0, 0, {0}, 0, 0},
	};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	const struct arow *o;

	(void)state;
	build(&ds, s, 5);
	base_params(&p);
	run_ok(&ds, &p, &a);
	o = find(&ds, &a, "lin_8x"); /* S 10/3, p 4: e = (0.3 - 0.25) / 0.75 */
	assert_int_equal(o->kf_why, KF_OK);
	NEAR(analysis_kf(&ds, o), (0.3 - 0.25) / 0.75);
	assert_false(o->cross_family);
	o = find(&ds, &a, "super_8x"); /* S 5 > p 4 */
	assert_true(isnan(analysis_kf(&ds, o)));
	assert_int_equal(o->kf_why, KF_SUPERLINEAR);
	o = find(&ds, &a, "tpu_8x");
	assert_true(isnan(analysis_kf(&ds, o)));
	assert_int_equal(o->kf_why, KF_CROSS_FAMILY);
	assert_true(o->cross_family);
	o = find(&ds, &a, "same_2x");
	assert_int_equal(o->kf_why, KF_NOT_LARGER);
	assert_true(strlen(kf_why_text(KF_SUPERLINEAR)) > 0 && kf_why_text(KF_OK)[0] == '\0');
	/* the cross-family pair for the warning */
	assert_int_equal(a.ncross, 1);
	assert_string_equal(a.cross_ref_fam, "H100");
	assert_string_equal(a.cross_row_fam, "TPU v5p");
	/* family mode: each row against its own family, nothing mixed; a break-even each */
	p.mode = REF_FAMILY;
	p.theta = 0.8;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ncross, 0);
	assert_null(a.cross_row_fam);
	assert_int_equal(a.ngroups, 2);
	assert_string_equal(a.groups[0].family, "H100");
	assert_string_equal(ds.rows[a.groups[0].ref].system, "r_2x");
	assert_int_equal(a.groups[0].nrows, 4);
	assert_string_equal(be_sys(&ds, &a, 0), "super_8x"); /* E' 1.25 */
	expect_bracket(&a.groups[0].be, BE_CENSORED, 8, -1, false); /* nothing beyond 8 */
	assert_int_equal(a.groups[0].firm, 8);
	assert_int_equal(a.groups[0].loose, 8);
	assert_string_equal(a.groups[1].family, "TPU v5p");
	assert_string_equal(ds.rows[a.groups[1].ref].system, "tpu_8x");
	/* only its own reference: nothing to compare with, no lower end, no range */
	expect_bracket(&a.groups[1].be, BE_ONE_ROW, -1, -1, false);
	assert_null(be_sys(&ds, &a, 1));
	assert_int_equal(a.groups[1].range_lo, -1);
	assert_int_equal(a.groups[1].range_hi, -1);
	assert_false(find(&ds, &a, "tpu_8x")->be);
	p.theta = 1.3;
	run_ok(&ds, &p, &a);
	expect_bracket(&a.groups[0].be, BE_NONE, -1, -1, false);
	expect_bracket(&a.groups[1].be, BE_ONE_ROW, -1, -1, false);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_hygiene(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	/* Preview rows hidden on request (c_8x is "preview") */
	p.available_only = true;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 5);
	assert_null(find(&ds, &a, "c_8x"));
	p.available_only = false;
	/* a collapsed submission (same runs as a_2x under another submitter) is counted once */
	ds.rows[4].dup_of = 1; /* e_8x stands in for nothing; pretend it repeats a_2x */
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 5);
	assert_int_equal(a.total, 5);
	assert_null(find(&ds, &a, "e_8x"));
	/* pinning the collapsed row's name pins the row standing for it */
	p.mode = REF_PINNED;
	p.pinned = "Sub E/e_8x";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ref, 1);
	p.mode = REF_PAPER;
	p.collapse = false;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 6);
	assert_non_null(find(&ds, &a, "e_8x"));
	ds.rows[4].dup_of = -1;
	p.collapse = true;
	/* every round: z_1x of v4.0 joins and, with N = 1, becomes the reference */
	p.all_rounds = true;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 7);
	assert_true(a.all_rounds);
	assert_string_equal(a.round, "v4.1");
	assert_string_equal(ds.rows[a.ref].system, "z_1x");
	/* a pinned name means a row of the current round */
	p.mode = REF_PINNED;
	p.pinned = "z_1x";
	struct gs_err err;
	memset(&err, 0, sizeof err);
	assert_int_equal(analysis_run(&ds, &p, &a, &err), -1);
	p.pinned = "a_2x";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ref, 1);
	analysis_free(&a);
	unbuild(&ds);
}

/* The cross-round view pools each run list once: a_4x's runs, submitted in v4.0, v4.1 and
 * v5.0, count as v4.0's row; e_32x and e2_32x of one round share runs and e2_32x, with an
 * energy score, stands. The others are listed, on their standing row's reference and group,
 * and count in no reference pick, candidate, Pareto frontier, bracket, fit, cluster or count;
 * one round alone pools its own rows as before. */
static const struct spec carried[] = {
	{"a_4x", "A", "H100", "NVIDIA", "available", "closed", 4, 100, 0, 3, {99, 100, 101}, "v4.0", 0},
	{"a_4x", "A", "H100", "NVIDIA", "available", "closed", 4, 100, 0, 3, {99, 100, 101}, "v4.1", 0},
	{"a_4x_v2", "A", "H100", "NVIDIA", "available", "closed", 4, 100, 0, 3, {99, 100, 101}, "v5.0", 0},
	{"b_8x", "B", "H100", "NVIDIA", "available", "closed", 8, 45, 0, 3, {44, 45, 46}, "v4.0", 0},
	{"c_16x", "C", "H100", "NVIDIA", "available", "closed", 16, 30, 0, 3, {29, 30, 31}, "v4.1", 0},
	{"d_4x", "D", "H100", "NVIDIA", "available", "closed", 4, 110, 0, 3, {109, 110, 111}, "v4.1", 0},
	{"e_32x", "E", "H100", "NVIDIA", "available", "closed", 32, 8, 0, 3, {7, 8, 9}, "v5.0", 0},
	{"e2_32x", "E", "H100", "NVIDIA", "available", "closed", 32, 8, 0, 3, {7, 8, 9}, "v5.0", 0},
};

static void test_carried_over(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	char buf[600];

	(void)state;
	build(&ds, carried, sizeof carried / sizeof carried[0]);
	ds.rows[0].runs_class = ds.rows[1].runs_class = ds.rows[2].runs_class = 1;
	ds.rows[6].runs_class = ds.rows[7].runs_class = 7;
	ds.rows[7].energy_j = 1e6;
	params_init(&p);
	p.round = "v5.0";
	p.all_rounds = true;
	p.fit = true;
	p.k = 2;
	for (int mode = 0; mode < 2; mode++) {
		p.mode = mode ? REF_PAPER : REF_FAMILY;
		run_all(&ds, &p, &a);
		assert_int_equal(a.n, 8);
		assert_int_equal(a.ncarried, 3);
		assert_int_equal(analysis_pooled(&a), 5);
		assert_int_equal(a.total, 5);
		assert_int_equal(a.total_carried, 3);
		assert_int_equal(a.ngroups, 1);
		assert_int_equal(a.groups[0].nrows, 5);
		/* candidates: v4.0 a_4x and d_4x, not a_4x again; d_4x is the slowest */
		assert_int_equal(a.groups[0].ncand, 2);
		assert_int_equal(a.groups[0].ref, 5);
		size_t in_clusters = 0, pareto = 0;
		for (int c = 0; c < a.k; c++)
			in_clusters += a.clusters[c].n;
		assert_int_equal(in_clusters, 5);
		assert_int_equal(a.fits[0].fit.npoints, 5);
		for (size_t i = 0; i < a.n; i++) {
			const struct arow *o = &a.rows[i];
			size_t want = o->row == 1 || o->row == 2 ? 1 : o->row == 6 ? 8 : 0;
			assert_int_equal(o->same_as, want);
			assert_int_equal(analysis_carried_by(&a, o->row), (long)want - 1);
			pareto += o->pareto;
			if (arow_carried(o)) {
				assert_int_equal(o->cluster, -1);
				assert_false(o->pareto);
				assert_false(o->be);
				assert_true(isnan(o->ep_fit));
				for (size_t c = 0; c < a.groups[0].ncand; c++)
					assert_int_not_equal(a.groups[0].cand[c].row, o->row);
			} else {
				assert_true(o->cluster >= 0 && o->cluster < a.k);
			}
			/* listed with its metrics on its group's reference */
			assert_int_equal(o->ref, 5);
			assert_true(fabs(o->Ep - 110.0 / o->T * 4 / o->N) < EPS);
		}
		assert_int_equal(pareto, a.npareto);
	}
	/* the words: the row standing for a carried-over one, with its round */
	for (size_t i = 0; i < a.n; i++)
		if (a.rows[i].row == 2)
			assert_string_equal(describe_carried(&ds, &a, i, buf, sizeof buf), "the runs of v4.0 A/a_4x");
	/* a filter hiding v4.0's row: v4.1's stands for the runs, v5.0's is carried over */
	ds.rows[0].avail = AVAIL_PREVIEW;
	p.available_only = true;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.ncarried, 2);
	assert_int_equal(a.total, 5); /* before filters v4.0's stood */
	assert_int_equal(analysis_carried_by(&a, 2), 1);
	assert_int_equal(analysis_carried_by(&a, 1), -1);
	p.available_only = false;
	/* one round pools its own rows, whatever other rounds hold */
	p.all_rounds = false;
	p.round = "v4.1";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.ncarried, 0);
	assert_int_equal(a.total, 3);
	assert_int_equal(a.groups[0].ncand, 2);
	p.round = "v5.0";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.groups[0].nrows, 3);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_energy_and_cost(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	const struct arow *o;

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	ds.rows[1].energy_j = 7.2e6;  /* a_2x, the reference: 2 kWh */
	ds.rows[2].energy_j = 3.6e6;  /* c_8x: 1 kWh */
	for (size_t i = 0; i < 4; i++) { /* the NVIDIA rows have prices */
		ds.rows[i].price_lo = 2;
		ds.rows[i].price_hi = 3;
	}
	run_ok(&ds, &p, &a);
	o = find(&ds, &a, "c_8x");
	assert_true(o->kwh == 1.0);
	assert_true(o->energy_ratio == 0.5);
	assert_int_equal(o->er_why, ER_OK);
	NEAR(o->cost_lo, 8 * 2);   /* A = 8 accelerator-hours */
	NEAR(o->cost_hi, 8 * 3);
	NEAR(arow_metric(o, MET_COST), 8 * 2.5);
	assert_true(arow_metric(o, MET_KWH) == 1.0);
	o = find(&ds, &a, "d_64x");
	assert_true(isnan(o->kwh) && isnan(o->energy_ratio));
	assert_int_equal(o->er_why, ER_NO_ENERGY);
	o = find(&ds, &a, "e_8x"); /* no price: no cost */
	assert_true(isnan(o->cost_lo) && isnan(o->cost_hi));
	/* a reference without energy: no ratio, and the reason says so */
	p.mode = REF_FAMILY;
	run_ok(&ds, &p, &a);
	o = find(&ds, &a, "c_8x");
	assert_true(isnan(o->energy_ratio));
	assert_int_equal(o->er_why, ER_REF_NO_ENERGY);
	assert_true(strlen(er_why_text(ER_REF_NO_ENERGY)) > 0);
	/* the Pareto frontier on cost: d_64x (10 min) is dearer per hour than every other row */
	p.mode = REF_PAPER;
	ds.rows[3].price_lo = ds.rows[3].price_hi = 100;
	run_ok(&ds, &p, &a);
	assert_true(find(&ds, &a, "d_64x")->pareto); /* fastest: on (T, A) */
	size_t on_a = a.npareto;
	p.pareto_cost = true;
	run_ok(&ds, &p, &a);
	assert_true(a.pareto_cost);
	assert_true(find(&ds, &a, "d_64x")->pareto); /* still the fastest */
	assert_false(find(&ds, &a, "e_8x")->pareto); /* no price: never on the cost frontier */
	for (size_t i = 0; i < a.n; i++) { /* brute force: nobody beats a frontier row */
		const struct arow *x = &a.rows[i];
		bool beaten = false;
		for (size_t j = 0; j < a.n && !isnan(arow_cost(x)); j++) {
			const struct arow *y = &a.rows[j];
			beaten |= y->T <= x->T && arow_cost(y) <= arow_cost(x) &&
				  (y->T < x->T || arow_cost(y) < arow_cost(x));
		}
		assert_int_equal(x->pareto, !isnan(arow_cost(x)) && !beaten);
	}
	(void)on_a;
	analysis_free(&a);
	unbuild(&ds);
}

/* Dataset row r of da and row q of db are the same submission (or both none). */
static void same_row(const struct dataset *da, long r, const struct dataset *db, long q)
{
	assert_int_equal(r < 0, q < 0);
	if (r < 0)
		return;
	assert_string_equal(da->rows[r].system, db->rows[q].system);
	assert_string_equal(da->rows[r].submitter, db->rows[q].submitter);
}

/* a over da and b over db have the same groups: reference, bracket and the row giving its lower
 * end, range, sensitivity and every candidate's bracket. */
static void same_groups(const struct dataset *da, const struct analysis *a, const struct dataset *db,
			const struct analysis *b)
{
	assert_int_equal(a->ngroups, b->ngroups);
	assert_int_equal(a->ncand, b->ncand);
	for (size_t g = 0; g < a->ngroups; g++) {
		const struct group *x = &a->groups[g], *y = &b->groups[g];
		assert_int_equal(x->family == NULL, y->family == NULL);
		if (x->family)
			assert_string_equal(x->family, y->family);
		same_row(da, x->ref, db, y->ref);
		assert_int_equal(x->nrows, y->nrows);
		assert_true(x->n_max == y->n_max);
		assert_true(same_bracket(&x->be, &y->be));
		same_row(da, x->be_row, db, y->be_row);
		assert_int_equal(x->firm, y->firm);
		assert_int_equal(x->loose, y->loose);
		assert_int_equal(x->range_lo, y->range_lo);
		assert_int_equal(x->range_hi, y->range_hi);
		assert_int_equal(x->sens_lo, y->sens_lo);
		assert_int_equal(x->sens_hi, y->sens_hi);
		assert_int_equal(x->ncand, y->ncand);
		for (size_t c = 0; c < x->ncand; c++) {
			same_row(da, (long)x->cand[c].row, db, (long)y->cand[c].row);
			assert_true(same_bracket(&x->cand[c].b, &y->cand[c].b));
		}
	}
}

/* The same rows in another order give the same analysis, row for row, in every mode and rule. */
static void test_order_independent(void **state)
{
	struct spec s[NBASE + 3], t[NBASE + 3];
	struct dataset ds, dt;
	struct params p;
	struct analysis a = {0}, b = {0};
	size_t n = NBASE + 3;

	(void)state;
	memcpy(s, base, sizeof base);
	/* one system id under three submitters with the same runs (v4.0's smc case) */
	s[NBASE] = base[5];
	s[NBASE].sub = "Sub X";
	s[NBASE + 1] = base[5];
	s[NBASE + 1].sub = "Sub A";
	s[NBASE + 2] = base[1];
	s[NBASE + 2].sys = "a_2y"; /* a second slowest candidate, equal in every number */
	for (size_t i = 0; i < n; i++)
		t[i] = s[(i * 7 + 3) % n]; /* n = 11, coprime with 7: a permutation */
	build(&ds, s, n);
	build(&dt, t, n);
	base_params(&p);
	for (int mode = 0; mode < REF_MODE_COUNT; mode++)
		for (int rule = 0; rule < RULE_COUNT; rule++)
			for (int k = 1; k <= 4; k++) {
				p.mode = (enum ref_mode)mode;
				p.pinned = "e_8x";
				p.ref_rule = (enum ref_rule)rule;
				p.k = k;
				run_ok(&ds, &p, &a);
				run_ok(&dt, &p, &b);
				assert_int_equal(a.n, b.n);
				for (size_t i = 0; i < a.n; i++) {
					const struct arow *x = &a.rows[i], *y = &b.rows[i];
					const struct row *rx = &ds.rows[x->row], *ry = &dt.rows[y->row];
					assert_string_equal(rx->system, ry->system);
					assert_string_equal(rx->submitter, ry->submitter);
					assert_string_equal(ds.rows[x->ref].system, dt.rows[y->ref].system);
					assert_int_equal(x->cluster, y->cluster);
					assert_memory_equal(&x->Ep, &y->Ep, sizeof x->Ep);
					assert_memory_equal(&CI(&a, x)->ep_lo, &CI(&b, y)->ep_lo, sizeof x->Ep);
					assert_int_equal(x->pareto, y->pareto);
				}
				same_groups(&ds, &a, &dt, &b);
			}
	analysis_free(&a);
	analysis_free(&b);
	unbuild(&ds);
	unbuild(&dt);
}

/* ---- clusters ---- */

/* z-scored features of the shown rows, computed here independently. */
static size_t zfeatures(const struct analysis *a, enum feat_set fs, double *x)
{
	size_t d = fs == FEAT_N_EP_T ? 3 : 2;

	for (size_t i = 0; i < a->n; i++) {
		x[i * d] = log2(a->rows[i].N);
		x[i * d + 1] = fs == FEAT_N_T ? log(a->rows[i].T) : a->rows[i].Ep;
		if (d == 3)
			x[i * d + 2] = log(a->rows[i].T);
	}
	for (size_t j = 0; j < d; j++) {
		double m = 0, v = 0;
		for (size_t i = 0; i < a->n; i++)
			m += x[i * d + j] / (double)a->n;
		for (size_t i = 0; i < a->n; i++)
			v += (x[i * d + j] - m) * (x[i * d + j] - m) / (double)a->n;
		for (size_t i = 0; i < a->n; i++)
			x[i * d + j] = v > 1e-300 ? (x[i * d + j] - m) / sqrt(v) : 0;
	}
	return d;
}

static void check_summaries(const struct analysis *a)
{
	size_t total = 0;

	for (int c = 0; c < a->k; c++) {
		const struct cluster_sum *s = &a->clusters[c];
		double mn = INFINITY, mx = -INFINITY, m = 0, v = 0;
		size_t n = 0;
		for (size_t i = 0; i < a->n; i++)
			if (a->rows[i].cluster == c) {
				n++;
				m += a->rows[i].Ep;
				mn = a->rows[i].N < mn ? a->rows[i].N : mn;
				mx = a->rows[i].N > mx ? a->rows[i].N : mx;
			}
		assert_int_equal(s->n, n);
		assert_true(n > 0);
		m /= (double)n;
		for (size_t i = 0; i < a->n; i++)
			if (a->rows[i].cluster == c)
				v += (a->rows[i].Ep - m) * (a->rows[i].Ep - m);
		NEAR(s->n_min, mn);
		NEAR(s->n_max, mx);
		NEAR(s->ep_mean, m);
		assert_true(fabs(s->ep_sd - sqrt(v / (double)n)) < 1e-12);
		total += n;
	}
	assert_int_equal(total, a->n);
	for (size_t i = 0; i < a->n; i++)
		assert_true(a->rows[i].cluster >= 0 && a->rows[i].cluster < a->k);
}

/* Clusters are numbered by ascending mean N of their members. */
static void check_numbering(const struct analysis *a)
{
	double prev = -INFINITY;

	for (int c = 0; c < a->k; c++) {
		double m = 0;
		size_t n = 0;
		for (size_t i = 0; i < a->n; i++)
			if (a->rows[i].cluster == c) {
				m += a->rows[i].N;
				n++;
			}
		m /= (double)n;
		assert_true(m >= prev);
		prev = m;
	}
}

static void test_clusters_exhaustive(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	double x[8 * 3];

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	for (int fs = 0; fs < FEAT_COUNT; fs++)
		for (int k = 1; k <= 3; k++) {
			p.feats = (enum feat_set)fs;
			p.k = k;
			run_ok(&ds, &p, &a);
			assert_int_equal(a.k, k);
			size_t d = zfeatures(&a, p.feats, x);
			double want = exhaustive(x, a.n, d, k);
			if (fabs(a.inertia - want) > 1e-9)
				fail_msg("features %d k %d: inertia %.12g, optimum %.12g", fs, k,
					 a.inertia, want);
			/* the labels reported are the ones whose inertia is reported */
			int lab[8];
			for (size_t i = 0; i < a.n; i++)
				lab[i] = a.rows[i].cluster;
			assert_true(fabs(labelling_sse(x, a.n, d, lab, k) - a.inertia) < 1e-9);
			if (k >= 2)
				assert_true(fabs(a.silhouette - kmeans_silhouette(x, a.n, d, lab, k)) <
					    1e-12);
			else
				assert_true(isnan(a.silhouette));
			check_summaries(&a);
			check_numbering(&a);
		}
	analysis_free(&a);
	unbuild(&ds);
}

static void test_clusters_known_groups(void **state)
{
	/* Three obvious groups: small efficient, mid, huge inefficient systems. */
	static const struct spec s[] = {
		{"s1", "", "X", "", "", "", 2, 100, 0, 0, {0}, 0, 0},
		{"s2", "", "X", "", "", "", 2, 98, 0, 0, {0}, 0, 0},
		{"s3", "", "X", "", "", "", 2, 102, 0, 0, {0}, 0, 0},
		{"m1", "", "X", "", "", "", 64, 4, 0, 0, {0}, 0, 0},
		{"m2", "", "X", "", "", "", 64, 4.1, 0, 0, {0}, 0, 0},
		{"h1", "", "X", "", "", "", 4096, 0.5, 0, 0, {0}, 0, 0},
		{"h2", "", "X", "", "", "", 4096, 0.51, 0, 0, {0}, 0, 0},
	};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, s, 7);
	base_params(&p);
	run_ok(&ds, &p, &a);
	assert_int_equal(a.k, 3);
	assert_int_equal(find(&ds, &a, "s1")->cluster, 0);
	assert_int_equal(find(&ds, &a, "s2")->cluster, 0);
	assert_int_equal(find(&ds, &a, "s3")->cluster, 0);
	assert_int_equal(find(&ds, &a, "m1")->cluster, 1);
	assert_int_equal(find(&ds, &a, "m2")->cluster, 1);
	assert_int_equal(find(&ds, &a, "h1")->cluster, 2);
	assert_int_equal(find(&ds, &a, "h2")->cluster, 2);
	assert_int_equal(a.clusters[0].n, 3);
	assert_true(a.clusters[0].n_min == 2 && a.clusters[0].n_max == 2);
	assert_true(a.clusters[2].n_min == 4096);
	assert_true(a.silhouette > 0.8);
	/* auto-k finds the same three groups */
	p.k = 0;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.k, 3);
	assert_int_equal(find(&ds, &a, "m2")->cluster, 1);
	analysis_free(&a);
	unbuild(&ds);
}

static void test_auto_k(void **state)
{
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	double best = -2;
	int best_k = 0;

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	for (int k = 2; k <= 5; k++) { /* min(8, n - 1) = 5 */
		p.k = k;
		run_ok(&ds, &p, &a);
		if (a.silhouette > best) {
			best = a.silhouette;
			best_k = k;
		}
	}
	p.k = 0;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.k, best_k);
	assert_true(a.silhouette == best);
	check_summaries(&a);
	/* k above MAX_K or n clamps */
	p.k = 40;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.k, 6);
	assert_true(a.inertia == 0);
	assert_true(isnan(a.silhouette));
	p.k = -3;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.k, 1);
	analysis_free(&a);
	unbuild(&ds);
}

/* ---- edge cases ---- */

static void test_edges(void **state)
{
	static const struct spec same[] = {
		{"q1", "", "X", "", "", "", 8, 10, 0, 0, {0}, 0, 0},
		{"q2", "", "X", "", "", "", 8, 10, 0, 0, {0}, 0, 0},
		{"q3", "", "X", "", "", "", 8, 10, 0, 0, {0}, 0, 0},
	};
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	build(&ds, base, NBASE);
	base_params(&p);
	/* n = 0 */
	p.filter.families[p.filter.nfamilies++] = "nothing";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 0);
	assert_int_equal(a.total, 6);
	assert_int_equal(a.ref, -1);
	assert_int_equal(a.k, 0);
	assert_true(a.inertia == 0 && isnan(a.silhouette));
	assert_int_equal(a.ngroups, 0);
	assert_int_equal(a.ncand, 0);
	assert_null(analysis_group(&a, 0));
	assert_int_equal(analysis_be_index(&a, NULL), -1);
	assert_int_equal(a.npareto, 0);
	assert_int_equal(analysis_sort(&ds, &a, COL_N, false, NULL), 0);
	/* n = 1 */
	base_params(&p);
	p.filter.availability[p.filter.navailability++] = "preview";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.n, 1);
	assert_true(a.rows[0].is_ref && a.rows[0].Ep == 1.0 && a.rows[0].pareto);
	assert_int_equal(a.k, 1);
	assert_true(a.inertia == 0 && isnan(a.silhouette));
	/* only the reference: nothing to compare with */
	assert_int_equal(a.ngroups, 1);
	expect_bracket(&a.groups[0].be, BE_ONE_ROW, -1, -1, false);
	assert_null(be_sys(&ds, &a, 0));
	assert_int_equal(a.groups[0].ncand, 1);
	expect_bracket(&a.groups[0].cand[0].b, BE_ONE_ROW, -1, -1, false);
	assert_int_equal(a.groups[0].sens_lo, -1);
	assert_int_equal(a.clusters[0].n, 1);
	assert_true(a.clusters[0].ep_sd == 0);
	p.k = 0;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.k, 1);
	/* n = 2 */
	base_params(&p);
	p.filter.vendors[p.filter.nvendors++] = "google";
	run_ok(&ds, &p, &a);
	assert_int_equal(a.k, 2);
	assert_true(a.inertia == 0 && isnan(a.silhouette));
	assert_int_not_equal(a.rows[0].cluster, a.rows[1].cluster);
	p.k = 0;
	run_ok(&ds, &p, &a);
	assert_int_equal(a.k, 1);
	assert_false(isnan(a.inertia));
	unbuild(&ds);
	/* all identical: every feature constant, z-scores all zero */
	build(&ds, same, 3);
	base_params(&p);
	for (int fs = 0; fs < FEAT_COUNT; fs++) {
		p.feats = (enum feat_set)fs;
		for (int k = 0; k <= 3; k++) {
			p.k = k;
			run_ok(&ds, &p, &a);
			assert_int_equal(a.k, 1);
			assert_true(a.inertia == 0);
			assert_true(isnan(a.silhouette));
			assert_int_equal(a.clusters[0].n, 3);
		}
	}
	assert_int_equal(a.npareto, 3);
	analysis_free(&a);
	unbuild(&ds);
}

/* ---- determinism and scale ---- */

static void random_specs(struct spec *s, size_t n, uint64_t seed)
{
	static const char *const fams[] = {"H100", "A100", "B200", "TPU v5p", "MI300X"};
	static char names[64][16];
	struct rng r;

	for (int i = 0; i < 64; i++)
		snprintf(names[i], sizeof names[i], "s%02d", i);
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		long long nn = 1LL << (rng_next(&r) % 13);
		memset(&s[i], 0, sizeof s[i]);
		s[i].sys = names[i % 64];
		s[i].sub = "Sub";
		s[i].fam = fams[rng_next(&r) % 5];
		s[i].ven = "V";
		s[i].avail = "available";
		s[i].div = "closed";
		s[i].n = nn;
		s[i].t = 500.0 / (double)nn * (0.5 + rng_unit(&r)) + 0.1;
		s[i].nruns = 3;
		s[i].runs[0] = s[i].t * 0.95;
		s[i].runs[1] = s[i].t;
		s[i].runs[2] = s[i].t * 1.05;
	}
}

static void test_deterministic(void **state)
{
	struct spec s[40];
	struct dataset ds;
	struct params p;
	struct analysis a = {0}, b = {0};

	(void)state;
	random_specs(s, 40, 77);
	build(&ds, s, 40);
	base_params(&p);
	for (int k = 0; k <= 4; k++) {
		p.k = k;
		p.feats = (enum feat_set)(k % FEAT_COUNT);
		run_ok(&ds, &p, &a);
		run_ok(&ds, &p, &b);
		assert_int_equal(a.n, b.n);
		assert_memory_equal(a.rows, b.rows, a.n * sizeof *a.rows);
		assert_memory_equal(&a.inertia, &b.inertia, sizeof a.inertia);
		assert_memory_equal(a.clusters, b.clusters, sizeof a.clusters);
		same_groups(&ds, &a, &ds, &b);
	}
	analysis_free(&a);
	analysis_free(&b);
	unbuild(&ds);
}

/* Above 2048 shown rows the run draws only the intervals the break-even range needs: the range
 * must be the one every interval gives. */
static void test_lazy_range(void **state)
{
	enum { N = 3000 };
	struct spec *s = malloc(N * sizeof *s);
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	assert_non_null(s);
	random_specs(s, N, 4242);
	for (size_t i = 0; i < N; i += 3) /* spread the runs: intervals that straddle theta */
		s[i].runs[0] = s[i].t * 0.6, s[i].runs[2] = s[i].t * 1.5;
	build(&ds, s, N);
	base_params(&p);
	p.k = 1;
	for (int mode = 0; mode < 2; mode++) {
		p.mode = mode ? REF_FAMILY : REF_PAPER;
		for (double th = 0.3; th < 1.6; th += 0.25) {
			p.theta = th;
			run_ok(&ds, &p, &a);
			size_t done = 0;
			for (size_t i = 0; i < a.n; i++)
				done += a.rows[i].ci_done;
			assert_true(done < a.n / 2);
			assert_int_equal(a.ngroups, mode ? 5 : 1);
			/* the same groups again after every interval is drawn */
			struct analysis b = a;
			b.groups = malloc(a.ngroups * sizeof *b.groups);
			b.cand = malloc(a.ncand * sizeof *b.cand);
			assert_non_null(b.groups);
			assert_non_null(b.cand);
			memcpy(b.cand, a.cand, a.ncand * sizeof *b.cand);
			for (size_t g = 0; g < a.ngroups; g++) {
				b.groups[g] = a.groups[g];
				b.groups[g].cand = b.cand + (a.groups[g].cand - a.cand);
			}
			assert_int_equal(analysis_intervals(&ds, &a, 0, a.n, NULL), 0);
			assert_int_equal(analysis_breakeven(&ds, &a, th, NULL), 0);
			same_groups(&ds, &a, &ds, &b);
			free(b.groups);
			free(b.cand);
		}
	}
	analysis_free(&a);
	unbuild(&ds);
	free(s);
}

static void test_large(void **state)
{
	enum { N = 100000 };
	struct spec *s = malloc(N * sizeof *s);
	struct dataset ds;
	struct params p;
	struct analysis a = {0};

	(void)state;
	assert_non_null(s);
	random_specs(s, N, 123);
	build(&ds, s, N);
	base_params(&p);
	for (int k = 0; k <= 12; k += 3) {
		p.k = k;
		p.feats = (enum feat_set)((k / 3) % FEAT_COUNT);
		run_ok(&ds, &p, &a);
		assert_int_equal(a.n, N);
		assert_true(a.k >= 1 && a.k <= MAX_K);
		if (k)
			assert_int_equal(a.k, k);
		assert_true(isfinite(a.inertia) && a.inertia > 0);
		assert_true(isfinite(a.silhouette));
		assert_true(a.npareto >= 1);
		check_summaries(&a);
		for (size_t i = 1; i < a.n; i++)
			assert_true(a.rows[i - 1].Ep >= a.rows[i].Ep);
		/* ranking moved whole rows: each dataset row once, with its own numbers */
		char *seen = calloc(N, 1);
		assert_non_null(seen);
		for (size_t i = 0; i < a.n; i++) {
			assert_true(a.rows[i].row < N && !seen[a.rows[i].row]);
			seen[a.rows[i].row] = 1;
			assert_true(a.rows[i].T == ds.rows[a.rows[i].row].minutes);
			assert_true(a.rows[i].N == (double)ds.rows[a.rows[i].row].accelerators);
		}
		free(seen);
	}
	analysis_free(&a);
	unbuild(&ds);
	free(s);
}

/* ---- the bundled data: the paper's Table I ---- */

static void test_paper_table1(void **state)
{
	static const struct {
		const char *bench, *system;
		long long n;
	} want[] = {
		/* the paper's Table I: a 2xA5000 workstation, 366 minutes */
		{"bert", "7920T_2xA5000_hdd", 2},
		/* what the same rule picks for the paper's other three workloads */
		{"llama2_70b_lora", "XE9640x4H100-SXM-80GB", 4},
		{"retinanet", "R760x2H100NVL-PCIe-94GB", 2},
		{"stable_diffusion", "XE8640x4H100-SXM-80GB", 4},
	};
	const char *top = getenv("GS_TOP");
	char path[1024], fam[1024];
	struct dataset ds;
	struct params p;
	struct analysis a = {0};
	struct gs_err err;
	FILE *f;

	(void)state;
	snprintf(path, sizeof path, "%s/data/mlperf_training_v4.1.csv", top ? top : ".");
	snprintf(fam, sizeof fam, "%s/data/families.csv", top ? top : ".");
	if (!(f = fopen(path, "r"))) {
		skip();
		return;
	}
	fclose(f);
	memset(&ds, 0, sizeof ds);
	memset(&err, 0, sizeof err);
	if (dataset_load_families(&ds, fam, &err) < 0 || dataset_load_csv(&ds, path, &err) < 0)
		fail_msg("%s", err.msg);
	dataset_classify(&ds);
	params_init(&p);
	p.mode = REF_PAPER;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		p.workload = want[i].bench;
		run_ok(&ds, &p, &a);
		assert_true(a.ref >= 0);
		assert_string_equal(ds.rows[a.ref].system, want[i].system);
		assert_int_equal(ds.rows[a.ref].accelerators, want[i].n);
		if (strcmp(want[i].bench, "bert") == 0)
			assert_true(fabs(ds.rows[a.ref].minutes - 366) < 1);
	}
	analysis_free(&a);
	dataset_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_and_names),
		cmocka_unit_test(test_metrics_by_hand),
		cmocka_unit_test(test_paper_tie_breaks),
		cmocka_unit_test(test_paper_ref_follows_filter),
		cmocka_unit_test(test_pinned_hidden),
		cmocka_unit_test(test_pinned_unknown),
		cmocka_unit_test(test_family_mode),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_round_and_workload),
		cmocka_unit_test(test_pareto),
		cmocka_unit_test(test_pareto_ties),
		cmocka_unit_test(test_pareto_many),
		cmocka_unit_test(test_breakeven),
		cmocka_unit_test(test_breakeven_tie),
		cmocka_unit_test(test_bracket_kinds),
		cmocka_unit_test(test_bracket_at_theta),
		cmocka_unit_test(test_bracket_ties),
		cmocka_unit_test(test_group_sensitivity),
		cmocka_unit_test(test_bracket_property),
		cmocka_unit_test(test_fit_verdict),
		cmocka_unit_test(test_unranked_is_ranked),
		cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_breakeven_scan_is_plain),
		cmocka_unit_test(test_family_groups_many),
		cmocka_unit_test(test_intervals_shared_store),
		cmocka_unit_test(test_drop_draws),
		cmocka_unit_test(test_check_then_run),
		cmocka_unit_test(test_fits_add_drop),
		cmocka_unit_test(test_breakeven_range),
		cmocka_unit_test(test_ref_rule_and_sensitivity),
		cmocka_unit_test(test_karp_flatt_reasons),
		cmocka_unit_test(test_hygiene),
		cmocka_unit_test(test_carried_over),
		cmocka_unit_test(test_energy_and_cost),
		cmocka_unit_test(test_order_independent),
		cmocka_unit_test(test_clusters_exhaustive),
		cmocka_unit_test(test_clusters_known_groups),
		cmocka_unit_test(test_auto_k),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_lazy_range),
		cmocka_unit_test(test_paper_table1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
