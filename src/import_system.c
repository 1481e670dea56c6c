/* import_system.c: what a tree's systems JSON (<Submitter>/systems/<system>.json) says about
 * its system, and names written as the results CSV's loader will read them back. */
#include "import.h"
#include "text.h"
#include "schema.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

char *import_clean_name(const char *s)
{
	size_t n;
	char *p = strdup(s), *b;

	if (!p)
		return NULL;
	utf8_sanitize(p, strlen(p));
	for (b = p; *b == ' '; b++)
		;
	n = strlen(b);
	while (n && b[n - 1] == ' ')
		n--;
	memmove(p, b, n);
	p[n] = '\0';
	return p;
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

/* Whether member name of a systems JSON spells key another way: case, and ' ' or '-' for '_'
 * ("number of nodes", "Accelerators-Per-Node"), as some older rounds wrote them. */
static int variant_of(const char *name, const char *key)
{
	for (; *name && *key; name++, key++) {
		char c = *name >= 'A' && *name <= 'Z' ? (char)(*name - 'A' + 'a') : *name;
		if (c == ' ' || c == '-')
			c = '_';
		if (c != *key)
			return 0;
	}
	return !*name && !*key;
}

/* Member key of root, or one spelling it another way (variant_of; a note in w says so). */
static json_t *member(json_t *root, const char *key, const char *name, struct gs_warn *w)
{
	json_t *v = json_object_get(root, key);
	const char *k;
	json_t *x;

	if (v)
		return v;
	json_object_foreach(root, k, x) {
		if (variant_of(k, key)) {
			warn_add(w, name, 0, 0, "note: field \"%s\" read as \"%s\"", k, key);
			return x;
		}
	}
	return NULL;
}

/* A string field of a systems JSON, "" (with a warning) when missing or not a string; NULL on OOM. */
static char *json_text(json_t *root, const char *key, const char *name, struct gs_warn *w)
{
	json_t *v = member(root, key, name, w);

	if (!v) {
		warn_add(w, name, 0, 0, "missing field \"%s\"", key);
		return strdup("");
	}
	if (!json_is_string(v)) {
		warn_add(w, name, 0, 0, "field \"%s\" is not a string", key);
		return strdup("");
	}
	/* as the CSV will hold it: the loader trims, a text with spaces around would not
	 * read back as written */
	return import_clean_name(json_string_value(v));
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
	int oom = 0;

	memset(out, 0, sizeof *out);
	if (!root && json_error_code(&je) == json_error_out_of_memory) {
		oom = 1;
	} else if (!root) {
		warn_add(w, name, je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0,
			 "systems JSON does not parse: %s; system skipped", je.text);
	} else if (!json_is_object(root)) {
		warn_add(w, name, 0, 0, "systems JSON is not an object; system skipped");
	} else {
		for (size_t i = 0; i < ntexts; i++)
			if (!(*texts[i].field = json_text(root, texts[i].key, name, w)))
				oom = 1;
		out->usable = 1;
		for (int i = 0; i < 2; i++) {
			json_t *v = member(root, count_keys[i], name, w);
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
		if (out->usable && c[0] * c[1] > SCHEMA_MAX_ACCELERATORS) {
			warn_add(w, name, 0, 0, "%lld nodes x %lld accelerators is more than the %lld "
				 "accelerators a results CSV holds; system skipped", c[0], c[1],
				 (long long)SCHEMA_MAX_ACCELERATORS);
			out->usable = 0;
		}
		if (out->usable) {
			out->nodes = c[0];
			out->per_node = c[1];
			/* the official count: a CPU-only system (0 per node) has 0 accelerators */
			out->accelerators = c[0] * c[1];
		}
	}
	json_decref(root);
	/* "" for the texts a JSON that is no object did not give; NULL otherwise only when strdup
	 * ran out of memory */
	for (size_t i = 0; i < ntexts; i++)
		if (oom || (!*texts[i].field && !(*texts[i].field = strdup("")))) {
			err_oom(err, name, 0);
			import_system_free(out);
			return -1;
		}
	return 0;
}

