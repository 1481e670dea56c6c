/* power.c: energy-to-train from MLPerf power logs, by the official rules (see power.h and
 * ../shared/mlperf/README.md, "How the official energy-to-train score is computed").
 *
 * The arithmetic follows the official Python code step for step, in doubles and in the same
 * order (time_ms is read as a float there, so every term is a double product), so that the
 * published figures come out to the joule. Where the official code would crash (no start,
 * a division by zero) or would silently integrate from time 0 (a reading before any start
 * under the old rule), the file gives no energy and the system none: a wrong figure is
 * worse than a blank one. */
#include "power.h"
#include "fileio.h"
#include "mllog.h"
#include "olympic.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum power_rule power_rule_for_round(const char *round)
{
	unsigned major, minor;
	char tail;

	if (round && sscanf(round, "v%u.%u%c", &major, &minor, &tail) == 2)
		return major < 4 || (major == 4 && minor == 0) ? POWER_RULE_FILE_ORDER : POWER_RULE_WINDOW;
	return POWER_RULE_WINDOW;
}

/* ---- reading the events of one file ---- */

enum kind { K_START, K_STOP, K_READING, K_EFF, K_SWITCH };

struct ev {
	double t, v;     /* time_ms; value (readings, conversion_eff, interconnect_power_est) */
	size_t seq;      /* position in the file: the sort's tie-break, as Python's sort is stable */
	long line, col;  /* of the payload */
	int kind;
};

struct evlist {
	struct ev *v;
	size_t n, cap;
	char meas[3];    /* "AC", "DC", "" none, "?" disagreeing lines */
};

static void evlist_free(struct evlist *L)
{
	free(L->v);
	memset(L, 0, sizeof *L);
}

static int kind_of(const char *key)
{
	static const char *const names[] = {
		[K_START] = "power_measurement_start", [K_STOP] = "power_measurement_stop",
		[K_READING] = "power_reading", [K_EFF] = "conversion_eff",
		[K_SWITCH] = "interconnect_power_est",
	};

	/* power_reading first: nearly every line of a node file is one */
	if (strcmp(key, names[K_READING]) == 0)
		return K_READING;
	for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++)
		if (k != K_READING && strcmp(key, names[k]) == 0)
			return k;
	return -1;
}

/* Adds one file's or run's measurement type m ("AC", "DC", "" none) to meas (3 bytes): the
 * first one said, "?" once two disagree. */
static void meas_merge(char *meas, const char *m)
{
	if (!m[0])
		return;
	if (!meas[0])
		memcpy(meas, m, 3);
	else if (strcmp(meas, m) != 0)
		memcpy(meas, "?", 2);
}

/* Collects the power events of buf[0..len) with the MLLOG scanner. Every ":::MLLOG " payload
 * must be valid JSON (as the compliance check reads it); lines without the marker, and
 * events with other keys, are ignored, as the official code ignores them. Returns 0, or -1
 * with e. */
static int events_read(const char *buf, size_t len, const char *name, struct evlist *L,
		       struct gs_err *e)
{
	struct mllog_event me;
	size_t pos = 0;
	long line = 1;

	memset(L, 0, sizeof *L);
	while (mllog_event_next(buf, len, &pos, &line, &me)) {
		struct ev ev;

		if (me.bad_col) {
			err_set(e, name, me.line, me.bad_col, "MLLOG payload is not valid JSON");
			return -1;
		}
		meas_merge(L->meas, me.measurement);
		if ((ev.kind = kind_of(me.key)) < 0)
			continue;
		if (!me.has_time) {
			err_set(e, name, me.line, me.time_col ? me.time_col : me.col,
				"%s has no finite numeric time_ms", me.key);
			return -1;
		}
		if (ev.kind != K_START && ev.kind != K_STOP && !me.value_is_number) {
			err_set(e, name, me.line, me.value_col ? me.value_col : me.col,
				"%s has no finite numeric value", me.key);
			return -1;
		}
		ev.t = me.time_ms;
		ev.v = me.value;
		ev.seq = L->n;
		ev.line = me.line;
		ev.col = me.col;
		if (L->n == L->cap) {
			size_t c = L->cap ? L->cap * 2 : 1024;
			struct ev *v = realloc(L->v, c * sizeof *v);
			if (!v) {
				err_oom(e, name, 0);
				return -1;
			}
			L->v = v;
			L->cap = c;
		}
		L->v[L->n++] = ev;
	}
	return 0;
}

