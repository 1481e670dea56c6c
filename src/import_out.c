/* import_out.c: each system x benchmark of an imported tree scored by the official rules (the
 * olympic average of its runs, energy-to-train from its power logs) and written as one row of
 * the results CSV. The model comes from the walk in import.c. */
#include "import_model.h"
#include "csvw.h"
#include "fmt.h"
#include "olympic.h"
#include "power.h"
#include "schema.h"
#include "text.h"
#include "bench_reg.h"
#include "mllog.h"
#include "rcp.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- CSV text ---- */

/* One CSV field: s cleaned by the one sanitizer (control characters, CR and LF included, and
 * invalid UTF-8 become '?'), then written by the one CSV writer (csvw_field), which quotes it
 * when it holds a comma or a quote. Sets *oom when a long field finds no memory. */
static void put_field(FILE *f, const char *s, int *oom)
{
	char small[256], *buf = small;
	size_t n = strlen(s);

	if (n >= sizeof small && !(buf = malloc(n + 1))) {
		*oom = 1;
		return;
	}
	memcpy(buf, s, n + 1);
	utf8_sanitize(buf, n);
	csvw_field(f, buf);
	if (buf != small)
		free(buf);
}

/* A number of minutes, v > 0 and finite, in the fixed notation with `decimals` digits that
 * the results CSV has always used, when that shows it: at least 10^-decimals and below
 * 10^15. Otherwise in the shortest form that reads back exactly ("1.6666666666666668e+303"):
 * %f of a huge value runs to 300 digits, and a tiny one would be written as 0, which the
 * loader refuses. */
static void put_minutes(FILE *f, double v, int decimals)
{
	static const double least[] = { 1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6 };
	char num[64];

	if (decimals >= 0 && decimals <= 6 && v >= least[decimals] && v < 1e15)
		fprintf(f, "%.*f", decimals, v);
	else
		fputs(fmt_roundtrip(v, 15, num, sizeof num), f);
}

/* ---- scoring and output ---- */

/* The order of a cell's runs: successful ones by time (ties by file name), then failed ones
 * by file name. Runs are the jobs cmp_jobs[*rank] (qsort has no context pointer). */
static const struct job *cmp_jobs;

static int cmp_rank(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct job *p = &cmp_jobs[x], *q = &cmp_jobs[y];

	if (p->ok != q->ok)
		return p->ok ? -1 : 1;
	if (p->ok && p->minutes != q->minutes)
		return p->minutes < q->minutes ? -1 : 1;
	return (x > y) - (x < y);
}

/* Orders the runs of c in r[c->njobs] (indices into jobs, c's from base on) and scores c by
 * the olympic average: sets c->scored and c->score, or c->why. */
static void score_runs(const struct job *jobs, size_t base, size_t *r, struct cell *c)
{
	size_t d, lim = olympic_limit(c->bench);
	double sum = 0;
	int w;

	c->nok = 0;
	for (size_t i = 0; i < c->njobs; i++) {
		r[i] = base + i;
		c->nok += jobs[r[i]].ok;
	}
	d = c->njobs - c->nok;
	if (c->njobs > 1) {
		cmp_jobs = jobs;
		qsort(r, c->njobs, sizeof *r, cmp_rank);
	}
	for (size_t i = 0; i < c->njobs; i++) {
		if (jobs[r[i]].unreadable) {
			snprintf(c->why, sizeof c->why, "result log %.100s cannot be read", jobs[r[i]].name);
			return;
		}
		if (jobs[r[i]].unwritable) {
			snprintf(c->why, sizeof c->why, "result log %.100s has a run time too small to write",
				 jobs[r[i]].name);
			return;
		}
	}
	if (c->njobs == 0) {
		snprintf(c->why, sizeof c->why, "no result logs");
		return;
	}
	if (c->sf_bad) {
		snprintf(c->why, sizeof c->why, "unusable scaling.json");
		return;
	}
	w = olympic_window(c->nok, d, lim, &c->lo, &c->hi);
	if (w == 1) {
		snprintf(c->why, sizeof c->why, "%zu of %zu runs failed (at most %zu allowed)", d,
			 c->njobs, lim);
		return;
	}
	if (w == 2) {
		snprintf(c->why, sizeof c->why, "%zu successful run%s, too few to score", c->nok,
			 c->nok == 1 ? "" : "s");
		return;
	}
	for (size_t i = c->lo; i < c->hi; i++)
		sum += jobs[r[i]].minutes;
	/* each run time is finite and positive (mllog_verdict), but a scaling factor near
	 * DBL_MAX (or a tiny one) can still take the product out of range: no score then,
	 * rather than an "inf" or a 0 the loader would refuse */
	c->score = sum / (double)(c->hi - c->lo) * c->sf;
	if (!isfinite(c->score) || !(c->score >= DBL_MIN)) {
		snprintf(c->why, sizeof c->why,
			 "score is not a finite positive number of minutes (mean %g x scaling_factor %g)",
			 sum / (double)(c->hi - c->lo), c->sf);
		return;
	}
	c->scored = 1;
}

