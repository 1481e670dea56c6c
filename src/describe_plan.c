/* describe_plan.c: the shared sentences of the planner (see describe.h): a prediction, a
 * query, a query's answer and a cell of the break-even trend. */
#include "describe.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

/* Appends to buf[0..n) at *used like snprintf, never past the end. */
static void add(char *buf, size_t n, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
	va_list ap;

	if (*used >= n)
		return;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *used, n - *used, fmt, ap);
	va_end(ap);
	if (k > 0)
		*used += (size_t)k;
}

/* "22.7 (21.9..23.6)", or the value alone without an interval. */
static void add_ci(char *buf, size_t n, size_t *used, double v, double lo, double hi, int sig)
{
	char b1[32], b2[32], b3[32];

	add(buf, n, used, "%s", fmt_sig(v, sig, b1, sizeof b1));
	if (isfinite(lo) && isfinite(hi))
		add(buf, n, used, " (%s..%s)", fmt_sig(lo, sig, b2, sizeof b2), fmt_sig(hi, sig, b3, sizeof b3));
}

char *describe_pred(const struct pred *p, char *buf, size_t n)
{
	size_t used = 0;
	char b1[32], b2[32];

	if (n)
		buf[0] = '\0';
	if (!p->ok) {
		add(buf, n, &used, "not predicted: %s", p->why);
		return buf;
	}
	if (p->split)
		add(buf, n, &used, "(throughput law x RCP at GBS %s) ", fmt_count(p->gbs, b1, sizeof b1));
	add(buf, n, &used, "N %s", fmt_count(p->n, b1, sizeof b1));
	if (p->node > 0)
		add(buf, n, &used, " (%s node%s of %ld%s", fmt_count(p->n / (double)p->node, b1, sizeof b1),
		    p->n == (double)p->node ? "" : "s", p->node, p->n_law != p->n ? "" : ")");
	if (p->node > 0 && p->n_law != p->n)
		add(buf, n, &used, "; the law's N %s)", fmt_count(p->n_law, b1, sizeof b1));
	if (isfinite(p->n_lo) && p->n_lo == p->n_hi)
		add(buf, n, &used, ", 90%% N %s", fmt_count(p->n_lo, b1, sizeof b1));
	else if (isfinite(p->n_lo) || isfinite(p->n_hi))
		add(buf, n, &used, ", 90%% N %s..%s", isfinite(p->n_lo) ? fmt_count(p->n_lo, b1, sizeof b1) : "-",
		    isfinite(p->n_hi) ? fmt_count(p->n_hi, b2, sizeof b2) : "-");
	add(buf, n, &used, ": T ");
	add_ci(buf, n, &used, p->t, p->t_lo, p->t_hi, 3);
	add(buf, n, &used, " min, E' ");
	add_ci(buf, n, &used, p->ep, p->ep_lo, p->ep_hi, 3);
	add(buf, n, &used, ", A ");
	add_ci(buf, n, &used, p->a, p->a_lo, p->a_hi, 3);
	if (isfinite(p->cost_lo))
		add(buf, n, &used, ", cost %s..%s USD", fmt_sig(p->cost_lo, 3, b1, sizeof b1),
		    fmt_sig(p->cost_hi, 3, b2, sizeof b2));
	if (!isfinite(p->t_lo))
		add(buf, n, &used, " (no interval: no degree of freedom)");
	if (p->extrapolated)
		add(buf, n, &used, " (extrapolated)");
	add(buf, n, &used, "; %s%s", describe_verdict_lead(p->verdict), p->verdict);
	if (p->note[0])
		add(buf, n, &used, " (time law: %s)", p->note);
	return buf;
}

const char *describe_verdict_lead(const char *verdict)
{
	/* "poor fit: ..." names the fit itself; "ok", "weak (...)" need the word */
	return strncmp(verdict, "poor fit", 8) == 0 ? "" : "fit ";
}

const char *describe_sure(enum q_sure s)
{
	return s == QS_SURELY ? "surely" : s == QS_POSSIBLY ? "possibly" : "no";
}