/* ---- the node rules ---- */

static int cmp_ev_time(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The official node formula once the rule has found agg, start and stop. */
static int node_result(double eff, double agg, double ttt_ms, double start, double stop,
		       const char *name, double *joules, struct gs_err *e)
{
	double r;

	if (stop == start) {
		err_set(e, name, 0, 0, "empty measurement window: power_measurement_stop at the start's "
			"time (%.17g ms), a division by zero", start);
		return -1;
	}
	r = eff * agg * ttt_ms / (stop - start) / 1000;
	if (!isfinite(r) || !(r > 0)) {
		err_set(e, name, 0, 0, "node energy %g J is not a finite positive number", r);
		return -1;
	}
	*joules = r;
	return 0;
}

/* What a node rule has gathered: the integral of power over time since the start. */
struct node_acc {
	double prev, start, stop, agg, eff, latest;
	int started;
	size_t readings;
};

/* A reading counted: power times the time since the previous one (or the start). */
static void node_reading(struct node_acc *a, const struct ev *ev)
{
	a->agg += ev->v * (ev->t - a->prev);
	a->prev = ev->t;
	if (ev->t > a->latest)
		a->latest = ev->t;
	a->readings++;
}

/* A start event: the integral starts (again) at its time. */
static void node_start(struct node_acc *a, const struct ev *ev)
{
	a->start = a->prev = ev->t;
	a->started = 1;
}

/* The checks both rules make before the result: a start, and a counted reading (none_why says
 * where the rule looked). 0, or -1 with e set. */
static int node_check(const struct node_acc *a, const char *name, const char *none_why,
		      struct gs_err *e)
{
	if (!a->started) {
		err_set(e, name, 0, 0, "no power_measurement_start");
		return -1;
	}
	if (!a->readings) {
		err_set(e, name, 0, 0, "%s", none_why);
		return -1;
	}
	return 0;
}

/* Rounds up to v4.0: lines in file order; every reading up to the first stop counts; then
 * stop = max(stop, the latest reading's time), since the v4.0 SMC node files log their stop
 * with the start's timestamp. */
static int node_file_order(const struct evlist *L, const char *name, double ttt_ms,
			   double *joules, struct gs_err *e)
{
	struct node_acc a = { .eff = 1.0 };

	for (size_t i = 0; i < L->n; i++) {
		const struct ev *ev = &L->v[i];
		if (ev->kind == K_START) {
			node_start(&a, ev);
		} else if (ev->kind == K_READING) {
			/* the official code would integrate this one from time 0 */
			if (!a.started) {
				err_set(e, name, ev->line, ev->col,
					"power_reading before any power_measurement_start");
				return -1;
			}
			node_reading(&a, ev);
		} else if (ev->kind == K_STOP) {
			a.stop = ev->t;
			break;
		} else if (ev->kind == K_EFF) {
			a.eff = ev->v;
		}
	}
	if (node_check(&a, name, "no power_reading before the first power_measurement_stop", e) < 0)
		return -1;
	if (a.latest > a.stop)
		a.stop = a.latest;
	return node_result(a.eff, a.agg, ttt_ms, a.start, a.stop, name, joules, e);
}

/* From v4.1: lines sorted by time (stably); readings count once a start has been seen and
 * until a stop has; a later start moves the start; with no stop, the latest counted reading
 * is the stop. */
static int node_window(struct evlist *L, const char *name, double ttt_ms, double *joules,
		       struct gs_err *e)
{
	struct node_acc a = { .eff = 1.0 };
	int stopped = 0;

	/* a node file's lines are in time order as a rule: the sort would leave them as they
	 * are (its order is total), and its n log n calls were 7% of a v4.1 import's
	 * instructions */
	for (size_t i = 1; i < L->n; i++)
		if (cmp_ev_time(&L->v[i - 1], &L->v[i]) > 0) {
			qsort(L->v, L->n, sizeof *L->v, cmp_ev_time);
			break;
		}
	for (size_t i = 0; i < L->n; i++) {
		const struct ev *ev = &L->v[i];
		if (ev->kind == K_START) {
			node_start(&a, ev);
		} else if (ev->kind == K_READING) {
			if (a.started && !stopped)
				node_reading(&a, ev);
		} else if (ev->kind == K_STOP) {
			a.stop = ev->t;
			stopped = 1;
		} else if (ev->kind == K_EFF) {
			a.eff = ev->v;
		}
	}
	if (node_check(&a, name, "no power_reading between power_measurement_start and _stop", e) < 0)
		return -1;
	if (!stopped)
		a.stop = a.latest;
	return node_result(a.eff, a.agg, ttt_ms, a.start, a.stop, name, joules, e);
}

int power_node_energy(const char *buf, size_t len, const char *name, enum power_rule rule,
		      double ttt_ms, double *joules, char *measurement, struct gs_err *e)
{
	struct evlist L;
	int rc;

	if (measurement)
		measurement[0] = '\0';
	if (events_read(buf, len, name, &L, e) < 0) {
		evlist_free(&L);
		return -1;
	}
	if (rule == POWER_RULE_FILE_ORDER)
		rc = node_file_order(&L, name, ttt_ms, joules, e);
	else
		rc = node_window(&L, name, ttt_ms, joules, e);
	if (rc == 0 && measurement)
		memcpy(measurement, L.meas, sizeof L.meas);
	evlist_free(&L);
	return rc;
}

int power_switch_energy(const char *buf, size_t len, const char *name, double ttt_ms,
			double *joules, int *estimated, struct gs_err *e)
{
	struct evlist L;
	double eff = 1.0, est = 0, r;
	long line = 0, col = 0;

	*estimated = 0;
	if (events_read(buf, len, name, &L, e) < 0) {
		evlist_free(&L);
		return -1;
	}
	for (size_t i = 0; i < L.n; i++) {
		if (L.v[i].kind == K_EFF) {
			eff = L.v[i].v;
		} else if (L.v[i].kind == K_SWITCH) {
			est = L.v[i].v;
			line = L.v[i].line;
			col = L.v[i].col;
			*estimated = 1;
			break;
		}
	}
	evlist_free(&L);
	r = eff * est * ttt_ms / 1000;
	if (!isfinite(r) || r < 0) {
		err_set(e, name, line, col, "switch energy %g J is not a finite number >= 0", r);
		return -1;
	}
	*joules = r;
	return 0;
}

/* ---- the system's score ---- */

struct order {
	double minutes;
	size_t i;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->minutes != y->minutes)
		return x->minutes < y->minutes ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

int power_olympic(const double *minutes, const double *joules, size_t ok, size_t failed,
		  size_t m, double sf, double *score)
{
	struct order *o;
	size_t lo, hi;
	double sum = 0, r;

	if (ok == 0 || olympic_window(ok, failed, m, &lo, &hi) != 0)
		return -1;
	if (!(o = malloc(ok * sizeof *o)))
		return -2;
	for (size_t i = 0; i < ok; i++) {
		o[i].minutes = minutes[i];
		o[i].i = i;
	}
	qsort(o, ok, sizeof *o, cmp_order);
	for (size_t k = lo; k < hi; k++)
		sum += joules[o[k].i];
	free(o);
	r = sum / (double)(hi - lo) * sf;
	if (!isfinite(r) || !(r > 0))
		return -1;
	*score = r;
	return 0;
}

/* 1 when s has the word w (two ASCII letters, lower case): a run of letters and digits. */
static int has_word(const char *s, const char *w)
{
	while (*s) {
		const char *b = s;
		while (*s && ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z' ? 1 : *s >= '0' && *s <= '9'))
			s++;
		if (s - b == 2 && (b[0] | 0x20) == w[0] && (b[1] | 0x20) == w[1])
			return 1;
		if (*s)
			s++;
	}
	return 0;
}

const char *power_measurement_from_names(const char *submitter, const char *system)
{
	const char *names[2] = { submitter, system };

	for (int i = 0; i < 2; i++) {
		if (!names[i])
			continue;
		if (has_word(names[i], "dc"))
			return "DC";
		if (has_word(names[i], "ac"))
			return "AC";
	}
	return "";
}

/* ---- reading a benchmark folder's power logs ---- */

struct names {
	char **v;
	size_t n;
};

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int match(const char *s, const char *prefix)
{
	size_t n = strlen(s), p = strlen(prefix);
	return n > p + 4 && strncmp(s, prefix, p) == 0 && strcmp(s + n - 4, ".txt") == 0;
}

/* The node_*.txt and sw_*.txt names of folder dir, each list sorted; 0, or -1 with e. */
static int list_logs(const char *dir, struct names *node, struct names *sw, struct gs_err *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	node->v = sw->v = NULL;
	node->n = sw->n = 0;
	if (!d) {
		if (errno == ENOMEM)
			err_oom(e, dir, 0);
		else
			err_set(e, dir, 0, 0, "no power logs for this run: %s", strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct names *s = match(de->d_name, "node_") ? node : match(de->d_name, "sw_") ? sw : NULL;
		char **v, *c;
		if (!s)
			continue;
		v = realloc(s->v, (s->n + 1) * sizeof *v);
		c = strdup(de->d_name);
		if (v)
			s->v = v;
		if (!v || !c) {
			free(c);
			closedir(d);
			err_oom(e, dir, 0);
			return -1;
		}
		s->v[s->n++] = c;
	}
	closedir(d);
	if (node->n)
		qsort(node->v, node->n, sizeof *node->v, cmp_str);
	if (sw->n)
		qsort(sw->v, sw->n, sizeof *sw->v, cmp_str);
	return 0;
}

static char *join(const char *a, const char *b, size_t blen)
{
	size_t n = strlen(a) + blen + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%.*s", a, (int)blen, b);
	return p;
}

/* The first name of want that have lacks (both sorted), or NULL. */
static const char *first_missing(const struct names *want, const struct names *have)
{
	size_t j = 0;

	for (size_t i = 0; i < want->n; i++) {
		while (j < have->n && strcmp(have->v[j], want->v[i]) < 0)
			j++;
		if (j == have->n || strcmp(have->v[j], want->v[i]) != 0)
			return want->v[i];
	}
	return NULL;
}


struct fileid {
	dev_t dev;
	ino_t ino;
};

/* Energy of one run: the sum over its node files, then its switch files, in name order
 * (the official code sums in the file system's order: the last bits may differ, never a
 * joule). meas receives the node files' measurement type ("AC", "DC", "", "?"). */
static int run_energy(const char *rundir, const struct names *node, const struct names *sw,
		      enum power_rule rule, double ms, double *joules, char *meas, char *noest,
		      size_t noest_n, struct fbuf *buf, struct gs_err *e)
{
	const size_t total = node->n + sw->n;
	struct fileid *ids = malloc((total ? total : 1) * sizeof *ids);
	double sum = 0;
	int rc = -1;

	meas[0] = '\0';
	if (!ids) {
		err_oom(e, rundir, 0);
		return -1;
	}
	for (size_t i = 0; i < total; i++) {
		const int is_node = i < node->n;
		const char *nm = is_node ? node->v[i] : sw->v[i - node->n];
		char *path = join(rundir, nm, strlen(nm)), m[3];
		struct stat st;
		double j;
		int est = 1;
		if (!path) {
			err_oom(e, rundir, 0);
			goto out;
		}
		/* regular files under a cap, read(), never waited on (a FIFO) */
		if (fileio_read(path, POWER_FILE_MAX, buf, e) < 0) {
			free(path);
			goto out;
		}
		/* the file read, or the one that replaced it since: either way a link to a file
		 * already counted is caught */
		if (stat(path, &st) != 0) {
			err_set(e, path, 0, 0, "%s", strerror(errno));
			free(path);
			goto out;
		}
		ids[i].dev = st.st_dev;
		ids[i].ino = st.st_ino;
		for (size_t k = 0; k < i; k++)
			if (ids[k].dev == ids[i].dev && ids[k].ino == ids[i].ino) {
				err_set(e, path, 0, 0, "the same file as %s: counted once it would "
					"change the energy, twice it would be wrong",
					k < node->n ? node->v[k] : sw->v[k - node->n]);
				free(path);
				goto out;
			}
		if (is_node ? power_node_energy(buf->p, buf->len, path, rule, ms, &j, m, e)
			    : power_switch_energy(buf->p, buf->len, path, ms, &j, &est, e)) {
			free(path);
			goto out;
		}
		if (!est && !noest[0])
			snprintf(noest, noest_n, "%s", path);
		free(path);
		if (is_node)
			meas_merge(meas, m);
		sum += j;
	}
	*joules = sum;
	rc = 0;
out:
	free(ids);
	return rc;
}

/* Whether the run in rundir lacks a node or switch file the first run (log0) has, or has one
 * it lacks (then e says which): a file missing from one run would lower its energy, not make
 * it unknown. */
static bool runs_differ(const struct names *node0, const struct names *sw0,
			const struct names *node, const struct names *sw, const char *rundir,
			const char *log0, struct gs_err *e)
{
	const struct names *a[4] = { node0, node, sw0, sw };
	const struct names *b[4] = { node, node0, sw, sw0 };

	for (int k = 0; k < 4; k++) {
		const char *miss = first_missing(a[k], b[k]);
		if (!miss)
			continue;
		if (b[k] == node || b[k] == sw) {
			char *p = join(rundir, miss, strlen(miss));
			err_set(e, p ? p : rundir, 0, 0, "missing: the run of %s has it", log0);
			free(p);
		} else {
			err_set(e, rundir, 0, 0, "has %s, which the run of %s lacks", miss, log0);
		}
		return true;
	}
	return false;
}

int power_folder_energy(const char *dir, const char *submitter, const char *system,
			const struct power_run *runs, size_t n, size_t failed, size_t m, double sf,
			enum power_rule rule, double *joules, char *measurement, struct gs_warn *w)
{
	char *pdir = join(dir, "power", 5), meas[3] = "", noest[600] = "";
	struct fbuf buf = {0};
	struct names node0 = {0}, sw0 = {0};
	double *per = NULL, *mins = NULL;
	struct stat st;
	struct gs_err e = {0};
	int rc = -1;

	measurement[0] = '\0';
	if (!pdir)
		return -2;
	if (stat(pdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		free(pdir);
		return 1;
	}
	if (n == 0) {
		err_set(&e, pdir, 0, 0, "no successful run");
		goto fail;
	}
	per = malloc(n * sizeof *per);
	mins = malloc(n * sizeof *mins);
	if (!per || !mins) {
		err_oom(&e, pdir, 0);
		goto fail;
	}
	for (size_t r = 0; r < n; r++) {
		const char *dot = strchr(runs[r].log, '.');
		size_t stem = dot ? (size_t)(dot - runs[r].log) : strlen(runs[r].log);
		char *rundir = join(pdir, runs[r].log, stem), m3[3];
		struct names node = {0}, sw = {0};
		int bad;

		if (!rundir) {
			err_oom(&e, pdir, 0);
			goto fail;
		}
		bad = list_logs(rundir, &node, &sw, &e) < 0;
		if (!bad && node.n == 0) {
			err_set(&e, rundir, 0, 0, "no node_*.txt power log for this run");
			bad = 1;
		}
		/* every run must have the node and switch files the others have: a file missing
		 * from one run would lower its energy, not make it unknown */
		if (!bad && r > 0)
			bad = runs_differ(&node0, &sw0, &node, &sw, rundir, runs[0].log, &e);
		if (!bad)
			bad = run_energy(rundir, &node, &sw, rule, runs[r].ms, &per[r], m3, noest,
					 sizeof noest, &buf, &e) < 0;
		free(rundir);
		if (r == 0 && !bad) {
			node0 = node;
			sw0 = sw;
		} else {
			names_free(&node);
			names_free(&sw);
		}
		if (bad)
			goto fail;
		meas_merge(meas, m3);
		mins[r] = runs[r].minutes;
	}
	if ((rc = power_olympic(mins, per, n, failed, m, sf, joules)) < 0) {
		err_set(&e, pdir, 0, 0, rc == -2 ? "out of memory" : "energy score is not a finite positive number");
		rc = -1;
		goto fail;
	}
	if (strcmp(meas, "?") == 0) {
		warn_add(w, pdir, 0, 0, "node files disagree on metadata.measurement_type; "
			 "AC or DC left blank");
		meas[0] = '\0';
	} else if (!meas[0]) {
		snprintf(meas, sizeof meas, "%s", power_measurement_from_names(submitter, system));
	}
	if (noest[0])
		warn_add(w, noest, 0, 0, "no interconnect_power_est: this switch counts 0 J, as in "
			 "the official score");
	memcpy(measurement, meas, 3);
	rc = 0;
	goto out;
fail:
	/* memory running out is no property of the logs: the caller fails, no warning blames them */
	if (e.kind == GS_ERR_OOM)
		rc = -2;
	else
		warn_add(w, e.file, e.line, e.col, "%s; no energy for this system", e.msg);
out:
	names_free(&node0);
	names_free(&sw0);
	free(per);
	free(mins);
	free(buf.p);
	free(pdir);
	return rc;
}
