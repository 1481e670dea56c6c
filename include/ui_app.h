/* ui_app.h: the explorer's state, shared by the ui_*.c files only. Nothing here needs curses:
 * ui_state.c and ui_export.c work on this state without a terminal; ui_keys.c maps keys to
 * changes of it, ui_draw.c paints it, ui_main.c owns the terminal and the event loop. */
#ifndef GS_UI_APP_H
#define GS_UI_APP_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "chart.h"
#include "dataset.h"
#include "planner.h"
#include "plot.h"
#include "table.h"
#include "ui.h"

/* Below this size the panes give way to a "terminal too small" notice. 60x16 still fits a
 * readable 8-line plot, a 3-row table, the cluster line and both status lines. */
#define UI_MIN_COLS 60
#define UI_MIN_ROWS 16
/* From this width on, plot and table may sit side by side (when the table beside a plot of
 * UI_WIDE_PLOT columns still shows every column and whole names); below, they are stacked. */
#define UI_WIDE_COLS 120
#define UI_WIDE_PLOT 46
/* From this width on, the plot takes (at least) half the width beside the table. */
#define UI_HALF_COLS 160

#define UI_SEARCH_MAX 64
#define UI_MSG_MS 4000    /* a message shows this long (milliseconds), then goes */
#define UI_MSG_MAX 1024  /* a whole answer: a message is never cut, it wraps (ui_state_msg_lines) */
#define UI_MAX_HELP 128
#define UI_MAX_DETAIL 160 /* lines of the detail overlay, drawn and scrolled */
#define UI_LINE 192
#define UI_HELP_LINES (UI_MAX_HELP * 3 + 96)


/* Key codes given to ui_keys_dispatch: a character as itself (a wide character's value),
 * a curses function key as UI_FKEY(KEY_...), beyond every Unicode value. UI_KEY_TEXT stands,
 * in the key table only, for any printable character (the search prompt). */
#define UI_FKEY(k) (0x200000 | (k))
#define UI_KEY_TEXT 0x400000
/* Pointer events, also dispatched through the key table: the event loop turns each mouse
 * event into one of these codes and leaves the pointer's cell in app->ptr_y, ptr_x. */
#define UI_PTR_CLICK 0x800001
#define UI_PTR_WHEEL_UP 0x800002
#define UI_PTR_WHEEL_DOWN 0x800003
#define UI_IS_PTR(k) (((k) & 0x800000) != 0)

/* Reaction flags returned by every key handler; the loop acts on them once per key. */
enum {
	UI_REDRAW = 1,     /* state changed: draw a frame */
	UI_RECOMPUTE = 2,  /* params changed: analysis_run, then draw */
	UI_RESORT = 4,     /* only the order changed: analysis_sort, then draw */
	UI_QUIT = 8,
	UI_CLEAR = 16      /* repaint the whole terminal (Ctrl-L) */
};

/* A key as its key-table action gets it: the key (the character typed, for the table's
 * UI_KEY_TEXT) and the argument of its table entry. */
struct ui_press {
	int key;
	int arg;
};

/* Where a key is looked up: the overlay's context first, then UI_CTX_ANY. */
enum ui_ctx { UI_CTX_ANY, UI_CTX_MAIN, UI_CTX_HELP, UI_CTX_MENU, UI_CTX_DETAIL, UI_CTX_SEARCH,
	      UI_CTX_PROMPT, UI_CTX_TREND, UI_CTX_MOUSE /* help only: the pointer's entries, whatever their context */,
	      UI_CTX_COUNT };

/* OV_SEARCH is the incremental prompt of / (search) and | (row filter); OV_PROMPT asks for a
 * value (theta, k) applied on Enter. */
enum ui_overlay { OV_NONE, OV_HELP, OV_MENU, OV_DETAIL, OV_SEARCH, OV_PROMPT, OV_CMDLINE, OV_TREND };

/* What the prompt line is for. */
enum ui_prompt { PROMPT_SEARCH, PROMPT_FILTER, PROMPT_THETA, PROMPT_K, PROMPT_QUERY };

/* Which panes the body shows: z cycles them. */
enum ui_zoom { ZOOM_SPLIT, ZOOM_PLOT, ZOOM_TABLE, ZOOM_COUNT };

