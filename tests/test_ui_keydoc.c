/* test_ui_keydoc.c: the man page's KEYS section and the key table name the same keys. The
 * section lists the keys of the main screen (and those of anywhere, and the pointer's) as
 * ".It KEY , KEY" lines; the key table's help lines of those contexts, as the help overlay
 * labels them, must give exactly that set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui_app.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(man_keys_are_the_key_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