/* score_runs of c in m->rank. */
static void score_cell(struct model *m, struct cell *c)
{
	score_runs(m->jobs, c->first, m->rank + c->first, c);
}

/* The file names of runs rank[from, to) of c, ';'-separated, as one CSV field; sets m->oom
 * when out of memory. */
static void put_names(FILE *f, struct model *m, const struct cell *c, size_t from, size_t to)
{
	size_t len = 1, at = 0;
	char *text;

	for (size_t i = from; i < to; i++)
		len += strlen(m->jobs[m->rank[c->first + i]].name) + 1;
	if (!(text = malloc(len))) {
		m->oom = 1;
		return;
	}
	text[0] = '\0';
	for (size_t i = from; i < to; i++) {
		const char *name = m->jobs[m->rank[c->first + i]].name;
		size_t n = strlen(name);
		if (i > from)
			text[at++] = ';';
		memcpy(text + at, name, n + 1);
		at += n;
	}
	put_field(f, text, &m->oom);
	free(text);
}

/* The convergence cells of c: gbs, samples_to_converge, convergence_unit, run_samples (in the
 * order of run_minutes) and rcp_samples; empty where there is nothing sure to say, the reason
 * counted in why[]. */
static void put_convergence(FILE *f, const char *round, struct model *m, const struct cell *c,
			    size_t *why)
{
	double *g = malloc((c->nok ? c->nok : 1) * 2 * sizeof *g), *smp, gbs, mean, rcp;
	enum conv_why w;
	const char *unit;
	char num[64], ruleset[16];

	if (!g) {
		m->oom = 1;
		return;
	}
	smp = g + (c->nok ? c->nok : 1);
	for (size_t i = 0; i < c->nok; i++) {
		g[i] = m->jobs[m->rank[c->first + i]].gbs;
		smp[i] = m->jobs[m->rank[c->first + i]].samples;
	}
	w = import_conv_row(g, smp, c->nok, c->njobs - c->nok, c->bench, &gbs, &mean, &m->oom);
	why[w]++;
	if (w == CONV_NO_DATA || w == CONV_RUN_LACKS || w == CONV_GBS_DIFFER) {
		fputs(",,,,,", f);
		free(g);
		return;
	}
	fprintf(f, ",%s,", fmt_roundtrip(gbs, 15, num, sizeof num));
	if (!isnan(mean))
		fputs(fmt_roundtrip(mean, 15, num, sizeof num), f);
	fprintf(f, ",%s,", import_conv_unit(c->bench, round));
	for (size_t i = 0; i < c->nok; i++)
		fprintf(f, "%s%s", i ? ";" : "", fmt_roundtrip(smp[i], 15, num, sizeof num));
	fputc(',', f);
	rcp = rcp_at(&m->rcp, bench_reg_ruleset(round, ruleset, sizeof ruleset), c->bench, gbs, &unit);
	if (!strcmp(unit, "steps"))
		rcp *= gbs; /* Stable Diffusion in 3.1.0 counts steps of a GBS each */
	if (!isnan(rcp))
		fputs(fmt_roundtrip(rcp, 15, num, sizeof num), f);
	free(g);
}

