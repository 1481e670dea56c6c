/* import.c: walks an MLPerf training_results tree, scores every system x benchmark by the
 * official rules and produces the results CSV (import_cmd.c wraps it in the command).
 *
 * Layout read: <Submitter>/systems/<system>.json and
 * <Submitter>/results/<system>/<benchmark>/result_*.txt (+ scaling.json). The walk is sorted,
 * so output and warnings are deterministic. Logs are read one at a time into one reused buffer
 * and scanned there: one thread, no mapping. A pool of workers over mapped logs was measured
 * on the v4.1 tree (1,309 logs, 17 MB) at 28.6 ms with 2 threads against 29.1 ms with 1: not
 * worth its code, and a mapped log cut short while scanned faults the process. */
#include "import.h"
#include "import_fs.h"
#include "bench_reg.h"
#include "compliance.h"
#include "csvw.h"
#include "fileio.h"
#include "fmt.h"
#include "olympic.h"
#include "power.h"
#include "text.h"
#include "mllog.h"
#include "schema.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Size caps: a systems JSON or scaling.json is a few KB, a result log at most a few hundred MB
 * (whole, untrimmed); anything larger is not what it claims to be. */
#define JSON_MAX ((size_t)1 << 24)
#define LOG_MAX ((size_t)1 << 32 > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)1 << 32)

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

/* ---- the model built by the walk ---- */

struct sys {
	char *submitter, *name;       /* folder names as written (clean_name) */
	char *folder;                 /* the system's name as in the tree: results/<folder> */
	const char *refused;          /* why the system is not scored though its JSON is usable */
	char *json;                   /* path of its systems JSON */
	struct import_system info;    /* what the JSON says (zero when it could not be read) */
	int has_results;
	size_t rows;
};

struct cell {
	size_t sys;
	char *bench;                  /* the one id across rounds (bench_reg_canon) */
	char *published;              /* the folder's name: the id as the round published it */
	char *dir;                    /* the folder; from `source` on, its path inside the tree */
	const char *source;
	size_t first, njobs;          /* its logs in the job list (and in rank) */
	double sf;
	int sf_bad;
	struct compliance_req *req;   /* the keys each log needs (compliance.c); owned */
	/* set by score_cell: rank[first .. first + nok) are the successful runs by time, the
	 * failed ones follow in name order; [lo, hi) of them is what the olympic average keeps */
	int scored;
	size_t nok, lo, hi;
	double score;
	char why[160];                /* no score: the reason */
	/* energy-to-train (power.c, from dir/power): NAN and "" when there is none */
	double energy_j;
	const char *power_measurement;
};

struct job {
	char *path;
	const char *name;             /* the file name part of path */
	double init_limit;            /* longest initialization allowed, minutes (rule 5) */
	const struct compliance_req *req; /* the keys the log needs (rule 6); NULL none */
	char advice[200];             /* a requirement broken where it only warns, else "" */
	int ok;                       /* 1 successful run, 0 failed */
	int unreadable;               /* not a regular file, or reading failed: no score */
	int unwritable;               /* a run time below DBL_MIN: no results CSV holds it */
	double minutes;               /* a successful run's time, and its run_stop - run_start */
	double ms;
	long line, col;
	char why[160];
	unsigned long long bytes;     /* read */
};

struct model {
	struct sys *sys;
	size_t nsys, capsys;
	struct cell *cells;
	size_t ncells, capcells;
	struct job *jobs;
	size_t njobs, capjobs;
	size_t *rank;                 /* job indices, in each cell's scoring order */
	size_t toplen;                /* length of the tree's path: cell sources start after it */
	const char *round;            /* the round column: the ids and rules of its ruleset */
	struct fbuf buf;              /* one buffer for every file read */
	int oom;
};

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* import_clean_name, out of memory noted in *oom. */
static char *clean_name(const char *s, int *oom)
{
	char *p = import_clean_name(s);

	if (!p)
		*oom = 1;
	return p;
}

