/* test_describe.c: the shared sentences about an analysis: every bracket kind in its long and
 * short form, ranges never reversed, the list of groups (first group first, whole entries,
 * "+N more", never wider than asked) at every width, the order of the candidates, and the fit's
 * verdict, prediction and peak. */
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
#include "dataset.h"
#include "describe.h"
#include "kmeans.h"
#include "text.h"

static struct be_bracket br(enum be_kind kind, long lo, long hi, bool beyond)
{
	return (struct be_bracket){ .kind = kind, .lo = lo, .hi = hi, .beyond = beyond };
}

static void test_bracket_text(void **state)
{
	char b[96];
	struct be_bracket x;

	(void)state;
	x = br(BE_BRACKET, 16, 32, false);
	assert_string_equal(describe_bracket(&x, b, sizeof b), "16..<32");
	assert_string_equal(describe_bracket_short(&x, b, sizeof b), "16..<32");
	x = br(BE_CENSORED, 8, -1, false);
	assert_string_equal(describe_bracket(&x, b, sizeof b), "8+ (no row beyond 8)");
	assert_string_equal(describe_bracket_short(&x, b, sizeof b), "8+");
	x = br(BE_CENSORED, 8, -1, true);
	assert_string_equal(describe_bracket(&x, b, sizeof b), "8+ (no N beyond 8 wholly below theta)");
	assert_string_equal(describe_bracket_short(&x, b, sizeof b), "8+");
	x = br(BE_ONE_ROW, -1, -1, false);
	assert_string_equal(describe_bracket(&x, b, sizeof b), "one row");
	assert_string_equal(describe_bracket_short(&x, b, sizeof b), "one row");
	x = br(BE_NONE, -1, -1, false);
	assert_string_equal(describe_bracket(&x, b, sizeof b), "none at theta");
	assert_string_equal(describe_bracket_short(&x, b, sizeof b), "none");
	x = br(BE_EMPTY, -1, -1, false);
	assert_string_equal(describe_bracket(&x, b, sizeof b), "no rows");
	assert_string_equal(describe_bracket_short(&x, b, sizeof b), "-");
	/* cut like snprintf, always terminated */
	x = br(BE_BRACKET, 1024, 2048, false);
	assert_string_equal(describe_bracket(&x, b, 5), "1024");
}

static void test_range(void **state)
{
	char b[64];
	struct rng r;

	(void)state;
	assert_string_equal(describe_range(32, 64, b, sizeof b), "N 32..64");
	assert_string_equal(describe_range(64, 64, b, sizeof b), "N 64");
	assert_string_equal(describe_range(-1, -1, b, sizeof b), "none");
	assert_string_equal(describe_range(-1, 8, b, sizeof b), "none");
	/* given reversed, still written low to high */
	assert_string_equal(describe_range(256, 32, b, sizeof b), "N 32..256");
	rng_seed(&r, 9);
	for (int i = 0; i < 2000; i++) {
		long lo = (long)(rng_next(&r) % 5000), hi = (long)(rng_next(&r) % 5000), x, y;
		describe_range(lo, hi, b, sizeof b);
		if (lo == hi) {
			assert_int_equal(sscanf(b, "N %ld", &x), 1);
			assert_int_equal(x, lo);
			continue;
		}
		assert_int_equal(sscanf(b, "N %ld..%ld", &x, &y), 2);
		assert_true(x < y);
		assert_int_equal(x, lo < hi ? lo : hi);
		assert_int_equal(y, lo < hi ? hi : lo);
	}
}

/* ---- the list of groups ---- */

static const char *const fams[] = {
	"A100", "B200", "GB200", "H100 SXM", "H200", "MI300X", "TPU v5p", "TPU v6e (Trillium)",
};
#define NFAM (sizeof fams / sizeof fams[0])

