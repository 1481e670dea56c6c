/* ui_prompt.c: what the user types. The / search and the | row filter share one incremental
 * prompt; = and K ask for a value (theta, k) that Enter applies; the family menu takes letters
 * as type-ahead. The key table (ui_keys.c) names the actions here; the matching they use is
 * here too: a substring of the system id, system name or submitter under the one ASCII
 * case-folding rule (ascii_fold), the same in every locale. No curses here. */
#include "ui_app.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
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

static bool contains_folded(const char *s, const char *t)
{
	return ascii_casestr(s, t) != NULL;
}

bool ui_prompt_matches(const struct app *app, size_t i, const char *text)
{
	const struct row *r = ui_state_row(app, i);

	return contains_folded(r->system, text) || contains_folded(r->system_name, text) ||
	       contains_folded(r->submitter, text);
}

static void names_drop(struct ui_editor *e)
{
	free(e->names);
	free(e->names_at);
	free(e->names_has);
	free(e->names_hit);
	e->names = NULL;
	e->names_at = NULL;
	e->names_has = NULL;
	e->names_hit = NULL;
	e->names_rows = 0;
	e->names_ok = false;
}

void ui_prompt_free(struct app *app)
{
	free(app->ed.hits);
	app->ed.hits = NULL;
	app->ed.hits_cap = app->ed.nhits = 0;
	app->ed.hits_ok = false;
	names_drop(&app->ed);
}

/* The bit of names_has that folded byte b sets: a bit of its own for each of a-z and 0-9 (a
 * search's first letter mostly), one bit shared by every other byte (which is then looked
 * for in the names). */
enum { BIT_SHARED = 36 };
static unsigned name_bit(unsigned char b)
{
	return b >= 'a' && b <= 'z' ? (unsigned)(b - 'a') : b >= '0' && b <= '9' ? 26u + (unsigned)(b - '0') : (unsigned)BIT_SHARED;
}

/* app->ed.names: the names of every loaded row, folded, in row order. false when out of
 * memory. */
bool ui_prompt_prepare(struct app *app)
{
	struct ui_editor *e = &app->ed;
	size_t n = app->ds->n, len = 0;

	if (e->names && e->names_rows == n)
		return true;
	names_drop(e);
	for (size_t r = 0; r < n; r++) {
		const struct row *w = &app->ds->rows[r];
		len += strlen(w->system) + strlen(w->system_name) + strlen(w->submitter) + 3;
	}
	e->names = malloc(len ? len : 1);
	e->names_at = malloc((n + 1) * sizeof *e->names_at);
	e->names_has = malloc((n ? n : 1) * sizeof *e->names_has);
	e->names_hit = malloc(n ? n : 1);
	if (!e->names || !e->names_at || !e->names_has || !e->names_hit) {
		names_drop(e);
		return false;
	}
	len = 0;
	memset(e->names_freq, 0, sizeof e->names_freq);
	for (size_t r = 0; r < n; r++) {
		const struct row *w = &app->ds->rows[r];
		const char *f[3] = { w->system, w->system_name, w->submitter };
		uint64_t has = 0;
		e->names_at[r] = len;
		for (int k = 0; k < 3; k++) {
			for (const char *c = f[k]; *c; c++) {
				unsigned char b = (unsigned char)ascii_fold((unsigned char)*c);
				e->names[len++] = (char)b;
				e->names_freq[b]++;
				has |= UINT64_C(1) << name_bit(b);
			}
			e->names[len++] = '\0';
		}
		e->names_has[r] = has;
	}
	e->names_at[n] = len;
	e->names_rows = n;
	return true;
}

/* The needle is folded too and holds no NUL, so a match never runs from one name into the
 * next: a byte compare in the folded names is ascii_casestr in each name. The scan stops at
 * the needle's rarest byte (j), each row is marked at its first match and the scan goes on at
 * the next row: every match starting at or after lo has that byte at or after lo + j. */
const unsigned char *ui_prompt_hits(struct app *app, const char *text)
{
	struct ui_editor *e = &app->ed;
	char t[UI_SEARCH_MAX];
	size_t tl = 0, r = 0, j = 0;

	if (!ui_prompt_prepare(app))
		return NULL;
	if (e->names_ok && strcmp(e->names_text, text) == 0)
		return e->names_hit;
	while (text[tl] && tl + 1 < sizeof t) {
		t[tl] = (char)ascii_fold((unsigned char)text[tl]);
		tl++;
	}
	t[tl] = '\0';
	for (size_t i = 1; i < tl; i++)
		if (e->names_freq[(unsigned char)t[i]] < e->names_freq[(unsigned char)t[j]])
			j = i;
	if (tl == 1 && name_bit((unsigned char)t[0]) != BIT_SHARED) {
		/* one letter or digit: whether the row has it at all (at 10^5 rows a digit in most
		 * names took 1.7 ms of memchr calls, one a row; this takes 0.1) */
		unsigned bit = name_bit((unsigned char)t[0]);
		for (size_t i = 0; i < e->names_rows; i++)
			e->names_hit[i] = (unsigned char)(e->names_has[i] >> bit & 1);
		goto done;
	}
	memset(e->names_hit, 0, e->names_rows);
	/* offsets, not pointers: the next place to look may lie past the end */
	const char *base = e->names, *q;
	size_t end = e->names_at[e->names_rows], from = j;
	while (tl && from < end && (q = memchr(base + from, t[j], end - from)) != NULL) {
		size_t at = (size_t)(q - base) - j; /* >= the start of the first row not yet marked */
		if (end - at >= tl && memcmp(base + at, t, tl) == 0) {
			while (e->names_at[r + 1] <= at)
				r++;
			e->names_hit[r] = 1;
			from = e->names_at[r + 1] + j;
		} else {
			from = (size_t)(q - base) + 1;
		}
	}
done:
	snprintf(e->names_text, sizeof e->names_text, "%s", text);
	e->names_ok = true;
	return e->names_hit;
}

