/* ui_keys_help.c: the help overlay's lines, made from the one key table (ui_keys.c) in its
 * order: keys of one action and text on one line, 1-9 as a range, the pointer's entries in a
 * section of their own. */
#include "ui_keys_impl.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "metric_reg.h"

/* A key the table has no name for (only an unbound key's message shows it): curses' name
 * without its KEY_ prefix (IC, DC, SLEFT), else "" (no name to give). */
static void fkey_name(int key, char *buf, size_t n)
{
	const char *s = key > UI_FKEY(0) && key < UI_KEY_TEXT ? keyname(key & ~UI_FKEY(0)) : NULL;

	snprintf(buf, n, "%s", s && strncmp(s, "KEY_", 4) == 0 ? s + 4 : "");
}

void ui_keys_label(int key, char *buf, size_t n)
{
	static const struct { int key; const char *name; } names[] = {
		{ .key = '\t', .name = "Tab" },
		{ .key = K_ENTER, .name = "Enter" },
		{ .key = K_ESC, .name = "Esc" },
		{ .key = K_BACKSPACE, .name = "Backspace" },
		{ .key = ' ', .name = "Space" },
		{ .key = UI_KEY_TEXT, .name = "text" },
		{ .key = UI_FKEY(KEY_BTAB), .name = "Shift-Tab" },
		{ .key = UI_FKEY(KEY_UP), .name = "Up" },
		{ .key = UI_FKEY(KEY_DOWN), .name = "Down" },
		{ .key = UI_FKEY(KEY_LEFT), .name = "Left" },
		{ .key = UI_FKEY(KEY_RIGHT), .name = "Right" },
		{ .key = UI_FKEY(KEY_PPAGE), .name = "PgUp" },
		{ .key = UI_FKEY(KEY_NPAGE), .name = "PgDn" },
		{ .key = UI_FKEY(KEY_HOME), .name = "Home" },
		{ .key = UI_FKEY(KEY_END), .name = "End" },
		{ .key = UI_PTR_CLICK, .name = "click" },
		{ .key = UI_PTR_WHEEL_UP, .name = "wheel" },
		{ .key = UI_PTR_WHEEL_DOWN, .name = "wheel" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].key == key) {
			snprintf(buf, n, "%s", names[i].name);
			return;
		}
	if (key >= UI_FKEY(KEY_F(1)) && key <= UI_FKEY(KEY_F(63)))
		snprintf(buf, n, "F%d", key - UI_FKEY(KEY_F(0)));
	else if (key >= 1 && key <= 26)
		snprintf(buf, n, "Ctrl-%c", 'A' + key - 1);
	else if (key > ' ' && key < 127)
		snprintf(buf, n, "%c", key);
	else if (key > 127 && key < UI_FKEY(0))
		snprintf(buf, n, "%lc", (wint_t)key);
	else
		fkey_name(key, buf, n);
}

/* The help section of an entry: the pointer's entries together, as the mouse can be off. */
static enum ui_ctx help_ctx(const struct ui_key *k)
{
	return UI_IS_PTR(k->key) ? UI_CTX_MOUSE : k->ctx;
}

/* y's help names the metrics it cycles through, in the registry's order, on one line of the
 * help page. */
static const char *metric_help(void)
{
	static char help[160];
	char list[128];

	if (!help[0])
		snprintf(help, sizeof help, "cycle plot metric %s", reg_metric_list(" ", true, list, sizeof list));
	return help;
}

void ui_keys_help_build(struct app *app)
{
	struct ui_help_line *h = NULL;

	size_t nkeys;
	const struct ui_key *key_table = ui_keys_all(&nkeys);

	app->scr.nhelp = 0;
	for (size_t i = 0; i < nkeys; i++) {
		const struct ui_key *k = &key_table[i];
		const struct ui_key *prev = i ? &key_table[i - 1] : NULL;
		enum ui_ctx ctx = help_ctx(k);
		char name[24], prev_name[24];
		size_t len;

		ui_keys_label(k->key, name, sizeof name);
		if (h && prev && help_ctx(prev) == ctx && prev->fn == k->fn &&
		    strcmp(prev->help, k->help) == 0) {
			ui_keys_label(prev->key, prev_name, sizeof prev_name);
			if (strcmp(prev_name, name) == 0)
				continue; /* wheel up and down, a click in two overlays: one name */
			/* 1, 2, ... 9 read as one range */
			if (k->key >= '2' && k->key <= '9' && prev->key == k->key - 1) {
				len = strlen(h->keys);
				if (len >= 2 && h->keys[len - 2] == '-')
					h->keys[len - 1] = (char)k->key;
				else
					snprintf(h->keys + len, sizeof h->keys - len, "-%c", k->key);
				continue;
			}
			snprintf(h->keys + strlen(h->keys), sizeof h->keys - strlen(h->keys), ", %s", name);
			continue;
		}
		if (app->scr.nhelp == UI_MAX_HELP)
			break;
		h = &app->scr.help[app->scr.nhelp++];
		snprintf(h->keys, sizeof h->keys, "%s", name);
		h->help = ui_keys_names_metrics(k) ? metric_help() : k->help;
		h->ctx = ctx;
	}
}

const char *ui_keys_ctx_name(enum ui_ctx c)
{
	static const char *const names[UI_CTX_COUNT] = {
		"anywhere", "main screen", "help", "family filter menu", "detail",
		"search (/) and row filter (|) prompt", "value prompt (= theta, K k, Q query)",
		"break-even trend (W)",
		"mouse (M turns it on/off; off by default over SSH)"
	};
	return c < UI_CTX_COUNT ? names[c] : "";
}