/* An analysis holding only groups: family mode with the families above, varied brackets. */
static void fake_groups(struct analysis *a, struct group *g, size_t n)
{
	static const struct be_bracket kinds[] = {
		{ BE_BRACKET, 64, 128, false }, { BE_CENSORED, 8, -1, false },
		{ BE_ONE_ROW, -1, -1, false },  { BE_NONE, -1, -1, false },
		{ BE_BRACKET, 8192, 11616, false }, { BE_CENSORED, 512, -1, true },
	};

	memset(a, 0, sizeof *a);
	for (size_t i = 0; i < n; i++)
		g[i] = (struct group){ .family = fams[i % NFAM], .ref = (long)i, .nrows = 1,
				       .be = kinds[i % (sizeof kinds / sizeof kinds[0])], .be_row = -1,
				       .fit = -1 };
	a->groups = g;
	a->ngroups = n;
}

/* The entry describe_groups writes for group i. */
static void entry_of(const struct analysis *a, size_t i, char *e, size_t n)
{
	char b[64];

	snprintf(e, n, "%s %s", describe_group_name(&a->groups[i]),
		 describe_bracket_short(&a->groups[i].be, b, sizeof b));
}

/* out holds whole entries in the order first, then the others by index, then "+K more" with K
 * the groups left out; returns how many entries it holds. */
static size_t check_list(const struct analysis *a, size_t first, const char *out)
{
	char e[128], more[32];
	const char *p = out;
	size_t shown = 0;

	for (size_t k = 0; k <= a->ngroups; k++) {
		size_t g = k == 0 ? first : k - 1;
		if (g >= a->ngroups || (k > 0 && g == first))
			continue;
		entry_of(a, g, e, sizeof e);
		size_t len = strlen(e);
		if (strncmp(p, e, len) != 0 || (p[len] != '\0' && strncmp(p + len, ", ", 2) != 0))
			break;
		p += len;
		shown++;
		if (*p == ',')
			p += 2;
	}
	if (shown < a->ngroups) {
		snprintf(more, sizeof more, "+%zu more", a->ngroups - shown);
		if (strcmp(p, more) != 0)
			fail_msg("'%s': after %zu entries '%s', expected '%s'", out, shown, p, more);
	} else {
		assert_string_equal(p, "");
	}
	return shown;
}

static void test_groups_list(void **state)
{
	struct group g[NFAM];
	struct analysis a;
	char out[512];

	(void)state;
	fake_groups(&a, g, NFAM);
	/* wide: every group, the first one first, the others in order */
	describe_groups(&a, 3, 200, out, sizeof out);
	assert_string_equal(out, "H100 SXM none, A100 64..<128, B200 8+, GB200 one row, "
			    "H200 8192..<11616, MI300X 512+, TPU v5p 64..<128, TPU v6e (Trillium) 8+");
	assert_int_equal(check_list(&a, 3, out), NFAM);
	/* first past the end: by name */
	describe_groups(&a, NFAM, 200, out, sizeof out);
	assert_int_equal(strncmp(out, "A100 64..<128, B200 8+, GB200", 29), 0);
	/* cut: the count of those left out */
	describe_groups(&a, 3, 40, out, sizeof out);
	assert_string_equal(out, "H100 SXM none, A100 64..<128, +6 more");
	/* every first group, every width: never wider than asked, whole entries only, and cut
	 * only where the next entry with its "+K more" would not fit */
	for (size_t first = 0; first <= NFAM; first++) {
		size_t order[NFAM], no = 0;
		for (size_t k = 0; k <= NFAM; k++) {
			size_t gi = k == 0 ? first : k - 1;
			if (gi < NFAM && !(k > 0 && gi == first))
				order[no++] = gi;
		}
		assert_int_equal(no, NFAM);
		for (int w = 10; w <= 200; w++) {
			describe_groups(&a, first, w, out, sizeof out);
			if (text_columns(out) > w)
				fail_msg("width %d: '%s' is %d columns", w, out, text_columns(out));
			size_t shown = check_list(&a, first, out);
			if (shown == NFAM)
				continue;
			char e[128], more[32];
			size_t left = NFAM - shown - 1;
			int keep = left ? snprintf(more, sizeof more, ", +%zu more", left) : 0;
			int tail = snprintf(more, sizeof more, ", +%zu more", NFAM - shown);
			int before = shown ? text_columns(out) - tail + 2 : 0;
			entry_of(&a, order[shown], e, sizeof e);
			if (before + text_columns(e) + keep <= w)
				fail_msg("width %d: '%s' leaves out '%s', which fits", w, out, e);
		}
	}
	/* one group too wide for anything: only the count */
	fake_groups(&a, g, 1);
	describe_groups(&a, 0, 10, out, sizeof out);
	assert_string_equal(out, "+1 more");
	describe_groups(&a, 0, 20, out, sizeof out);
	assert_string_equal(out, "A100 64..<128");
	/* no groups */
	a.ngroups = 0;
	describe_groups(&a, 0, 80, out, sizeof out);
	assert_string_equal(out, "no rows");
}