long ui_prompt_find(const struct app *app, size_t from, int dir, const char *text)
{
	size_t n = app->nvis;

	/* an empty text would match everywhere: no text matches nothing */
	if (n == 0 || !text || !*text)
		return -1;
	for (size_t step = 1; step <= n; step++) {
		size_t i = dir > 0 ? (from + step) % n : (from + n - step % n) % n;
		if (ui_prompt_matches(app, i, text))
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
		if (ui_prompt_matches(app, i, text)) {
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
				      : contains_folded(name, text))
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

/* app->ed.hits made the matches of text (non-empty) in the current view: a text that extends
 * the one kept narrows its list (a letter typed tests the rows that matched so far, not every
 * row); anything else, or a new view, scans the view. At 10^5 rows a letter that narrows
 * went from 124-143 to 3 ms, n, N, the arrows and Enter from 64-138 to 0.2 ms; reading the
 * names from the folded copy (ui_prompt_hits) instead of three pointers a row took the first
 * letter from 15-27 to 1.2-1.5 ms. false when out of memory. ui_prompt_find and
 * ui_prompt_count are the plain scans they must agree with (tests/test_ui_state.c). */
static bool hits_update(struct app *app, const char *text)
{
	struct ui_editor *e = &app->ed;
	size_t tl = strlen(text), n = 0;

	if (e->hits_ok && e->hits_gen == app->pc.gen && strcmp(e->hits_text, text) == 0)
		return true;
	bool narrow = e->hits_ok && e->hits_gen == app->pc.gen && e->hits_text[0] &&
		      strncmp(e->hits_text, text, strlen(e->hits_text)) == 0;
	if (!narrow) {
		if (e->hits_cap < app->nvis) {
			size_t *h = realloc(e->hits, (app->nvis ? app->nvis : 1) * sizeof *h);
			if (!h) {
				e->hits_ok = false;
				return false;
			}
			e->hits = h;
			e->hits_cap = app->nvis;
		}
		const unsigned char *hit = ui_prompt_hits(app, text);
		for (size_t i = 0; i < app->nvis; i++)
			if (hit ? hit[app->ids[app->vis[i]]] : ui_prompt_matches(app, i, text))
				e->hits[n++] = i;
	} else {
		/* a long list is narrowed from one scan of the folded names, a short one row by row:
		 * a row's three names cost about ten times a row of the scan (scattered reads) */
		const unsigned char *hit = e->nhits * 8 >= app->ds->n ? ui_prompt_hits(app, text) : NULL;
		for (size_t j = 0; j < e->nhits; j++)
			if (hit ? hit[app->ids[app->vis[e->hits[j]]]]
				: ui_prompt_matches(app, e->hits[j], text))
				e->hits[n++] = e->hits[j];
	}
	e->nhits = n;
	memcpy(e->hits_text, text, tl + 1 < sizeof e->hits_text ? tl + 1 : sizeof e->hits_text);
	e->hits_text[sizeof e->hits_text - 1] = '\0';
	e->hits_gen = app->pc.gen;
	e->hits_ok = true;
	return true;
}

/* The first match at or after view position from, going round (dir > 0), or the last before
 * it (dir < 0), from the kept list; -1 when none. */
static long hits_find(const struct app *app, size_t from, int dir)
{
	const struct ui_editor *e = &app->ed;
	size_t lo = 0, hi = e->nhits;

	if (e->nhits == 0)
		return -1;
	while (lo < hi) { /* the first hit >= from */
		size_t mid = lo + (hi - lo) / 2;
		if (e->hits[mid] < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (dir > 0)
		return (long)e->hits[lo < e->nhits ? lo : 0];
	return (long)e->hits[lo > 0 ? lo - 1 : e->nhits - 1];
}

/* ui_prompt_find from the kept list when it can be made. */
static long find_match(struct app *app, size_t from, int dir, const char *text)
{
	if (app->nvis == 0 || !text || !*text)
		return -1;
	if (!hits_update(app, text))
		return ui_prompt_find(app, from, dir, text);
	/* ui_prompt_find starts after from (dir > 0) or before it (dir < 0) */
	return hits_find(app, dir > 0 ? (from + 1) % app->nvis : from, dir);
}

/* "match 3/7 for "h100"": where the selection stands among the matches. */
static void match_msg(struct app *app, const char *text)
{
	size_t ord = 0, n;

	if (text && *text && app->nvis && hits_update(app, text)) {
		size_t lo = 0, hi = n = app->ed.nhits;
		while (lo < hi) { /* the selection's place among the matches, if it is one */
			size_t mid = lo + (hi - lo) / 2;
			if (app->ed.hits[mid] < app->sel)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && app->ed.hits[lo] == app->sel)
			ord = lo + 1;
	} else {
		n = ui_prompt_count(app, text, &ord);
	}

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
	i = find_match(app, (from + app->nvis - 1) % app->nvis, 1, app->ed.search);
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
		return ui_state_theta_changed(app);
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
	i = find_match(app, app->sel, in.arg, app->ed.search);
	if (i >= 0)
		ui_state_select(app, i);
	match_msg(app, app->ed.search);
	return UI_REDRAW;
}
