/* bench_core.c: times the core in-process: loading a results CSV, and one full recompute
 * (analysis_run with the default parameters: filter, reference, every metric, k-means with its
 * restarts, Pareto, ranking; then plot_render of the result at 200x60), which is what the
 * explorer does on every key that changes parameters.
 *
 * usage: bench_core FAMILIES.csv RESULTS.csv WORKLOAD LOAD_REPS RECOMPUTE_REPS [CAP_S]
 * Each phase stops early once it has spent CAP_S seconds (default 20), so that a slow build
 * cannot hold the whole bench hostage; it always runs once.
 * GS_BENCH_FIT set: the recompute includes the scaling-law fit of every family.
 * GS_BENCH_AUTOK set: also auto-k (kmeans_auto, as key a runs it) over the rows' (log2 N, E'),
 * on one thread and on every processor: lines "autok_one" and "autok_all" (n median_s ...),
 * the gain kmeans.c's threads are kept for.
 * GS_BENCH_RANKS set: also the dataset's name ranks, by bytes and by the comparators.
 * GS_BENCH_RESAMPLE set: also every shown row's intervals drawn afresh on one thread, with the
 * eight-lane resample kernel and with the plain loop: lines "resample_wide" and
 * "resample_plain" (none when the processor has no such kernel).
 * GS_BENCH_CSVTEXT set: also the CSV table of every shown row (intervals drawn first) written
 * to /dev/null on one thread and on every processor: lines "csvtext_one" and "csvtext_all",
 * the gain report.c's threads are kept for.
 * GS_BENCH_FITS set: also the scaling-law fits of the rows' families at once (fit_memo_run_all,
 * no memo), on one thread and on every processor: lines "fits_one" and "fits_all", the gain
 * fit.c's threads are kept for.
 * Prints two lines, "load" and "recompute", each: n median_s min_s q1_s q3_s max_s, then
 * "rows" (rows of the round x workload) and "maxrss_kb" of this process: its peak is one
 * loaded dataset plus one analysis and plot, which is what `gpuscale --print` holds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_util.h"
#include "analysis.h"
#include "dataset.h"
#include "plot.h"
#include "chart.h"
#include "fit.h"
#include "kmeans.h"
#include "pool.h"
#include "report.h"
#include "resample.h"

static void report(const char *name, double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	printf("%s %d %.9f %.9f %.9f %.9f %.9f\n", name, n, quant(v, n, 0.5), v[0], quant(v, n, 0.25),
	       quant(v, n, 0.75), v[n - 1]);
}

static void die(const char *what, const struct gs_err *e)
{
	char buf[1200];
	fprintf(stderr, "bench_core: %s: %s\n", what, err_format(e, buf, sizeof buf));
	exit(1);
}

static int load(struct dataset *ds, const char *fam, const char *csv)
{
	struct gs_err err = { 0 };

	memset(ds, 0, sizeof *ds);
	if (dataset_load_families(ds, fam, &err) < 0)
		die(fam, &err);
	if (dataset_load_csv(ds, csv, &err) < 0)
		die(csv, &err);
	dataset_classify(ds);
	return 0;
}

int main(int argc, char **argv)
{
	struct dataset ds;
	struct params p;
	struct analysis a;
	struct plot_grid g;
	struct plot_point *pts = NULL;
	struct gs_err err = { 0 };
	struct rusage ru;
	int lreps, creps, n;
	double *t, cap = 20, spent;

	if (argc < 6 || argc > 7 || (lreps = atoi(argv[4])) < 1 || (creps = atoi(argv[5])) < 1) {
		fprintf(stderr, "usage: bench_core FAMILIES.csv RESULTS.csv WORKLOAD LOAD_REPS RECOMPUTE_REPS [CAP_S]\n");
		return 2;
	}
	if (argc == 7)
		cap = atof(argv[6]);
	t = malloc(sizeof *t * (size_t)(lreps > creps ? lreps : creps));
	if (!t)
		return 1;

	/* every load but the last is freed at once, so the peak is one dataset */
	spent = 0;
	for (n = 0; n < lreps; n++) {
		double t0;
		if (n)
			dataset_free(&ds);
		t0 = now();
		load(&ds, argv[1], argv[2]);
		t[n] = now() - t0;
		if ((spent += t[n]) > cap) {
			n++;
			break;
		}
	}
	report("load", t, n);

	memset(&a, 0, sizeof a);
	memset(&g, 0, sizeof g);
	params_init(&p);
	p.workload = argv[3];
	p.fit = getenv("GS_BENCH_FIT") != NULL; /* the scaling-law fit per family, as key L turns on */
	spent = 0;
	for (n = 0; n < creps; n++) {
		struct plot_spec spec = { .width = 200, .height = 60, .log_y = false, .theta = p.theta,
					  .show_pareto = true, .y_name = "E'" };
		double t0 = now();
		if (analysis_run(&ds, &p, &a, &err) < 0)
			die("analysis_run", &err);
		if (!pts && !(pts = calloc(a.n ? a.n : 1, sizeof *pts)))
			return 1;
		{
			struct chart_opts co = { .metric = MET_EP, .theta = p.theta, .show_pareto = true,
						 .width = 200, .height = 60 };
			chart_points(&ds, &a, &co, 0, pts);
		}
		if (plot_render(pts, a.n, &spec, &g, &err) < 0)
			die("plot_render", &err);
		t[n] = now() - t0;
		if ((spent += t[n]) > cap) {
			n++;
			break;
		}
	}
	report("recompute", t, n);
	if (getenv("GS_BENCH_AUTOK") && a.n) {
		double *x = malloc(a.n * 2 * sizeof *x);
		int *lab = malloc(a.n * sizeof *lab);
		struct kmeans_result res;
		if (!x || !lab)
			return 1;
		for (size_t i = 0; i < a.n; i++) {
			x[2 * i] = log2(a.rows[i].N);
			x[2 * i + 1] = a.rows[i].Ep;
		}
		/* one thread and every processor interleaved, so that both see the same machine */
		double *t1 = malloc(sizeof *t1 * (size_t)creps), *tn = malloc(sizeof *tn * (size_t)creps);
		if (!t1 || !tn)
			return 1;
		for (int r = 0; r < creps; r++) {
			for (int all = 0; all < 2; all++) {
				pool_force(all ? 0 : 1);
				double t0 = now();
				if (kmeans_auto(x, a.n, 2, 8, 16, 1, lab, &res) < 0)
					return 1;
				(all ? tn : t1)[r] = now() - t0;
			}
		}
		pool_force(0);
		report("autok_one", t1, creps);
		report("autok_all", tn, creps);
		free(t1);
		free(tn);
		free(x);
		free(lab);
	}
	if (getenv("GS_BENCH_RANKS")) {
		/* the dataset's name ranks by the radix sort of the names' bytes, against the sorts
		 * with the comparators it stands in for (the same ranks: test_analysis) */
		double *tq = malloc(sizeof *tq * (size_t)creps), *tr = malloc(sizeof *tr * (size_t)creps);
		if (!tq || !tr)
			return 1;
		for (int r = 0; r < creps; r++) {
			for (int radix = 0; radix < 2; radix++) {
				double t0 = now();
				struct row_ranks *rk = analysis_ranks_make_by(&ds, radix);
				(radix ? tr : tq)[r] = now() - t0;
				if (!rk)
					return 1;
				analysis_ranks_free(rk);
			}
		}
		report("ranks_qsort", tq, creps);
		report("ranks_radix", tr, creps);
		free(tq);
		free(tr);
	}
	if (getenv("GS_BENCH_RESAMPLE") && a.n && resample_wide_ok()) {
		/* the bootstrap of every shown row, on one thread so that the kernels alone differ
		 * (the same bits: test_resample); a new analysis each time, so nothing is kept */
		double *tw = malloc(sizeof *tw * (size_t)creps), *tp = malloc(sizeof *tp * (size_t)creps);
		if (!tw || !tp)
			return 1;
		pool_force(1);
		for (int r = 0; r < creps; r++) {
			for (int wide = 0; wide < 2; wide++) {
				struct analysis b;
				memset(&b, 0, sizeof b);
				resample_force_plain(!wide);
				if (analysis_run(&ds, &p, &b, &err) < 0)
					die("analysis_run", &err);
				double t0 = now();
				if (analysis_intervals(&ds, &b, 0, b.n, &err) < 0)
					die("analysis_intervals", &err);
				(wide ? tw : tp)[r] = now() - t0;
				analysis_free(&b);
			}
		}
		resample_force_plain(false);
		pool_force(0);
		report("resample_plain", tp, creps);
		report("resample_wide", tw, creps);
		free(tw);
		free(tp);
	}
	if (getenv("GS_BENCH_CSVTEXT") && a.n) {
		/* the table's text alone: the intervals are drawn once before */
		double *t1 = malloc(sizeof *t1 * (size_t)creps), *tn = malloc(sizeof *tn * (size_t)creps);
		FILE *null = fopen("/dev/null", "w");
		if (!t1 || !tn || !null)
			return 1;
		if (analysis_intervals(&ds, &a, 0, a.n, &err) < 0)
			die("analysis_intervals", &err);
		for (int r = 0; r < creps; r++) {
			for (int all = 0; all < 2; all++) {
				pool_force(all ? 0 : 1);
				double t0 = now();
				if (report_csv_rows(&ds, &a, NULL, a.n, true, null) < 0)
					return 1;
				fflush(null);
				(all ? tn : t1)[r] = now() - t0;
			}
		}
		pool_force(0);
		fclose(null);
		report("csvtext_one", t1, creps);
		report("csvtext_all", tn, creps);
		free(t1);
		free(tn);
	}
	if (getenv("GS_BENCH_FITS") && a.n) {
		/* the rows' (N, T) by family, as analysis_fit_families groups them */
		size_t nf = 0;
		const char **fam = malloc(a.n * sizeof *fam);
		double *pn = malloc(a.n * 2 * sizeof *pn), *pt = pn ? pn + a.n : NULL;
		struct fit_job *jobs = malloc(a.n * sizeof *jobs);
		struct fit *fits = malloc(a.n * sizeof *fits);
		double *t1 = malloc(sizeof *t1 * (size_t)creps), *tn = malloc(sizeof *tn * (size_t)creps);
		if (!fam || !pn || !jobs || !fits || !t1 || !tn)
			return 1;
		for (size_t i = 0; i < a.n; i++) {
			const char *f = ds.rows[a.rows[i].row].family;
			size_t q = 0;
			while (q < nf && strcmp(fam[q], f) != 0)
				q++;
			if (q == nf)
				fam[nf++] = f;
		}
		size_t at = 0;
		for (size_t q = 0; q < nf; q++) {
			size_t from = at;
			for (size_t i = 0; i < a.n; i++)
				if (strcmp(ds.rows[a.rows[i].row].family, fam[q]) == 0) {
					pn[at] = a.rows[i].N;
					pt[at++] = a.rows[i].T;
				}
			jobs[q] = (struct fit_job){ pn + from, pt + from, at - from, &fits[q] };
		}
		for (int r = 0; r < creps; r++) {
			for (int all = 0; all < 2; all++) {
				pool_force(all ? 0 : 1);
				double t0 = now();
				if (fit_memo_run_all(NULL, jobs, nf, &err) < 0)
					die("fit_memo_run_all", &err);
				(all ? tn : t1)[r] = now() - t0;
			}
		}
		pool_force(0);
		report("fits_one", t1, creps);
		report("fits_all", tn, creps);
		free(fam);
		free(pn);
		free(jobs);
		free(fits);
		free(t1);
		free(tn);
	}
	printf("rows %zu\n", a.n);
	printf("k %d inertia %.6g silhouette %.6g\n", a.k, a.inertia, a.silhouette);
	getrusage(RUSAGE_SELF, &ru);
	printf("maxrss_kb %ld\n", ru.ru_maxrss);
	analysis_free(&a);
	plot_free(&g);
	free(pts);
	free(t);
	dataset_free(&ds);
	return 0;
}