static void emit_row(FILE *f, const char *round, struct model *m, const struct cell *c, size_t *why)
{
	const struct sys *s = &m->sys[c->sys];
	const char *head[] = { round, s->submitter, s->name, s->info.system_name, s->info.division,
			       s->info.availability, s->info.accelerator };
	char num[64];

	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) {
		if (i)
			fputc(',', f);
		put_field(f, head[i], &m->oom);
	}
	fprintf(f, ",%lld,%lld,%lld,", s->info.nodes, s->info.per_node, s->info.accelerators);
	put_field(f, s->info.framework, &m->oom);
	fputc(',', f);
	put_field(f, c->bench, &m->oom);
	fputc(',', f);
	put_minutes(f, c->score, 6);
	fprintf(f, ",%zu,%zu,%s,", c->nok, c->njobs - c->nok, fmt_roundtrip(c->sf, 15, num, sizeof num));
	for (size_t i = 0; i < c->nok; i++) {
		if (i)
			fputc(';', f);
		put_minutes(f, m->jobs[m->rank[c->first + i]].minutes, 4);
	}
	fputc(',', f);
	put_field(f, c->published, &m->oom);
	fputc(',', f);
	put_field(f, c->source, &m->oom);
	fputc(',', f);
	put_names(f, m, c, 0, c->nok);
	fputc(',', f);
	put_names(f, m, c, c->nok, c->njobs);
	fputc(',', f);
	if (isfinite(c->energy_j))
		fprintf(f, "%.0f", c->energy_j);
	fputc(',', f);
	put_field(f, c->power_measurement, &m->oom);
	put_convergence(f, round, m, c, why);
	fputc('\n', f);
}

/* Energy-to-train of a scored cell with power logs (power.c): its successful runs jobs[r[i]]
 * (i < c->nok, in the time score's order), with the round's node rule; sets energy_j and
 * power_measurement, or leaves them blank (power.c has said why in w). */
static void energy_of(const struct job *jobs, const size_t *r, struct cell *c, const struct sys *s,
		      const char *round, struct gs_warn *w, int *oom)
{
	struct power_run *runs;
	char meas[3];
	double j;
	int rc;

	/* no power folder in the listing: power.c would find none (a stat a benchmark folder) */
	if (!c->power_listed)
		return;
	if (!(runs = malloc((c->nok ? c->nok : 1) * sizeof *runs))) {
		*oom = 1;
		return;
	}
	for (size_t i = 0; i < c->nok; i++) {
		const struct job *jb = &jobs[r[i]];
		runs[i].log = jb->name;
		runs[i].ms = jb->ms;
		runs[i].minutes = jb->minutes;
	}
	rc = power_folder_energy(c->dir, s->submitter, s->folder, runs, c->nok, c->njobs - c->nok,
				 olympic_limit(c->bench), c->sf, power_rule_for_round(round), &j, meas, w);
	if (rc == -2)
		*oom = 1;
	if (rc == 0) {
		c->energy_j = j;
		c->power_measurement = !strcmp(meas, "AC") ? "AC" : !strcmp(meas, "DC") ? "DC" : "";
	}
	free(runs);
}

/* One warning for the logs of c that break a requirement of a ruleset that only warns: the
 * first of them, and how many more (a round's rule is usually broken by every log of a folder). */
static void warn_advice(const struct model *m, const struct cell *c, struct gs_warn *w)
{
	const struct job *first = NULL;
	size_t more = 0;

	for (size_t r = 0; r < c->njobs; r++) {
		const struct job *j = &m->jobs[c->first + r];
		if (!j->ok || !j->advice)
			continue;
		if (!first)
			first = j;
		else
			more++;
	}
	if (!first)
		return;
	if (more)
		warn_add(w, first->path, 0, 0, "compliance: %s; and %zu more log%s of this folder", first->advice,
			 more, more == 1 ? "" : "s");
	else
		warn_add(w, first->path, 0, 0, "compliance: %s", first->advice);
}

/* The header: the loader's schema (its import columns, the convergence columns last). */
static void write_header(FILE *f, int *oom)
{
	(void)oom;
	schema_write_header(f);
}

