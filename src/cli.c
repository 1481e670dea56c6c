/* cli.c: the command line, and what stands between it and the data: options are checked
 * before any file is read, so a typo costs nothing; then the data is found and loaded
 * (cli_load.c), and the names that depend on it (round, workload, system, filters) are checked
 * once it is. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmdline.h"
#include "table.h"
#include "text.h"


enum {
	O_THETA = 256, O_ROUND, O_YMETRIC, O_LOGY, O_WIDTH, O_HEIGHT, O_MOUSE, O_PRINT, O_VENDOR,
	O_AVAIL, O_DIVISION, O_FEATURES, O_SORT, O_REVERSE, O_FAMILIES, O_AVAIL_ONLY, O_NO_COLLAPSE,
	O_REF_RULE, O_ALL_ROUNDS, O_PARETO_COST, O_PRICES, O_STRICT, O_RAW,
	O_DEADLINE, O_MAX_COST, O_MAX_ACC, O_MAX_KWH, O_MINIMIZE, O_PREDICT, O_FORMAT,
	O_COLUMNS, O_GBS
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
	{ "available-only", no_argument, NULL, O_AVAIL_ONLY },
	{ "no-collapse", no_argument, NULL, O_NO_COLLAPSE },
	{ "ref-rule", required_argument, NULL, O_REF_RULE },
	{ "all-rounds", no_argument, NULL, O_ALL_ROUNDS },
	{ "pareto-cost", no_argument, NULL, O_PARETO_COST },
	{ "prices", required_argument, NULL, O_PRICES },
	{ "strict", no_argument, NULL, O_STRICT },
	{ "raw", no_argument, NULL, O_RAW },
	{ "deadline", required_argument, NULL, O_DEADLINE },
	{ "max-cost", required_argument, NULL, O_MAX_COST },
	{ "max-acc-hours", required_argument, NULL, O_MAX_ACC },
	{ "max-kwh", required_argument, NULL, O_MAX_KWH },
	{ "minimize", required_argument, NULL, O_MINIMIZE },
	{ "predict", required_argument, NULL, O_PREDICT },
	{ "gbs", required_argument, NULL, O_GBS },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "columns", required_argument, NULL, O_COLUMNS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* An option whose values are the registry's first names, wrapped under the descriptions. */
static void usage_names(FILE *fp, const char *opt, const char *lead, bool metrics, const char *tail)
{
	int n = metrics ? MET_COUNT : COL_COUNT, at = fprintf(fp, "      %-20s%s", opt, lead);

	for (int i = 0; i <= n; i++) {
		const char *w = i == n ? tail : metrics ? metric_cols[i]->names[0] : col_reg[i].names[0];
		char word[64];
		int len = snprintf(word, sizeof word, "%s%s", w, i < n - 1 ? "," : "");
		if (at + 1 + len > 92)
			at = fprintf(fp, "\n%25s", "") - 1;
		at += fprintf(fp, " %s", word);
	}
	fputc('\n', fp);
}

