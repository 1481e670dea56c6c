/* metric_reg.c: the registry of metrics and columns (see metric_reg.h). Each getter is one
 * line of arithmetic on an analysed row; everything else about a column is data. */
#include "metric_reg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arow.h"
#include "text.h"

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
static double v_gbs(const struct arow *r) { return r->gbs; }
static double v_samples(const struct arow *r) { return r->Sc; }
static double v_thru(const struct arow *r) { return r->X; }
static double v_ethru(const struct arow *r) { return r->e_thru; }
static double v_econv(const struct arow *r) { return r->e_conv; }
static double v_econv_rcp(const struct arow *r) { return r->e_conv_rcp; }

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
static void i_ethru(const struct aci *c, const struct arow *r, double *lo, double *hi) { (void)r; *lo = c->thru_lo; *hi = c->thru_hi; }
static void i_econv(const struct aci *c, const struct arow *r, double *lo, double *hi) { (void)r; *lo = c->conv_lo; *hi = c->conv_hi; }

static double f_ep(double t, double n, double tr, double nr) { return tr / t * nr / n; }
static double f_s(double t, double n, double tr, double nr) { (void)n; (void)nr; return tr / t; }
static double f_e(double t, double n, double tr, double nr) { (void)nr; return tr / t / n; }
static double f_t(double t, double n, double tr, double nr) { (void)n; (void)tr; (void)nr; return t; }
static double f_xh(double t, double n, double tr, double nr) { (void)n; (void)tr; (void)nr; return 60 / t; }
static double f_a(double t, double n, double tr, double nr) { (void)tr; (void)nr; return n * t / 60; }

/* ---- the registry --------------------------------------------------------------------- */

