/* metric_reg.c: the registry of metrics and columns (see metric_reg.h). Each getter is one
 * line of arithmetic on an analysed row; everything else about a column is data. */
#include "metric_reg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "text.h"

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* ---- getters -------------------------------------------------------------------------- */

static double v_ep(const struct arow *r) { return r->Ep; }
static double v_s(const struct arow *r) { return r->S; }
static double v_e(const struct arow *r) { return arow_e(r); }
static double v_t(const struct arow *r) { return r->T; }
static double v_a(const struct arow *r) { return r->A; }
static double v_n(const struct arow *r) { return r->N; }
static double v_cluster(const struct arow *r) { return r->cluster; }
static double v_pareto(const struct arow *r) { return r->pareto; }
static double v_spread(const struct arow *r) { return (r->t_hi - r->t_lo) / r->T; }
static double v_kwh(const struct arow *r) { return r->kwh; }
static double v_cost(const struct arow *r) { return arow_cost(r); }
static double v_xh(const struct arow *r) { return 60 / r->T; }

static const char *t_system(const struct row *r) { return nz(r->system); }
static const char *t_submitter(const struct row *r) { return nz(r->submitter); }
static const char *t_family(const struct row *r) { return nz(r->family); }
static const char *t_round(const struct row *r) { return nz(r->round); }
static const char *t_division(const struct row *r) { return nz(r->division); }

static void i_ep(const struct aci *c, const struct arow *r, double *lo, double *hi) { (void)r; *lo = c->ep_lo; *hi = c->ep_hi; }
static void i_s(const struct aci *c, const struct arow *r, double *lo, double *hi) { (void)r; *lo = c->s_lo; *hi = c->s_hi; }
static void i_t(const struct aci *c, const struct arow *r, double *lo, double *hi) { (void)r; *lo = c->t_lo; *hi = c->t_hi; }
static void i_a(const struct aci *c, const struct arow *r, double *lo, double *hi) { (void)r; *lo = c->a_lo; *hi = c->a_hi; }
/* X = 60 / T falls as T rises: its interval is T's turned round */
static void i_xh(const struct aci *c, const struct arow *r, double *lo, double *hi) { (void)r; *lo = 60 / c->t_hi; *hi = 60 / c->t_lo; }
static void i_e(const struct aci *c, const struct arow *r, double *lo, double *hi) { *lo = c->s_lo / r->N; *hi = c->s_hi / r->N; }

static double f_ep(double t, double n, double tr, double nr) { return tr / t * nr / n; }
static double f_s(double t, double n, double tr, double nr) { (void)n; (void)nr; return tr / t; }
static double f_e(double t, double n, double tr, double nr) { (void)nr; return tr / t / n; }
static double f_t(double t, double n, double tr, double nr) { (void)n; (void)tr; (void)nr; return t; }
static double f_xh(double t, double n, double tr, double nr) { (void)n; (void)tr; (void)nr; return 60 / t; }
static double f_a(double t, double n, double tr, double nr) { (void)tr; (void)nr; return n * t / 60; }

/* ---- the registry --------------------------------------------------------------------- */

const struct col_def col_reg[COL_COUNT] = {
	[COL_EP] = { COL_EP, { "ep", "e'", "eprime" }, "E'", "E'", "normalized efficiency E'",
		     "normalized efficiency: S / (N / N_ref) = A_ref / A; 1 for the reference",
		     true, 6, 80, true, CF_SIG3, v_ep, NULL, i_ep, f_ep, "e_prime", false },
	[COL_S] = { COL_S, { "s", "speedup" }, "S", "S", "speedup S", "speedup: T_ref / T",
		    true, 6, 50, true, CF_SIG3, v_s, NULL, i_s, f_s, "speedup", false },
	[COL_E] = { COL_E, { "e", "efficiency" }, "E", "E", "efficiency E",
		    "efficiency: S / N (the paper's Eq. 2)",
		    true, 6, 20, true, CF_SIG3, v_e, NULL, i_e, f_e, "efficiency", false },
	[COL_T] = { COL_T, { "t", "min", "minutes", "time" }, "T", "min", "minutes",
		    "T, minutes to train (the official olympic average of the runs)",
		    false, 7, 75, true, CF_FIXED2, v_t, NULL, i_t, f_t, "minutes", false },
	[COL_A] = { COL_A, { "a", "acc-hours", "accelerator-hours" }, "A", "A", "accelerator-hours A",
		    "accelerator-hours: N x T / 60, the cost of one training",
		    false, 6, 72, true, CF_SIG3, v_a, NULL, i_a, f_a, "acc_hours", false },
	[COL_N] = { COL_N, { "n" }, "N", "N", "accelerators N", "accelerators in the system",
		    false, 5, 85, true, CF_COUNT, v_n, NULL, NULL, NULL, NULL, false },
	[COL_SYSTEM] = { COL_SYSTEM, { "system" }, "system", "system", "system",
			 "system id; SUBMITTER/SYSTEM when two submitters share the id; ~ marks a cut",
			 false, 16, 100, false, CF_OWN, NULL, t_system, NULL, NULL, NULL, false },
	[COL_SUBMITTER] = { COL_SUBMITTER, { "submitter" }, "submitter", "submitter", "submitter",
			    "who submitted the result",
			    false, 10, 40, false, CF_TEXT, NULL, t_submitter, NULL, NULL, NULL, false },
	[COL_FAMILY] = { COL_FAMILY, { "family", "fam" }, "family", "family", "family",
			 "accelerator family (from the families file)",
			 false, 9, 73, false, CF_TEXT, NULL, t_family, NULL, NULL, NULL, false },
	[COL_CLUSTER] = { COL_CLUSTER, { "cluster", "cl" }, "cl", "cl", "cluster", "cluster letter",
			  false, 2, 60, false, CF_OWN, v_cluster, NULL, NULL, NULL, NULL, false },
	[COL_PARETO] = { COL_PARETO, { "pareto", "p" }, "P", "P", "Pareto mark", "marks: R, *, > as above",
			 true, 4, 74, false, CF_OWN, v_pareto, NULL, NULL, NULL, NULL, false },
	[COL_SPREAD] = { COL_SPREAD, { "spread" }, "spread", "spread", "spread",
			 "fastest to slowest run, as a share of T",
			 false, 6, 30, true, CF_OWN, v_spread, NULL, NULL, NULL, NULL, false },
	[COL_KWH] = { COL_KWH, { "kwh", "energy" }, "kWh", "kWh", "energy kWh",
		      "energy to train, from the power logs (- where none were submitted)",
		      false, 6, 35, true, CF_SIG3, v_kwh, NULL, NULL, NULL, "kwh", true },
	[COL_COST] = { COL_COST, { "cost", "usd" }, "cost", "cost $", "cost to train",
		       "cost to train: A x the family's price per hour, low-high (- without a price)",
		       false, 9, 33, true, CF_OWN, v_cost, NULL, NULL, NULL, NULL, true },
	[COL_ROUND] = { COL_ROUND, { "round" }, "round", "round", "round",
			"the MLPerf round (cross-round view, A, only)",
			false, 5, 95, false, CF_TEXT, NULL, t_round, NULL, NULL, NULL, false },
	[COL_DIV] = { COL_DIV, { "division", "div" }, "div", "div", "division", "closed or open division",
		      false, 0, 0, false, CF_TEXT, NULL, t_division, NULL, NULL, NULL, false },
	[COL_XH] = { COL_XH, { "xh", "x/h", "per-hour", "trainings-per-hour" }, "X/h", "X/h",
		     "trainings per hour X/h", "trainings per hour: X = 60 / T, the throughput of one system",
		     true, 6, 25, true, CF_SIG3, v_xh, NULL, i_xh, f_xh, NULL, true },
};