/* Reads one systems JSON into s->info; s->info.usable tells whether the system can be scored. */
static void read_system(struct sys *s, struct fbuf *buf, struct gs_warn *w, int *oom)
{
	struct gs_err err;

	if (fileio_read(s->json, JSON_MAX, buf, &err) < 0) {
		if (errno == ENOMEM)
			*oom = 1;
		else
			warn_add(w, err.file, 0, 0, "cannot read systems JSON: %s; system skipped", err.msg);
		return;
	}
	if (import_system_parse(buf->p, buf->len, s->json, &s->info, w, &err) < 0)
		*oom = 1;
}

/* Reads scaling.json of a benchmark folder, when there is one. */
static void read_scaling(struct cell *c, struct fbuf *buf, struct gs_warn *w, int *oom)
{
	char *p = import_fs_join(c->dir, "scaling.json", oom);
	struct gs_err err;
	json_error_t je;
	json_t *root, *v;

	c->sf = 1;
	if (!p)
		return;
	if (access(p, F_OK) != 0 && errno == ENOENT) {
		free(p);
		return;
	}
	if (fileio_read(p, JSON_MAX, buf, &err) < 0) {
		if (errno == ENOMEM)
			*oom = 1;
		else
			warn_add(w, p, 0, 0, "cannot read scaling.json: %s; benchmark skipped", err.msg);
		c->sf_bad = 1;
		free(p);
		return;
	}
	root = json_loadb(buf->p, buf->len, JSON_DECODE_ANY, &je);
	if (!root && json_error_code(&je) == json_error_out_of_memory) {
		*oom = 1;
	} else if (!root) {
		warn_add(w, p, je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0,
			 "scaling.json does not parse: %s; benchmark skipped", je.text);
		c->sf_bad = 1;
	} else {
		v = json_is_object(root) ? json_object_get(root, "scaling_factor") : NULL;
		if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) <= 0) {
			warn_add(w, p, 0, 0, "no positive number \"scaling_factor\"; benchmark skipped");
			c->sf_bad = 1;
		} else if (json_number_value(v) < DBL_MIN) {
			/* subnormal: its text would not load back (strtod says ERANGE) */
			warn_add(w, p, 0, 0, "\"scaling_factor\" %.3g is below %.3g, the least a results "
				 "CSV holds; benchmark skipped", json_number_value(v), DBL_MIN);
			c->sf_bad = 1;
		} else
			c->sf = json_number_value(v);
		json_decref(root);
	}
	free(p);
}

/* The cell of system si for benchmark id, or NULL. */
static const struct cell *find_cell(const struct model *m, size_t si, const char *id)
{
	for (size_t i = m->ncells; i-- > 0 && m->cells[i].sys == si;)
		if (m->cells[i].bench && strcmp(m->cells[i].bench, id) == 0)
			return &m->cells[i];
	return NULL;
}

/* Adds the result logs of one benchmark folder as jobs of cell c. A log that is not a
 * readable regular file leaves the cell without a score (c->sf_bad is not used for it: the
 * job says why); the same file reached twice (a symlink to a sibling) counts once. */