/* Paper and pinned mode: one group of every shown row, its bracket alone, never wider than
 * asked either. */
static void test_groups_paper(void **state)
{
	static const struct be_bracket kinds[] = {
		{ BE_BRACKET, 16, 32, false }, { BE_CENSORED, 64, -1, false },
		{ BE_BRACKET, 8192, 11616, false }, { BE_NONE, -1, -1, false },
		{ BE_ONE_ROW, -1, -1, false },
	};
	struct group g;
	struct analysis a;
	char out[128], b[64];

	(void)state;
	memset(&a, 0, sizeof a);
	a.groups = &g;
	a.ngroups = 1;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		g = (struct group){ .family = NULL, .ref = 0, .nrows = 2, .be = kinds[k], .be_row = -1,
				    .fit = -1 };
		describe_bracket_short(&g.be, b, sizeof b);
		for (int w = 10; w <= 200; w++) {
			describe_groups(&a, 0, w, out, sizeof out);
			if (text_columns(out) > w)
				fail_msg("width %d: '%s' is %d columns", w, out, text_columns(out));
			if (text_columns(b) <= w)
				assert_string_equal(out, b);
			else
				assert_string_equal(out, "+1 more");
		}
	}
	assert_string_equal(describe_group_name(&g), "all shown rows");
}

/* ---- the candidates ---- */

static void test_cand_order(void **state)
{
	struct be_cand c[8];
	struct group g;
	size_t ord[8];
	struct rng r;

	(void)state;
	/* lower ends 32, 16, 64, 16, 64: the low end set first by the second, the high end by the
	 * third, then the rest slowest first */
	{
		static const long lo[] = {32, 16, 64, 16, 64};
		static const size_t want[] = {1, 2, 0, 3, 4};
		memset(&g, 0, sizeof g);
		for (size_t i = 0; i < 5; i++)
			c[i] = (struct be_cand){ .row = i, .b = br(BE_CENSORED, lo[i], -1, false) };
		g.cand = c;
		g.ncand = 5;
		g.sens_lo = 16;
		g.sens_hi = 64;
		assert_int_equal(describe_cand_order(&g, ord), 2);
		assert_memory_equal(ord, want, sizeof want);
	}
	/* all agree: one end-setter, the first */
	g.sens_lo = g.sens_hi = 16;
	for (size_t i = 0; i < 3; i++)
		c[i].b = br(BE_BRACKET, 16, 32, false);
	g.ncand = 3;
	assert_int_equal(describe_cand_order(&g, ord), 1);
	assert_true(ord[0] == 0 && ord[1] == 1 && ord[2] == 2);
	/* none reaches theta: no end-setter, in order */
	g.sens_lo = g.sens_hi = -1;
	for (size_t i = 0; i < 3; i++)
		c[i].b = br(BE_NONE, -1, -1, false);
	assert_int_equal(describe_cand_order(&g, ord), 0);
	assert_true(ord[0] == 0 && ord[1] == 1 && ord[2] == 2);
	/* random: a permutation, the end-setters first and the first of their kind */
	rng_seed(&r, 31);
	for (int it = 0; it < 500; it++) {
		size_t n = 1 + rng_next(&r) % 8, ends;
		long slo = -1, shi = -1;
		bool seen[8] = {false};
		for (size_t i = 0; i < n; i++) {
			long lo = rng_next(&r) % 4 ? (long)(1u << (rng_next(&r) % 5)) : -1;
			c[i] = (struct be_cand){ .row = i, .b = lo < 0 ? br(BE_NONE, -1, -1, false)
								 : br(BE_CENSORED, lo, -1, false) };
			if (lo >= 0 && (slo < 0 || lo < slo))
				slo = lo;
			if (lo > shi)
				shi = lo;
		}
		g.ncand = n;
		g.sens_lo = slo;
		g.sens_hi = shi;
		ends = describe_cand_order(&g, ord);
		assert_int_equal(ends, slo < 0 ? 0 : slo == shi ? 1 : 2);
		for (size_t i = 0; i < n; i++) {
			assert_true(ord[i] < n && !seen[ord[i]]);
			seen[ord[i]] = true;
		}
		if (ends >= 1) {
			assert_int_equal(c[ord[0]].b.lo, slo);
			for (size_t i = 0; i < ord[0]; i++)
				assert_int_not_equal(c[i].b.lo, slo);
		}
		if (ends == 2) {
			assert_int_equal(c[ord[1]].b.lo, shi);
			for (size_t i = 0; i < ord[1]; i++)
				assert_int_not_equal(c[i].b.lo, shi);
		}
		for (size_t i = ends + 1; i < n; i++)
			assert_true(ord[i - 1] < ord[i] || i == ends);
	}
}

