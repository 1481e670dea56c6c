/* test_ui_keydoc.c: the man page's KEYS section and the key table name the same keys. The
 * section lists the keys of the main screen (and those of anywhere, and the pointer's) as
 * ".It KEY , KEY" lines; the key table's help lines of those contexts, as the help overlay
 * labels them, must give exactly that set. And the help says what each key does: every key
 * a help line names, read back from its name, runs an entry with that line's text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <curses.h>

#include "ui_app.h"
#include "../src/ui_keys_impl.h"

#define MAXK 256

struct keyset {
	char k[MAXK][24];
	size_t n;
};

static void add(struct keyset *s, const char *t, size_t len)
{
	while (len && *t == ' ')
		t++, len--;
	while (len && t[len - 1] == ' ')
		len--;
	if (!len)
		return;
	assert_true(len < sizeof s->k[0]);
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->k[i]) == len && memcmp(s->k[i], t, len) == 0)
			return;
	assert_true(s->n < MAXK);
	memcpy(s->k[s->n], t, len);
	s->k[s->n++][len] = '\0';
}

/* "a , b , c" or "a, b, c": each label once */
static void add_list(struct keyset *s, const char *list)
{
	const char *p = list;

	for (const char *c; (c = strchr(p, ',')) != NULL; p = c + 1)
		add(s, p, (size_t)(c - p));
	add(s, p, strlen(p));
}

static bool has(const struct keyset *s, const char *k)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->k[i], k) == 0)
			return true;
	return false;
}

static void man_keys(struct keyset *s)
{
	char line[1024];
	bool in = false;
	FILE *f = fopen(GS_SRCDATA "/../man/gpuscale.1", "r");

	if (!f)
		skip(); /* an installed tree without the man page source */
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, ".Sh ", 4) == 0)
			in = strcmp(line, ".Sh KEYS") == 0;
		else if (in && strncmp(line, ".It ", 4) == 0)
			add_list(s, line + 4);
	}
	fclose(f);
}

static void man_keys_are_the_key_table(void **state)
{
	static struct app app;
	static struct keyset man, table;

	(void)state;
	man_keys(&man);
	assert_true(man.n > 20);
	ui_keys_help_build(&app);
	for (size_t i = 0; i < app.scr.nhelp; i++) {
		enum ui_ctx c = app.scr.help[i].ctx;
		if (c == UI_CTX_ANY || c == UI_CTX_MAIN || c == UI_CTX_MOUSE)
			add_list(&table, app.scr.help[i].keys);
	}
	for (size_t i = 0; i < table.n; i++)
		if (!has(&man, table.k[i]))
			fail_msg("key '%s' of the key table is not in the man page's KEYS", table.k[i]);
	for (size_t i = 0; i < man.n; i++)
		if (!has(&table, man.k[i]))
			fail_msg("the man page's KEYS lists '%s', which the key table does not have", man.k[i]);
}

/* The key a help label names, by this test's own reading of the names a user sees (F10, Left,
 * Ctrl-L, q); -1 for a name no user could press (a raw code). */
static int key_of_label(const char *l)
{
	static const struct { const char *name; int key; } names[] = {
		{ "Tab", '\t' }, { "Enter", '\n' }, { "Esc", 27 }, { "Backspace", 127 }, { "Space", ' ' },
		{ "text", UI_KEY_TEXT }, { "Shift-Tab", UI_FKEY(KEY_BTAB) }, { "Up", UI_FKEY(KEY_UP) },
		{ "Down", UI_FKEY(KEY_DOWN) }, { "Left", UI_FKEY(KEY_LEFT) }, { "Right", UI_FKEY(KEY_RIGHT) },
		{ "PgUp", UI_FKEY(KEY_PPAGE) }, { "PgDn", UI_FKEY(KEY_NPAGE) }, { "Home", UI_FKEY(KEY_HOME) },
		{ "End", UI_FKEY(KEY_END) }, { "click", UI_PTR_CLICK }, { "wheel", UI_PTR_WHEEL_UP },
	};
	int f;
	char c;

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(l, names[i].name) == 0)
			return names[i].key;
	if (sscanf(l, "F%d%c", &f, &c) == 1 && f >= 1 && f <= 12)
		return UI_FKEY(KEY_F(f));
	if (strncmp(l, "Ctrl-", 5) == 0 && l[5] >= 'A' && l[5] <= 'Z' && !l[6])
		return l[5] - 'A' + 1;
	if (l[0] > ' ' && l[0] < 127 && !l[1])
		return l[0];
	return -1;
}

