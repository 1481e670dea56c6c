/* ui.h: the interactive explorer (the only part that talks to curses). */
#ifndef GS_UI_H
#define GS_UI_H

#include <stdbool.h>

#include "analysis.h"
#include "dataset.h"

enum mouse_pref { MOUSE_AUTO, MOUSE_ON, MOUSE_OFF };

struct ui_opts {
	enum mouse_pref mouse;  /* AUTO: on unless SSH_CONNECTION or SSH_TTY is set */
	enum metric y_metric;   /* initial plot metric */
	bool log_y;
	const char *export_dir; /* where e writes; NULL: the current directory */
	/* where the data came from, for the view's command line (files NULL: the bundled rounds) */
	char *const *files;
	int nfiles;
	const char *families_path, *prices_path;
	const bool *columns;    /* per enum tcol, the table's columns (--columns); NULL: all */
};

/* Runs the explorer on ds starting from p until the user quits; restores the terminal on every
 * exit path. Returns the process exit code: 0 ok, 1 runtime error, 2 the terminal cannot run
 * the explorer (not a terminal, unknown type, or no cursor addressing as with TERM=dumb: use
 * --print); err holds the text for 1 and 2, to print after the terminal is restored. */
int ui_run(struct dataset *ds, struct params *p, const struct ui_opts *o, struct gs_err *err);

#endif