/* ---- the fit's words ---- */

static void fake_fit(struct fam_fit *ff, enum fit_state st)
{
	memset(ff, 0, sizeof *ff);
	ff->family = "H100 SXM";
	ff->fit.state = st;
	ff->fit.usl.converged = st == FIT_OK || st == FIT_WEAK;
	ff->fit.usl.lambda = 1;
	ff->fit.usl.sigma = 0.01;
	ff->fit.usl.kappa = 1e-6;
	ff->fit.usl.se_kappa = 1e-7;
	ff->fit.peak = 890;
	ff->fit.peak_in_range = true;
	ff->fit.n_ref = 8;
	ff->fit.n_max = 1024;
	ff->v.judged = fit_usable(&ff->fit);
	ff->v.ok = true;
	ff->v.worst_n = 64;
	ff->v.worst_obs = 0.70;
	ff->v.worst_fit = 0.88;
	ff->v.be = 105;
	ff->v.be_why = "";
	ff->v.peak_ok = true;
}

static void test_verdict(void **state)
{
	struct fam_fit ff;
	char b[200];

	(void)state;
	fake_fit(&ff, FIT_OK);
	assert_string_equal(describe_verdict(&ff, b, sizeof b), "ok");
	assert_string_equal(describe_fit_be(&ff, b, sizeof b), "N 105");
	assert_string_equal(describe_peak(&ff, b, sizeof b), "peak N* 890");
	ff.v.ok = false;
	assert_string_equal(describe_verdict(&ff, b, sizeof b),
			    "poor fit: worst N=64 observed 0.70, fitted 0.88");
	assert_string_equal(describe_fit_be(&ff, b, sizeof b), "N 105 (poor fit)");
	ff.v.be = 7060;
	ff.v.extrapolated = true;
	assert_string_equal(describe_fit_be(&ff, b, sizeof b), "N 7060 (poor fit, extrapolated)");
	ff.v.ok = true;
	assert_string_equal(describe_fit_be(&ff, b, sizeof b), "N 7060 (extrapolated)");
	ff.v.be = NAN;
	ff.v.be_why = "E' < theta at N_ref";
	assert_string_equal(describe_fit_be(&ff, b, sizeof b), "- (E' < theta at N_ref)");
	/* a peak whose kappa is within two standard errors of 0 is not one */
	ff.v.peak_ok = false;
	assert_non_null(strstr(describe_peak(&ff, b, sizeof b), "no peak identified"));
	ff.fit.usl.kappa = 0;
	assert_string_equal(describe_peak(&ff, b, sizeof b), "no peak (kappa 0)");
	/* weak, and the states without a usable fit, with their reasons */
	fake_fit(&ff, FIT_WEAK);
	snprintf(ff.fit.reason, sizeof ff.fit.reason, "5 points < 6");
	assert_string_equal(describe_verdict(&ff, b, sizeof b), "weak (5 points < 6)");
	ff.v.ok = false; /* poor beats weak: the data says more than the count */
	assert_int_equal(strncmp(describe_verdict(&ff, b, sizeof b), "poor fit: worst N=64", 20), 0);
	fake_fit(&ff, FIT_NONE);
	snprintf(ff.fit.reason, sizeof ff.fit.reason, "needs 3 distinct N");
	assert_string_equal(describe_verdict(&ff, b, sizeof b), "no fit (needs 3 distinct N)");
	assert_string_equal(describe_fit_be(&ff, b, sizeof b), "- (no fit)");
	fake_fit(&ff, FIT_OK);
	ff.v.judged = false;
	assert_string_equal(describe_verdict(&ff, b, sizeof b), "not judged (no reference)");
	/* the whole line carries the verdict and the marked prediction */
	fake_fit(&ff, FIT_OK);
	ff.v.ok = false;
	describe_fit(&ff, 0.8, b, sizeof b);
	assert_int_equal(strncmp(b, "H100 SXM: poor fit: worst N=64 observed 0.70, fitted 0.88", 57), 0);
	assert_non_null(strstr(b, "break-even N 105 (poor fit)"));
}

