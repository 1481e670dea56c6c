/* importer.c: walks an MLPerf training_results tree, scores every system x benchmark by the
 * official rules and produces the results CSV.
 *
 * Layout read: <Submitter>/systems/<system>.json and
 * <Submitter>/results/<system>/<benchmark>/result_*.txt (+ scaling.json). The walk is
 * single-threaded and sorted (so output and warnings are deterministic); the logs, which are
 * nearly all of the bytes, are mapped and scanned by one thread per core, each holding at most
 * one open file and one mapping at a time (see "reading and scanning" below). */
#include "importer.h"
#include "fmt.h"
#include "olympic.h"
#include "text.h"
#include "mllog.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 8

/* ---- small growable buffers ---- */

struct sbuf {
	char *p;
	size_t n, cap;
	int oom;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;
		while (cap < b->n + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[256], *big;
	va_list ap, again;
	int k;

	va_start(ap, fmt);
	va_copy(again, ap);
	k = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (k > 0 && (size_t)k < sizeof tmp) {
		sb_add(b, tmp, (size_t)k);
	} else if (k > 0) {
		/* never cut short: a cut field shifts every later column of the row */
		if ((big = malloc((size_t)k + 1)) != NULL) {
			vsnprintf(big, (size_t)k + 1, fmt, again);
			sb_add(b, big, (size_t)k);
			free(big);
		} else {
			b->oom = 1;
		}
	}
	va_end(again);
}

/* A number of minutes, v > 0 and finite, in the fixed notation with `decimals` digits that
 * the results CSV has always used, when that shows it: at least 10^-decimals and below
 * 10^15. Otherwise in the shortest form that reads back exactly ("1.6666666666666668e+303"):
 * %f of a huge value runs to 300 digits, and a tiny one would be written as 0, which the
 * loader refuses. */
static void sb_minutes(struct sbuf *b, double v, int decimals)
{
	static const double least[] = { 1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6 };
	char num[64];

	if (decimals >= 0 && decimals <= 6 && v >= least[decimals] && v < 1e15) {
		sb_printf(b, "%.*f", decimals, v);
	} else {
		fmt_roundtrip(v, 15, num, sizeof num);
		sb_str(b, num);
	}
}

/* ---- text cleaning and CSV fields ---- */

/* Appends s[0..n) with control characters and invalid UTF-8 replaced by '?'. */
static void sb_clean_n(struct sbuf *b, const char *s, size_t n)
{
	size_t at = b->n;

	sb_add(b, s, n);
	if (!b->oom)
		utf8_sanitize(b->p + at, n);
}

static void sb_clean(struct sbuf *b, const char *s)
{
	sb_clean_n(b, s, strlen(s));
}

/* One CSV field: cleaned, quoted (RFC 4180) when it holds a comma or a quote. Cleaning keeps
 * every ASCII printable byte, so the raw text decides the quoting, and a quote, never part
 * of a multibyte sequence, can split it. */
static void sb_field(struct sbuf *b, const char *s)
{
	if (!strpbrk(s, ",\"")) {
		sb_clean(b, s);
		return;
	}
	sb_add(b, "\"", 1);
	for (const char *q; (q = strchr(s, '"')); s = q + 1) {
		sb_clean_n(b, s, (size_t)(q - s));
		sb_add(b, "\"\"", 2);
	}
	sb_clean(b, s);
	sb_add(b, "\"", 1);
}

/* ---- the model built by the walk ---- */

struct sys {
	char *submitter, *name;       /* folder names */
	char *json;                   /* path of its systems JSON */
	struct import_system info;    /* what the JSON says (zero when it could not be read) */
	int has_results;
	size_t rows;
};

struct cell {
	size_t sys;
	char *bench, *dir;
	size_t first, njobs;          /* its logs in the job list */
	double sf;
	int sf_bad;
};

struct job {
	char *path;
	int ok;                       /* 1 successful run, 0 failed */
	double minutes;
	long line, col;
	char why[160];
	unsigned long long size;      /* from the walk's stat */
	unsigned long long bytes;     /* read */
};

struct model {
	struct sys *sys;
	size_t nsys, capsys;
	struct cell *cells;
	size_t ncells, capcells;
	struct job *jobs;
	size_t njobs, capjobs;
	int oom;
};

static void *grow(void *p, size_t *cap, size_t need, size_t size, int *oom)
{
	void *q;
	size_t c;

	if (need <= *cap)
		return p;
	c = *cap ? *cap * 2 : 64;
	while (c < need)
		c *= 2;
	q = realloc(p, c * size);
	if (!q) {
		*oom = 1;
		return NULL;
	}
	*cap = c;
	return q;
}

static char *xstrdup(const char *s, int *oom)
{
	char *p = strdup(s);
	if (!p)
		*oom = 1;
	return p;
}

static char *path_join(const char *a, const char *b, int *oom)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = malloc(n);

