/* cli.c: the command line. Everything here is checked before any file is read, so a typo
 * costs nothing; names that depend on the data (workloads, systems, families) are checked by
 * main once the data is loaded. */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	O_THETA = 256, O_ROUND, O_YMETRIC, O_LOGY, O_WIDTH, O_HEIGHT, O_MOUSE, O_PRINT, O_VENDOR,
	O_AVAIL, O_DIVISION, O_FEATURES, O_SORT, O_REVERSE, O_FAMILIES
};

static const struct option long_opts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "reference", required_argument, NULL, 'r' },
	{ "family", required_argument, NULL, 'f' },
	{ "vendor", required_argument, NULL, O_VENDOR },
	{ "availability", required_argument, NULL, O_AVAIL },
	{ "division", required_argument, NULL, O_DIVISION },
	{ "mode", required_argument, NULL, 'm' },
	{ "clusters", required_argument, NULL, 'k' },
	{ "features", required_argument, NULL, O_FEATURES },
	{ "theta", required_argument, NULL, O_THETA },
	{ "round", required_argument, NULL, O_ROUND },
	{ "y-metric", required_argument, NULL, O_YMETRIC },
	{ "log-y", no_argument, NULL, O_LOGY },
	{ "sort", required_argument, NULL, O_SORT },
	{ "reverse", no_argument, NULL, O_REVERSE },
	{ "width", required_argument, NULL, O_WIDTH },
	{ "height", required_argument, NULL, O_HEIGHT },
	{ "mouse", required_argument, NULL, O_MOUSE },
	{ "print", required_argument, NULL, O_PRINT },
	{ "families", required_argument, NULL, O_FAMILIES },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void cli_usage(FILE *fp)
{
	fputs(
"usage: gpuscale [options] [FILE.csv ...]        explore (no FILE: the bundled v4.1 data)\n"
"       gpuscale --print WHAT [options] [FILE ...] reports for scripts, no terminal needed\n"
"       gpuscale import [-o OUT.csv] [--round NAME] [--force] DIR\n"
"                                                 MLPerf training_results tree -> results CSV\n"
"\n"
"Which rows:\n"
"  -w, --workload ID       benchmark id (bert, llama2_70b_lora, ssd, stable_diffusion, ...)\n"
"      --round NAME        round to show when several are loaded (v4.0, v4.1, ...)\n"
"  -f, --family NAME       show only this accelerator family (repeatable: H100 SXM, B200, ...)\n"
"      --vendor NAME       show only this vendor (repeatable: NVIDIA, AMD, Google, ...)\n"
"      --availability S    show only this availability (repeatable; in v4.1: 'Available\n"
"                          on-premise', 'Available cloud', Preview)\n"
"      --division NAME     show only this division (repeatable: closed, open)\n"
"      --families FILE     accelerator -> vendor, family rules (default: the data folder's)\n"
"\n"
"Reference and metrics:\n"
"  -r, --reference SYSTEM  pin this system (id, or SUBMITTER/SYSTEM) as the reference;\n"
"                          implies -m pinned\n"
"  -m, --mode MODE         paper: fewest accelerators, ties to the slowest (default);\n"
"                          pinned: the -r system; family: each family its own paper reference\n"
"      --theta X           break-even threshold on E' (default 0.8)\n"
"  -k, --clusters K        k-means clusters, 1..12, or 'auto' (best silhouette; default 3)\n"
"      --features SET      k-means features: n-ep (log2 N, E'; default), n-t (log2 N, log T),\n"
"                          n-ep-t (log2 N, E', log T)\n"
"      --sort COL          rank by ep, s, e, t, a, n, system, submitter, family, cluster,\n"
"                          pareto, spread (default ep, descending)\n"
"      --reverse           reverse the ranking\n"
"\n"
"  T minutes, N accelerators, A = N*T/60 accelerator-hours; S = T_ref/T; E = S/N;\n"
"  E' = S/(N/N_ref) = A_ref/A (1 for the reference); Karp-Flatt e = (1/S - 1/p)/(1 - 1/p)\n"
"  for p = N/N_ref > 1; Pareto: no other row is faster and cheaper (T, A); break-even:\n"
"  the fastest row with E' >= theta.\n"
"\n"
"Output:\n"
"      --print WHAT        comma list of table, plot, clusters, pareto, summary, csv\n"
"      --y-metric M        plot y: ep (E', default), s, t, a, e\n"
"      --log-y             logarithmic y axis\n"
"      --width W           --print plot width (default 80) and table width (default: no limit)\n"
"      --height H          --print plot height (default 24)\n"
"      --mouse on|off      mouse in the explorer (default on, off over SSH)\n"
"  -h, --help              this text\n"
"  -V, --version           version\n"
"\n"
"Data: GPUSCALE_DATA, else data/ of the source tree, else the installed share/gpuscale.\n"
"Exit status: 0 ok, 1 runtime error, 2 usage or input error.\n", fp);
}