static void add_logs(struct model *m, struct cell *c, const struct dent *names, size_t n,
		     double init_limit, struct gs_warn *w)
{
	struct { dev_t dev; ino_t ino; } *seen = calloc(n ? n : 1, sizeof *seen);
	size_t nseen = 0;

	if (!seen) {
		m->oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char *p;
		struct job *j, *grown;
		struct stat st;
		size_t k;
		if (strncmp(names[i].name, "result_", 7) != 0 || !has_suffix(names[i].name, ".txt"))
			continue;
		if (!(p = import_fs_join(c->dir, names[i].name, &m->oom)))
			break;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			for (k = 0; k < nseen && !(seen[k].dev == st.st_dev && seen[k].ino == st.st_ino); k++)
				;
			if (k < nseen) {
				warn_add(w, p, 0, 0, "the same file as an earlier log of this folder; counted once");
				free(p);
				continue;
			}
			seen[nseen].dev = st.st_dev;
			seen[nseen++].ino = st.st_ino;
		}
		if (!(grown = import_fs_grow(m->jobs, &m->capjobs, m->njobs + 1, sizeof *m->jobs, &m->oom))) {
			free(p);
			break;
		}
		m->jobs = grown;
		j = &m->jobs[m->njobs++];
		memset(j, 0, sizeof *j);
		j->path = p;
		j->name = p + strlen(c->dir) + 1;
		j->init_limit = init_limit;
		j->req = c->req && c->req->n ? c->req : NULL;
		c->njobs++;
	}
	free(seen);
}

static void walk_bench(struct model *m, size_t si, const char *sysdir, const char *bench,
		       struct gs_warn *w)
{
	char *dir = import_fs_join(sysdir, bench, &m->oom);
	char *clean = clean_name(bench, &m->oom);
	const struct cell *twin;
	struct dent *names = NULL;
	size_t n;
	struct cell *c, *grown;
	const char *division;
	char ruleset[16];
	bool open;

	if (!dir || !clean)
		goto out;
	if (strcmp(clean, bench) != 0)
		warn_add(w, dir, 0, 0, "benchmark written as '%s'", clean);
	if (!*clean) {
		warn_add(w, dir, 0, 0, "benchmark name is empty once cleaned; skipped");
		goto out;
	}
	/* one row per system and benchmark id: the loader keeps only the first of two */
	if ((twin = find_cell(m, si, bench_reg_canon(clean, m->round)))) {
		warn_add(w, dir, 0, 0, "benchmark %s is already read from %s; skipped",
			 bench_reg_canon(clean, m->round), twin->source);
		goto out;
	}
	if (!(names = import_fs_list(dir, w, &n, &m->oom)))
		goto out;
	if (!(grown = import_fs_grow(m->cells, &m->capcells, m->ncells + 1, sizeof *m->cells, &m->oom)))
		goto out;
	m->cells = grown;
	c = &m->cells[m->ncells++];
	memset(c, 0, sizeof *c);
	c->sys = si;
	c->dir = dir;
	dir = NULL;
	c->source = c->dir + m->toplen + 1;
	c->bench = import_fs_strdup(bench_reg_canon(clean, m->round), &m->oom);
	c->published = clean;
	clean = NULL;
	c->energy_j = NAN;
	c->power_measurement = "";
	c->first = m->njobs;
	read_scaling(c, &m->buf, w, &m->oom);
	division = m->sys[si].info.division;
	open = division && ascii_casecmp(division, "open") == 0;
	/* compliance rule 6: the keys the checker of the round's ruleset requires, by the
	 * benchmark's name as published */
	if (!(c->req = malloc(sizeof *c->req))) {
		m->oom = 1;
		goto out;
	}
	compliance_required(bench_reg_ruleset(m->round, ruleset, sizeof ruleset), open, c->published, c->req);
	/* compliance rule 5: the longest initialization of the round's ruleset and division */
	add_logs(m, c, names, n, bench_reg_init_limit(m->round, open), w);
out:
	free(dir);
	free(clean);
	import_fs_free_list(names);
}

/* Refuses system s when its name is empty once cleaned, or when an earlier system has the same
 * submitter and name once cleaned: the loader would drop its rows as duplicates. */
static void refuse_twin(struct model *m, struct sys *s, struct gs_warn *w)
{
	if (strcmp(s->name, s->folder) != 0)
		warn_add(w, s->json, 0, 0, "system written as '%s'", s->name);
	if (!*s->name || !*s->submitter) {
		s->refused = "its name is empty once cleaned";
		warn_add(w, s->json, 0, 0, "system name or submitter is empty once cleaned; system skipped");
		return;
	}
	for (struct sys *t = m->sys; t < s; t++) {
		if (strcmp(t->name, s->name) == 0 && strcmp(t->submitter, s->submitter) == 0) {
			s->refused = "the same name as another system once cleaned";
			warn_add(w, s->json, 0, 0, "the same system as %s once cleaned; system skipped",
				 t->json);
			return;
		}
	}
}