/* Messages that tell the result of a recompute (the k auto-k chose, the new reference): a key
 * asks for one, ui_state_recompute writes it once the analysis is done. */
enum ui_note { NOTE_NONE, NOTE_AUTOK, NOTE_FEATS, NOTE_PIN, NOTE_PAPER, NOTE_MODE, NOTE_RULE };

struct ui_rect {
	int y, x, h, w;
};

struct ui_layout {
	int rows, cols;
	bool too_small, wide;
	struct ui_rect header, plot_title, plot, table, clusters, status1, status2, msg;
	int table_rows;           /* data rows the table shows (its height minus the header) */
};

/* A view U can go back to: what a command line says (ui_undo.c), and the pin kept. */
struct ui_view {
	struct params p;
	const char **fams;                /* owned copy of p.filter.families */
	enum metric ymet;
	bool log_y;
	const char *pin_keep;
	bool cols[TC_COUNT];              /* the table's columns chosen (C) */
	struct query q;                   /* the query (Q), when q_on */
	bool q_on;
};

/* Levels of undo kept; older changes are forgotten. */
#define UI_UNDO_MAX 64

/* One entry of the family filter menu, or of the column chooser (C). */
struct ui_famitem {
	const char *name;         /* pooled family name; the column's long name */
	size_t count;             /* rows of the current round x workload; the column (enum tcol) */
	bool on;
};

/* One line of the help overlay, merged from consecutive key-table entries. */
struct ui_help_line {
	char keys[48];
	const char *help;
	enum ui_ctx ctx;
};

/* The plot of the current frame, drawn from the shown rows' points each frame. */
struct ui_plot_frame {
	struct plot_grid grid;            /* the plot of the current frame */
	bool grid_ok;
	struct plot_spec spec;            /* the spec grid was drawn with */
	struct plot_point *pts;           /* the points grid was drawn from (pts[j]: shown row j) */
	size_t npts, pts_cap;
	struct plot_curve fit_curves[MAX_K];             /* the fitted laws drawn (key L) */
	double fit_xy[MAX_K * 2 * CHART_FIT_SAMPLES];    /* their samples */
	bool bars_pending;                /* some shown rows' intervals are still to draw */
	bool detail_pending;              /* the detail's break-even range is still to draw */
	bool idle;                        /* the next frame is drawn while no key waits
					   * (ui_state_work): it draws a slice of intervals */
	unsigned bars_msg_seq;            /* msg.seq of the count last shown */
};

/* The line editor of the search (/), row filter (|) and value (= K) prompts. */
struct ui_editor {
	enum ui_prompt prompt;            /* what OV_SEARCH / OV_PROMPT is asking for */
	char search[UI_SEARCH_MAX];       /* prompt text (OV_SEARCH) and the last accepted text */
	size_t search_len;
	const char *search_from, *search_from_sub; /* selection when the prompt opened (Esc restores it) */
	size_t search_from_at;            /* its place in the view then */
	char input[UI_SEARCH_MAX];        /* OV_PROMPT's text */
	size_t input_len;
	char rowfilt_was[UI_SEARCH_MAX];  /* the row filter when the | prompt opened (Esc restores it) */
};

/* Which overlay is open, how far it is scrolled, and the family menu. */
struct ui_menus {
	enum ui_overlay ov;
	int ov_scroll;
	struct ui_famitem *fam;           /* the family menu (no fixed limit; it scrolls) */
	size_t nfam, fam_cap, fam_cur;
	const char **famsel;              /* the families the menu applied: p.filter.families */
	size_t famsel_cap;
	char fam_find[UI_SEARCH_MAX];     /* type-ahead in the family menu */
	bool cols;                        /* the menu lists the table's columns (C), not families */
};

/* How the model is shown: what the table and plot show and how, the layout, the help. */
struct ui_screen {
	size_t top;                       /* first table row shown */
	size_t top_h;                     /* the table rows top was last fitted to (0: none yet) */
	enum ui_zoom zoom;
	bool cols_want[TC_COUNT];         /* the table's columns chosen (C); all by default */
	enum metric ymet;
	bool log_y, pareto_marks;
	bool full_range, bars;            /* plot: no outlier clipping; run-to-run interval bars */
	bool mouse, utf8;
	int ptr_y, ptr_x;                 /* screen cell of the pointer event being dispatched */
	const char *export_dir;
	struct ui_help_line help[UI_MAX_HELP];
	size_t nhelp;
	struct ui_layout lay;
	unsigned long frames;
};

