/* cmdline.h: the gpuscale command line that shows a given view: what the explorer shows with
 * its `:` key and writes beside an export, so that a view can be kept in a script. */
#ifndef GS_CMDLINE_H
#define GS_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "metric_reg.h"

struct query;

/* The command-line names of the reference modes, k-means feature sets and reference rules, by
 * enum value: the parser reads them, cmdline_format writes them. */
extern const char *const cmdline_modes[REF_MODE_COUNT];
extern const char *const cmdline_feats[FEAT_COUNT];
extern const char *const cmdline_rules[RULE_COUNT];

/* A view: the analysis parameters, the plot's metric and scale, where the data came from
 * (files NULL: the bundled rounds), the table's columns (per enum tcol; NULL: all) and the
 * planner's query (NULL: none). Strings are borrowed. */
struct cmdline_view {
	const struct params *p;
	enum metric y_metric;
	bool log_y;
	char *const *files;
	int nfiles;
	const char *families_path, *prices_path;
	const bool *columns;
	const struct query *query;
};

/* Writes "gpuscale --round R -w W ..." for v into buf (n bytes, always terminated), each word
 * quoted for a POSIX shell where it needs it, options left out where they are the default.
 * Returns the length the whole line needs (as snprintf: n or more means it was cut). */
size_t cmdline_format(const struct cmdline_view *v, char *buf, size_t n);

/* Cuts line (cmdline_format's) into pieces of at most width bytes (so columns; width 20 or
 * more) that, pasted into a POSIX shell, run the same words: a piece ends at a blank outside
 * quotes with " \" and the next is indented by two blanks; a word longer than a piece is cut
 * inside, the piece ending in "\" (or "'\", closing its quotes) and the next going on at its
 * first column (with "'", opening them again): sh joins a backslash-newline outside quotes.
 * Returns the pieces joined by newlines (no final one), however many; the caller frees it.
 * NULL when out of memory. */
char *cmdline_wrap(const char *line, int width);

#endif