/* A systems JSON that cannot be used leaves its results without a score: one warning naming
 * the JSON and every benchmark folder of sd (its results), never a silent skip. */
static void warn_unusable(struct model *m, const struct sys *s, const char *sd, struct gs_warn *w)
{
	struct dent *benches;
	size_t nb = 0, len = 0;
	char *list = NULL;
	FILE *f;

	if (!(benches = import_fs_list(sd, w, &nb, &m->oom)))
		return;
	if (!(f = open_memstream(&list, &len))) {
		m->oom = 1;
		import_fs_free_list(benches);
		return;
	}
	for (size_t b = 0, k = 0; b < nb; b++)
		if (benches[b].kind == KIND_DIR)
			fprintf(f, "%s%s/%s", k++ ? ", " : "", sd + m->toplen + 1, benches[b].name);
	if (fclose(f) != 0 || !list)
		m->oom = 1;
	else
		warn_add(w, s->json, 0, 0, "systems JSON cannot be used: no score for %s", *list ? list :
			 "its results folder (no benchmark folder in it)");
	free(list);
	import_fs_free_list(benches);
}

/* One submitter folder (the caller has checked that it is a folder). */
static void walk_submitter(struct model *m, const char *top, const char *sub, struct gs_warn *w)
{
	char *subdir = import_fs_join(top, sub, &m->oom);
	char *sysdir = subdir ? import_fs_join(subdir, "systems", &m->oom) : NULL;
	char *resdir = subdir ? import_fs_join(subdir, "results", &m->oom) : NULL;
	struct dent *names = NULL, *res = NULL;
	size_t n = 0, nres = 0, first = m->nsys;
	char *clean_sub = clean_name(sub, &m->oom);

	if (!subdir || !sysdir || !resdir || !clean_sub)
		goto out;
	if (strcmp(clean_sub, sub) != 0)
		warn_add(w, subdir, 0, 0, "submitter written as '%s'", clean_sub);
	if (import_fs_is_dir(sysdir) && (names = import_fs_list(sysdir, w, &n, &m->oom))) {
		for (size_t i = 0; i < n; i++) {
			struct sys *s, *grown;
			if (!has_suffix(names[i].name, ".json"))
				continue;
			if (!(grown = import_fs_grow(m->sys, &m->capsys, m->nsys + 1, sizeof *m->sys, &m->oom)))
				goto out;
			m->sys = grown;
			s = &m->sys[m->nsys++];
			memset(s, 0, sizeof *s);
			s->submitter = import_fs_strdup(clean_sub, &m->oom);
			s->folder = import_fs_strdup(names[i].name, &m->oom);
			if (!s->submitter || !s->folder)
				goto out;
			s->folder[strlen(s->folder) - 5] = '\0';
			s->json = import_fs_join(sysdir, names[i].name, &m->oom);
			if (!(s->name = clean_name(s->folder, &m->oom)) || !s->json)
				goto out;
			read_system(s, &m->buf, w, &m->oom);
			refuse_twin(m, s, w);
		}
	}
	if (!import_fs_is_dir(resdir))
		goto out;
	if (!(res = import_fs_list(resdir, w, &nres, &m->oom)))
		goto out;
	for (size_t i = 0; i < nres; i++) {
		char *sd;
		struct dent *benches;
		size_t nb, si;

		if (res[i].kind != KIND_DIR)
			continue;
		if (!(sd = import_fs_join(resdir, res[i].name, &m->oom)))
			break;
		for (si = first; si < m->nsys; si++)
			if (m->sys[si].folder && strcmp(m->sys[si].folder, res[i].name) == 0)
				break;
		if (si == m->nsys) {
			warn_add(w, sd, 0, 0, "no systems/%s.json for these results; skipped", res[i].name);
			free(sd);
			continue;
		}
		m->sys[si].has_results = 1;
		if (!m->sys[si].info.usable || m->sys[si].refused) {
			if (!m->sys[si].info.usable)
				warn_unusable(m, &m->sys[si], sd, w);
			free(sd);
			continue;
		}
		if ((benches = import_fs_list(sd, w, &nb, &m->oom))) {
			for (size_t b = 0; b < nb; b++)
				if (benches[b].kind == KIND_DIR)
					walk_bench(m, si, sd, benches[b].name, w);
			import_fs_free_list(benches);
		}
		free(sd);
	}
out:
	free(clean_sub);
	import_fs_free_list(names);
	import_fs_free_list(res);
	free(subdir);
	free(sysdir);
	free(resdir);
}

