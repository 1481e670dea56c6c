/* import.c: walks an MLPerf training_results tree into the model of its systems, benchmarks and
 * logs (import_model.h) and scans every log; import_out.c scores each system x benchmark by
 * the official rules and writes the results CSV; cli_import.c wraps both in the command.
 *
 * Layout read: <Submitter>/systems/<system>.json and
 * <Submitter>/results/<system>/<benchmark>/result_*.txt (+ scaling.json). The walk is sorted,
 * so output and warnings are deterministic. Logs are read, not mapped (a mapped log cut short
 * while scanned faults the process), one after another into one buffer, after the walk.
 */
#include "import.h"
#include "import_fs.h"
#include "import_model.h"
#include "bench_reg.h"
#include "text.h"
#include "mllog.h"

#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
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

/* ---- the model built by the walk ---- */

/* the model (struct sys, cell, job, model) is in import_model.h */


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

/* Whether the listing names[n] of a folder holds name. */
static bool listed(const struct dent *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i].name, name) == 0)
			return true;
	return false;
}

/* Reads scaling.json of a benchmark folder, when its listing (names[n]) has one: most have
 * none, and looking for it on disk was a path lookup a folder. */
static void read_scaling(struct cell *c, const struct dent *names, size_t n, struct fbuf *buf,
			 struct gs_warn *w, int *oom)
{
	char *p;
	struct gs_err err;
	json_error_t je;
	json_t *root, *v;