	if (!p) {
		*oom = 1;
		return NULL;
	}
	snprintf(p, n, "%s/%s", a, b);
	return p;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* One folder entry; kind from the entry's d_type, stat'ed (symlinks followed) only when the
 * file system does not tell or the entry is a symlink. */
enum { KIND_OTHER, KIND_DIR, KIND_FILE };
struct dent {
	char *name;
	int kind;
};

static int cmp_dent(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

static int dent_kind(DIR *d, const struct dirent *de)
{
	struct stat st;

#ifdef DT_DIR
	if (de->d_type == DT_DIR)
		return KIND_DIR;
	if (de->d_type == DT_REG)
		return KIND_FILE;
	if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return KIND_OTHER;
#endif
	if (fstatat(dirfd(d), de->d_name, &st, 0) != 0)
		return KIND_OTHER;
	return S_ISDIR(st.st_mode) ? KIND_DIR : S_ISREG(st.st_mode) ? KIND_FILE : KIND_OTHER;
}

/* Sorted entries of dir (no "." or hidden ones), terminated by a NULL name; owned.
 * Returns NULL with a warning when dir cannot be read, or on OOM. */
static struct dent *list_dir(const char *dir, struct gs_warn *w, size_t *count, int *oom)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct dent *v = NULL;
	size_t n = 0, cap = 0;

	*count = 0;
	if (!d) {
		warn_add(w, dir, 0, 0, "cannot read folder: %s", strerror(errno));
		return NULL;
	}
	while ((de = readdir(d))) {
		struct dent *nv;
		if (de->d_name[0] == '.')
			continue;
		nv = grow(v, &cap, n + 2, sizeof *v, oom);
		if (!nv)
			break;
		v = nv;
		if (!(v[n].name = xstrdup(de->d_name, oom)))
			break;
		v[n].kind = dent_kind(d, de);
		n++;
	}
	closedir(d);
	if (*oom) {
		for (size_t i = 0; i < n; i++)
			free(v[i].name);
		free(v);
		return NULL;
	}
	if (!v && !(v = calloc(1, sizeof *v))) {
		*oom = 1;
		return NULL;
	}
	qsort(v, n, sizeof *v, cmp_dent);
	v[n].name = NULL;
	*count = n;
	return v;
}

static void free_list(struct dent *v)
{
	if (!v)
		return;
	for (size_t i = 0; v[i].name; i++)
		free(v[i].name);
	free(v);
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Reads what is left of fd into *buf (grown as needed, NUL-terminated); 0 or -1 with errno. */
static int read_fd(int fd, char **buf, size_t *cap, size_t *len)
{
	size_t n = 0;

	for (;;) {
		ssize_t k;
		if (n + 1 >= *cap) {
			size_t c = *cap ? *cap * 2 : 65536;
			char *p = realloc(*buf, c);
			if (!p) {
				errno = ENOMEM;
				return -1;
			}
			*buf = p;
			*cap = c;
		}
		k = read(fd, *buf + n, *cap - n - 1);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	(*buf)[n] = '\0';
	*len = n;
	return 0;
}

/* A count from a systems JSON: a string of decimal digits (surrounding blanks allowed) or a
 * whole JSON number, 0..1e9. Returns it, or -1. */
static long long parse_count(json_t *v)
{
	if (json_is_integer(v)) {
		json_int_t x = json_integer_value(v);
		return x >= 0 && x <= 1000000000 ? (long long)x : -1;
	}
	if (json_is_real(v)) {
		double x = json_real_value(v);
		return x >= 0 && x <= 1e9 && x == floor(x) ? (long long)x : -1;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		long long x = 0;
		int digits = 0;
		while (*s == ' ' || *s == '\t')
			s++;
		for (; *s >= '0' && *s <= '9'; s++) {
			if (++digits > 9)
				return -1;
			x = x * 10 + (*s - '0');
		}
		while (*s == ' ' || *s == '\t')
			s++;
		return digits && !*s ? x : -1;
	}
	return -1;
}

/* A string field of a systems JSON, "" (with a warning) when missing or not a string; NULL on OOM. */
static char *json_text(json_t *root, const char *key, const char *name, struct gs_warn *w)
{
	json_t *v = json_object_get(root, key);

	if (!v) {
		warn_add(w, name, 0, 0, "missing field \"%s\"", key);
		return strdup("");
	}
	if (!json_is_string(v)) {
		warn_add(w, name, 0, 0, "field \"%s\" is not a string", key);
		return strdup("");
	}
	return strdup(json_string_value(v));
}

void import_system_free(struct import_system *s)
{
	free(s->system_name);
	free(s->division);
	free(s->availability);
	free(s->accelerator);
	free(s->framework);
	memset(s, 0, sizeof *s);
}

int import_system_parse(const char *buf, size_t len, const char *name, struct import_system *out,
			struct gs_warn *w, struct gs_err *err)
{
	static const char *const count_keys[2] = {"number_of_nodes", "accelerators_per_node"};
	json_error_t je;
	json_t *root = json_loadb(buf, len, 0, &je);
	long long c[2];
	const struct {
		const char *key;
		char **field;
	} texts[] = {
		{ "system_name", &out->system_name }, { "division", &out->division },
		{ "status", &out->availability }, { "accelerator_model_name", &out->accelerator },
		{ "framework", &out->framework },
	};
	const size_t ntexts = sizeof texts / sizeof texts[0];

	memset(out, 0, sizeof *out);
	if (!root) {
		warn_add(w, name, je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0,
			 "systems JSON does not parse: %s; system skipped", je.text);
	} else if (!json_is_object(root)) {
		warn_add(w, name, 0, 0, "systems JSON is not an object; system skipped");
	} else {
		for (size_t i = 0; i < ntexts; i++)
			*texts[i].field = json_text(root, texts[i].key, name, w);
		out->usable = 1;
		for (int i = 0; i < 2; i++) {
			json_t *v = json_object_get(root, count_keys[i]);
			c[i] = v ? parse_count(v) : -1;
			if (!v) {
				warn_add(w, name, 0, 0, "missing field \"%s\"; system skipped", count_keys[i]);
				out->usable = 0;
			} else if (c[i] < 0 || (i == 0 && c[i] == 0)) {
				warn_add(w, name, 0, 0, "field \"%s\" is not a %s count; system skipped",
					 count_keys[i], i == 0 ? "positive" : "non-negative");
				out->usable = 0;
			}
		}
		if (out->usable) {
			out->nodes = c[0];
			out->per_node = c[1];
			out->accelerators = c[0] * (c[1] > 1 ? c[1] : 1);
		}
	}
	json_decref(root);
	/* "" for the texts a JSON that is no object did not give; NULL otherwise only when strdup
	 * ran out of memory */
	for (size_t i = 0; i < ntexts; i++)
		if (!*texts[i].field && !(*texts[i].field = strdup(""))) {
			err_set(err, name, 0, 0, "out of memory");
			import_system_free(out);
			return -1;
		}
	return 0;
}

/* Reads one systems JSON into s->info; s->info.usable tells whether the system can be scored. */
static void read_system(struct sys *s, struct gs_warn *w, int *oom)
{
	struct gs_err err;
	char *buf = NULL;
	size_t cap = 0, len = 0;
	int fd = open(s->json, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read_fd(fd, &buf, &cap, &len) < 0) {
		if (errno == ENOMEM)
			*oom = 1;
		else
			warn_add(w, s->json, 0, 0, "cannot read systems JSON: %s; system skipped",
				 strerror(errno));
		if (fd >= 0)
			close(fd);
		free(buf);
		return;
	}
	close(fd);
	if (import_system_parse(buf, len, s->json, &s->info, w, &err) < 0)
		*oom = 1;
	free(buf);
}

/* Reads scaling.json of a benchmark folder, when there is one. */
static void read_scaling(struct cell *c, struct gs_warn *w, int *oom)
{
	char *p = path_join(c->dir, "scaling.json", oom);
	json_error_t je;
	json_t *root, *v;

	c->sf = 1;
	if (!p)
		return;
	if (access(p, F_OK) != 0) {
		free(p);
		return;
	}
	root = json_load_file(p, JSON_DECODE_ANY, &je);
	if (!root) {
		warn_add(w, p, je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0,
			 "scaling.json does not parse: %s; benchmark skipped", je.text);
		c->sf_bad = 1;
	} else {
		v = json_is_object(root) ? json_object_get(root, "scaling_factor") : NULL;
		if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) <= 0) {
			warn_add(w, p, 0, 0, "no positive number \"scaling_factor\"; benchmark skipped");
			c->sf_bad = 1;
		} else
			c->sf = json_number_value(v);
		json_decref(root);
	}
	free(p);
}

static void walk_bench(struct model *m, size_t si, const char *sysdir, const char *bench,
		       struct gs_warn *w)
{
	char *dir = path_join(sysdir, bench, &m->oom);
	struct dent *names;
	size_t n;
	struct cell *c;

