/* ui_prompt.c: what the user types. The / search and the | row filter share one incremental
 * prompt; = and K ask for a value (theta, k) that Enter applies; the family menu takes letters
 * as type-ahead. The key table (ui_keys.c) names the actions here; they match rows with
 * ui_state_matches (a substring of the system id, system name or submitter under the one ASCII
 * case-folding rule, the same in every locale). No curses here. */
#include "ui_app.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "fmt.h"
#include "text.h"

/* ---- text being typed ---- */

/* Appends the character key to buf (len bytes of size n) as UTF-8; false when it does not fit
 * or is not a character. */
static bool text_add(char *buf, size_t *len, size_t n, int key)
{
	char mb[MB_LEN_MAX];
	mbstate_t st;
	size_t l;

	memset(&st, 0, sizeof st);
	l = wcrtomb(mb, (wchar_t)key, &st);
	if (l == (size_t)-1 || *len + l >= n)
		return false;
	memcpy(buf + *len, mb, l);
	*len += l;
	buf[*len] = '\0';
	return true;
}

/* Drops one whole UTF-8 character: continuation bytes are 10xxxxxx. */
static void text_back(char *buf, size_t *len)
{
	while (*len > 0) {
		unsigned char c = (unsigned char)buf[--*len];
		if ((c & 0xc0) != 0x80)
			break;
	}
	buf[*len] = '\0';
}

/* ---- matching ---- */

long ui_prompt_find(const struct app *app, size_t from, int dir, const char *text)
{
	size_t n = app->nvis;

	/* an empty text would match everywhere: no text matches nothing */
	if (n == 0 || !text || !*text)
		return -1;
	for (size_t step = 1; step <= n; step++) {
		size_t i = dir > 0 ? (from + step) % n : (from + n - step % n) % n;
		if (ui_state_matches(app, i, text))
			return (long)i;
	}
	return -1;
}

size_t ui_prompt_count(const struct app *app, const char *text, size_t *ord)
{
	size_t c = 0;

	if (ord)
		*ord = 0;
	if (!text || !*text)
		return 0;
	for (size_t i = 0; i < app->nvis; i++)
		if (ui_state_matches(app, i, text)) {
			c++;
			if (ord && i == app->sel)
				*ord = c;
		}
	return c;
}

long ui_prompt_menu_find(const struct app *app, const char *text)
{
	size_t n = app->menu.nfam;

	if (n == 0 || !text || !*text)
		return -1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t step = 0; step < n; step++) {
			size_t i = (app->menu.fam_cur + step) % n;
			const char *name = app->menu.fam[i].name;
			if (pass == 0 ? ascii_ncasecmp(name, text, strlen(text)) == 0
				      : ascii_casestr(name, text) != NULL)
				return (long)i;
		}
	return -1;
}

/* ---- typed values ---- */

/* A whole number or decimal, nothing else around it (spaces aside). */
static int parse_num(const char *text, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	while (*end == ' ')
		end++;
	return end == text || *end || errno || !isfinite(*v) ? -1 : 0;
}

int ui_prompt_theta(struct app *app, const char *text)
{
	double t;
	char b1[32], b2[32];

	if (parse_num(text, &t) < 0 || !(t >= GS_THETA_MIN) || t > GS_THETA_MAX) {
		ui_state_msg(app, true, "theta: '%s' is not a number in %s..%s", text,
			     fmt_short(GS_THETA_MIN, b1, sizeof b1), fmt_short(GS_THETA_MAX, b2, sizeof b2));
		return -1;
	}
	app->p.theta = t;
	return 0;
}

int ui_prompt_k(struct app *app, const char *text)
{
	double k;

	while (*text == ' ')
		text++;
	if (ascii_casecmp(text, "auto") == 0) {
		app->p.k = 0;
		return 0;
	}
	if (parse_num(text, &k) < 0 || k != floor(k) || k < 1 || k > MAX_K) {
		ui_state_msg(app, true, "k: '%s' is not a whole number in 1..%d, or auto", text, MAX_K);
		return -1;
	}
	app->p.k = (int)k;
	return 0;
}

/* ---- the prompts' keys ---- */