/* The labels of a help line's keys ("?, F1", "1-9", "s, >, F6") into s. */
static void labels_of(struct keyset *s, const char *keys)
{
	char lo, hi;

	if (sscanf(keys, "%c-%c", &lo, &hi) == 2 && lo >= '0' && lo <= '9' && hi > lo && hi <= '9' &&
	    strlen(keys) == 3) {
		for (char c = lo; c <= hi; c++)
			add(s, &c, 1);
		return;
	}
	add_list(s, keys);
}

static void help_lines_are_the_key_table(void **state)
{
	static struct app app;
	size_t nkeys;
	const struct ui_key *all = ui_keys_all(&nkeys);

	(void)state;
	ui_keys_help_build(&app);
	assert_true(app.scr.nhelp > 40);
	for (size_t i = 0; i < app.scr.nhelp; i++) {
		const struct ui_help_line *h = &app.scr.help[i];
		static struct keyset labels;
		labels.n = 0;
		labels_of(&labels, h->keys);
		assert_true(labels.n > 0);
		for (size_t j = 0; j < labels.n; j++) {
			int key = key_of_label(labels.k[j]);
			const struct ui_key *k = NULL;
			if (key < 0)
				fail_msg("help line '%s  %s': '%s' names no key a user can press", h->keys, h->help,
					 labels.k[j]);
			if (h->ctx == UI_CTX_MOUSE) {
				/* the pointer's lines stand for entries of several contexts: one of them */
				for (size_t e = 0; e < nkeys && !k; e++)
					if ((all[e].key == key || (key == UI_PTR_WHEEL_UP && all[e].key == UI_PTR_WHEEL_DOWN)) &&
					    strcmp(all[e].help, h->help) == 0)
						k = &all[e];
			} else {
				/* what dispatch runs for that key in that context */
				k = ui_keys_lookup(key, h->ctx == UI_CTX_ANY ? UI_CTX_MAIN : h->ctx);
			}
			if (!k)
				fail_msg("help line '%s  %s' (%s): key '%s' runs nothing", h->keys, h->help,
					 ui_keys_ctx_name(h->ctx), labels.k[j]);
			if (ui_keys_names_metrics(k) ? strncmp(h->help, k->help, strlen(k->help)) != 0
						     : strcmp(h->help, k->help) != 0)
				fail_msg("help line '%s  %s' (%s): key '%s' runs the entry '%s'", h->keys, h->help,
					 ui_keys_ctx_name(h->ctx), labels.k[j], k->help);
		}
	}
	/* and every entry of the table is on some line of its section, by its name */
	for (size_t e = 0; e < nkeys; e++) {
		char name[32];
		bool found = false;
		ui_keys_label(all[e].key, name, sizeof name);
		for (size_t i = 0; i < app.scr.nhelp && !found; i++) {
			static struct keyset labels;
			labels.n = 0;
			labels_of(&labels, app.scr.help[i].keys);
			found = has(&labels, name) && (UI_IS_PTR(all[e].key) ? app.scr.help[i].ctx == UI_CTX_MOUSE
									    : app.scr.help[i].ctx == all[e].ctx);
		}
		if (!found)
			fail_msg("key table entry '%s' (%s) is on no help line", name, all[e].help);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(man_keys_are_the_key_table),
		cmocka_unit_test(help_lines_are_the_key_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