	if (!dir)
		return;
	names = list_dir(dir, w, &n, &m->oom);
	if (!names) {
		free(dir);
		return;
	}
	if (!(m->cells = grow(m->cells, &m->capcells, m->ncells + 1, sizeof *m->cells, &m->oom)))
		goto out;
	c = &m->cells[m->ncells++];
	memset(c, 0, sizeof *c);
	c->sys = si;
	c->dir = dir;
	dir = NULL;
	c->bench = xstrdup(bench, &m->oom);
	c->first = m->njobs;
	read_scaling(c, w, &m->oom);
	for (size_t i = 0; i < n; i++) {
		char *p;
		struct job *j;
		struct stat st;
		if (strncmp(names[i].name, "result_", 7) != 0 || !has_suffix(names[i].name, ".txt"))
			continue;
		if (!(p = path_join(c->dir, names[i].name, &m->oom)))
			break;
		/* the size orders the work (largest first) */
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		if (!(m->jobs = grow(m->jobs, &m->capjobs, m->njobs + 1, sizeof *m->jobs, &m->oom))) {
			free(p);
			break;
		}
		j = &m->jobs[m->njobs++];
		memset(j, 0, sizeof *j);
		j->path = p;
		j->size = (unsigned long long)st.st_size;
		c->njobs++;
	}
out:
	free(dir);
	free_list(names);
}

/* One submitter folder (the caller has checked that it is a folder). */
static void walk_submitter(struct model *m, const char *top, const char *sub, struct gs_warn *w)
{
	char *subdir = path_join(top, sub, &m->oom);
	char *sysdir = subdir ? path_join(subdir, "systems", &m->oom) : NULL;
	char *resdir = subdir ? path_join(subdir, "results", &m->oom) : NULL;
	struct dent *names = NULL, *res = NULL;
	size_t n = 0, nres = 0, first = m->nsys;

	if (!subdir || !sysdir || !resdir)
		goto out;
	if (is_dir(sysdir) && (names = list_dir(sysdir, w, &n, &m->oom))) {
		for (size_t i = 0; i < n; i++) {
			struct sys *s;
			if (!has_suffix(names[i].name, ".json"))
				continue;
			if (!(m->sys = grow(m->sys, &m->capsys, m->nsys + 1, sizeof *m->sys, &m->oom)))
				goto out;
			s = &m->sys[m->nsys++];
			memset(s, 0, sizeof *s);
			s->submitter = xstrdup(sub, &m->oom);
			s->name = xstrdup(names[i].name, &m->oom);
			if (s->name)
				s->name[strlen(s->name) - 5] = '\0';
			s->json = path_join(sysdir, names[i].name, &m->oom);
			if (s->json)
				read_system(s, w, &m->oom);
		}
	}
	if (!is_dir(resdir))
		goto out;
	if (!(res = list_dir(resdir, w, &nres, &m->oom)))
		goto out;
	for (size_t i = 0; i < nres; i++) {
		char *sd;
		struct dent *benches;
		size_t nb, si;

		if (res[i].kind != KIND_DIR)
			continue;
		if (!(sd = path_join(resdir, res[i].name, &m->oom)))
			break;
		for (si = first; si < m->nsys; si++)
			if (m->sys[si].name && strcmp(m->sys[si].name, res[i].name) == 0)
				break;
		if (si == m->nsys) {
			warn_add(w, sd, 0, 0, "no systems/%s.json for these results; skipped", res[i].name);
			free(sd);
			continue;
		}
		m->sys[si].has_results = 1;
		if (!m->sys[si].info.usable) {
			free(sd);
			continue;
		}
		if ((benches = list_dir(sd, w, &nb, &m->oom))) {
			for (size_t b = 0; b < nb; b++)
				if (benches[b].kind == KIND_DIR)
					walk_bench(m, si, sd, benches[b].name, w);
			free_list(benches);
		}
		free(sd);
	}
out:
	free_list(names);
	free_list(res);
	free(subdir);
	free(sysdir);
	free(resdir);
}

static void model_free(struct model *m)
{
	for (size_t i = 0; i < m->nsys; i++) {
		struct sys *s = &m->sys[i];
		free(s->submitter), free(s->name), free(s->json);
		import_system_free(&s->info);
	}
	for (size_t i = 0; i < m->ncells; i++)
		free(m->cells[i].bench), free(m->cells[i].dir);
	for (size_t i = 0; i < m->njobs; i++)
		free(m->jobs[i].path);
	free(m->sys);
	free(m->cells);
	free(m->jobs);
	memset(m, 0, sizeof *m);
}

/* ---- reading and scanning the logs in parallel ----
 *
 * Workers take the next log from one shared counter over the logs sorted largest first, so the
 * last ones to finish are small and no core idles while another still scans a big log. A log is
 * mapped rather than read: the scan then runs on the page cache itself, without the copy that
 * read() makes (about as much work as the scan). The trees are input that does not change while
 * it is imported; a log that cannot be mapped is read into the worker's reused buffer. */

struct order {
	unsigned long long size;
	size_t job;
};

struct pool {
	struct job *jobs;
	const struct order *order;   /* largest log first */
	size_t njobs;
	atomic_size_t next, done;
	atomic_ullong bytes;
};

/* Reads and scans one log into j; buf/cap is the worker's fallback buffer. */
static void scan_job(struct job *j, char **buf, size_t *cap)
{
	int fd = open(j->path, O_RDONLY | O_CLOEXEC);
	void *map = MAP_FAILED;
	const char *data;
	size_t len = 0;
	struct stat st;
	struct mllog_scan s;

	if (fd < 0)
		goto fail;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long long)st.st_size <= SIZE_MAX) {
		len = (size_t)st.st_size;
#ifdef MAP_POPULATE
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
#else
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
#endif
	}
	if (map != MAP_FAILED) {
		data = map;
	} else if (read_fd(fd, buf, cap, &len) == 0) {
		data = *buf;
	} else {
		int e = errno;
		close(fd);
		errno = e;
		goto fail;
	}
	close(fd);
	j->bytes = len;
	mllog_scan(data, len, &s);
	if (map != MAP_FAILED)
		munmap(map, len);
	j->ok = mllog_verdict(&s, &j->minutes, j->why, sizeof j->why, &j->line, &j->col) == 0;
	return;