const struct col_def col_reg[COL_COUNT] = {
	[COL_EP] = {
		.sort = COL_EP,
		.names = { "ep", "e'", "eprime" },
		.sym = "E'",
		.head = "E'",
		.long_name = "normalized efficiency E'",
		.help = "normalized efficiency: S / (N / N_ref) = A_ref / A; 1 for the reference",
		.desc = true,
		.w = 6,
		.prio = 80,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_ep,
		.interval = i_ep,
		.from_t = f_ep,
		.csv = "e_prime",
	},
	[COL_S] = {
		.sort = COL_S,
		.names = { "s", "speedup" },
		.sym = "S",
		.head = "S",
		.long_name = "speedup S",
		.help = "speedup: T_ref / T",
		.desc = true,
		.w = 6,
		.prio = 50,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_s,
		.interval = i_s,
		.from_t = f_s,
		.csv = "speedup",
	},
	[COL_E] = {
		.sort = COL_E,
		.names = { "e", "efficiency" },
		.sym = "E",
		.head = "E",
		.long_name = "efficiency E",
		.help = "efficiency: S / N (the paper's Eq. 2)",
		.desc = true,
		.w = 6,
		.prio = 20,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_e,
		.interval = i_e,
		.from_t = f_e,
		.csv = "efficiency",
	},
	[COL_T] = {
		.sort = COL_T,
		.names = { "t", "min", "minutes", "time" },
		.sym = "T",
		.head = "min",
		.long_name = "minutes",
		.help = "T, minutes to train (the official olympic average of the runs)",
		.w = 7,
		.prio = 75,
		.right = true,
		.fmt = CF_FIXED2,
		.value = v_t,
		.interval = i_t,
		.from_t = f_t,
		.csv = "minutes",
	},
	[COL_A] = {
		.sort = COL_A,
		.names = { "a", "acc-hours", "accelerator-hours" },
		.sym = "A",
		.head = "A",
		.long_name = "accelerator-hours A",
		.help = "accelerator-hours: N x T / 60, the cost of one training",
		.w = 6,
		.prio = 72,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_a,
		.interval = i_a,
		.from_t = f_a,
		.csv = "acc_hours",
	},
	[COL_N] = {
		.sort = COL_N,
		.names = { "n" },
		.sym = "N",
		.head = "N",
		.long_name = "accelerators N",
		.help = "accelerators in the system",
		.w = 5,
		.prio = 85,
		.right = true,
		.fmt = CF_COUNT,
		.value = v_n,
	},
	[COL_SYSTEM] = {
		.sort = COL_SYSTEM,
		.names = { "system" },
		.sym = "system",
		.head = "system",
		.long_name = "system",
		.help = "system id; SUBMITTER/SYSTEM when two submitters share the id; ~ marks a cut",
		.w = 16,
		.prio = 100,
		.fmt = CF_OWN,
		.text = t_system,
	},
	[COL_SUBMITTER] = {
		.sort = COL_SUBMITTER,
		.names = { "submitter" },
		.sym = "submitter",
		.head = "submitter",
		.long_name = "submitter",
		.help = "who submitted the result",
		.w = 10,
		.prio = 40,
		.fmt = CF_TEXT,
		.text = t_submitter,
	},
	[COL_FAMILY] = {
		.sort = COL_FAMILY,
		.names = { "family", "fam" },
		.sym = "family",
		.head = "family",
		.long_name = "family",
		.help = "accelerator family (families file); family mode: after its plot letter",
		.w = 9,
		.prio = 73,
		.fmt = CF_TEXT,
		.text = t_family,
	},
	[COL_CLUSTER] = {
		.sort = COL_CLUSTER,
		.names = { "cluster", "cl" },
		.sym = "cl",
		.head = "cl",
		.long_name = "cluster",
		.help = "k-means cluster, numbered 1 2 3 as on the clusters line",
		.w = 2,
		.prio = 60,
		.fmt = CF_OWN,
		.value = v_cluster,
	},
	[COL_PARETO] = {
		.sort = COL_PARETO,
		.names = { "pareto", "p" },
		.sym = "P",
		.head = "P",
		.long_name = "Pareto mark",
		.help = "marks: R, *, > as above",
		.desc = true,
		.w = 4,
		.prio = 74,
		.fmt = CF_OWN,
		.value = v_pareto,
	},
	[COL_SPREAD] = {
		.sort = COL_SPREAD,
		.names = { "spread" },
		.sym = "spread",
		.head = "spread",
		.long_name = "spread",
		.help = "fastest to slowest run, as a share of T",
		.w = 6,
		.prio = 30,
		.right = true,
		.fmt = CF_OWN,
		.value = v_spread,
	},
	[COL_KWH] = {
		.sort = COL_KWH,
		.names = { "kwh", "energy" },
		.sym = "kWh",
		.head = "kWh",
		.long_name = "energy kWh",
		.help = "energy to train, from the power logs (- where none were submitted)",
		.w = 6,
		.prio = 35,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_kwh,
		.csv = "kwh",
		.extra = true,
	},
	[COL_COST] = {
		.sort = COL_COST,
		.names = { "cost", "usd" },
		.sym = "cost",
		.head = "cost $",
		.long_name = "cost to train",
		.help = "cost to train: A x the family's price per hour, low-high (- without a price)",
		.w = 9,
		.prio = 33,
		.right = true,
		.fmt = CF_OWN,
		.value = v_cost,
		.extra = true,
	},
	[COL_ROUND] = {
		.sort = COL_ROUND,
		.names = { "round" },
		.sym = "round",
		.head = "round",
		.long_name = "round",
		.help = "the MLPerf round (cross-round view, A, only), after its plot letter",
		.w = 5,
		.prio = 95,
		.fmt = CF_TEXT,
		.text = t_round,
	},
	[COL_DIV] = {
		.sort = COL_DIV,
		.names = { "division", "div" },
		.sym = "div",
		.head = "div",
		.long_name = "division",
		.help = "closed or open division",
		.w = 0,
		.prio = 0,
		.fmt = CF_TEXT,
		.text = t_division,
	},
	[COL_XH] = {
		.sort = COL_XH,
		.names = { "xh", "x/h", "per-hour", "trainings-per-hour" },
		.sym = "X/h",
		.head = "X/h",
		.long_name = "trainings per hour X/h",
		.help = "trainings per hour: X = 60 / T, the throughput of one system",
		.desc = true,
		.w = 6,
		.prio = 25,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_xh,
		.interval = i_xh,
		.from_t = f_xh,
		.extra = true,
	},
	[COL_GBS] = {
		.sort = COL_GBS,
		.names = { "gbs", "batch", "global-batch-size" },
		.sym = "GBS",
		.head = "GBS",
		.long_name = "global batch size GBS",
		.help = "global batch size, in the benchmark's sample unit (- without)",
		.w = 6,
		.prio = 22,
		.right = true,
		.fmt = CF_COUNT,
		.value = v_gbs,
		.extra = true,
		.asked = true,
	},
	[COL_SAMPLES] = {
		.sort = COL_SAMPLES,
		.names = { "samples", "charged-samples" },
		.sym = "S'",
		.head = "samples",
		.long_name = "charged samples S'",
		.help = "samples to converge x scaling factor, what the score charges (native unit)",
		.w = 8,
		.prio = 21,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_samples,
		.csv = "charged_samples",
		.extra = true,
		.asked = true,
	},
	[COL_THRU] = {
		.sort = COL_THRU,
		.names = { "throughput", "x" },
		.sym = "X",
		.head = "X/min",
		.long_name = "throughput X",
		.help = "throughput: X = S' / T, samples per minute",
		.desc = true,
		.w = 7,
		.prio = 23,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_thru,
		.csv = "throughput",
		.extra = true,
		.asked = true,
	},
	[COL_ETHRU] = {
		.sort = COL_ETHRU,
		.names = { "e_thru", "thru", "ethru" },
		.sym = "thr",
		.head = "thru",
		.long_name = "throughput efficiency e_thru",
		.help = "E' / e_conv = (X / N) / (X_ref / N_ref): throughput per accelerator",
		.desc = true,
		.w = 6,
		.prio = 27,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_ethru,
		.interval = i_ethru,
		.csv = "e_thru",
		.extra = true,
		.asked = true,
	},
	[COL_ECONV] = {
		.sort = COL_ECONV,
		.names = { "e_conv", "conv", "econv" },
		.sym = "conv",
		.head = "conv",
		.long_name = "convergence efficiency e_conv",
		.help = "S'_ref / S': samples the reference needed per sample this row needed",
		.desc = true,
		.w = 6,
		.prio = 26,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_econv,
		.interval = i_econv,
		.csv = "e_conv",
		.extra = true,
		.asked = true,
	},
	[COL_ECONV_RCP] = {
		.sort = COL_ECONV_RCP,
		.names = { "e_conv_rcp", "conv-rcp" },
		.sym = "rcp",
		.head = "rcp",
		.long_name = "RCP convergence efficiency e_conv_rcp",
		.help = "rcp_samples_ref / rcp_samples: the convergence cost the RCPs predict for the GBS",
		.desc = true,
		.w = 6,
		.prio = 19,
		.right = true,
		.fmt = CF_SIG3,
		.value = v_econv_rcp,
		.csv = "e_conv_rcp",
		.extra = true,
		.asked = true,
	},
};

