/* table.h: the ranked table's columns and cell texts, one definition for the explorer and
 * --print, so both show the same digits. */
#ifndef GS_TABLE_H
#define GS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "dataset.h"

enum tcol {
	TC_RANK, TC_SUB, TC_SYS, TC_FAM, TC_N, TC_MIN, TC_S, TC_EP, TC_E, TC_A, TC_CL, TC_MARK,
	TC_SPREAD, TC_COUNT
};

struct tcol_info {
	const char *head;
	int w;          /* usual width (the minimum for the system column) */
	int prio;       /* narrow tables drop the lowest first */
	int sort;       /* enum col it sorts on, or -1 */
	bool right;     /* right-aligned (numbers) */
};

extern const struct tcol_info table_cols[TC_COUNT];

/* Turns columns off in on[] (those on, of widths w[], `sep` blanks between two), least
 * important first and never the system column, until the table fits in width; returns the
 * width of what is left. The explorer and --print drop columns by this one rule. */
int table_fit(int width, int sep, const int *w, bool *on);

/* Text of cell (i, c) of the ranked table a: the row's pooled string for text columns, else
 * formatted into buf (at least 32 bytes). The mark is R (reference), * (Pareto), > (break-even),
 * then v (Preview or Research), o (open division), c (carried over), x (E' against a reference
 * of another family). */
const char *table_cell(const struct dataset *ds, const struct analysis *a, size_t i, enum tcol c,
		       char *buf, size_t n);

#endif