/* "match 3/7 for "h100"": where the selection stands among the matches. */
static void match_msg(struct app *app, const char *text)
{
	size_t ord = 0, n = ui_prompt_count(app, text, &ord);

	if (n == 0)
		ui_state_msg(app, true, "no match for \"%s\"", text);
	else
		ui_state_msg(app, false, "match %zu/%zu for \"%s\": n next, N previous", ord, n, text);
}

static void search_clear(struct app *app)
{
	app->ed.search[0] = '\0';
	app->ed.search_len = 0;
}

/* / searches, | filters: one incremental prompt, started from the selection of the moment.
 * = and K open the value prompt, empty. */
unsigned ui_prompt_open(struct app *app, struct ui_press in)
{
	app->ed.prompt = (enum ui_prompt)in.arg;
	if (app->ed.prompt == PROMPT_THETA || app->ed.prompt == PROMPT_K || app->ed.prompt == PROMPT_QUERY) {
		app->menu.ov = OV_PROMPT;
		app->ed.input[0] = '\0';
		app->ed.input_len = 0;
		return UI_REDRAW;
	}
	app->menu.ov = OV_SEARCH;
	search_clear(app);
	app->ed.search_from = app->nvis ? app->sel_sys : NULL;
	app->ed.search_from_sub = app->nvis ? app->sel_sub : NULL;
	app->ed.search_from_at = app->nvis ? app->sel : 0;
	snprintf(app->ed.rowfilt_was, sizeof app->ed.rowfilt_was, "%s", app->rowfilt);
	if (app->ed.prompt == PROMPT_FILTER && app->rowfilt[0]) {
		/* the filter being edited starts from its text */
		snprintf(app->ed.search, sizeof app->ed.search, "%s", app->rowfilt);
		app->ed.search_len = strlen(app->ed.search);
	}
	return UI_REDRAW;
}

/* Incremental search: every edit searches again from the row selected when the prompt opened,
 * that row included, so typing narrows down instead of hopping. The row filter's prompt instead
 * filters the rows on every edit. */
static unsigned search_again(struct app *app)
{
	size_t from;
	long i;

	if (app->ed.prompt == PROMPT_FILTER) {
		ui_state_set_rowfilt(app, app->ed.search);
		if (app->ed.search_len && app->nvis == 0)
			ui_state_msg(app, true, "no row matches \"%s\"", app->ed.search);
		return UI_REDRAW;
	}
	if (app->nvis == 0)
		return UI_REDRAW;
	from = app->ed.search_from_at;
	if (from >= app->nvis || ui_state_row(app, from)->system != app->ed.search_from ||
	    ui_state_row(app, from)->submitter != app->ed.search_from_sub) {
		/* the view changed under the prompt: find that row again */
		from = 0;
		for (size_t j = 0; j < app->nvis; j++)
			if (ui_state_row(app, j)->system == app->ed.search_from &&
			    ui_state_row(app, j)->submitter == app->ed.search_from_sub)
				from = j;
	}
	if (!app->ed.search_len) {
		ui_state_select(app, (long)from);
		return UI_REDRAW;
	}
	i = ui_prompt_find(app, (from + app->nvis - 1) % app->nvis, 1, app->ed.search);
	/* no match: back where the search started, not on a match of a shorter text */
	ui_state_select(app, i >= 0 ? i : (long)from);
	match_msg(app, app->ed.search);
	return UI_REDRAW;
}

/* Type-ahead: the letters typed so far move the cursor to the first family starting with them
 * (or else containing them); a letter that matches nothing is not kept. */
static unsigned menu_type(struct app *app, int key)
{
	size_t len = strlen(app->menu.fam_find);
	long i;

	if (!text_add(app->menu.fam_find, &len, sizeof app->menu.fam_find, key))
		return UI_REDRAW;
	i = ui_prompt_menu_find(app, app->menu.fam_find);
	if (i < 0) {
		ui_state_msg(app, true, "no family matches \"%s\"", app->menu.fam_find);
		text_back(app->menu.fam_find, &len);
	} else {
		app->menu.fam_cur = (size_t)i;
	}
	return UI_REDRAW;
}