/* Parses a metric name (E', Ep, S, T, A, E; case-insensitive); returns it or -1. */
static int cli_metric(const char *s)
{
	static const char *const names[][3] = {
		[MET_EP] = { "ep", "e'", "eprime" }, [MET_S] = { "s", "speedup", "s" },
		[MET_T] = { "t", "minutes", "time" }, [MET_A] = { "a", "acc-hours", "cost" },
		[MET_E] = { "e", "efficiency", "e" },
	};
	for (int m = 0; m < MET_COUNT; m++)
		for (int j = 0; j < 3; j++)
			if (strcasecmp(s, names[m][j]) == 0)
				return m;
	return -1;
}

/* Parses a sort column name as col_name() spells it or a plain alias; returns it or -1. */
static int cli_col(const char *s)
{
	static const char *const names[COL_COUNT] = {
		[COL_EP] = "ep", [COL_S] = "s", [COL_E] = "e", [COL_T] = "t", [COL_A] = "a",
		[COL_N] = "n", [COL_SYSTEM] = "system", [COL_SUBMITTER] = "submitter",
		[COL_FAMILY] = "family", [COL_CLUSTER] = "cluster", [COL_PARETO] = "pareto",
		[COL_SPREAD] = "spread",
	};
	for (int c = 0; c < COL_COUNT; c++)
		if (strcasecmp(s, names[c]) == 0 || strcasecmp(s, col_name((enum col)c)) == 0)
			return c;
	if (strcasecmp(s, "minutes") == 0)
		return COL_T;
	return -1;
}

static int parse_print(const char *arg, struct cli *c, struct gs_err *err)
{
	static const struct {
		const char *name;
		unsigned bit;
	} what[] = {
		{ "table", PR_TABLE }, { "plot", PR_PLOT }, { "clusters", PR_CLUSTERS },
		{ "pareto", PR_PARETO }, { "summary", PR_SUMMARY }, { "csv", PR_CSV },
	};
	const char *p = arg;
	unsigned *out = &c->print;

	*out = 0;
	c->nprint = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		size_t i;
		for (i = 0; i < sizeof what / sizeof what[0]; i++)
			if (strlen(what[i].name) == len && strncasecmp(p, what[i].name, len) == 0)
				break;
		if (i == sizeof what / sizeof what[0]) {
			err_set(err, NULL, 0, 0, "--print: unknown report '%.*s' (valid: table, plot, clusters, pareto, summary, csv)",
				(int)len, p);
			return -1;
		}
		if (!(*out & what[i].bit) && c->nprint < 8)
			c->print_order[c->nprint++] = what[i].bit;
		*out |= what[i].bit;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!*out) {
		err_set(err, NULL, 0, 0, "--print needs at least one of table, plot, clusters, pareto, summary, csv");
		return -1;
	}
	return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int push(const char **list, size_t *n, const char *v, const char *opt, struct gs_err *err)
{
	if (*n >= MAX_SEL) {
		err_set(err, NULL, 0, 0, "%s: at most %d values", opt, MAX_SEL);
		return -1;
	}
	list[(*n)++] = v;
	return 0;
}

