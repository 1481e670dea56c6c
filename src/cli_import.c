/* cli_import.c: the command line of `gpuscale import`: its options and usage, then the run
 * (import_cmd.c). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void cli_import_usage(FILE *fp)
{
	fputs("usage: gpuscale import [-o OUT.csv] [--round NAME] [--force] [--raw] DIR\n"
	      "  Scores an MLPerf training_results tree (DIR) by the official rules and writes\n"
	      "  one CSV row per system x benchmark with a score.\n"
	      "  -o, --output OUT  output file; - for stdout (default mlperf_training_ROUND.csv)\n"
	      "  --round NAME      round column (default from DIR: training_results_v4.1 -> v4.1)\n"
	      "  --force           replace OUT when it exists\n"
	      "  --raw             no ' before a cell starting with = + - @ (see man gpuscale)\n"
	      "  -h, --help        this help\n", fp);
}

/* The value of an option taking one: "--opt=V", "--opt V", "-oV", "-o V"; NULL with err
 * naming the option as typed ("--round", "-o") when it is missing or empty: an empty round
 * or output name is never meant. */
static const char *import_value(int argc, char **argv, int *i, const char *lng, const char *shrt,
				struct gs_err *err)
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
	if (!v || !*v)
		err_set(err, NULL, 0, 0, "option '%.*s' needs a value%s", typed, a,
			v ? ", got an empty one" : "");
	return v && *v ? v : NULL;
}

static bool import_is_opt(const char *a, const char *lng, const char *shrt)
{
	size_t n = strlen(lng);
	return (strncmp(a, lng, n) == 0 && (a[n] == '\0' || a[n] == '=')) ||
	       (shrt && strncmp(a, shrt, 2) == 0);
}

int cli_parse_import(int argc, char **argv, struct import_opts *o, struct gs_err *err)
{
	bool opts = true;

	memset(o, 0, sizeof *o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opts && a[0] == '-' && a[1]) {
			if (strcmp(a, "--") == 0) {
				opts = false;
			} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
				o->help = true;
				return 0;
			} else if (strcmp(a, "--force") == 0) {
				o->force = true;
			} else if (strcmp(a, "--raw") == 0) {
				o->raw = true;
			} else if (import_is_opt(a, "--output", "-o")) {
				if (!(o->out = import_value(argc, argv, &i, "--output", "-o", err)))
					return -1;
			} else if (import_is_opt(a, "--round", NULL)) {
				if (!(o->round = import_value(argc, argv, &i, "--round", NULL, err)))
					return -1;
			} else {
				err_set(err, NULL, 0, 0, "unknown option '%s'", a);
				return -1;
			}
			continue;
		}
		if (o->dir) {
			err_set(err, NULL, 0, 0, "one DIR only ('%s' and '%s')", o->dir, a);
			return -1;
		}
		o->dir = a;
	}
	if (!o->dir) {
		err_set(err, NULL, 0, 0, "missing DIR");
		return -1;
	}
	return 0;
}

int cli_import(int argc, char **argv)
{
	struct import_opts o;
	struct gs_err err = { 0 };
	char msg[1200];

	if (cli_parse_import(argc, argv, &o, &err) < 0) {
		err_format(&err, msg, sizeof msg);
		utf8_sanitize(msg, strlen(msg)); /* it quotes the command line */
		fprintf(stderr, "gpuscale import: %s\n", msg);
		cli_import_usage(stderr);
		return 2;
	}
	if (o.help) {
		cli_import_usage(stdout);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	}
	return import_run(&o);
}
