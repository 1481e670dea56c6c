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
};

/* Turns columns off in on[] (those on, of widths w[], `sep` blanks between two), least
 * important first and never the system column, until the table fits in width; returns the
 * width of what is left. The explorer and --print drop columns by this one rule. */
int table_fit(int width, int sep, const int *w, bool *on);

/* Sets v->qualified for a's rows over ds (v zeroed, or from an earlier call: memory reused).
 * 0, or -1 when out of memory (then every row is named by its system id). */
int table_names(struct table_view *v, const struct dataset *ds, const struct analysis *a);

/* table_names, then v->need from every cell of a; call after each analysis_run. 0, or -1 as
 * table_names (need is set either way). */
int table_measure(struct table_view *v, const struct dataset *ds, const struct analysis *a);

/* Frees what v owns and zeroes it. */
void table_view_free(struct table_view *v);

/* Plans a table of at most width display columns (0: no limit), sep blanks between two, from
 * v's measures: which columns show (on) and their widths (w). The names get the room: columns
 * are dropped (table_fit) before the system names shrink below their usual width, spare room
 * goes to the names, and a wider table never gives the system names less room (from the
 * narrowest width that holds the rank and a name). Returns the width used. */
int table_plan(const struct table_view *v, int width, int sep, bool *on, int *w);

/* Name of shown row r: SUBMITTER/SYSTEM when v says so, else the system id (v NULL: always
 * the id); written into buf (size n > 0), or the pooled id itself. */
const char *table_row_name(const struct table_view *v, const struct dataset *ds,
			   const struct arow *r, char *buf, size_t n);

/* Text of cell (i, c) of the ranked table a (v: as table_row_name, may be NULL): the row's
 * pooled string for text columns, else formatted into buf (at least 32 bytes; 256 for names).
 * The mark is R (reference), * (Pareto), > (break-even), then v (Preview or Research),
 * o (open division), c (carried over), x (E' against a reference of another family). */
const char *table_cell(const struct table_view *v, const struct dataset *ds,
		       const struct analysis *a, size_t i, enum tcol c, char *buf, size_t n);

#endif