/* Explains getopt_long's '?' for the word `a` it last stepped past. A long option ("--x",
 * "--x=v") always ends its word, so `a` is it; a bad short option may sit inside a cluster
 * ("-xh") whose word getopt has not stepped past yet, so only optopt can name it. */
static void cli_bad_option(const char *a, struct gs_err *err)
{
	char names[256];
	const struct option *hit = NULL;
	size_t len, n = 0, used = 0;

	/* getopt also sets optopt for "--help=1": a long option without a value that has a short
	 * form; the word, not optopt, names that one */
	bool long_flag = false;
	for (const struct option *o = long_opts; o->name && optopt; o++)
		long_flag |= o->has_arg == no_argument && o->val == optopt;
	if (optopt && optopt < 256 && !long_flag) {
		err_set(err, NULL, 0, 0, "unknown option '-%c'", optopt);
		return;
	}
	if (strncmp(a, "--", 2) != 0 || a[2] == '=') {
		err_set(err, NULL, 0, 0, "unknown option '%s'", a);
		return;
	}
	len = strcspn(a + 2, "=");
	names[0] = '\0';
	for (const struct option *o = long_opts; o->name; o++) {
		if (strncmp(o->name, a + 2, len) != 0)
			continue;
		if (strlen(o->name) == len) {
			hit = o;
			n = 1;
			break;
		}
		if (used < sizeof names)
			used += (size_t)snprintf(names + used, sizeof names - used, "%s--%s", n ? ", " : "",
						 o->name);
		hit = o;
		n++;
	}
	if (n > 1)
		err_set(err, NULL, 0, 0, "option '%.*s' is ambiguous: %s", (int)len + 2, a, names);
	else if (n == 1 && optopt == hit->val && a[2 + len] == '=')
		err_set(err, NULL, 0, 0, "option '--%s' takes no value", hit->name);
	else
		err_set(err, NULL, 0, 0, "unknown option '%s'", a);
}