/* The message line. */
struct ui_message {
	char text[UI_MSG_MAX];            /* message on its own line, shown for UI_MSG_MS */
	bool err;
	long long at;                     /* when it was set (ms, monotonic clock) */
	unsigned seq, key_seq;            /* messages set so far; seq when the last key came */
	enum ui_note note;                /* message to compose after the next recompute */
	/* what the view leaves out (bench_reg_notice), made for each frame */
	char notice[UI_LINE + UI_SEARCH_MAX];
	size_t notice_left;
};

/* Undo (U) and the view's command line (:): the views before the last changes and where the
 * data came from. */
struct ui_history {
	/* a ring whose newest is undo[(undo_top - 1) % MAX] */
	struct ui_view undo[UI_UNDO_MAX];
	size_t nundo, undo_top;
	char *const *files;               /* the data's files and tables (ui_opts), for the command line */
	int nfiles;
	const char *families_path, *prices_path;
};

/* The explorer: the model (data, parameters, analysis, shown rows, selection) at the top, then
 * its parts: how it is shown, the overlays and menus, the line editor, the message line, the
 * history, the plot and the planner's state. */
struct app {
	struct dataset *ds;
	struct params p;                  /* owned copy; strings borrowed (pool or argv) */
	struct analysis a;
	struct analysis spare;            /* the next recompute runs here, then trades places with a:
					   * a failure leaves a as it was, and both keep their buffers */

	const char **rounds;              /* every round, oldest first (no fixed limit) */
	size_t nrounds, round_i;
	const char **works;               /* workloads of the current round (no fixed limit) */
	size_t nworks, work_i, works_cap;
	const char **allworks;            /* workloads of every round, in the benchmark registry's
					   * order: digit d is allworks[d - 1] in every round */
	size_t nallworks, allworks_cap;

	/* The shown rows: positions 0..nvis-1 of the table and the plot, each an index into
	 * a.rows; every a.rows entry in order, or the ones the row filter (| text) keeps. */
	size_t *vis;
	size_t nvis, vis_cap;
	bool view_new;                    /* the rows changed since vis was made */
	char rowfilt[UI_SEARCH_MAX];      /* the row filter's text; "" none */

	const char *sel_sys, *sel_sub;    /* selected system id and its submitter (pooled), kept
					   * across recomputes: one id can exist under several submitters */
	size_t sel;                       /* shown position (index into vis) */

	/* Name widths and which rows are named SUBMITTER/SYSTEM (an id shared by two submitters
	 * of the shown rows), measured after each analysis. */
	struct table_view tv;

	struct ui_screen scr;             /* how it is shown */
	struct ui_menus menu;             /* the overlay open and the family menu */
	struct ui_editor ed;              /* the prompts' line editor */
	struct ui_message msg;            /* the message line */
	struct ui_history hist;           /* undo levels and the data's origin */

	const char *pin_keep;             /* the user's pin, kept while the workload shown lacks
	                                     it: it is pinned again where it exists */

	struct ui_plot_frame pc;          /* the plot of the current frame */
	struct ui_plan *plan;             /* the query and the trend (ui_plan.c); owned, NULL until used */
};

/* ui_app.c */

/* Frees everything app owns: the undo levels, the planner, the model (ui_state_free). */
void ui_app_free(struct app *app);

/* ui_state.c: the model, no terminal. It calls no other ui_*.c file but ui_text.c and
 * ui_layout.c: the prompts, the planner and undo call it. */

/* Fills app from ds, p and o (mouse preference resolved from the environment); without a
 * round in p, the newest round loaded opens. */
void ui_state_init(struct app *app, struct dataset *ds, const struct params *p,
		   const struct ui_opts *o);
/* Frees what the model owns (analysis, plot grid, lists, scratch); ui_app_free frees the rest. */
void ui_state_free(struct app *app);
/* Runs the analysis for app->p and keeps the selection by system id. Returns 0, or -1 with err
 * (the previous analysis is then kept). A pinned system absent from the workload falls back to
 * the paper rule with a message instead of failing, and is pinned again (with a message) on the
 * next workload or round that has it, unless the user chose another reference meanwhile.
 * Writes the message app->note asks for, unless the recompute set one itself. */