static void model_free(struct model *m)
{
	for (size_t i = 0; i < m->nsys; i++) {
		struct sys *s = &m->sys[i];
		free(s->submitter), free(s->name), free(s->folder), free(s->json);
		import_system_free(&s->info);
	}
	for (size_t i = 0; i < m->ncells; i++)
		free(m->cells[i].bench), free(m->cells[i].published), free(m->cells[i].dir),
			free(m->cells[i].req);
	for (size_t i = 0; i < m->njobs; i++)
		free(m->jobs[i].path);
	free(m->sys);
	free(m->cells);
	free(m->jobs);
	free(m->rank);
	free(m->buf.p);
	memset(m, 0, sizeof *m);
}

/* ---- reading and scanning the logs ---- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads and scans one log into j. */
static void scan_job(struct job *j, struct fbuf *buf, int *oom)
{
	struct gs_err err;
	struct mllog_scan s;
	unsigned counts[COMPLIANCE_MAX_KEYS];
	char why[120];

	if (fileio_read(j->path, LOG_MAX, buf, &err) < 0) {
		if (errno == ENOMEM)
			*oom = 1;
		/* not a failed run: a run nobody can read may have been a good one */
		snprintf(j->why, sizeof j->why, "%.150s", err.msg);
		j->ok = 0;
		j->unreadable = 1;
		return;
	}
	j->bytes = buf->len;
	mllog_scan_keys(buf->p, buf->len, j->req ? j->req->keys : NULL, j->req ? j->req->n : 0, counts, &s);
	j->ok = mllog_verdict(&s, j->init_limit, &j->minutes, j->why, sizeof j->why, &j->line,
			      &j->col) == 0;
	if (j->ok && j->req && compliance_check(j->req, counts, why, sizeof why) >= 0) {
		/* the official checker fails the log, and the run with it (a warning before 3.0.0) */
		if (j->req->binding) {
			j->ok = 0;
			snprintf(j->why, sizeof j->why, "compliance: %.120s", why);
		} else {
			snprintf(j->advice, sizeof j->advice, "%.120s (counted: this ruleset's "
				 "check only warns)", why);
		}
	}
	if (j->ok)
		j->ms = s.stop_ms - s.start_ms;
	/* a subnormal time would be written as text the loader refuses (strtod says ERANGE):
	 * no score for the benchmark rather than a row that does not load */
	if (j->ok && j->minutes < DBL_MIN) {
		snprintf(j->why, sizeof j->why, "run time %.3g minutes is below %.3g, the least a "
			 "results CSV holds", j->minutes, DBL_MIN);
		j->ok = 0;
		j->unwritable = 1;
	}
}

