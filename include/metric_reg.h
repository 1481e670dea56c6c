/* metric_reg.h: the registry of metrics and columns, one row per column (as htop's
 * ProcessFieldData): its command-line names, heading, long name, help, natural sort direction,
 * table width and priority, format and getters. The command line, the sort keys, the table,
 * the plot, the help's legend and --print csv read it; a new metric is one row and a getter
 * in metric_reg.c, and its place in the three lists below. No terminal here. */
#ifndef GS_METRIC_REG_H
#define GS_METRIC_REG_H

#include <stdbool.h>
#include <stddef.h>

struct aci;
struct arow;
struct row;

/* Columns that can be sorted on: the order s steps through. */
enum col {
	COL_EP, COL_S, COL_E, COL_T, COL_A, COL_N, COL_SYSTEM, COL_SUBMITTER, COL_FAMILY,
	COL_CLUSTER, COL_PARETO, COL_SPREAD, COL_KWH, COL_COST, COL_ROUND, COL_DIV, COL_XH,
	COL_GBS, COL_SAMPLES, COL_THRU, COL_ETHRU, COL_ECONV, COL_ECONV_RCP, COL_COUNT
};

/* The plot's y metrics, in the order y cycles through them. */
enum metric { MET_EP, MET_S, MET_T, MET_A, MET_E, MET_KWH, MET_COST, MET_XH, MET_ETHRU, MET_ECONV,
	MET_GBS, MET_COUNT };

/* The table's columns in display order. TC_ROUND shows only when the rows span several rounds
 * (the cross-round view), TC_KWH and TC_COST only when some row has a value. */
enum tcol {
	TC_RANK, TC_ROUND, TC_SUB, TC_SYS, TC_FAM, TC_N, TC_MIN, TC_S, TC_EP, TC_E, TC_A, TC_XH,
	TC_KWH, TC_COST, TC_CL, TC_MARK, TC_SPREAD, TC_GBS, TC_SAMPLES, TC_THRU, TC_ETHRU, TC_ECONV,
	TC_ECONV_RCP, TC_COUNT
};

/* How a table cell shows a column's value. */
enum col_fmt {
	CF_TEXT,     /* the text getter's string */
	CF_COUNT,    /* fmt_count: an accelerator count */
	CF_FIXED2,   /* fmt_fixed, two decimals */
	CF_SIG3,     /* fmt_sig, three significant digits */
	CF_OWN       /* table.c formats it (names, marks, ranges) */
};

#define COL_NAMES 4

struct col_def {
	int sort;                   /* enum col, or -1 (the rank: sorted on nothing) */
	const char *names[COL_NAMES]; /* command-line names (--sort, --y-metric), any case; the
				     * first is the one --help shows; NULL ends the list early */
	const char *sym;            /* short name: the plot's y axis, messages ("T", "E'") */
	const char *head;           /* table heading ("min") */
	const char *long_name;      /* the sort message ("normalized efficiency E'") */
	const char *help;           /* the legend's line on the help page */
	bool desc;                  /* naturally sorted descending (bigger is better) */
	int w;                      /* usual table width (the minimum for the system column) */
	int prio;                   /* narrow tables drop the lowest first */
	bool right;                 /* right-aligned (numbers) */
	enum col_fmt fmt;
	double (*value)(const struct arow *r);       /* numbers: the value, NAN when none */
	const char *(*text)(const struct row *r);    /* text columns: the text, never NULL */
	/* the 90% run-to-run interval from row r's intervals c (analysis_ci), NAN when none;
	 * NULL: the metric has none */
	void (*interval)(const struct aci *c, const struct arow *r, double *lo, double *hi);
	/* the metric of a row of t minutes on n accelerators against a reference of t_ref
	 * minutes on n_ref, as the row's own is computed from its T (a scaling law's curve);
	 * NULL: not a function of T */
	double (*from_t)(double t, double n, double t_ref, double n_ref);
	const char *csv;            /* --print csv column name; NULL: not a csv column */
	bool extra;                 /* on screen only where room is left: never the reason the
				     * plot and the table stack rather than share a wide screen */
	bool asked;                 /* --print's table shows it only when --columns names it */
};

/* Every sort column, indexed by enum col. */
extern const struct col_def col_reg[COL_COUNT];

/* The table's columns by enum tcol: rows of col_reg (and the rank). */
extern const struct col_def *const table_cols[TC_COUNT];

/* The plot metrics by enum metric: rows of col_reg. */
extern const struct col_def *const metric_cols[MET_COUNT];

/* The row of column c, or of E' when c is out of range. */
const struct col_def *reg_col(enum col c);

/* The row of metric m, or of E' when m is out of range. */
const struct col_def *reg_metric(enum metric m);

/* A column by any of its names (case-insensitive, ASCII); the enum col or -1. */
int reg_col_parse(const char *s);

/* A plot metric by any of its names (case-insensitive, ASCII); the enum metric or -1. */
int reg_metric_parse(const char *s);

/* The metrics' first names ("ep, s, t"), or with syms their short names ("E', S, T"), joined
 * by sep into buf of size n (cut to fit); returns buf. */
char *reg_metric_list(const char *sep, bool syms, char *buf, size_t n);

/* The columns' first names ("ep, s, e"), the --sort names, joined by sep into buf of size n (cut
 * to fit); with shown only those the table can show (the --columns names, rank not included);
 * returns buf. */
char *reg_col_list(const char *sep, bool shown, char *buf, size_t n);

/* Short name of metric m ("E'", "T"). */
const char *metric_name(enum metric m);

/* Value of metric m for one shown row (NAN when none). */
double arow_metric(const struct arow *r, enum metric m);

#endif