fail:
	snprintf(j->why, sizeof j->why, "cannot read: %s", strerror(errno));
	j->ok = 0;
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

static void *worker(void *arg)
{
	struct pool *P = arg;
	char *buf = NULL;
	size_t cap = 0, i;
	locale_t old, c_loc = c_numeric_enter(&old);

	while ((i = atomic_fetch_add(&P->next, 1)) < P->njobs) {
		struct job *j = &P->jobs[P->order[i].job];

		scan_job(j, &buf, &cap);
		atomic_fetch_add(&P->bytes, j->bytes);
		atomic_fetch_add(&P->done, 1);
	}
	free(buf);
	c_numeric_leave(c_loc, old);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return (x->job > y->job) - (x->job < y->job);
}

/* Scans every job of m; -1 when out of memory (nothing scanned). */
static int run_pool(struct model *m, int threads, int progress)
{
	struct pool P;
	pthread_t tid[MAX_THREADS];
	int started = 0;
	double t0 = now_s();
	struct order *order = malloc((m->njobs ? m->njobs : 1) * sizeof *order);

	if (!order)
		return -1;
	for (size_t i = 0; i < m->njobs; i++) {
		order[i].size = m->jobs[i].size;
		order[i].job = i;
	}
	qsort(order, m->njobs, sizeof *order, cmp_order);
	P.jobs = m->jobs;
	P.order = order;
	P.njobs = m->njobs;
	atomic_init(&P.next, 0);
	atomic_init(&P.done, 0);
	atomic_init(&P.bytes, 0);
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	for (int i = 0; i < threads; i++)
		if (pthread_create(&tid[i], NULL, worker, &P) == 0)
			started++;
	if (!started) {
		worker(&P);
	} else if (progress) {
		size_t done;
		while ((done = atomic_load(&P.done)) < P.njobs) {
			struct timespec ts = {0, 100000000};
			double dt = now_s() - t0;
			fprintf(stderr, "\rimport: %zu/%zu files, %.1f MB/s  ", done, P.njobs,
				dt > 0 ? (double)atomic_load(&P.bytes) / 1e6 / dt : 0.0);
			fflush(stderr);
			nanosleep(&ts, NULL);
		}
	}
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	if (progress)
		fprintf(stderr, "\r%60s\r", "");
	free(order);
	return 0;
}