int cli_parse(int argc, char **argv, struct cli *c, struct gs_err *err)
{
	bool mode_given = false;
	long v;
	int o, li;

	memset(c, 0, sizeof *c);
	params_init(&c->params);
	c->ui.mouse = MOUSE_AUTO;
	c->ui.y_metric = MET_EP;
	c->height = 24;
	optind = 1;
	opterr = 0;
	while ((li = -1, o = getopt_long(argc, argv, ":w:r:f:m:k:hV", long_opts, &li)) != -1) {
		struct filter *f = &c->params.filter;
		/* "--round=" or "-w ''" would otherwise reach the checks against the data as a
		 * name ("unknown round ''") or a file name, far from the option that caused it */
		if (optarg && !*optarg) {
			if (li >= 0)
				err_set(err, NULL, 0, 0, "option '--%s' needs a value, got an empty one",
					long_opts[li].name);
			else
				err_set(err, NULL, 0, 0, "option '-%c' needs a value, got an empty one", o);
			return -1;
		}
		switch (o) {
		case 'w':
			c->params.workload = optarg;
			c->workload_given = true;
			break;
		case 'r':
			c->params.pinned = optarg;
			if (!mode_given)
				c->params.mode = REF_PINNED;
			break;
		case 'f':
			if (push(f->families, &f->nfamilies, optarg, "--family", err) < 0)
				return -1;
			break;
		case O_VENDOR:
			if (push(f->vendors, &f->nvendors, optarg, "--vendor", err) < 0)
				return -1;
			break;
		case O_AVAIL:
			if (push(f->availability, &f->navailability, optarg, "--availability", err) < 0)
				return -1;
			break;
		case O_DIVISION:
			if (push(f->divisions, &f->ndivisions, optarg, "--division", err) < 0)
				return -1;
			break;
		case 'm': {
			int m;
			for (m = 0; m < REF_MODE_COUNT; m++)
				if (strcasecmp(optarg, ref_mode_name((enum ref_mode)m)) == 0)
					break;
			if (m == REF_MODE_COUNT) {
				err_set(err, NULL, 0, 0, "--mode: '%s' is not paper, pinned or family", optarg);
				return -1;
			}
			c->params.mode = (enum ref_mode)m;
			mode_given = true;
			break;
		}
		case 'k':
			if (strcasecmp(optarg, "auto") == 0)
				c->params.k = 0;
			else if (parse_long(optarg, 1, MAX_K, &v) == 0)
				c->params.k = (int)v;
			else {
				err_set(err, NULL, 0, 0, "--clusters: '%s' is not a whole number in 1..%d or 'auto'",
					optarg, MAX_K);
				return -1;
			}
			break;
		case O_FEATURES:
			if (strcasecmp(optarg, "n-ep") == 0)
				c->params.feats = FEAT_N_EP;
			else if (strcasecmp(optarg, "n-t") == 0)
				c->params.feats = FEAT_N_T;
			else if (strcasecmp(optarg, "n-ep-t") == 0)
				c->params.feats = FEAT_N_EP_T;
			else {
				err_set(err, NULL, 0, 0, "--features: '%s' is not n-ep, n-t or n-ep-t", optarg);
				return -1;
			}
			break;
		case O_THETA: {
			char *end;
			double t = strtod(optarg, &end);
			if (end == optarg || *end || !isfinite(t) || t <= 0 || t > 1000) {
				err_set(err, NULL, 0, 0, "--theta: '%s' is not a number in (0, 1000]", optarg);
				return -1;
			}
			c->params.theta = t;
			break;
		}
		case O_ROUND:
			c->params.round = optarg;
			break;
		case O_YMETRIC: {
			int m = cli_metric(optarg);
			if (m < 0) {
				err_set(err, NULL, 0, 0, "--y-metric: '%s' is not ep, s, t, a or e", optarg);
				return -1;
			}
			c->ui.y_metric = (enum metric)m;
			break;
		}
		case O_LOGY:
			c->ui.log_y = true;
			break;
		case O_SORT: {
			int col = cli_col(optarg);
			if (col < 0) {
				err_set(err, NULL, 0, 0, "--sort: unknown column '%s'", optarg);
				return -1;
			}
			c->params.sort = (enum col)col;
			c->params.desc = col == COL_EP || col == COL_S || col == COL_E || col == COL_PARETO;
			break;
		}
		case O_REVERSE:
			c->params.desc = !c->params.desc;
			break;
		case O_WIDTH:
		case O_HEIGHT:
			if (parse_long(optarg, 1, 100000, &v) < 0) {
				err_set(err, NULL, 0, 0, "--%s: '%s' is not a positive whole number",
					o == O_WIDTH ? "width" : "height", optarg);
				return -1;
			}
			*(o == O_WIDTH ? &c->width : &c->height) = (int)v;
			break;
		case O_MOUSE:
			if (strcasecmp(optarg, "on") == 0)
				c->ui.mouse = MOUSE_ON;
			else if (strcasecmp(optarg, "off") == 0)
				c->ui.mouse = MOUSE_OFF;
			else {
				err_set(err, NULL, 0, 0, "--mouse: '%s' is not on or off", optarg);
				return -1;
			}
			break;
		case O_PRINT:
			if (parse_print(optarg, c, err) < 0)
				return -1;
			break;
		case O_FAMILIES:
			c->families_path = optarg;
			break;
		case 'h':
			c->help = true;
			return 0;
		case 'V':
			c->version = true;
			return 0;
		case ':':
			err_set(err, NULL, 0, 0, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			cli_bad_option(argv[optind - 1], err);
			return -1;
		}
	}
	if (c->params.mode == REF_PINNED && !c->params.pinned) {
		err_set(err, NULL, 0, 0, "--mode pinned needs --reference SYSTEM");
		return -1;
	}
	for (int i = optind; i < argc; i++) {
		if (c->nfiles >= MAX_FILES) {
			err_set(err, NULL, 0, 0, "at most %d files", MAX_FILES);
			return -1;
		}
		c->files[c->nfiles++] = argv[i];
	}
	return 0;
}
