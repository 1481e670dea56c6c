/* table.h: the ranked table's columns and cell texts, one definition for the explorer and
 * --print, so both show the same digits. */
#ifndef GS_TABLE_H
#define GS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "dataset.h"

/* The columns (enum tcol, table_cols) are in metric_reg.h; a column of need 0 never shows. */

/* What a table of one analysis needs, measured once per analysis rather than per row per
 * frame: which rows are named SUBMITTER/SYSTEM, and each column's widest cell. */
struct table_view {
	int need[TC_COUNT];          /* display columns of the widest cell, header included; 0:
				      * not shown (the round column of a single round) */
	unsigned char *qualified;    /* per dataset row: 1 when its system id is shown under two
				      * submitters (then named SUBMITTER/SYSTEM); owned */
	size_t cap;                  /* entries allocated at qualified */
	bool bytes;                  /* set by the caller: a name takes a column per byte (a
				      * terminal without UTF-8 draws each byte of it as one cell) */
	/* the plot's letter of each shown row (chart_letters), written before the family (family
	 * mode) or the round (the cross-round view) in that column's cells, so the table names a
	 * letter as the plot draws it; letter_col -1: none (clusters are numbered in their own
	 * column) */
	char *letter;                /* per shown row; owned */
	size_t letter_cap;
	int letter_col;
};

/* How one table is laid out. TABLE_PRINT: every column as wide as its widest cell (--print);
 * TABLE_SCREEN: numbers at the registry's widths, each with room for the sort arrow beside its
 * heading, so that columns stay put from one workload to the next (the explorer). */
enum table_policy { TABLE_PRINT, TABLE_SCREEN };

struct table_opts {
	enum table_policy policy;
	int sep;                     /* blanks between two columns */
	int force;                   /* enum tcol shown at any width but the narrowest (the sort
				      * column), -1 none */
	const bool *want;            /* per enum tcol, the columns chosen (NULL: all); the system
				      * column shows whatever it says */
};

/* Columns of this priority and up are kept while the system names can still be cut (to
 * TABLE_NAME_CUT columns); lower ones give way before the names drop below their usual width.
 * At 80 columns the explorer's table so keeps N, min, E', A, the family, the marks (and the
 * round in the cross-round view). */
#define TABLE_PRIO_KEEP 72
#define TABLE_NAME_CUT 8

/* Sets v->qualified for a's rows over ds (v zeroed, or from an earlier call: memory reused),
 * and v->need of the name columns (system, submitter, family) and of the columns a row may
 * lack (round, kWh, cost: 0 when no row needs them); the other columns get their heading's
 * width. The one detector of ids shared by two submitters. 0, or -1 when out of memory (then
 * every row is named by its system id). */
int table_names(struct table_view *v, const struct dataset *ds, const struct analysis *a);

/* table_names, then v->need from every cell of a; call after each analysis_run. 0, or -1 as
 * table_names (need is set either way). */
int table_measure(struct table_view *v, const struct dataset *ds, const struct analysis *a);

/* Sets want[TC_COUNT] from a comma list of column names (the registry's, any case, and
 * "rank"): the columns named on, the others off (the system column always shows). Returns 0,
 * or -1 with the first unknown name in bad (size n). */
int table_cols_parse(const char *list, bool *want, char *bad, size_t n);

/* Frees what v owns and zeroes it. */
void table_view_free(struct table_view *v);

/* Plans a table of at most width display columns (0: no limit) from v's measures under o:
 * which columns show (on) and their widths (w). The one planner of the explorer and --print.
 * Lowest priority first, the registry's extras before the rest: columns below TABLE_PRIO_KEEP
 * go before the system names shrink below their usual width; then the names are cut (down to
 * TABLE_NAME_CUT) before the kept columns go; the rank goes last. Spare room widens the names
 * (system, family, submitter) to whole before an extra comes in, and a wider table never gives
 * the system names less room (from the narrowest width that holds the rank and a name).
 * Numbers are never cut. Returns the width used. */
int table_plan(const struct table_view *v, const struct table_opts *o, int width, bool *on, int *w);

/* The width of o's table with every column but the extras on and every name whole. */
int table_full_width(const struct table_view *v, const struct table_opts *o);

/* Name of shown row r: SUBMITTER/SYSTEM when v says so, else the system id (v NULL: always
 * the id); written into buf (size n > 0), or the pooled id itself. */
const char *table_row_name(const struct table_view *v, const struct dataset *ds,
			   const struct arow *r, char *buf, size_t n);

/* Text of cell (i, c) of the ranked table a (v: as table_row_name, may be NULL): the row's
 * pooled string for text columns, else formatted into buf (at least 32 bytes; 256 for names).
 * The mark is R (reference), * (Pareto), > (break-even), then v (Preview or Research),
 * o (open division), c (carried over: in the cross-round view arow_carried, and then its rank
 * and cluster are "-"; in one round, runs of an earlier loaded round), x (E' against a
 * reference of another family). */
const char *table_cell(const struct table_view *v, const struct dataset *ds,
		       const struct analysis *a, size_t i, enum tcol c, char *buf, size_t n);

#endif