char *describe_query(const struct query *q, char *buf, size_t n)
{
	size_t used = 0;
	char b[32];
	int k = 0;

	if (n)
		buf[0] = '\0';
	if (!isnan(q->deadline))
		add(buf, n, &used, "%sT <= %s min", k++ ? ", " : "", fmt_short(q->deadline, b, sizeof b));
	if (!isnan(q->max_acc_hours))
		add(buf, n, &used, "%sA <= %s", k++ ? ", " : "", fmt_short(q->max_acc_hours, b, sizeof b));
	if (!isnan(q->max_cost))
		add(buf, n, &used, "%scost <= %s USD", k++ ? ", " : "", fmt_short(q->max_cost, b, sizeof b));
	if (!isnan(q->max_kwh))
		add(buf, n, &used, "%senergy <= %s kWh", k++ ? ", " : "", fmt_short(q->max_kwh, b, sizeof b));
	add(buf, n, &used, "%sminimizing %s", k ? "; " : "no constraint; ", q_obj_name(q->minimize));
	return buf;
}

char *describe_q_row(const struct arow *r, const char *name, const struct query *q,
		     enum q_sure cost, char *buf, size_t n)
{
	size_t used = 0;
	char b1[32], b2[32], b3[32];

	if (n)
		buf[0] = '\0';
	add(buf, n, &used, "%s (N=%s): T %s min, A %s", name, fmt_count(r->N, b1, sizeof b1),
	    fmt_fixed(r->T, 2, b2, sizeof b2), fmt_sig(r->A, 3, b3, sizeof b3));
	if (isfinite(r->cost_lo))
		add(buf, n, &used, ", cost %s..%s USD", fmt_sig(r->cost_lo, 3, b1, sizeof b1),
		    fmt_sig(r->cost_hi, 3, b2, sizeof b2));
	if (isfinite(r->kwh))
		add(buf, n, &used, ", %s kWh", fmt_sig(r->kwh, 3, b1, sizeof b1));
	if (!isnan(q->max_cost))
		add(buf, n, &used, " (%s within %s USD)", describe_sure(cost),
		    fmt_short(q->max_cost, b1, sizeof b1));
	return buf;
}

char *describe_q_state(const struct q_answer *ans, char *buf, size_t n)
{
	switch (ans->state) {
	case QA_ROW: snprintf(buf, n, "%zu of %zu rows meet it", ans->nmeet, ans->nrows); break;
	case QA_NONE: snprintf(buf, n, "none of its %zu rows meets it", ans->nrows); break;
	case QA_UNPRICED: snprintf(buf, n, "left out: no price (prices.csv)"); break;
	case QA_NO_ENERGY: snprintf(buf, n, "left out: no energy measured"); break;
	}
	return buf;
}

char *describe_q_pred(const struct q_answer *ans, const struct query *q, char *buf, size_t n)
{
	size_t used = 0;
	char b[600];

	if (n)
		buf[0] = '\0';
	if (!ans->tried) {
		add(buf, n, &used, "not predicted: %s", query_constrained(q) ? "no fit" : "no constraint");
		return buf;
	}
	if (!ans->pred.ok) {
		add(buf, n, &used, "not predicted: %s", ans->pred.why);
		return buf;
	}
	add(buf, n, &used, "predicted %s", describe_pred(&ans->pred, b, sizeof b));
	if (!isnan(q->max_cost))
		add(buf, n, &used, " (%s within budget)", describe_sure(ans->pred_cost));
	return buf;
}

char *describe_trend_cell(const struct trend_cell *c, char *buf, size_t n)
{
	char b[48];

	if (!c->has)
		snprintf(buf, n, "-");
	else if (c->n_ref >= 0)
		snprintf(buf, n, "%s @%ld", describe_bracket_short(&c->be, b, sizeof b), c->n_ref);
	else
		snprintf(buf, n, "%s", describe_bracket_short(&c->be, b, sizeof b));
	return buf;
}
