/* report_plan.c: the planner's --print reports as text: query, predict and trend. Their
 * sentences come from the describe layer, so the explorer says the same. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_reg.h"
#include "describe.h"
#include "fmt.h"
#include "planner.h"
#include "table.h"
#include "text.h"

static void title(const struct analysis *a, FILE *out)
{
	fprintf(out, "%s (%s), %s %s", workload_label(a->workload), a->workload,
		a->all_rounds ? "all rounds up to" : "round", a->round);
}

int report_query(const struct dataset *ds, const struct analysis *a, const struct query *q,
		 const struct table_view *v, FILE *out, struct gs_err *err)
{
	struct q_result r = { 0 };
	char line[1200], name[1024], b[160];

	if (query_run(ds, a, q, &r, err) < 0)
		return -1;
	title(a, out);
	fprintf(out, ": %s\n", describe_query(q, line, sizeof line));
	if (r.best >= 0) {
		const struct q_answer *x = &r.ans[r.best];
		const struct arow *ar = &a->rows[x->row];
		fprintf(out, "  best        %s: %s\n", x->family,
			describe_q_row(ar, describe_row(v, ds, a, (size_t)x->row, name, sizeof name), q,
				       x->cost, line, sizeof line));
	} else {
		fputs("  best        none: no shown row meets it\n", out);
	}
	for (size_t k = 0; k < r.n; k++) {
		const struct q_answer *x = &r.ans[k];
		fprintf(out, "  family      %s: %s\n", x->family, describe_q_state(x, b, sizeof b));
		if (x->state == QA_UNPRICED || x->state == QA_NO_ENERGY)
			continue;
		if (x->row >= 0) {
			const struct arow *ar = &a->rows[x->row];
			fprintf(out, "    observed  %s\n",
				describe_q_row(ar, describe_row(v, ds, a, (size_t)x->row, name, sizeof name), q,
					       x->cost, line, sizeof line));
		}
		fprintf(out, "    %s\n", describe_q_pred(x, q, line, sizeof line));
	}
	if (!r.n)
		fputs("  no rows shown\n", out);
	if (r.nunpriced)
		fprintf(out, "  left out    %zu famil%s without a price (prices.csv): no cost answer for %s\n",
			r.nunpriced, r.nunpriced == 1 ? "y" : "ies", r.nunpriced == 1 ? "it" : "them");
	if (r.nno_energy)
		fprintf(out, "  left out    %zu famil%s without energy measured: no kWh answer for %s\n",
			r.nno_energy, r.nno_energy == 1 ? "y" : "ies", r.nno_energy == 1 ? "it" : "them");
	query_free(&r);
	return 0;
}

int report_predict(const struct dataset *ds, const struct analysis *a, double n, double gbs, FILE *out,
		   struct gs_err *err)
{
	char line[800], b[32];

	title(a, out);
	fprintf(out, ": predicted at N %s from each family's USL fit, 90%% interval (delta method "
		"on ln T, Student t); E' on the family's reference\n", fmt_count(n, b, sizeof b));
	for (size_t f = 0; f < a->nfits; f++) {
		struct pred p;
		double lo, hi;
		planner_price(ds, a, a->fits[f].family, &lo, &hi);
		if (planner_predict(ds, a, &a->fits[f], n, gbs, lo, hi, &p, err) < 0)
			return -1;
		fprintf(out, "  %s: %s\n", a->fits[f].family, describe_pred(&p, line, sizeof line));
	}
	if (!a->nfits)
		fputs("  no rows shown\n", out);
	return 0;
}

int report_trend(const struct dataset *ds, const struct params *p, FILE *out, struct gs_err *err)
{
	struct trend t;
	char cell[96], b[32], span[160];
	int fw = 6, *cw;

	if (trend_run(ds, p, &t, err) < 0)
		return -1;
	if (!(cw = calloc(t.nrounds + 1, sizeof *cw))) {
		trend_free(&t);
		err_oom(err, NULL, 0);
		return -1;
	}
	for (size_t f = 0; f < t.nfamilies; f++)
		if (text_columns(t.families[f]) > fw)
			fw = text_columns(t.families[f]);
	for (size_t r = 0; r < t.nrounds; r++) {
		cw[r] = text_columns(t.rounds[r]);
		for (size_t f = 0; f < t.nfamilies; f++) {
			int w = text_columns(describe_trend_cell(trend_cell(&t, f, r), cell, sizeof cell));
			if (w > cw[r])
				cw[r] = w;
		}
	}
	fprintf(out, "%s (%s): break-even per family and round at theta %s (bracket @ reference N), "
		"family mode, rounds %s, current %s\n", workload_label(t.workload), t.workload,
		fmt_short(p->theta, b, sizeof b),
		bench_reg_group_text(t.workload, t.rounds[t.cur], span, sizeof span), t.rounds[t.cur]);
	fprintf(out, "%-*s", fw, "family");
	for (size_t r = 0; r < t.nrounds; r++)
		fprintf(out, "  %-*s", r + 1 < t.nrounds ? cw[r] : 0, t.rounds[r]);
	fputc('\n', out);
	for (size_t f = 0; f < t.nfamilies; f++) {
		fputs(t.families[f], out);
		fprintf(out, "%*s", fw - text_columns(t.families[f]), "");
		for (size_t r = 0; r < t.nrounds; r++) {
			describe_trend_cell(trend_cell(&t, f, r), cell, sizeof cell);
			fprintf(out, "  %-*s", r + 1 < t.nrounds ? cw[r] : 0, cell);
		}
		fputc('\n', out);
	}
	if (!t.nfamilies)
		fputs("(no rows in any round)\n", out);
	free(cw);
	trend_free(&t);
	return 0;
}