unsigned ui_prompt_type(struct app *app, struct ui_press in)
{
	if (app->menu.ov == OV_MENU)
		return menu_type(app, in.key);
	if (app->menu.ov == OV_PROMPT) {
		if (!text_add(app->ed.input, &app->ed.input_len, sizeof app->ed.input, in.key) &&
		    app->ed.input_len + MB_LEN_MAX >= sizeof app->ed.input)
			ui_state_msg(app, true, "the value is at its longest (%d bytes)", UI_SEARCH_MAX - 1);
		return UI_REDRAW;
	}
	if (!text_add(app->ed.search, &app->ed.search_len, sizeof app->ed.search, in.key)) {
		if (app->ed.search_len + MB_LEN_MAX >= sizeof app->ed.search)
			ui_state_msg(app, true, "the text is at its longest (%d bytes)", UI_SEARCH_MAX - 1);
		return UI_REDRAW;
	}
	return search_again(app);
}

unsigned ui_prompt_back(struct app *app, struct ui_press in)
{
	size_t len;

	(void)in;
	if (app->menu.ov == OV_MENU) {
		len = strlen(app->menu.fam_find);
		text_back(app->menu.fam_find, &len);
		return UI_REDRAW;
	}
	if (app->menu.ov == OV_PROMPT) {
		text_back(app->ed.input, &app->ed.input_len);
		return UI_REDRAW;
	}
	text_back(app->ed.search, &app->ed.search_len);
	return search_again(app);
}

/* A refused value leaves the prompt open and empty, the message saying why (and quoting it):
 * what is typed next is a new value, not the tail of the refused one. */
static unsigned value_refused(struct app *app)
{
	app->ed.input[0] = '\0';
	app->ed.input_len = 0;
	return UI_REDRAW;
}

/* Enter on a typed value: a bad one keeps the prompt open, with the message saying why. */
static unsigned value_accept(struct app *app)
{
	char b[32];

	if (app->ed.prompt == PROMPT_QUERY)
		return ui_plan_query_accept(app);
	if (app->ed.prompt == PROMPT_THETA) {
		if (ui_prompt_theta(app, app->ed.input) < 0)
			return value_refused(app);
		app->menu.ov = OV_NONE;
		ui_state_msg(app, false, "theta %s", fmt_short(app->p.theta, b, sizeof b));
		return UI_RECOMPUTE;
	}
	if (ui_prompt_k(app, app->ed.input) < 0)
		return value_refused(app);
	app->menu.ov = OV_NONE;
	if (app->p.k == 0)
		app->msg.note = NOTE_AUTOK;
	return UI_RECOMPUTE;
}

unsigned ui_prompt_accept(struct app *app, struct ui_press in)
{
	(void)in;
	if (app->menu.ov == OV_PROMPT)
		return value_accept(app);
	app->menu.ov = OV_NONE;
	if (app->ed.prompt == PROMPT_FILTER) {
		if (app->rowfilt[0])
			ui_state_msg(app, false, "row filter \"%s\": %zu of %zu rows; Esc clears it",
				     app->rowfilt, app->nvis, app->a.n);
		else
			ui_state_msg(app, false, "no row filter");
		search_clear(app);
		return UI_REDRAW;
	}
	if (app->ed.search_len)
		match_msg(app, app->ed.search);
	return UI_REDRAW;
}

unsigned ui_prompt_cancel(struct app *app, struct ui_press in)
{
	(void)in;
	if (app->menu.ov == OV_SEARCH) {
		search_clear(app);
		if (app->ed.prompt == PROMPT_FILTER)
			ui_state_set_rowfilt(app, app->ed.rowfilt_was);
		else
			search_again(app);
	}
	app->menu.ov = OV_NONE;
	return UI_REDRAW;
}

unsigned ui_prompt_next(struct app *app, struct ui_press in)
{
	long i;

	if (!app->ed.search_len) {
		ui_state_msg(app, true, "nothing to search: %s",
			     app->menu.ov == OV_SEARCH ? "type some text" : "press / first");
		return UI_REDRAW;
	}
	i = ui_prompt_find(app, app->sel, in.arg, app->ed.search);
	if (i >= 0)
		ui_state_select(app, i);
	match_msg(app, app->ed.search);
	return UI_REDRAW;
}