/* Scans every job of m; progress, when not NULL, gets a line redrawn every 0.1 s. */
static void scan_all(struct model *m, FILE *progress)
{
	double t0 = now_s(), shown = t0;
	unsigned long long bytes = 0;

	for (size_t i = 0; i < m->njobs && !m->oom; i++) {
		scan_job(&m->jobs[i], &m->buf, &m->oom);
		bytes += m->jobs[i].bytes;
		if (progress && now_s() - shown >= 0.1) {
			shown = now_s();
			fprintf(progress, "\rimport: %zu/%zu files, %.1f MB/s  ", i + 1, m->njobs,
				(double)bytes / 1e6 / (shown - t0));
			fflush(progress);
		}
	}
	if (progress && shown > t0)
		fprintf(progress, "\r%60s\r", "");
}

/* ---- scoring and output ---- */

/* The order of a cell's runs: successful ones by time (ties by file name), then failed ones
 * by file name. Runs are the jobs m->jobs[*rank] (cmp_ctx: qsort has no context pointer). */
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

/* Orders the runs of c in m->rank and scores c by the olympic average: sets c->scored and
 * c->score, or c->why. */
static void score_cell(struct model *m, struct cell *c)
{
	size_t *r = m->rank + c->first, d, lim = olympic_limit(c->bench);
	double sum = 0;
	int w;

	c->nok = 0;
	for (size_t i = 0; i < c->njobs; i++) {
		r[i] = c->first + i;
		c->nok += m->jobs[r[i]].ok;
	}
	d = c->njobs - c->nok;
	if (c->njobs > 1) {
		cmp_jobs = m->jobs;
		qsort(r, c->njobs, sizeof *r, cmp_rank);
	}
	for (size_t i = 0; i < c->njobs; i++) {
		if (m->jobs[r[i]].unreadable) {
			snprintf(c->why, sizeof c->why, "result log %.100s cannot be read", m->jobs[r[i]].name);
			return;
		}
		if (m->jobs[r[i]].unwritable) {
			snprintf(c->why, sizeof c->why, "result log %.100s has a run time too small to write",
				 m->jobs[r[i]].name);
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
		sum += m->jobs[r[i]].minutes;
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

static void emit_row(FILE *f, const char *round, struct model *m, const struct cell *c)
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
	fputc('\n', f);
}

/* Energy-to-train of a scored cell with power logs (power.c): its successful runs, in the
 * time score's order, with the round's node rule; sets energy_j and power_measurement, or
 * leaves them blank (power.c has said why in w). */
static void score_energy(struct model *m, struct cell *c, const char *round, struct gs_warn *w)
{
	const struct sys *s = &m->sys[c->sys];
	struct power_run *runs = malloc((c->nok ? c->nok : 1) * sizeof *runs);
	char meas[3];
	double j;
	int rc;

	if (!runs) {
		m->oom = 1;
		return;
	}
	for (size_t i = 0; i < c->nok; i++) {
		const struct job *jb = &m->jobs[m->rank[c->first + i]];
		runs[i].log = jb->name;
		runs[i].ms = jb->ms;
		runs[i].minutes = jb->minutes;
	}
	rc = power_folder_energy(c->dir, s->submitter, s->folder, runs, c->nok, c->njobs - c->nok,
				 olympic_limit(c->bench), c->sf, power_rule_for_round(round), &j, meas, w);
	if (rc == -2)
		m->oom = 1;
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
		if (!j->ok || !j->advice[0])
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

/* Scores every cell of m and writes the CSV to f; -1 when out of memory. */
static int build_csv(struct model *m, const char *round, struct import_result *res, FILE *f)
{
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
			else if (!j->ok)
				warn_add(&res->warn, j->path, j->line, j->col, "run fails: %s", j->why);
		}
		warn_advice(m, c, &res->warn);
		score_cell(m, c);
	}
	for (size_t i = 0; i < m->ncells && !m->oom; i++)
		if (m->cells[i].scored)
			score_energy(m, &m->cells[i], round, &res->warn);

	schema_write_header(f);
	for (size_t i = 0; i < m->ncells; i++) {
		struct cell *c = &m->cells[i];
		struct sys *s = &m->sys[c->sys];
		if (!c->scored) {
			warn_add(&res->unscored, NULL, 0, 0, "%s/%s/%s: %s", s->submitter, s->name,
				 c->published, c->why);
			continue;
		}
		emit_row(f, round, m, c);
		if (s->rows++ == 0)
			res->systems++;
		res->rows++;
	}
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

/* Numbers are read and written in C notation whatever the process locale says: this thread
 * switches to a C LC_NUMERIC until c_numeric_leave (a NULL return: it could not, nothing to
 * undo). */
static locale_t c_numeric_enter(locale_t *old)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);

	*old = c ? uselocale(c) : (locale_t)0;
	return c;
}

