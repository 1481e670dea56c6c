/* ui_draw_impl.h: what ui_draw.c shares with the overlays it paints over the screen
 * (ui_overlay.c): the roles of the attribute table and the drawing primitives. Private to the
 * terminal front end. */
#ifndef GS_UI_DRAW_IMPL_H
#define GS_UI_DRAW_IMPL_H

#include <curses.h>
#include <stdbool.h>

#include "ui_app.h"

enum ui_role {
	R_NORMAL, R_TITLE, R_TAB, R_TAB_ON, R_BORDER, R_HEAD, R_SEL, R_STATUS, R_MSG, R_ERR,
	R_REFROW, R_AXIS, R_TICK, R_LABEL, R_THETA, R_LEGEND, R_PARETO, R_REF, R_PSEL, R_OVERLAP,
	R_CLUSTER, R_COUNT = R_CLUSTER + MAX_K
};

/* The attribute of a role (colour, or bold/reverse without colour). */
attr_t draw_role(enum ui_role r);
/* Draws at most w columns of s at (y, x), control bytes as '?'; returns the columns used. */
int draw_text(const struct app *app, int y, int x, int w, const char *s, attr_t at);
/* Paints w blanks at (y, x) in at. */
void draw_fill(int y, int x, int w, attr_t at);
/* A fixed-width cell: padded, right-aligned if asked, cut in the middle with '~'. */
void draw_cell(const struct app *app, int y, int x, int w, const char *s, bool right, attr_t at);
/* A bordered box over r with a title on its top edge and a foot on its bottom one. */
void draw_box(const struct ui_rect *r, const char *title, const char *foot, const struct app *app);
/* Draws s in at most w columns at (y, x), cut with '~' when longer; returns the columns used. */
int draw_clip(const struct app *app, int y, int x, int w, const char *s, attr_t at);

/* ui_overlay.c: the overlay open (help, detail, family menu, command line, trend), if any. */
void ui_overlay_draw(const struct app *app);

#endif