/* One warning for the rows with empty convergence cells, by reason. */
static void warn_convergence(const size_t *why, struct gs_warn *w)
{
	static const char *const text[CONV_NWHY] = {
		[CONV_NO_DATA] = "a benchmark that logs none (minigo)",
		[CONV_RUN_LACKS] = "a scored run without GBS or convergence point",
		[CONV_GBS_DIFFER] = "runs that disagree on GBS",
		[CONV_FAILED_RUNS] = "more than one failed run: no samples_to_converge",
		[CONV_TOO_FEW] = "too few runs for the olympic mean: no samples_to_converge",
	};
	char buf[512];
	size_t at = 0, total = 0;

	for (int k = CONV_OK + 1; k < CONV_NWHY; k++) {
		if (!why[k])
			continue;
		total += why[k];
		at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%zu %s", at ? "; " : "", why[k], text[k]);
		if (at >= sizeof buf)
			at = sizeof buf - 1;
	}
	if (total)
		warn_add(w, NULL, 0, 0, "convergence: %zu row%s with empty cells: %s", total,
			 total == 1 ? "" : "s", buf);
}

int import_build_csv(struct model *m, const char *round, struct import_result *res, FILE *f)
{
	size_t why[CONV_NWHY] = { 0 };

	if (!(m->rank = malloc((m->njobs ? m->njobs : 1) * sizeof *m->rank)))
		return -1;
	for (size_t i = 0; i < m->ncells; i++) {
		struct cell *c = &m->cells[i];
		for (size_t r = 0; r < c->njobs; r++) {
			struct job *j = &m->jobs[c->first + r];
			if (j->unreadable)
				warn_add(&res->warn, j->path, 0, 0, "cannot read result log: %s; no score for "
					 "this benchmark", j->why);
			else if (j->unwritable)
				warn_add(&res->warn, j->path, j->line, j->col, "%s; no score for this benchmark",
					 j->why);
			else if (!j->ok && j->old_format)
				res->old_logs[j->old_format == 5 ? 0 : 1]++; /* one warning for them all */
			else if (!j->ok)
				warn_add(&res->warn, j->path, j->line, j->col, "run fails: %s", j->why);
		}
		warn_advice(m, c, &res->warn);
		score_cell(m, c);
	}
	/* the energies, in cell order */
	for (size_t i = 0; i < m->ncells && !m->oom; i++) {
		struct cell *c = &m->cells[i];
		if (c->scored)
			energy_of(m->jobs, m->rank + c->first, c, &m->sys[c->sys], round, &res->warn, &m->oom);
	}

	write_header(f, &m->oom);
	for (size_t i = 0; i < m->ncells; i++) {
		struct cell *c = &m->cells[i];
		struct sys *s = &m->sys[c->sys];
		if (!c->scored) {
			warn_add(&res->unscored, NULL, 0, 0, "%s/%s/%s: %s", s->submitter, s->name,
				 c->published, c->why);
			continue;
		}
		emit_row(f, round, m, c, why);
		if (s->rows++ == 0)
			res->systems++;
		res->rows++;
	}
	warn_convergence(why, &res->warn);
	for (int k = 0; k < 2; k++)
		if (res->old_logs[k])
			warn_add(&res->warn, NULL, 0, 0, "%zu result log%s in %s, which gpuscale does not "
				 "read (it reads MLLOG, v0.7 on): no score for %s", res->old_logs[k],
				 res->old_logs[k] == 1 ? " is" : "s are", mllog_old_format(k ? 6 : 5),
				 res->old_logs[k] == 1 ? "it" : "them");
	for (size_t i = 0; i < m->nsys; i++) {
		struct sys *s = &m->sys[i];
		if (s->rows)
			continue;
		warn_add(&res->unscored, NULL, 0, 0, "%s/%s: %s", s->submitter, s->name,
			 !s->info.usable ? "unusable systems JSON" : s->refused ? s->refused :
			 !s->has_results ? "no results folder" : "no benchmark with a score");
	}
	return 0;
}