static void c_numeric_leave(locale_t c, locale_t old)
{
	if (c) {
		uselocale(old);
		freelocale(c);
	}
}

int import_tree(const char *dir, const char *round, FILE *progress, struct import_result *res,
		struct gs_err *err)
{
	struct model m = {0};
	struct dent *subs;
	size_t n;
	locale_t c_loc, old;
	struct fileio_mem out;
	int oom;

	memset(res, 0, sizeof *res);
	subs = import_fs_list(dir, NULL, &n, &m.oom);
	if (!subs) {
		if (m.oom)
			err_oom(err, dir, 0);
		else
			err_set(err, dir, 0, 0, "cannot read folder: %s", strerror(errno));
		return -1;
	}
	c_loc = c_numeric_enter(&old);
	m.toplen = strlen(dir);
	m.round = round;
	for (size_t i = 0; i < n && !m.oom; i++)
		if (subs[i].kind == KIND_DIR)
			walk_submitter(&m, dir, subs[i].name, &res->warn);
	import_fs_free_list(subs);
	if (!m.oom)
		scan_all(&m, progress);
	/* every byte of the CSV goes through a stream that records a write finding no memory:
	 * a text cut short is never taken for the whole */
	if (!m.oom && fileio_mem_open(&out) == 0) {
		for (size_t i = 0; i < m.njobs; i++)
			res->bytes += m.jobs[i].bytes;
		res->files = m.njobs;
		if (build_csv(&m, round, res, out.f) < 0)
			m.oom = 1;
		if (fileio_mem_close(&out) < 0)
			m.oom = 1;
		res->csv = out.p;
		res->len = out.len;
	} else {
		m.oom = 1;
	}
	oom = m.oom;
	model_free(&m);
	c_numeric_leave(c_loc, old);
	if (oom) {
		err_oom(err, dir, 0);
		free(res->csv);
		res->csv = NULL;
		res->len = 0;
		return -1;
	}
	return 0;
}
void import_result_free(struct import_result *res)
{
	free(res->csv);
	warn_free(&res->warn);
	warn_free(&res->unscored);
	memset(res, 0, sizeof *res);
}

static int round_from_name(const char *dir, char *buf, size_t n);

int import_round_from_dir(const char *dir, char *buf, size_t n)
{
	char *abs;
	int rc;

	if (round_from_name(dir, buf, n) == 0)
		return 0;
	/* ".", "..", "results/.." or a symlink: the name of the folder it is */
	if (!(abs = realpath(dir, NULL)))
		return -1;
	rc = round_from_name(abs, buf, n);
	free(abs);
	return rc;
}

/* The round named by the last component of dir as written. */
static int round_from_name(const char *dir, char *buf, size_t n)
{
	static const char pre[] = "training_results_";
	size_t len = strlen(dir);
	const char *base;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	base = dir + len;
	while (base > dir && base[-1] != '/')
		base--;
	if ((size_t)(dir + len - base) <= sizeof pre - 1 || strncmp(base, pre, sizeof pre - 1) != 0)
		return -1;
	snprintf(buf, n, "%.*s", (int)(dir + len - base - (sizeof pre - 1)), base + sizeof pre - 1);
	return 0;
}
