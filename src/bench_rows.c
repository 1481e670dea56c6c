/* bench_rows.c: the benchmark registry applied to the dataset's rows: which rows a view pools,
 * and what it leaves out. */
#include "bench_reg.h"
#include "dataset.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool bench_reg_pooled(const struct row *r, const char *round)
{
	return r->accelerators >= 1 && bench_reg_comparable(r->benchmark, r->round, round);
}

#define NOTICE_MAX 32

/* One benchmark left out of a view: its id, what it published, its rounds (distinct). */
struct left_out {
	const char *bench, *published;
	const char *rounds[NOTICE_MAX];
	size_t nrounds;
};

static void note_round(struct left_out *lo, size_t *nlo, const struct row *r)
{
	struct left_out *e = NULL;

	for (size_t i = 0; i < *nlo && !e; i++)
		if (strcmp(lo[i].bench, r->benchmark) == 0)
			e = &lo[i];
	if (!e) {
		if (*nlo == NOTICE_MAX)
			return;
		e = &lo[(*nlo)++];
		*e = (struct left_out){ .bench = r->benchmark, .published = row_extra(r)->benchmark_published };
	}
	for (size_t i = 0; i < e->nrounds; i++)
		if (strcmp(e->rounds[i], r->round) == 0)
			return;
	if (e->nrounds < NOTICE_MAX) {
		/* kept in version order */
		size_t at = e->nrounds++;
		while (at > 0 && text_version_cmp(e->rounds[at - 1], r->round) > 0) {
			e->rounds[at] = e->rounds[at - 1];
			at--;
		}
		e->rounds[at] = r->round;
	}
}

/* Appends printf text to buf[*at..n), cut at n. */
static void add(char *buf, size_t n, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t n, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*at >= n - 1)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *at, n - *at, fmt, ap);
	va_end(ap);
	if (k > 0)
		*at = *at + (size_t)k < n - 1 ? *at + (size_t)k : n - 1;
}

size_t bench_reg_notice(const struct dataset *ds, const char *round, const char *workload,
			bool all_rounds, char *buf, size_t n)
{
	struct left_out lo[NOTICE_MAX];
	size_t nlo = 0, cpu = 0, left = 0, at = 0;

	buf[0] = '\0';
	if (!round || !workload)
		return 0;
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		bool mine = strcmp(r->benchmark, workload) == 0;
		if (!mine && !(all_rounds && bench_reg_related(r->benchmark, workload)))
			continue;
		if (strcmp(r->round, round) != 0 && !all_rounds)
			continue;
		if (!mine || !bench_reg_comparable(r->benchmark, r->round, round)) {
			note_round(lo, &nlo, r);
			left++;
		} else if (r->accelerators < 1) {
			cpu++;
			left++;
		}
	}
	for (size_t i = 0; i < nlo; i++) {
		const struct left_out *e = &lo[i];
		add(buf, n, &at, "%s%s ", i ? "; " : "", workload_label(e->bench));
		for (size_t k = 0; k < e->nrounds; k++)
			add(buf, n, &at, "%s%s", k ? ", " : "", e->rounds[k]);
		if (strcmp(e->bench, workload) == 0)
			add(buf, n, &at, ": another version of the benchmark, not pooled");
		else
			add(buf, n, &at, ": another benchmark%s%s, not pooled", *e->published ?
			    " published as " : "", e->published);
	}
	if (cpu)
		add(buf, n, &at, "%s%zu CPU-only row%s (0 accelerators): no E', left out", nlo ? "; " : "",
		    cpu, cpu == 1 ? "" : "s");
	return left;
}