/* The rank is a column of the table but of no row: nothing sorts on it. */
static const struct col_def rank_def = {
	-1, { NULL }, "#", "#", "rank", "rank in the current sort",
	false, 3, 90, true, CF_OWN, NULL, NULL, NULL, NULL, NULL, false
};

const struct col_def *const table_cols[TC_COUNT] = {
	[TC_RANK] = &rank_def, [TC_ROUND] = &col_reg[COL_ROUND], [TC_SUB] = &col_reg[COL_SUBMITTER],
	[TC_SYS] = &col_reg[COL_SYSTEM], [TC_FAM] = &col_reg[COL_FAMILY], [TC_N] = &col_reg[COL_N],
	[TC_MIN] = &col_reg[COL_T], [TC_S] = &col_reg[COL_S], [TC_EP] = &col_reg[COL_EP],
	[TC_E] = &col_reg[COL_E], [TC_A] = &col_reg[COL_A], [TC_XH] = &col_reg[COL_XH], [TC_KWH] = &col_reg[COL_KWH],
	[TC_COST] = &col_reg[COL_COST], [TC_CL] = &col_reg[COL_CLUSTER],
	[TC_MARK] = &col_reg[COL_PARETO], [TC_SPREAD] = &col_reg[COL_SPREAD],
};

const struct col_def *const metric_cols[MET_COUNT] = {
	[MET_EP] = &col_reg[COL_EP], [MET_S] = &col_reg[COL_S], [MET_T] = &col_reg[COL_T],
	[MET_A] = &col_reg[COL_A], [MET_E] = &col_reg[COL_E], [MET_KWH] = &col_reg[COL_KWH],
	[MET_COST] = &col_reg[COL_COST], [MET_XH] = &col_reg[COL_XH],
};

/* ---- look-ups ------------------------------------------------------------------------- */

const struct col_def *reg_col(enum col c)
{
	return &col_reg[(unsigned)c < COL_COUNT ? c : COL_EP];
}

const struct col_def *reg_metric(enum metric m)
{
	return metric_cols[(unsigned)m < MET_COUNT ? m : MET_EP];
}

static bool named(const struct col_def *d, const char *s)
{
	for (int j = 0; j < COL_NAMES && d->names[j]; j++)
		if (ascii_casecmp(s, d->names[j]) == 0)
			return true;
	return false;
}

int reg_col_parse(const char *s)
{
	for (int c = 0; c < COL_COUNT; c++)
		if (named(&col_reg[c], s))
			return c;
	return -1;
}

int reg_metric_parse(const char *s)
{
	for (int m = 0; m < MET_COUNT; m++)
		if (named(metric_cols[m], s))
			return m;
	return -1;
}

char *reg_metric_list(const char *sep, bool syms, char *buf, size_t n)
{
	size_t at = 0;

	if (n)
		buf[0] = '\0';
	for (int m = 0; m < MET_COUNT && at < n; m++) {
		int w = snprintf(buf + at, n - at, "%s%s", m ? sep : "",
				 syms ? metric_cols[m]->sym : metric_cols[m]->names[0]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	return buf;
}

const char *metric_name(enum metric m)
{
	return reg_metric(m)->sym;
}

double arow_metric(const struct arow *r, enum metric m)
{
	return (unsigned)m < MET_COUNT ? metric_cols[m]->value(r) : NAN;
}