/* ---- scoring and output ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Scores one cell by the olympic average; returns 0 with *score, or -1 with a reason. */
static int score_cell(const struct model *m, const struct cell *c, double *times, size_t *nok,
		      double *score, char *why, size_t n)
{
	size_t d = 0, k = 0, lim = olympic_limit(c->bench), lo, hi;
	int w;
	double sum = 0;

	for (size_t i = 0; i < c->njobs; i++) {
		const struct job *j = &m->jobs[c->first + i];
		if (j->ok)
			times[k++] = j->minutes;
		else
			d++;
	}
	*nok = k;
	qsort(times, k, sizeof *times, cmp_double);
	if (c->njobs == 0) {
		snprintf(why, n, "no result logs");
		return -1;
	}
	if (c->sf_bad) {
		snprintf(why, n, "unusable scaling.json");
		return -1;
	}
	w = olympic_window(k, d, lim, &lo, &hi);
	if (w == 1) {
		snprintf(why, n, "%zu of %zu runs failed (at most %zu allowed)", d, c->njobs, lim);
		return -1;
	}
	if (w == 2) {
		snprintf(why, n, "%zu successful run%s, too few to score", k, k == 1 ? "" : "s");
		return -1;
	}
	for (size_t i = lo; i < hi; i++)
		sum += times[i];
	/* each run time is finite and positive (mllog_verdict), but a scaling factor near
	 * DBL_MAX (or a tiny one) can still take the product out of range: no score then,
	 * rather than an "inf" or a 0 the loader would refuse */
	*score = sum / (double)(hi - lo) * c->sf;
	if (!isfinite(*score) || !(*score > 0)) {
		snprintf(why, n, "score is not a finite positive number of minutes (mean %g x scaling_factor %g)",
			 sum / (double)(hi - lo), c->sf);
		return -1;
	}
	return 0;
}