int ui_state_recompute(struct app *app, struct gs_err *err);
/* Re-sorts the shown rows by app->p.sort / desc, keeping the selection. */
void ui_state_resort(struct app *app);
/* Acts on a key's UI_RECOMPUTE (a failure becomes the status message) or else UI_RESORT flag. */
void ui_state_apply(struct app *app, unsigned flags);
/* Removes a message older than UI_MSG_MS at time now (ms); returns UI_REDRAW when it did. */
unsigned ui_state_tick(struct app *app, long long now);
/* Milliseconds of the monotonic clock (message times). */
long long ui_state_now(void);
/* Rebuilds the shown rows (app->vis) from a.rows and the row filter, keeping the selection. */
void ui_state_view(struct app *app);
/* Sets the row filter (NULL or "" clears it); returns how many rows it keeps. */
size_t ui_state_set_rowfilt(struct app *app, const char *text);
/* Selects shown row i (clamped); keeps the table scrolled to it. */
void ui_state_select(struct app *app, long i);
/* Scrolls the table so that the selection is visible in app->lay.table_rows rows. */
void ui_state_scroll(struct app *app);
/* Selects round i / workload i of the current round; 0 or -1 when out of range. Changing
 * round keeps the workload when the new round has it, else says so in a message. */
int ui_state_set_round(struct app *app, size_t i);
int ui_state_set_workload(struct app *app, size_t i);
/* The digit key (1-9) of workload works[i], the same in every round; 0 when it has none. */
int ui_state_work_digit(const struct app *app, size_t i);
/* The workload of digit d (1-9) in the current round: its index in works, or -1 when the
 * round lacks it; *id (may be NULL) gets the digit's workload, NULL when no round has one. */
long ui_state_digit_work(const struct app *app, int d, const char **id);
/* Fills the family menu from the current round x workload and the filter (no limit). */
void ui_state_menu_open(struct app *app);
/* Makes the checked menu entries the family filter (a message when there are too many). */
void ui_state_menu_apply(struct app *app);
/* Fills the menu with the table's columns from the registry (every one this view can show but
 * the system, which always shows), checked when chosen; sets menu.cols. */
void ui_state_cols_open(struct app *app);
/* Makes the checked columns the chosen ones (app->cols_want); returns how many are chosen. */
size_t ui_state_cols_apply(struct app *app);
/* Shown position of the reference row / the break-even row; -1 when not shown. */
long ui_state_ref_pos(const struct app *app);
long ui_state_breakeven_pos(const struct app *app);
/* Sets the message (printf-style), shown for UI_MSG_MS, or until the next key when it is
 * longer than the message line (ui_state_msg_long). */
