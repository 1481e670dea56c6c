/* ui_keys_impl.h: the key table's entry, which ui_keys.c (dispatch) and ui_keys_help.c (the
 * help overlay made from the table) share, and nothing else includes. */
#ifndef GS_UI_KEYS_IMPL_H
#define GS_UI_KEYS_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "ui_app.h"

typedef unsigned (*ui_action)(struct app *app, struct ui_press in);

struct ui_key {
	int key;
	ui_action fn;
	int arg;              /* handed to fn: a direction, a step, a prompt, a toggle */
	enum ui_ctx ctx;
	const char *help;
};

#define CTRL_KEY(c) ((c) & 0x1f)
#define K_ESC 27
#define K_ENTER '\n'
#define K_BACKSPACE 127

/* The key table, in its order (help lists it so); *n entries. */
const struct ui_key *ui_keys_all(size_t *n);

/* The entry a key (normalized: Enter, Backspace) runs in context ctx, that context's own
 * before anywhere's, printable keys of a prompt or menu as its text entry; NULL: none. */
const struct ui_key *ui_keys_lookup(int key, enum ui_ctx ctx);

/* The key's name as the help shows it ("Tab", "F10", "Ctrl-L", "q") into buf[n]; "" for a key
 * with no name (no entry of the table has one). */
void ui_keys_label(int key, char *buf, size_t n);

/* Whether entry k is the key that cycles the plot metric (its help names them). */
bool ui_keys_names_metrics(const struct ui_key *k);

#endif