void cli_usage(FILE *fp)
{
	fputs(
"usage: gpuscale [options] [FILE.csv ...]        explore (no FILE: every bundled round)\n"
"       gpuscale --print WHAT [options] [FILE ...] reports for scripts, no terminal needed\n"
"       gpuscale import [-o OUT.csv] [--round NAME] [--force] DIR\n"
"                                                 MLPerf training_results tree -> results CSV\n"
"\n"
"Which rows:\n"
"  -w, --workload ID       benchmark id (bert, llama2_70b_lora, retinanet, stable_diffusion, ...)\n"
"                          or the id its round published (ssd in v4.1 is its RetinaNet)\n"
"      --round NAME        round, v4.1 or 4.1 (default: the newest with the workload)\n"
"  -f, --family NAME       show only this accelerator family (repeatable: H100 SXM, B200, ...)\n"
"      --vendor NAME       show only this vendor (repeatable: NVIDIA, AMD, Google, ...)\n"
"      --availability S    show only this availability (repeatable; in v4.1: 'Available\n"
"                          on-premise', 'Available cloud', Preview)\n"
"      --division NAME     show only this division (repeatable: closed, open)\n"
"      --available-only    hide Preview and Research rows (not yet buyable systems)\n"
"      --no-collapse       show every submitter of identical runs (default: one row each)\n"
"      --all-rounds        the workload's rows of every comparable loaded round, each run\n"
"                          list counted once (later rounds' copies listed as carried over)\n"
"      --families FILE     accelerator -> vendor, family rules (default: the data folder's)\n"
"      --prices FILE       USD per accelerator-hour by family (default: the data folder's\n"
"                          prices.csv; a bad line is an error with file:line:column)\n"
"\n"
"Reference and metrics:\n"
"  -r, --reference SYSTEM  pin this system (id, or SUBMITTER/SYSTEM) as the reference;\n"
"                          implies -m pinned\n"
"  -m, --mode MODE         family (default): each accelerator family is its own comparison\n"
"                          group with its own reference (its fewest accelerators, ties to\n"
"                          the slowest); paper: every shown row one group, the paper's\n"
"                          reference; pinned: every shown row one group against the -r system\n"
"      --ref-rule RULE     which of the fewest-accelerator rows is the reference: slowest\n"
"                          (the paper's, default), median or fastest\n"
"      --theta X           break-even threshold on E' 0.05..10 (default 0.8)\n"
"  -k, --clusters K        k-means clusters, 1..12, or 'auto' (best silhouette; default 3)\n"
"      --features SET      k-means features: n-ep (log2 N, E'; default), n-t (log2 N, log T),\n"
"                          n-ep-t (log2 N, E', log T)\n", fp);
	usage_names(fp, "--sort COL", "rank by", false, "(default ep, descending)");
	fputs("      --reverse           reverse the ranking\n"
"\n"
"  T minutes, N accelerators, A = N*T/60 accelerator-hours; S = T_ref/T; E = S/N;\n"
"  E' = S/(N/N_ref) = A_ref/A (1 for the reference); Karp-Flatt e = (1/S - 1/p)/(1 - 1/p)\n"
"  for p = N/N_ref > 1 (blank when S > p or the reference is of another family); Pareto:\n"
"  no other row is faster and cheaper (T, A), over every shown row.\n"
"  Break-even, per group: a bracket 16..<32 (the fastest row with E' >= theta is at N 16;\n"
"  at N 32 every row is below theta); 8+ when nothing beyond 8 is below theta (the data do\n"
"  not say where efficiency falls); 'one row'; 'none at theta'. Run-to-run interval: 90%\n"
"  bootstrap of the official score over each row's runs (B = 1000, fixed seed; none under 3\n"
"  runs). Range: the lower ends from rows whose interval lies wholly above / reaches theta.\n"
"  Sensitivity: the bracket with each of the group's fewest-accelerator rows as reference.\n"
"  Fit verdict: ok only when every row's E' is within 10% of the fitted E' (same reference)\n"
"  or within its own interval; else 'poor fit' naming the worst row.\n""  Reference outlier: a reference over 2x slower than the median of the rows it was picked\n"
"  from (its group's fewest accelerators) is flagged with that median ('ref 2.5x median').\n"
"\n"
"Planner:\n"
"      --deadline MIN      --print query: rows with T <= MIN minutes\n"
"      --max-cost USD      ... cost to train within USD (surely: the price range's high end;\n"
"                          possibly: only its low end; unpriced families are left out)\n"
"      --max-acc-hours A   ... A <= A accelerator-hours\n"
"      --max-kwh K         ... energy-to-train <= K kWh (rows without energy are left out)\n"
"      --minimize OBJ      acc-hours (default), cost, kwh or minutes: per family the best\n"
"                          observed row meeting every constraint, and from its fit the\n"
"                          smallest N the law says would, in whole nodes (marked predicted,\n"
"                          90% interval, the fit's verdict beside it)\n"
"      --predict N         per family T, E', A at N from its fit, 90% interval (delta method);\n"
"                          any usable fit answers, its verdict beside the number; where the\n"
"                          family has convergence data, from its throughput law x the RCP\n"
"      --gbs B             the global batch size whose RCP mean the throughput law uses\n"
"                          (default: the GBS of the family's row nearest the N)\n"
"\n"
"Output:\n"
"      --print WHAT        comma list of table, plot, clusters, pareto, summary, csv, fit,\n"
"                          sensitivity, query, predict, trend (trend: each family's\n"
"                          break-even in every comparable round; see man gpuscale);\n"
"                          without -w each covers every workload of the round\n"
"      --format F          text (default) or json: summary, fit, pareto, sensitivity, query,\n"
"                          predict and trend as one JSON object (schema: man gpuscale)\n", fp);
	usage_names(fp, "--y-metric M", "plot y:", true, "(default ep)");
	fputs("      --pareto-cost       Pareto frontier on (T, cost to train) instead of (T, A)\n"
"      --log-y             logarithmic y axis\n"
"      --raw               CSV cells as they are: no ' before one starting with = + - @\n"
"      --columns LIST      the table's columns, a comma list of rank and the --sort names\n"
"                          but division (the table marks an open-division row o); default\n"
"                          all; the system always shows; C in the explorer\n"
"      --width W           --print plot width (default 80) and table width (default: no limit)\n"
"      --height H          --print plot height (default 24)\n"
"      --mouse on|off      mouse in the explorer (default on, off over SSH)\n"
"      --strict            a bad results row is an error (default: skipped, counted in the\n"
"                          summary and the status line, with its file:line)\n"
"  -h, --help              this text\n"
"  -V, --version           version\n"
"\n"
"Data: GPUSCALE_DATA, else data/ of the source tree, else the installed share/gpuscale;\n"
"  its mlperf_training_*.csv are the bundled rounds. A FILE headed like families.csv or\n"
"  prices.csv is used as that table; rcp.csv (the importer's) is passed over.\n"
"  Options take one value, given once; -f, --vendor, --availability, --division repeat.\n"
"  Explorer: U undoes the last view change, : shows the command line of the view;\n"
"  ? or F1 lists the keys, q or F10 quits.\n"
"  A FILE may be a pipe or a FIFO, read like a file (a FIFO's late writer is waited for).\n"
"Exit status: 0 ok, 1 runtime error, 2 usage or input error.\n", fp);
}