/* The rank is a column of the table but of no row: nothing sorts on it. */
static const struct col_def rank_def = {
	.sort = -1,
	.sym = "#",
	.head = "#",
	.long_name = "rank",
	.help = "rank in the current sort",
	.w = 3,
	.prio = 90,
	.right = true,
	.fmt = CF_OWN,
};

const struct col_def *const table_cols[TC_COUNT] = {
	[TC_RANK] = &rank_def, [TC_ROUND] = &col_reg[COL_ROUND], [TC_SUB] = &col_reg[COL_SUBMITTER],
	[TC_SYS] = &col_reg[COL_SYSTEM], [TC_FAM] = &col_reg[COL_FAMILY], [TC_N] = &col_reg[COL_N],
	[TC_MIN] = &col_reg[COL_T], [TC_S] = &col_reg[COL_S], [TC_EP] = &col_reg[COL_EP],
	[TC_E] = &col_reg[COL_E], [TC_A] = &col_reg[COL_A], [TC_XH] = &col_reg[COL_XH], [TC_KWH] = &col_reg[COL_KWH],
	[TC_COST] = &col_reg[COL_COST], [TC_CL] = &col_reg[COL_CLUSTER],
	[TC_MARK] = &col_reg[COL_PARETO], [TC_SPREAD] = &col_reg[COL_SPREAD],
	[TC_GBS] = &col_reg[COL_GBS], [TC_SAMPLES] = &col_reg[COL_SAMPLES], [TC_THRU] = &col_reg[COL_THRU],
	[TC_ETHRU] = &col_reg[COL_ETHRU], [TC_ECONV] = &col_reg[COL_ECONV],
	[TC_ECONV_RCP] = &col_reg[COL_ECONV_RCP],
};

const struct col_def *const metric_cols[MET_COUNT] = {
	[MET_EP] = &col_reg[COL_EP], [MET_S] = &col_reg[COL_S], [MET_T] = &col_reg[COL_T],
	[MET_A] = &col_reg[COL_A], [MET_E] = &col_reg[COL_E], [MET_KWH] = &col_reg[COL_KWH],
	[MET_COST] = &col_reg[COL_COST], [MET_XH] = &col_reg[COL_XH], [MET_ETHRU] = &col_reg[COL_ETHRU],
	[MET_ECONV] = &col_reg[COL_ECONV], [MET_GBS] = &col_reg[COL_GBS],
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

char *reg_col_list(const char *sep, bool shown, char *buf, size_t n)
{
	size_t at = 0;

	if (n)
		buf[0] = '\0';
	for (int c = 0; c < COL_COUNT && at < n; c++) {
		bool has = !shown;
		for (int t = 0; t < TC_COUNT && !has; t++)
			has = table_cols[t]->sort == c;
		if (!has)
			continue;
		int w = snprintf(buf + at, n - at, "%s%s", at ? sep : "", col_reg[c].names[0]);
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
