/* cmdline.h: the gpuscale command line that shows a given view: what the explorer shows with
 * its `:` key and writes beside an export, so that a view can be kept in a script. */
#ifndef GS_CMDLINE_H
#define GS_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "metric_reg.h"

/* The command-line names of the reference modes, k-means feature sets and reference rules, by
 * enum value: the parser reads them, cmdline_format writes them. */
extern const char *const cmdline_modes[REF_MODE_COUNT];
extern const char *const cmdline_feats[FEAT_COUNT];
extern const char *const cmdline_rules[RULE_COUNT];

/* A view: the analysis parameters, the plot's metric and scale, and where the data came from
 * (files NULL: the bundled rounds). Strings are borrowed. */
struct cmdline_view {
	const struct params *p;
	enum metric y_metric;
	bool log_y;
	char *const *files;
	int nfiles;
	const char *families_path, *prices_path;
};

/* Writes "gpuscale --round R -w W ..." for v into buf (n bytes, always terminated), each word
 * quoted for a POSIX shell where it needs it, options left out where they are the default.
 * Returns the length the whole line needs (as snprintf: n or more means it was cut). */
size_t cmdline_format(const struct cmdline_view *v, char *buf, size_t n);

/* Cuts line (cmdline_format's) at blanks outside quotes into pieces of at most width columns
 * (a longer word stays whole), each but the last ending in " \" and each but the first indented
 * by two blanks, so that the pieces pasted into a shell still run it: into lines[max][w] of
 * UI-line width w. Returns the count. */
size_t cmdline_wrap(const char *line, int width, char *lines, size_t w, size_t max);

#endif