static int parse_print(const char *arg, struct cli *c, struct gs_err *err)
{
	static const struct {
		const char *name;
		unsigned bit;
	} what[] = {
		{ "table", PR_TABLE }, { "plot", PR_PLOT }, { "clusters", PR_CLUSTERS },
		{ "pareto", PR_PARETO }, { "summary", PR_SUMMARY }, { "csv", PR_CSV },
		{ "fit", PR_FIT }, { "sensitivity", PR_SENSITIVITY }, { "query", PR_QUERY },
		{ "predict", PR_PREDICT }, { "trend", PR_TREND },
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
			err_set(err, NULL, 0, 0, "--print: unknown report '%.*s' (valid: table, plot, clusters, pareto, summary, csv, fit, sensitivity, query, predict, trend)",
				(int)len, p);
			return -1;
		}
		if (!(*out & what[i].bit) && c->nprint < PR_MAX)
			c->print_order[c->nprint++] = what[i].bit;
		*out |= what[i].bit;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!*out) {
		err_set(err, NULL, 0, 0, "--print needs at least one of table, plot, clusters, pareto, summary, csv, fit, "
			"sensitivity, query, predict, trend");
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

/* One of names[0..n) for the value v of option opt (case-insensitive), into *out; -1 with
 * "OPT: 'v' is not a, b or c" in err otherwise. */
static int pick(const char *opt, const char *v, const char *const *names, int n, int *out,
		struct gs_err *err)
{
	char list[160];
	size_t used = 0;

	for (int i = 0; i < n; i++)
		if (ascii_casecmp(v, names[i]) == 0) {
			*out = i;
			return 0;
		}
	list[0] = '\0';
	for (int i = 0; i < n && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
					 i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
	err_set(err, NULL, 0, 0, "%s: '%s' is not %s", opt, v, list);
	return -1;
}

/* The options that choose rows and data files (o as getopt_long gives it, arg its value):
 * 0, or 1 when o is none of them. The filter lists have room for every word of argv. */
static int parse_rows_opt(struct cli *c, int o, const char *arg, bool mode_given)
{
	struct filter *f = &c->params.filter;

	switch (o) {
	case 'w':
		c->params.workload = arg;
		c->workload_given = true;
		return 0;
	case 'r':
		c->params.pinned = arg;
		if (!mode_given)
			c->params.mode = REF_PINNED;
		return 0;
	case 'f': f->families[f->nfamilies++] = arg; return 0;
	case O_VENDOR: f->vendors[f->nvendors++] = arg; return 0;
	case O_AVAIL: f->availability[f->navailability++] = arg; return 0;
	case O_DIVISION: f->divisions[f->ndivisions++] = arg; return 0;
	case O_ROUND: c->params.round = arg; return 0;
	case O_FAMILIES: c->families_path = arg; return 0;
	case O_PRICES: c->prices_path = arg; return 0;
	case O_AVAIL_ONLY: c->params.available_only = true; return 0;
	case O_NO_COLLAPSE: c->params.collapse = false; return 0;
	case O_STRICT: c->strict = true; return 0;
	case O_ALL_ROUNDS: c->params.all_rounds = true; return 0;
	default: return 1;
	}
}

/* The options of the analysis (reference, clusters, theta, ranking): as parse_rows_opt. */
static int parse_analysis_opt(struct cli *c, int o, const char *arg, struct gs_err *err)
{
	struct params *p = &c->params;
	int i;
	long v;

	switch (o) {
	case 'm':
		if (pick("--mode", arg, cmdline_modes, REF_MODE_COUNT, &i, err) < 0)
			return -1;
		p->mode = (enum ref_mode)i;
		return 0;
	case 'k':
		if (ascii_casecmp(arg, "auto") == 0)
			p->k = 0;
		else if (parse_long(arg, 1, MAX_K, &v) == 0)
			p->k = (int)v;
		else
			return err_set(err, NULL, 0, 0, "--clusters: '%s' is not a whole number in 1..%d or 'auto'",
				       arg, MAX_K), -1;
		return 0;
	case O_FEATURES:
		if (pick("--features", arg, cmdline_feats, FEAT_COUNT, &i, err) < 0)
			return -1;
		p->feats = (enum feat_set)i;
		return 0;
	case O_THETA: {
		char *end;
		double t = strtod(arg, &end);
		if (end == arg || *end || !isfinite(t) || t < GS_THETA_MIN || t > GS_THETA_MAX)
			return err_set(err, NULL, 0, 0, "--theta: '%s' is not a number in %g..%g", arg,
				       GS_THETA_MIN, GS_THETA_MAX), -1;
		p->theta = t;
		return 0;
	}
	case O_SORT:
		if ((i = reg_col_parse(arg)) < 0) {
			char names[400];
			return err_set(err, NULL, 0, 0, "--sort: '%s' is not one of %s", arg,
				       reg_col_list(", ", false, names, sizeof names)), -1;
		}
		p->sort = (enum col)i;
		p->desc = col_reg[i].desc;
		return 0;
	case O_REVERSE: p->desc = !p->desc; return 0;
	case O_REF_RULE:
		if (pick("--ref-rule", arg, cmdline_rules, RULE_COUNT, &i, err) < 0)
			return -1;
		p->ref_rule = (enum ref_rule)i;
		return 0;
	case O_PARETO_COST: p->pareto_cost = true; return 0;
	default: return 1;
	}
}

/* The options of the output (reports, plot, mouse): as parse_rows_opt. */
static int parse_output_opt(struct cli *c, int o, const char *arg, struct gs_err *err)
{
	static const char *const mouse[] = { "on", "off" };
	int i;
	long v;

	switch (o) {
	case O_YMETRIC:
		if ((i = reg_metric_parse(arg)) < 0) {
			char names[160];
			return err_set(err, NULL, 0, 0, "--y-metric: '%s' is not one of %s", arg,
				       reg_metric_list(", ", false, names, sizeof names)), -1;
		}
		c->ui.y_metric = (enum metric)i;
		return 0;
	case O_LOGY: c->ui.log_y = true; return 0;
	case O_RAW: c->raw = true; return 0;
	case O_COLUMNS: {
		char bad[64];
		if (table_cols_parse(arg, c->columns, bad, sizeof bad) < 0 && reg_col_parse(bad) == COL_DIV)
			return err_set(err, NULL, 0, 0, "--columns: '%s' has no column: the table marks an "
				       "open-division row o (rank and the other --sort names have one)", bad), -1;
		if (table_cols_parse(arg, c->columns, bad, sizeof bad) < 0) {
			char names[400];
			return err_set(err, NULL, 0, 0, "--columns: '%s' is not one of rank, %s", bad,
				       reg_col_list(", ", true, names, sizeof names)), -1;
		}
		c->ui.columns = c->columns;
		return 0;
	}
	case O_WIDTH:
	case O_HEIGHT:
		if (parse_long(arg, 1, 100000, &v) < 0)
			return err_set(err, NULL, 0, 0, "--%s: '%s' is not a positive whole number",
				       o == O_WIDTH ? "width" : "height", arg), -1;
		*(o == O_WIDTH ? &c->width : &c->height) = (int)v;
		return 0;
	case O_MOUSE:
		if (pick("--mouse", arg, mouse, 2, &i, err) < 0)
			return -1;
		c->ui.mouse = i == 0 ? MOUSE_ON : MOUSE_OFF;
		return 0;
	case O_PRINT: return parse_print(arg, c, err);
	default: return 1;
	}
}

/* The planner's options (constraints, objective, prediction, format): as parse_rows_opt. */
static int parse_plan_opt(struct cli *c, int o, const char *arg, struct gs_err *err)
{
	static const char *const formats[] = { "text", "json" };
	static const char *const objs[] = { [QO_ACC_HOURS] = "acc-hours", [QO_COST] = "cost",
					    [QO_KWH] = "kwh", [QO_MINUTES] = "minutes" };
	double *at[] = { &c->query.deadline, &c->query.max_cost, &c->query.max_acc_hours,
			 &c->query.max_kwh, &c->predict_n, &c->query.gbs };
	const char *names[] = { "deadline", "max-cost", "max-acc-hours", "max-kwh", "predict", "gbs" };
	int i;

	switch (o) {
	case O_DEADLINE: case O_MAX_COST: case O_MAX_ACC: case O_MAX_KWH: case O_PREDICT: case O_GBS: {
		char *end;
		double v = strtod(arg, &end);
		i = o == O_PREDICT ? 4 : o == O_GBS ? 5 : o - O_DEADLINE;
		if (end == arg || *end || !isfinite(v) || v <= 0 || (o == O_PREDICT && (v < 1 || v > 1e9)))
			return err_set(err, NULL, 0, 0, "--%s: '%s' is not a %s", names[i], arg,
				       o == O_PREDICT ? "number of accelerators in 1..1e9" : "positive number"), -1;
		*at[i] = v;
		return 0;
	}
	case O_MINIMIZE:
		if (pick("--minimize", arg, objs, QO_COUNT, &i, err) < 0)
			return -1;
		c->query.minimize = (enum q_obj)i;
		c->query_given = true;
		return 0;
	case O_FORMAT:
		if (pick("--format", arg, formats, 2, &i, err) < 0)
			return -1;
		c->json = i == 1;
		return 0;
	default: return 1;
	}
}

/* Adds report bit to c's --print list when it is not there. */
static void print_add(struct cli *c, unsigned bit)
{
	if (!(c->print & bit) && c->nprint < PR_MAX)
		c->print_order[c->nprint++] = bit;
	c->print |= bit;
}

/* The planner's options and the reports they go with: a constraint or objective asks for the
 * query, --predict N for the prediction; --print predict needs its N, --format json reports
 * that have a JSON form. 0, or -1 with err. */
static int check_plan(struct cli *c, struct gs_err *err)
{
	if (query_constrained(&c->query) || c->query_given)
		print_add(c, PR_QUERY);
	if (!isnan(c->predict_n))
		print_add(c, PR_PREDICT);
	if ((c->print & PR_PREDICT) && isnan(c->predict_n))
		return err_set(err, NULL, 0, 0, "--print predict needs --predict N"), -1;
	if (!isnan(c->query.gbs) && !(c->print & (PR_PREDICT | PR_QUERY)))
		return err_set(err, NULL, 0, 0, "--gbs needs --predict N or a query (--deadline, "
			       "--max-cost, --max-acc-hours)"), -1;
	if (c->json && !c->print)
		return err_set(err, NULL, 0, 0, "--format json needs --print (summary, fit, pareto, "
			       "sensitivity, query, predict or trend)"), -1;
	if (c->json && (c->print & ~(unsigned)PR_JSON))
		return err_set(err, NULL, 0, 0, "--format json: only summary, fit, pareto, sensitivity, "
			       "query, predict and trend have a JSON form (--print csv is for scripts "
			       "as it is)"), -1;
	return 0;
}

/* What no single option can check: the plot's size for --print plot (before any data is
 * read), and pinned mode's system. 0, or -1 with err. */
static int check_options(const struct cli *c, struct gs_err *err)
{
	if ((c->print & PR_PLOT) && (c->width ? c->width : 80) < PLOT_MIN_W)
		return err_set(err, NULL, 0, 0, "--width: a plot needs %d to %d columns, got %d", PLOT_MIN_W,
			       PLOT_MAX_W, c->width), -1;
	if ((c->print & PR_PLOT) && (c->width > PLOT_MAX_W || c->height < PLOT_MIN_H || c->height > PLOT_MAX_H)) {
		bool w = c->width > PLOT_MAX_W;
		return err_set(err, NULL, 0, 0, "--%s: a plot needs %d to %d %s, got %d", w ? "width" : "height",
			       w ? PLOT_MIN_W : PLOT_MIN_H, w ? PLOT_MAX_W : PLOT_MAX_H, w ? "columns" : "lines",
			       w ? c->width : c->height), -1;
	}
	if (c->params.mode == REF_PINNED && !c->params.pinned)
		return err_set(err, NULL, 0, 0, "--mode pinned needs --reference SYSTEM"), -1;
	return 0;
}

/* The options that add a value each time they are given (the row filters); every other one
 * takes one value, or is one switch, and is refused when given twice: the last silently winning
 * hides a typo in a script. A new option gets that rule without being listed anywhere. */
static bool repeatable(int val)
{
	static const int rep[] = { 'f', O_VENDOR, O_AVAIL, O_DIVISION };

	for (size_t i = 0; i < sizeof rep / sizeof rep[0]; i++)
		if (rep[i] == val)
			return true;
	return false;
}

#define NLONG (sizeof long_opts / sizeof long_opts[0])

/* Records option val (given with value arg, NULL for a switch) in seen[] / first[] (NLONG
 * each); 0, or -1 with err naming it when a single-valued option comes a second time. */
static int note_given(int val, const char *arg, bool *seen, const char **first, struct gs_err *err)
{
	size_t i;

	for (i = 0; long_opts[i].name && long_opts[i].val != val; i++)
		;
	if (!long_opts[i].name || repeatable(val))
		return 0;
	if (seen[i]) {
		char shrt[8] = "";
		if (val < 256)
			snprintf(shrt, sizeof shrt, " (-%c)", val);
		if (arg)
			err_set(err, NULL, 0, 0, "option '--%s'%s given twice ('%s', then '%s'): it takes one value",
				long_opts[i].name, shrt, first[i], arg);
		else
			err_set(err, NULL, 0, 0, "option '--%s'%s given twice", long_opts[i].name, shrt);
		return -1;
	}
	seen[i] = true;
	first[i] = arg;
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *c, struct gs_err *err)
{
	bool mode_given = false, seen[NLONG] = { false };
	const char *first[NLONG] = { NULL };
	int o, li, rc;

	memset(c, 0, sizeof *c);
	params_init(&c->params);
	/* each filter list holds at most one value a word of argv */
	if (!(c->sel = calloc(4 * (size_t)(argc + 1), sizeof *c->sel))) {
		err_oom(err, NULL, 0);
		return -1;
	}
	c->params.filter.families = c->sel;
	c->params.filter.vendors = c->sel + (argc + 1);
	c->params.filter.availability = c->sel + 2 * (argc + 1);
	c->params.filter.divisions = c->sel + 3 * (argc + 1);
	c->ui.mouse = MOUSE_AUTO;
	c->ui.y_metric = MET_EP;
	query_init(&c->query);
	c->predict_n = NAN;
	c->height = 24;
	optind = 1;
	opterr = 0;
	while ((li = -1, o = getopt_long(argc, argv, ":w:r:f:m:k:hV", long_opts, &li)) != -1) {
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
		if (o == 'h' || o == 'V') {
			*(o == 'h' ? &c->help : &c->version) = true;
			return 0;
		}
		if (o == ':') {
			err_set(err, NULL, 0, 0, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		}
		if (note_given(o, optarg, seen, first, err) < 0)
			return -1;
		rc = parse_rows_opt(c, o, optarg, mode_given);
		if (rc == 1)
			rc = parse_analysis_opt(c, o, optarg, err);
		if (rc == 1)
			rc = parse_output_opt(c, o, optarg, err);
		if (rc == 1)
			rc = parse_plan_opt(c, o, optarg, err);
		if (rc == 1) {
			cli_bad_option(argv[optind - 1], err);
			return -1;
		}
		if (rc < 0)
			return -1;
		mode_given |= o == 'm';
	}
	if (check_plan(c, err) < 0 || check_options(c, err) < 0)
		return -1;
	/* getopt has moved every file name behind the options */
	c->files = argv + optind;
	c->nfiles = argc - optind;
	return 0;
}

/* ------------------------------------------------------------------ names */

/* Appends " (valid: a, b, c)" to err's message, cut with "..." where it ends. */
static void append_valid(struct gs_err *err, const char **names, size_t n)
{
	size_t cap = sizeof err->msg, l = strlen(err->msg);

	l += (size_t)snprintf(err->msg + l, l < cap ? cap - l : 0, " (valid:");
	for (size_t i = 0; i < n && l < cap; i++)
		l += (size_t)snprintf(err->msg + l, cap - l, "%s %s", i ? "," : "", names[i]);
	if (l < cap)
		snprintf(err->msg + l, cap - l, ")");
	else
		memcpy(err->msg + cap - 5, "...)", 5);
}

static bool in_list(const char *s, const char **names, size_t n)
{
	return name_find(names, n, s, false) < n;
}

/* Distinct values of one row field over a round (pointer-distinct: pooled strings). */
static size_t distinct(const struct dataset *ds, const char *round, size_t off, const char **out,
		       size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		const char *v = *(const char *const *)((const char *)r + off);
		if (round && strcmp(r->round, round) != 0)
			continue;
		if (n && v == out[n - 1])
			continue; /* pooled: runs of one value cost one compare */
		if (!in_list(v, out, n) && n < max)
			out[n++] = v;
	}
	return n;
}
struct pin_cand {
	const char *system, *submitter;
	size_t row; /* place among the rows of the round and workload, in dataset order */
};

static int pin_cand_cmp(const void *a, const void *b)
{
	const struct pin_cand *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* The systems of p's round and workload that an unknown (found -1) or ambiguous (-2) pinned
 * system is listed with, in dataset order, at most max of them into names (texts in bufs,
 * max x 256 bytes). A system id several submitters share there is only valid as
 * SUBMITTER/SYSTEM, so it is given that way; which ids those are comes from one sort of the
 * rows by system id, not a search of every row per row. */
static size_t pin_candidates(const struct dataset *ds, const struct params *p, long found,
			     const char **names, char *bufs, size_t max)
{
	struct pin_cand *v = NULL, *by_sys = NULL;
	bool *shared = NULL;
	size_t m = 0, n = 0;

	for (size_t i = 0; i < ds->n; i++)
		m += strcmp(ds->rows[i].round, p->round) == 0 && strcmp(ds->rows[i].benchmark, p->workload) == 0;
	if (m && (!(v = malloc(m * sizeof *v)) || !(shared = calloc(m, sizeof *shared))))
		goto out; /* out of memory: no list */
	m = 0;
	for (size_t i = 0; i < ds->n; i++) {
		const struct row *r = &ds->rows[i];
		if (strcmp(r->round, p->round) == 0 && strcmp(r->benchmark, p->workload) == 0) {
			v[m] = (struct pin_cand){ r->system, r->submitter, m };
			m++;
		}
	}
	/* v sorted by (system, row): a run of one system with two submitters is shared; not
	 * needed when only the ambiguous id's rows are listed, each as SUBMITTER/SYSTEM */
	if (found != -2 && m && !(by_sys = malloc(m * sizeof *by_sys)))
		goto out;
	if (found != -2 && m) {
		memcpy(by_sys, v, m * sizeof *v);
		qsort(by_sys, m, sizeof *by_sys, pin_cand_cmp);
	}
	for (size_t g = 0, e; found != -2 && g < m; g = e) {
		bool two = false;
		for (e = g + 1; e < m && strcmp(by_sys[e].system, by_sys[g].system) == 0; e++)
			two |= strcmp(by_sys[e].submitter, by_sys[g].submitter) != 0;
		/* an id with a '/' may also read as SUBMITTER/SYSTEM of other rows (rare: searched) */
		if (!two && strchr(by_sys[g].system, '/'))
			two = dataset_find(ds, p->round, p->workload, by_sys[g].system) == -2;
		for (size_t j = g; two && j < e; j++)
			shared[by_sys[j].row] = true;
	}
	for (size_t i = 0; i < m && n < max; i++) {
		/* ambiguous: only the rows of that id, each as SUBMITTER/SYSTEM */
		if (found == -2 && strcmp(v[i].system, p->pinned) != 0)
			continue;
		if (shared[i] || found == -2) {
			snprintf(bufs + n * 256, 256, "%s/%s", v[i].submitter, v[i].system);
			names[n] = bufs + n * 256;
		} else {
			names[n] = v[i].system;
		}
		n++;
	}
out:
	free(v);
	free(by_sys);
	free(shared);
	return n;
}

/* The round shown when none was asked for: the newest (rounds[] in version order) that has the
 * workload asked for, or the newest of all (none has it: the analysis says so). */
static const char *newest_round(const struct dataset *ds, const char **rounds, size_t n, const char *work)
{
	for (size_t i = n; work && i-- > 0;) {
		const char **names;
		size_t nw;
		bool has;

		if (dataset_workload_list(ds, rounds[i], &names, &nw) < 0)
			break;
		has = name_find(names, nw, work, true) < nw;
		free(names);
		if (has)
			return rounds[i];
	}
	return rounds[n - 1];
}

int cli_check(const struct dataset *ds, struct cli *c, struct analysis *a, struct gs_err *err)
{
	/* a list of valid names holds at most one name a row */
	size_t maxn = ds->n + 1;
	const char **names = malloc(maxn * sizeof *names), **rounds = NULL;
	struct params *p = &c->params;
	char *bufs = NULL;
	long found;
	size_t n;
	int rc = -1;

	if (!names || dataset_round_list(ds, &rounds, &n) < 0) {
		err_oom(err, NULL, 0);
		goto out;
	}
	if (n == 0) {
		size_t l = (size_t)snprintf(err->msg, sizeof err->msg, "no rows could be loaded from");
		for (int i = 0; i < c->nfiles && l < sizeof err->msg; i++)
			l += (size_t)snprintf(err->msg + l, sizeof err->msg - l, " %s", c->files[i]);
		if (l < sizeof err->msg)
			snprintf(err->msg + l, sizeof err->msg - l, " (header only, or every row was bad)");
		goto out;
	}
	if (!p->round)
		p->round = newest_round(ds, rounds, n, p->workload);
	/* round, workload and the pinned system are the analysis's to check */
	if (analysis_check(ds, p, a, err) < 0) {
		if (p->pinned && a->round && a->workload && (bufs = malloc(maxn * 256))) {
			struct params q = *p;
			q.round = a->round;
			q.workload = a->workload;
			found = dataset_find(ds, q.round, q.workload, q.pinned);
			if (found < 0)
				append_valid(err, names, pin_candidates(ds, &q, found, names, bufs, maxn));
		}
		goto out;
	}
	p->round = a->round;
	p->workload = a->workload;
	const struct {
		const char *const *want;
		size_t nwant, field;
		const char *what;
	} filters[] = {
		{ p->filter.families, p->filter.nfamilies, offsetof(struct row, family), "family" },
		{ p->filter.vendors, p->filter.nvendors, offsetof(struct row, vendor), "vendor" },
		{ p->filter.availability, p->filter.navailability, offsetof(struct row, availability),
		  "availability" },
		{ p->filter.divisions, p->filter.ndivisions, offsetof(struct row, division), "division" },
	};
	for (size_t f = 0; f < sizeof filters / sizeof filters[0]; f++) {
		/* the valid names cost a pass over the rows: only when this filter is used */
		n = filters[f].nwant ? distinct(ds, p->round, filters[f].field, names, maxn) : 0;
		for (size_t i = 0; i < filters[f].nwant; i++) {
			if (!in_list(filters[f].want[i], names, n)) {
				err_set(err, NULL, 0, 0, "unknown %s '%s' in round %s", filters[f].what,
					filters[f].want[i], p->round);
				append_valid(err, names, n);
				goto out;
			}
		}
	}
	if (c->strict && ds->skipped) {
		err_set(err, NULL, 0, 0, "--strict: %zu bad row%s of the input (above) %s an error; nothing "
			"reported", ds->skipped, ds->skipped == 1 ? "" : "s", ds->skipped == 1 ? "is" : "are");
		goto out;
	}
	/* a column no shown row has would rank by the tie-break alone, or plot nothing */
	{
		bool sort_kwh = p->sort == COL_KWH, sort_cost = p->sort == COL_COST;
		bool y_kwh = c->print && c->ui.y_metric == MET_KWH, y_cost = c->print && c->ui.y_metric == MET_COST;
		bool kwh = false, cost = false;
		for (size_t i = 0; i < a->n; i++) {
			kwh |= !isnan(a->rows[i].kwh);
			cost |= !isnan(a->rows[i].cost_lo);
		}
		if (((sort_kwh || y_kwh) && !kwh) || ((sort_cost || y_cost) && !cost)) {
			bool k = ((sort_kwh || y_kwh) && !kwh);
			err_set(err, NULL, 0, 0, "%s %s: no shown row of %s %s has %s", sort_kwh || sort_cost ? "--sort" : "--y-metric",
				k ? "kwh" : "cost", p->round, p->workload,
				k ? "energy measured (kwh)" : "a price (cost: see prices.csv)");
			goto out;
		}
	}
	rc = 0;
out:
	free(bufs);
	free(rounds);
	free(names);
	return rc;
}