static void emit_row(struct sbuf *b, const char *round, const struct sys *s, const struct cell *c,
		     double score, const double *times, size_t k, size_t d)
{
	char num[64];

	const char *head[] = { round, s->submitter, s->name, s->info.system_name, s->info.division,
			       s->info.availability, s->info.accelerator };

	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) {
		if (i)
			sb_add(b, ",", 1);
		sb_field(b, head[i]);
	}
	sb_printf(b, ",%lld,%lld,%lld,", s->info.nodes, s->info.per_node, s->info.accelerators);
	sb_field(b, s->info.framework);
	sb_add(b, ",", 1);
	sb_field(b, c->bench);
	sb_add(b, ",", 1);
	sb_minutes(b, score, 6);
	sb_printf(b, ",%zu,%zu,", k, d);
	fmt_roundtrip(c->sf, 15, num, sizeof num);
	sb_str(b, num);
	sb_add(b, ",", 1);
	for (size_t i = 0; i < k; i++) {
		if (i)
			sb_add(b, ";", 1);
		sb_minutes(b, times[i], 4);
	}
	sb_add(b, "\n", 1);
}

static void build_csv(struct model *m, const char *round, struct import_result *res, struct sbuf *b)
{
	double *times = NULL;
	size_t cap = 0;

	sb_str(b, IMPORT_CSV_HEADER "\n");
	for (size_t i = 0; i < m->ncells; i++) {
		struct cell *c = &m->cells[i];
		struct sys *s = &m->sys[c->sys];
		char why[160];
		double score;
		size_t k;

		for (size_t r = 0; r < c->njobs; r++) {
			struct job *j = &m->jobs[c->first + r];
			if (!j->ok)
				warn_add(&res->warn, j->path, j->line, j->col, "run fails: %s", j->why);
		}
		if (c->njobs > cap) {
			double *t = realloc(times, c->njobs * sizeof *t);
			if (!t) {
				b->oom = 1;
				break;
			}
			times = t;
			cap = c->njobs;
		}
		if (score_cell(m, c, times, &k, &score, why, sizeof why) < 0) {
			warn_add(&res->unscored, NULL, 0, 0, "%s/%s/%s: %s", s->submitter, s->name, c->bench, why);
			continue;
		}
		emit_row(b, round, s, c, score, times, k, c->njobs - k);
		if (s->rows++ == 0)
			res->systems++;
		res->rows++;
	}
	for (size_t i = 0; i < m->nsys; i++) {
		struct sys *s = &m->sys[i];
		if (s->rows)
			continue;
		warn_add(&res->unscored, NULL, 0, 0, "%s/%s: %s", s->submitter, s->name,
			 !s->info.usable ? "unusable systems JSON" :
			 !s->has_results ? "no results folder" : "no benchmark with a score");
	}
	free(times);
}

int import_tree(const char *dir, const char *round, int threads, int progress,
		struct import_result *res, struct gs_err *err)
{
	struct model m = {0};
	struct sbuf b = {0};
	struct dent *subs;
	size_t n;
	locale_t c_loc, old;
	int rc = 0;