	c->sf = 1;
	if (!listed(names, n, "scaling.json") || !(p = import_fs_join(c->dir, "scaling.json", oom)))
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

/* Whether names[i] is a result log ("result_*.txt"). */
static int is_log(const struct dent *names, size_t i)
{
	return strncmp(names[i].name, "result_", 7) == 0 && has_suffix(names[i].name, ".txt");
}

/* Adds the result logs of one benchmark folder as jobs of cell c. A log that is not a
 * readable regular file leaves the cell without a score (c->sf_bad is not used for it: the
 * job says why); the same file reached twice (a symlink to a sibling, a hard link) counts
 * once. A folder whose logs are all plain files (the folder says so) can hold the same file
 * twice only as hard links, which share the inode the folder gives: no stat of each log (a
 * syscall a log, 1,309 on the v4.1 tree); one with a link or an entry of unknown kind stats
 * them. */
static void add_logs(struct model *m, struct cell *c, const struct dent *names, size_t n,
		     double init_limit, struct gs_warn *w)
{
	struct { dev_t dev; ino_t ino; } *seen = calloc(n ? n : 1, sizeof *seen);
	size_t nseen = 0;
	bool plain = true;

	if (!seen) {
		m->oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (is_log(names, i) && !names[i].plain)
			plain = false;
	for (size_t i = 0; i < n; i++) {
		char *p;
		struct job *j, *grown;
		struct stat st;
		size_t k;
		if (!is_log(names, i))
			continue;
		if (!(p = import_fs_join(c->dir, names[i].name, &m->oom)))
			break;
		if (plain) {
			st.st_dev = 0;
			st.st_ino = names[i].ino;
			st.st_mode = S_IFREG;
		}
		if ((plain || stat(p, &st) == 0) && S_ISREG(st.st_mode)) {
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
		if ((grown = import_fs_grow(m->jobs, &m->capjobs, m->njobs + 1, sizeof *m->jobs, &m->oom))) {
			m->jobs = grown;
			j = &m->jobs[m->njobs];
			memset(j, 0, sizeof *j);
			j->path = p;
			j->name = p + strlen(c->dir) + 1;
			j->init_limit = init_limit;
			j->req = c->req && c->req->n ? c->req : NULL;
			j->cell = (size_t)(c - m->cells);
			m->njobs++;
			c->njobs++;
		}
		if (!grown) {
			free(p);
			break;
		}
	}
	free(seen);
}

/* The keys a log of benchmark (as published) needs in the round's ruleset and the division
 * (open, else closed), from m's memo; NULL with m->oom when out of memory. */
static const struct compliance_req *model_req(struct model *m, bool open, const char *bench)
{
	struct req_memo *grown, *r;
	char ruleset[16];

	for (size_t i = 0; i < m->nreqs; i++)
		if (m->reqs[i].open == open && strcmp(m->reqs[i].bench, bench) == 0)
			return m->reqs[i].req;
	if (!(grown = import_fs_grow(m->reqs, &m->capreqs, m->nreqs + 1, sizeof *m->reqs, &m->oom)))
		return NULL;
	m->reqs = grown;
	r = &m->reqs[m->nreqs];
	r->open = open;
	r->bench = import_fs_strdup(bench, &m->oom);
	if (!(r->req = malloc(sizeof *r->req)) || !r->bench) {
		free(r->bench), free(r->req);
		m->oom = 1;
		return NULL;
	}
	m->nreqs++;
	compliance_required(bench_reg_ruleset(m->round, ruleset, sizeof ruleset), open, bench, r->req);
	return r->req;
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
	if ((grown = import_fs_grow(m->cells, &m->capcells, m->ncells + 1, sizeof *m->cells, &m->oom))) {
		m->cells = grown;
		c = &m->cells[m->ncells++];
		memset(c, 0, sizeof *c);
	}
	if (!grown)
		goto out;
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
	c->power_listed = listed(names, n, "power");
	read_scaling(c, names, n, &m->buf, w, &m->oom);
	division = m->sys[si].info.division;
	open = division && ascii_casecmp(division, "open") == 0;
	/* compliance rule 6: the keys the checker of the round's ruleset requires, by the
	 * benchmark's name as published */
	if (!(c->req = model_req(m, open, c->published)))
		goto out;
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

/* A job's texts (why, advice): heap strings, or no_text when there was no memory for one. */
static char no_text[] = "";

static void text_free(char *t)
{
	if (t != no_text)
		free(t);
}

/* *dst = a heap copy of text (replacing what it held); *oom set when there is no memory,
 * and then *dst is no_text, "", which text_free leaves. */
static void set_text(char **dst, const char *text, int *oom)
{
	char *t = strdup(text);

	text_free(*dst);
	if (!t)
		*oom = 1;
	*dst = t ? t : no_text;
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
			if ((grown = import_fs_grow(m->sys, &m->capsys, m->nsys + 1, sizeof *m->sys, &m->oom))) {
				m->sys = grown;
				s = &m->sys[m->nsys++];
				memset(s, 0, sizeof *s);
			}
			if (!grown)
				goto out;
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
		free(m->cells[i].bench), free(m->cells[i].published), free(m->cells[i].dir);
	for (size_t i = 0; i < m->nreqs; i++)
		free(m->reqs[i].bench), free(m->reqs[i].req);
	free(m->reqs);
	for (size_t i = 0; i < m->njobs; i++)
		free(m->jobs[i].path), text_free(m->jobs[i].why), text_free(m->jobs[i].advice);
	free(m->sys);
	free(m->cells);
	free(m->jobs);
	free(m->rank);
	free(m->buf.p);
	rcp_free(&m->rcp);
	memset(m, 0, sizeof *m);
}

/* ---- reading and scanning the logs ---- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads and scans one log of benchmark bench (the one id) in round into j. */
static void scan_job(struct job *j, const char *bench, const char *round, struct fbuf *buf, int *oom)
{
	struct gs_err err;
	struct mllog_scan s;
	unsigned counts[COMPLIANCE_MAX_KEYS];
	char why[200], text[320];

	if (fileio_read(j->path, LOG_MAX, buf, &err) < 0) {
		if (errno == ENOMEM)
			*oom = 1;
		/* not a failed run: a run nobody can read may have been a good one */
		snprintf(text, sizeof text, "%.150s", err.msg);
		set_text(&j->why, text, oom);
		j->ok = 0;
		j->unreadable = 1;
		return;
	}
	j->bytes = buf->len;
	mllog_scan_keys(buf->p, buf->len, j->req ? j->req->keys : NULL, j->req ? j->req->n : 0, counts, &s);
	j->ok = mllog_verdict(&s, j->init_limit, &j->minutes, text, 160, &j->line, &j->col) == 0;
	j->old_format = s.old_format;
	if (!j->ok)
		set_text(&j->why, text, oom);
	if (j->ok && j->req && compliance_check(j->req, counts, why, sizeof why) >= 0) {
		/* the official checker fails the log, and the run with it (a warning before 3.0.0) */
		if (j->req->binding) {
			j->ok = 0;
			snprintf(text, 160, "compliance: %.120s", why);
			set_text(&j->why, text, oom);
		} else {
			snprintf(text, sizeof text, "%s (counted: before 3.0.0 the check only warns, the "
				 "round's own list may differ)", why);
			set_text(&j->advice, text, oom);
		}
	}
	j->gbs = j->samples = NAN;
	if (j->ok) {
		j->ms = s.stop_ms - s.start_ms;
		import_conv_run(buf->p, buf->len, bench, round, &j->gbs, &j->samples, oom);
	}
	/* a subnormal time would be written as text the loader refuses (strtod says ERANGE):
	 * no score for the benchmark rather than a row that does not load */
	if (j->ok && j->minutes < DBL_MIN) {
		snprintf(text, 160, "run time %.3g minutes is below %.3g, the least a results CSV holds",
			 j->minutes, DBL_MIN);
		set_text(&j->why, text, oom);
		j->ok = 0;
		j->unwritable = 1;
	}
}

/* Walks the submitter folders subs[n] of dir into m, then reads and scans every log in the
 * job list's order. progress, when not NULL, gets a line redrawn every 0.1 s. */
static void walk_and_scan(struct model *m, const char *dir, const struct dent *subs, size_t n,
			  struct gs_warn *w, FILE *progress)
{
	double t0 = now_s(), shown = t0;
	unsigned long long bytes = 0;
	int oom = 0;

	for (size_t k = 0; k < n && !m->oom; k++)
		if (subs[k].kind == KIND_DIR)
			walk_submitter(m, dir, subs[k].name, w);
	for (size_t i = 0; i < m->njobs && !m->oom && !oom; i++) {
		scan_job(&m->jobs[i], m->cells[m->jobs[i].cell].bench, m->round, &m->buf, &oom);
		bytes += m->jobs[i].bytes;
		if (progress && now_s() - shown >= 0.1) {
			shown = now_s();
			fprintf(progress, "\rimport: %zu/%zu files, %.1f MB/s  ", i + 1, m->njobs,
				(double)bytes / 1e6 / (shown - t0));
			fflush(progress);
		}
	}
	if (oom)
		m->oom = 1;
	if (progress && shown > t0)
		fprintf(progress, "\r%60s\r", "");
}

/* Numbers are read and written in C notation whatever the process locale says: the process
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

/* The RCP table of the data folder (GPUSCALE_DATA, else the source tree's data/, else the
 * installed share/gpuscale) into m->rcp: without it, rows get no rcp_samples, and a warning. */
static void load_rcp(struct model *m, struct gs_warn *w)
{
	const char *env = getenv("GPUSCALE_DATA");
	struct stat st;
	char path[4096];
	struct gs_err err;

	snprintf(path, sizeof path, "%s/rcp.csv", env && *env ? env :
		 stat(GS_SRCDATA, &st) == 0 && S_ISDIR(st.st_mode) ? GS_SRCDATA : GS_SHAREDIR);
	if (rcp_load(path, &m->rcp, &err) < 0)
		warn_add(w, err.file, err.line, err.col, "cannot read the RCP table: %s; no rcp_samples",
			 err.msg);
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
	load_rcp(&m, &res->warn);
	walk_and_scan(&m, dir, subs, n, &res->warn, progress);
	import_fs_free_list(subs);
	/* every byte of the CSV goes through a stream that records a write finding no memory:
	 * a text cut short is never taken for the whole */
	if (!m.oom && fileio_mem_open(&out) == 0) {
		for (size_t i = 0; i < m.njobs; i++)
			res->bytes += m.jobs[i].bytes;
		res->files = m.njobs;
		if (import_build_csv(&m, round, res, out.f) < 0)
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