void ui_state_msg(struct app *app, bool is_err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* How many of the rows in view are carried over (arow_carried): listed, in no count. */
size_t ui_state_carried(const struct app *app);
/* Whether the message is wider than the message line of the layout: it is then drawn wrapped
 * over the lines above, whole, and stays until the next key. */
bool ui_state_msg_long(const struct app *app);
/* The message wrapped at blanks into lines of at most w display columns (a word wider than w
 * is split between characters), into lines[max][UI_LINE]; returns how many (at most max; the
 * message is whole when fewer than max are needed). */
size_t ui_state_msg_lines(const struct app *app, int w, char (*lines)[UI_LINE], size_t max);
/* The analysis row and the dataset row of shown row i. */
const struct arow *ui_state_arow(const struct app *app, size_t i);
const struct row *ui_state_row(const struct app *app, size_t i);
/* Whether shown row i's system id, system name or submitter contains text, ASCII case folded
 * (ascii_casestr). */
bool ui_state_matches(const struct app *app, size_t i, const char *text);
/* The name of shown row i as the table shows it: the system id, or SUBMITTER/SYSTEM when its
 * id is shared with a row of another submitter; returns the pooled id or buf. */
const char *ui_state_name(const struct app *app, size_t i, char *buf, size_t n);
/* Text of the family filter for the status bar ("all", "H100 SXM", "H100 SXM +2"). */
char *ui_state_filter_text(const struct app *app, char *buf, size_t n);
/* Whether reference rules x and y pick the same reference in every comparison group shown. */
bool ui_state_rules_agree(const struct app *app, enum ref_rule x, enum ref_rule y);
/* The next reference rule after app->p.ref_rule (slowest, median, fastest, wrapping) that
 * picks other references than the current one and than every rule passed on the way; the
 * current rule itself when every rule picks the same (one candidate per group). */
enum ref_rule ui_state_rule_next(const struct app *app);

/* ui_state_plot.c: the plot as state. */

/* Renders the plot of the shown rows for the current layout into app->pc.grid (grid_ok false
 * when it cannot). */
void ui_state_plot(struct app *app);
/* Fills app->pc.pts with the shown rows as points of the y metric (the selection marked); returns
 * their count (pts[j] is shown row j). */
size_t ui_state_plot_points(struct app *app);
/* Draws the intervals the frame lacks (the bars', the detail's row and range): in a key's
 * frame the selected row's alone, in a frame ui_state_work asked for one slice more; what is
 * left waits for ui_state_work. Call before ui_state_plot. */
void ui_state_fill(struct app *app);
/* Whether intervals are left to draw between keys. */
bool ui_state_busy(const struct app *app);
/* Work left while no key comes: UI_REDRAW when there is some (the next frame draws its next
 * slice), else 0. */
unsigned ui_state_work(struct app *app);
/* The explorer's plot settings (metric, theta, log y, Pareto marks) for a w x h plot. */
void ui_state_plot_spec(const struct app *app, int w, int h, struct plot_spec *s);
/* Shown row whose plot glyph is nearest grid cell (gy, gx), within 2 cells; -1 if none. */
long ui_state_plot_hit(struct app *app, int gy, int gx);

/* ui_state_text.c: the overlays' text and the fit's part of the status line. */

/* Lines of the detail overlay for the selected row into lines[max][UI_LINE], mark[i] (mark may
 * be NULL) true for the runs the olympic average dropped; returns the count. */
size_t ui_state_detail(const struct app *app, char (*lines)[UI_LINE], bool *mark, size_t max);
/* ui_state_detail wrapped to the widest overlay the screen holds: a line too long goes on
 * below, indented under its value, cut at a blank where one is near. Returns the count. */
size_t ui_state_detail_wrapped(const struct app *app, char (*lines)[UI_LINE], bool *mark, size_t max);
/* With the fit on, the predicted break-even for the status line into buf: ", H100 SXM fit N
 * 51.7" (brief: ", fit N 51.7"), ", fit - (why)" without one; "" with the fit off. The family is
 * the selected row's, else the first fitted. Returns buf. */
char *ui_state_fit_text(const struct app *app, bool brief, char *buf, size_t n);
/* The rows shown of the workload's ("5/29 rows"), with the row filter's text when one is set
 * ("5/29 rows ~ Dell"), into buf[n]; returns buf. */
char *ui_state_rows_text(const struct app *app, char *buf, size_t n);
/* Lines of the help overlay into lines[UI_HELP_LINES][UI_LINE]: the keys (from the key table),
 * then "what you see" (every mark, column heading and status field); head[i] (head may be
 * NULL) true for the section titles; returns the count. */
size_t ui_state_help(const struct app *app, char (*lines)[UI_LINE], bool *head);
/* The "what you see" lines of the help: {what, meaning} pairs, NULL-terminated. */
extern const char *const ui_state_legend[][2];

/* ui_text.c: data text on screen, by display width (utf8: the locale is UTF-8). */

/* Columns of the longest prefix of s that fits in w columns, whole characters only; its length
 * in bytes in *bytes (may be NULL). Unprintable bytes count one column (drawn as '?'). */
int ui_text_fit(const char *s, int w, bool utf8, size_t *bytes);
/* Display width of s. */
int ui_text_width(const char *s, bool utf8);
/* s itself when it fits in w columns, else its head and tail around one '~' (the tail gets
 * half the room), into buf (size n); returns buf. */
char *ui_text_cut(const char *s, int w, bool utf8, char *buf, size_t n);

/* ui_layout.c */

/* Computes app->lay for a rows x cols terminal (and app->zoom). */
void ui_layout_compute(struct app *app, int rows, int cols);
/* The box of an overlay with content_h lines of content_w columns, centred, clipped to the
 * screen (the border included). */
struct ui_rect ui_layout_overlay(const struct ui_layout *l, int content_h, int content_w);
/* Whether table column c (enum tcol) can show at all: the round only when the rows span rounds
 * (the cross-round view), energy and cost only when some row has a value. */
bool ui_layout_col_possible(const struct app *app, int c);
/* The table's columns for app's rows in `width` columns: on[] and w[] (TC_COUNT each), by
 * table_plan's screen policy over app->tv, the columns chosen and the sort column always
 * shown. Returns the width used. */
int ui_layout_table_plan(const struct app *app, int width, bool *on, int *w);
/* Whether the table of this layout shows the column that sorts on sort_col (enum col). */
bool ui_layout_col_shown(const struct app *app, int sort_col);
/* The table column (enum tcol) at screen column x, or -1. */
int ui_layout_col_at(const struct app *app, int x);
/* Which pane holds screen cell (y, x): 1 plot grid, 2 table data, 3 header, 4 table heading,
 * 0 other. */
int ui_layout_pane_at(const struct ui_layout *l, int y, int x);

/* ui_prompt.c: what is typed (the / search and | row filter prompt, the value prompt of = and
 * K, the family menu's type-ahead), matched under ascii_fold. */

/* Next (dir 1) or previous (dir -1) shown row matching text after `from` (wrapping, `from`
 * itself last); -1 when none or text is empty. */
long ui_prompt_find(const struct app *app, size_t from, int dir, const char *text);
/* How many shown rows match text; *ord (may be NULL) gets the selection's 1-based place among
 * them, 0 when it does not match. */
size_t ui_prompt_count(const struct app *app, const char *text, size_t *ord);
/* First menu entry at or after the cursor (wrapping) whose name starts with text, else the
 * first containing it; -1 when none. */
long ui_prompt_menu_find(const struct app *app, const char *text);
/* Parses text as theta (in GS_THETA_MIN..GS_THETA_MAX) and sets it; 0, or -1 with a message
 * saying what is allowed. */
int ui_prompt_theta(struct app *app, const char *text);
/* Parses text as k (1..MAX_K, or "auto" for 0) and sets it; 0, or -1 with a message. */
int ui_prompt_k(struct app *app, const char *text);
/* Key actions (UI_* flags): open the prompt in.arg (enum ui_prompt) names; type in.key into the
 * open prompt or the menu's type-ahead, or delete its last character; Enter and Esc on a
 * prompt; the next (in.arg 1) or previous (-1) match of the last search. */
unsigned ui_prompt_open(struct app *app, struct ui_press in);
unsigned ui_prompt_type(struct app *app, struct ui_press in);
unsigned ui_prompt_back(struct app *app, struct ui_press in);
unsigned ui_prompt_accept(struct app *app, struct ui_press in);
unsigned ui_prompt_cancel(struct app *app, struct ui_press in);
unsigned ui_prompt_next(struct app *app, struct ui_press in);

/* ui_keys.c */

/* Handles one key (a character, UI_FKEY(curses key code) or, with app->ptr_y/x set, a
 * UI_PTR_* pointer event) in the current context; returns UI_* flags. */
unsigned ui_keys_dispatch(struct app *app, int key);
/* Fills app->help from the key table. */
void ui_keys_help_build(struct app *app);
/* Section title of a context in the help overlay. */
const char *ui_keys_ctx_name(enum ui_ctx c);

/* ui_undo.c: undo of view changes (U), and the view as a command line (:). */

/* Copies app's view into *v (its own family list); false when out of memory. */
bool ui_undo_take(const struct app *app, struct ui_view *v);
/* Keeps *before as the newest undo level when app's view differs from it, else frees it. */
void ui_undo_note(struct app *app, struct ui_view *before);
/* Frees every undo level. */
void ui_undo_free(struct app *app);
/* Key actions: U goes back to the view before the last change (UI_RECOMPUTE), : shows the
 * command line of the view. */
unsigned ui_undo_act(struct app *app, struct ui_press in);
unsigned ui_undo_cmdline_act(struct app *app, struct ui_press in);
/* The gpuscale command line that shows app's view (cmdline_format), whole, however long (the
 * caller frees it); NULL when out of memory. */
char *ui_undo_cmdline(const struct app *app);
/* The command-line overlay's text: the line wrapped to the screen (cmdline_wrap: pasted, its
 * pieces run the view), a blank line and notes, however many lines, one a '\n'; *nlines gets
 * their count. The caller frees it; NULL when out of memory. */
char *ui_undo_cmdline_text(const struct app *app, size_t *nlines);
/* ui_plan.c: the planner (Q query prompt, W break-even trend), no terminal. */

struct ui_plan;
/* Parses the query prompt's text ("deadline 30 max-cost 500 minimize cost"; '=' and a leading
 * "--" allowed, short names t, cost, a, kwh, min) into q; 0, or -1 with why. */
int ui_plan_query_parse(const char *text, struct query *q, char *why, size_t n);
/* Enter on the query prompt: sets the query (an empty text clears it), selects the best row and
 * says the answer; a bad text keeps the prompt open with a message. Returns UI_* flags. */
unsigned ui_plan_query_accept(struct app *app);
/* The query set (Q), or NULL when none. */
const struct query *ui_plan_query(const struct app *app);
/* Sets the query to *q, or clears it (q NULL); 0, or -1 when out of memory. */
int ui_plan_query_set(struct app *app, const struct query *q);
/* The answer of the query set for the analysis shown (computed now, kept in app->plan until the
 * next call), or NULL when no query is set or out of memory. */
const struct q_result *ui_plan_answer(const struct app *app);
/* Whether shown row i is one of res's answers (its family's best row meeting the query); false
 * for a NULL res. */
bool ui_plan_marked(const struct app *app, const struct q_result *res, size_t i);
/* Grid cells (row * width + column) of the answer rows' points in the plot as drawn, at most
 * max into cells; returns how many. */
size_t ui_plan_plot_marks(const struct app *app, int *cells, size_t max);
/* W: opens the trend of the workload, the cursor on the current round and the selected row's
 * family; the moves (in.arg 1/-1 a family, 2/-2 a round, 3/-3 the rounds a screen shows, 4/-4
 * to the last / first round) move it through every round; Enter opens that round filtered to
 * that family. Return UI_* flags. */
unsigned ui_plan_trend_open(struct app *app, struct ui_press in);
unsigned ui_plan_trend_move(struct app *app, struct ui_press in);
unsigned ui_plan_trend_enter(struct app *app, struct ui_press in);
/* The trend overlay's title and lines, as many as the screen's overlay box holds: the heading
 * (the rounds that fit the screen around the cursor's, < and > where more are), a family a
 * line (those around the cursor's when they do not all fit, a line above and below saying how
 * many more), then, when some rounds are not shown, which are and where the current one is;
 * *hl_line, *hl_col, *hl_w: where the cursor's cell is (-1 none). Returns the count. */
char *ui_plan_trend_title(const struct app *app, char *buf, size_t n);
size_t ui_plan_trend_lines(const struct app *app, char (*lines)[UI_LINE], size_t max, int *hl_line,
			   int *hl_col, int *hl_w);
/* Frees app->plan. */
void ui_plan_free(struct app *app);

/* ui_export.c */

/* Writes the ranked table (CSV) and the plot (text) next to each other in app->export_dir or
 * the current directory, each through a temporary file renamed into place, never replacing an
 * existing file. Returns 0 with the CSV path in path, or -1 with err. */
int ui_export_write(struct app *app, char *path, size_t n, struct gs_err *err);

/* ui_draw.c (curses) */

/* Prepares colours for the terminal (call once after the screen exists). */
void ui_draw_init(void);
/* Draws the whole frame from state into stdscr (no refresh). */
void ui_draw(const struct app *app);
/* Brings app->msg.notice up to date with the view (no curses; ui_draw_frame calls it). */
void ui_draw_notice(struct app *app);
/* One frame: layout for the terminal's size, table scroll, plot, ui_draw, one refresh
 * (clear_all repaints the whole terminal); counts it in app->frames. */
void ui_draw_frame(struct app *app, bool clear_all);

#endif