/* The reference, row name, candidate and filter texts the status line, messages, reports and
 * the export all write. */
static void test_ref_and_filter(void **state)
{
	(void)state;
	struct row rows[2];
	struct dataset ds;
	struct analysis a;
	struct be_cand c = { .row = 1, .b = { .kind = BE_BRACKET, .lo = 8, .hi = 16 } };
	char buf[256];

	memset(rows, 0, sizeof rows);
	memset(&ds, 0, sizeof ds);
	memset(&a, 0, sizeof a);
	rows[0] = (struct row){ .round = "v4.1", .submitter = "Krai", .system = "7920T_2xA5000_hdd",
				.accelerators = 2, .minutes = 366.1949 };
	rows[1] = (struct row){ .round = "v4.0", .submitter = "", .system = "solo", .accelerators = 4096,
				.minutes = 0.126 };
	ds.rows = rows;
	ds.n = 2;
	assert_string_equal(describe_row_name(&rows[0], buf, sizeof buf), "Krai/7920T_2xA5000_hdd");
	assert_string_equal(describe_row_name(&rows[1], buf, sizeof buf), "solo");
	assert_string_equal(describe_ref_row(&rows[0], buf, sizeof buf), "Krai/7920T_2xA5000_hdd (N=2, 366.19 min)");
	assert_string_equal(describe_ref_row(&rows[1], buf, sizeof buf), "solo (N=4096, 0.13 min)");
	assert_string_equal(describe_cand(&ds, &a, &c, buf, sizeof buf), "solo (0.13 min) -> 8..<16");
	a.all_rounds = true;
	assert_string_equal(describe_cand(&ds, &a, &c, buf, sizeof buf), "v4.0 solo (0.13 min) -> 8..<16");
	a.all_rounds = false;

	a.mode = REF_PAPER, a.rule = RULE_SLOWEST, a.ref = 0;
	assert_string_equal(describe_ref(&ds, &a, false, buf, sizeof buf),
			    "Krai/7920T_2xA5000_hdd (N=2, 366.19 min, paper)");
	a.rule = RULE_FASTEST, a.ref_hidden = true;
	assert_string_equal(describe_ref(&ds, &a, true, buf, sizeof buf),
			    "Krai/7920T_2xA5000_hdd (N=2, 366.19 min, paper, fastest, hidden by the filter)");
	a.mode = REF_PINNED, a.ref_hidden = false;
	assert_string_equal(describe_ref(&ds, &a, false, buf, sizeof buf),
			    "Krai/7920T_2xA5000_hdd (N=2, 366.19 min, pinned)");
	a.ref = -1;
	assert_string_equal(describe_ref(&ds, &a, false, buf, sizeof buf), "none (no rows shown)");
	a.mode = REF_FAMILY, a.rule = RULE_SLOWEST;
	assert_string_equal(describe_ref(&ds, &a, true, buf, sizeof buf), "per family (paper rule in each)");
	assert_string_equal(describe_ref(&ds, &a, false, buf, sizeof buf),
			    "per family (each family's fewest accelerators, ties to the slowest)");
	a.rule = RULE_MEDIAN;
	assert_string_equal(describe_ref(&ds, &a, true, buf, sizeof buf), "per family (median rule in each)");
	assert_string_equal(describe_ref(&ds, &a, false, buf, sizeof buf),
			    "per family (each family's fewest accelerators, the median)");

	const char *fam[] = { "H100 SXM", "B200" }, *ven[] = { "NVIDIA" };
	struct filter f = { 0 };
	assert_string_equal(describe_filter(&f, buf, sizeof buf), "all");
	assert_true(filter_empty(&f));
	f.vendors = ven, f.nvendors = 1;
	assert_string_equal(describe_filter(&f, buf, sizeof buf), "1 other");
	assert_false(filter_empty(&f));
	f.families = fam, f.nfamilies = 1;
	assert_string_equal(describe_filter(&f, buf, sizeof buf), "H100 SXM +1");
	f.nvendors = 0;
	assert_string_equal(describe_filter(&f, buf, sizeof buf), "H100 SXM");
	f.nfamilies = 2;
	assert_string_equal(describe_filter(&f, buf, sizeof buf), "H100 SXM +1");
}