	memset(res, 0, sizeof *res);
	subs = list_dir(dir, NULL, &n, &m.oom);
	if (!subs) {
		if (m.oom)
			err_set(err, dir, 0, 0, "out of memory");
		else
			err_set(err, dir, 0, 0, "cannot read folder: %s", strerror(errno));
		return -1;
	}
	c_loc = c_numeric_enter(&old);
	for (size_t i = 0; i < n && !m.oom; i++)
		if (subs[i].kind == KIND_DIR)
			walk_submitter(&m, dir, subs[i].name, &res->warn);
	free_list(subs);
	if (!m.oom && run_pool(&m, threads < 1 ? 1 : threads, progress) < 0)
		m.oom = 1;
	if (!m.oom) {
		for (size_t i = 0; i < m.njobs; i++)
			res->bytes += m.jobs[i].bytes;
		res->files = m.njobs;
		build_csv(&m, round, res, &b);
	}
	if (m.oom || b.oom) {
		err_set(err, dir, 0, 0, "out of memory");
		free(b.p);
		rc = -1;
	} else {
		res->csv = b.p;
		res->len = b.n;
	}
	model_free(&m);
	c_numeric_leave(c_loc, old);
	return rc;
}

void import_result_free(struct import_result *res)
{
	free(res->csv);
	warn_free(&res->warn);
	warn_free(&res->unscored);
	memset(res, 0, sizeof *res);
}

int import_round_from_dir(const char *dir, char *buf, size_t n)
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

/* ---- writing ---- */

static int write_fd(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t k = write(fd, buf, len);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += k;
		len -= (size_t)k;
	}
	return 0;
}

int import_write(const char *path, const char *buf, size_t len, int force, struct gs_err *err)
{
	struct stat st;
	char *tmp;
	size_t n;
	int fd;
	mode_t mask;

	if (strcmp(path, "-") == 0) {
		if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
			err_set(err, "stdout", 0, 0, "cannot write: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			/* A device or a pipe: no rename possible, write in place. */
			fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
			if (fd < 0 || write_fd(fd, buf, len) < 0) {
				err_set(err, path, 0, 0, "cannot write: %s", strerror(errno));
				if (fd >= 0)
					close(fd);
				return -1;
			}
			if (close(fd) < 0) {
				err_set(err, path, 0, 0, "cannot write: %s", strerror(errno));
				return -1;
			}
			return 0;
		}
		if (!force) {
			err_set(err, path, 0, 0, "exists; use --force to replace it");
			return -2;
		}
	}
	n = strlen(path) + 16;
	if (!(tmp = malloc(n))) {
		err_set(err, path, 0, 0, "out of memory");
		return -1;
	}
	{
		const char *slash = strrchr(path, '/');
		if (slash)
			snprintf(tmp, n, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
		else
			snprintf(tmp, n, ".%s.XXXXXX", path);
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		err_set(err, path, 0, 0, "cannot create a temporary file beside it: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || write_fd(fd, buf, len) < 0 || fsync(fd) < 0) {
		err_set(err, path, 0, 0, "cannot write: %s", strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		err_set(err, path, 0, 0, "cannot write: %s", strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* ---- command line ---- */

static void usage(FILE *f)
{
	fputs("usage: gpuscale import [-o OUT.csv] [--round NAME] [--force] DIR\n"
	      "  Scores an MLPerf training_results tree (DIR) by the official rules and writes\n"
	      "  one CSV row per system x benchmark with a score.\n"
	      "  -o, --output OUT  output file; - for stdout (default mlperf_training_ROUND.csv)\n"
	      "  --round NAME      round column (default from DIR: training_results_v4.1 -> v4.1)\n"
	      "  --force           replace OUT when it exists\n"
	      "  -h, --help        this help\n", f);
}

/* Prints one kept text of a warning list with control characters replaced. */
static void print_clean(const char *prefix, const char *s)
{
	struct sbuf t = {0};

	sb_clean(&t, s);
	fprintf(stderr, "%s%s\n", prefix, t.p ? t.p : "");
	free(t.p);
}

/* Value of an option taking an argument: "--opt=V", "--opt V", "-oV", "-o V". Returns it, or
 * NULL after printing a usage error that names the option as typed ("--round", "-o") when
 * the value is missing or empty: an empty round or output name is never meant. */
static const char *opt_arg(int argc, char **argv, int *i, const char *lng, const char *shrt)
{
	const char *a = argv[*i], *v;
	size_t n = strlen(lng);
	int typed = strncmp(a, lng, n) == 0 ? (int)n : 2;

	if (strncmp(a, lng, n) == 0 && a[n] == '=')
		v = a + n + 1;
	else if (shrt && strncmp(a, shrt, 2) == 0 && a[2])
		v = a + 2;
	else if (*i + 1 < argc)
		v = argv[++*i];
	else
		v = NULL;
	if (!v || !*v) {
		fprintf(stderr, "gpuscale import: option '%.*s' needs a value%s\n", typed, a,
			v ? ", got an empty one" : "");
		return NULL;
	}
	return v;
}

static int is_opt(const char *a, const char *lng, const char *shrt)
{
	size_t n = strlen(lng);
	return (strncmp(a, lng, n) == 0 && (a[n] == '\0' || a[n] == '=')) ||
	       (shrt && strncmp(a, shrt, 2) == 0);
}

/* One worker per online core, at most MAX_THREADS. */
static int import_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

int import_main(int argc, char **argv)
{
	const char *out = NULL, *round = NULL, *dir = NULL;
	char round_buf[256], out_buf[512];
	int force = 0, opts = 1, rc;
	struct import_result res;
	struct gs_err err = {0};
	char msg[1200];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opts && a[0] == '-' && a[1]) {
			if (strcmp(a, "--") == 0)
				opts = 0;
			else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
				usage(stdout);
				return 0;
			} else if (strcmp(a, "--force") == 0)
				force = 1;
			else if (is_opt(a, "--output", "-o")) {
				if (!(out = opt_arg(argc, argv, &i, "--output", "-o")))
					goto missing;
			} else if (is_opt(a, "--round", NULL)) {
				if (!(round = opt_arg(argc, argv, &i, "--round", NULL)))
					goto missing;
			} else {
				fprintf(stderr, "gpuscale import: unknown option '%s'\n", a);
				usage(stderr);
				return 2;
			}
			continue;
		}
		if (dir) {
			fprintf(stderr, "gpuscale import: one DIR only ('%s' and '%s')\n", dir, a);
			usage(stderr);
			return 2;
		}
		dir = a;
	}
	if (!dir) {
		fprintf(stderr, "gpuscale import: missing DIR\n");
		usage(stderr);
		return 2;
	}
	if (!is_dir(dir)) {
		fprintf(stderr, "gpuscale import: %s: not a readable folder\n", dir);
		return 2;
	}
	if (!round) {
		if (import_round_from_dir(dir, round_buf, sizeof round_buf) < 0) {
			fprintf(stderr, "gpuscale import: %s: cannot tell the round from the folder name "
				"(expected training_results_NAME); use --round NAME\n", dir);
			return 2;
		}
		round = round_buf;
	}
	if (!out) {
		if (strchr(round, '/')) {
			fprintf(stderr, "gpuscale import: round '%s' cannot name a file; use -o OUT\n", round);
			return 2;
		}
		snprintf(out_buf, sizeof out_buf, "mlperf_training_%s.csv", round);
		out = out_buf;
	}
	if (strcmp(out, "-") != 0 && !force) {
		struct stat st;
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
			fprintf(stderr, "gpuscale import: %s exists; use --force to replace it\n", out);
			return 2;
		}
	}

	if (import_tree(dir, round, import_threads(), isatty(STDERR_FILENO), &res, &err) < 0) {
		fprintf(stderr, "gpuscale import: %s\n", err_format(&err, msg, sizeof msg));
		import_result_free(&res);
		return 1;
	}
	for (size_t i = 0; i < res.warn.n; i++)
		print_clean("warning: ", res.warn.items[i]);
	if (res.warn.total > res.warn.n)
		fprintf(stderr, "warning: ... and %zu more\n", res.warn.total - res.warn.n);
	for (size_t i = 0; i < res.unscored.n; i++)
		print_clean("no score: ", res.unscored.items[i]);
	if (res.unscored.total > res.unscored.n)
		fprintf(stderr, "no score: ... and %zu more\n", res.unscored.total - res.unscored.n);

	if (res.rows == 0) {
		fprintf(stderr, "gpuscale import: nothing could be imported from %s (%zu warnings, "
			"%zu skipped)\n", dir, res.warn.total, res.unscored.total);
		import_result_free(&res);
		return 2;
	}
	rc = import_write(out, res.csv, res.len, force, &err);
	if (rc < 0) {
		fprintf(stderr, "gpuscale import: %s\n", err_format(&err, msg, sizeof msg));
		import_result_free(&res);
		return rc == -2 ? 2 : 1;
	}
	fprintf(stderr, "gpuscale import: %zu systems, %zu rows, %zu warnings, %zu skipped; "
		"%zu logs (%.1f MB) -> %s\n", res.systems, res.rows, res.warn.total,
		res.unscored.total, res.files, (double)res.bytes / 1e6,
		strcmp(out, "-") == 0 ? "stdout" : out);
	import_result_free(&res);
	return 0;
missing:
	usage(stderr);
	return 2;
}