static void test_cross_round_entries(void **state)
{
	static const char csv[] =
		"round,submitter,system,accelerators,benchmark,minutes\n"
		"v4.0,alpha,box-8,8,bert,10\n"
		"v4.0,beta,box-8,8,bert,11\n"
		"v4.0,alpha,big,64,bert,2\n"
		"v4.1,gamma,new-8,8,bert,7\n"
		"v4.1,gamma,new-32,32,bert,2.5\n";
	struct dataset ds;
	struct analysis a;
	struct params p;
	struct table_view v = { 0 };
	struct gs_err err;
	char buf[512];
	size_t cands = 0;

	(void)state;
	memset(&ds, 0, sizeof ds);
	memset(&a, 0, sizeof a);
	params_init(&p);
	p.mode = REF_PAPER;
	p.round = "v4.1";
	assert_int_equal(dataset_load_buffer(&ds, "t.csv", csv, sizeof csv - 1, &err), 0);
	dataset_classify(&ds);
	for (int all = 0; all < 2; all++) {
		p.all_rounds = all;
		assert_int_equal(analysis_run(&ds, &p, &a, &err), 0);
		assert_int_equal(table_names(&v, &ds, &a), 0);
		assert_int_equal(a.n, all ? 5u : 2u);
		for (size_t i = 0; i < a.n; i++) {
			const struct row *r = &ds.rows[a.rows[i].row];
			char want[64];
			describe_row(&v, &ds, &a, i, buf, sizeof buf);
			snprintf(want, sizeof want, "%s ", r->round);
			if (all)
				assert_true(strncmp(buf, want, strlen(want)) == 0);
			else
				assert_string_equal(buf, r->system);
		}
		for (size_t g = 0; g < a.ngroups; g++)
			for (size_t c = 0; c < a.groups[g].ncand; c++) {
				const struct row *r = &ds.rows[a.groups[g].cand[c].row];
				char want[64];
				describe_cand(&ds, &a, &a.groups[g].cand[c], buf, sizeof buf);
				snprintf(want, sizeof want, "%s%s%s/%s (", all ? r->round : "", all ? " " : "",
					 r->submitter, r->system);
				if (strncmp(buf, want, strlen(want)) != 0)
					fail_msg("candidate '%s' does not start with '%s'", buf, want);
				assert_non_null(strstr(buf, " min) -> "));
				cands += all;
			}
	}
	assert_int_equal(cands, 3); /* box-8 twice (v4.0), new-8 (v4.1) */
	/* the shared id is named SUBMITTER/SYSTEM in the row list too */
	for (size_t i = 0; i < a.n; i++)
		if (strcmp(ds.rows[a.rows[i].row].system, "box-8") == 0)
			assert_non_null(strstr(describe_row(&v, &ds, &a, i, buf, sizeof buf), "/box-8"));
	table_view_free(&v);
	analysis_free(&a);
	dataset_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bracket_text),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_groups_list),
		cmocka_unit_test(test_groups_paper),
		cmocka_unit_test(test_cand_order),
		cmocka_unit_test(test_cross_round_entries),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_ref_and_filter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
