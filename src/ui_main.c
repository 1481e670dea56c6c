/* ui_main.c: the terminal and the event loop. One place starts curses and one place ends it
 * (ui_shutdown), on every path: q, Ctrl-C, SIGTERM/SIGHUP, and errors. Signal handlers only
 * set a flag; the loop notices it within one input timeout and leaves normally. Each turn of
 * the loop handles one input event, recomputes only what the event's flags ask for, and draws
 * one frame (erase, draw from state, one refresh: no flicker over slow links). */
#define _XOPEN_SOURCE_EXTENDED 1
#include "ui_app.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "err.h"

static volatile sig_atomic_t got_signal;
static bool curses_on;
static SCREEN *screen;
static struct sigaction old_int, old_term, old_hup;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* Installed before curses starts, so that ncurses leaves SIGINT and SIGTERM to us instead of
 * putting its own exit-from-the-handler in place. */
static void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a pending read returns at once and the loop sees the flag */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
}

static void signals_restore(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
}

static void ui_shutdown(void)
{
	if (!curses_on)
		return;
	curses_on = false;
	mousemask(0, NULL);
	curs_set(1);
	endwin();
	delscreen(screen);
	screen = NULL;
}

/* A path we did not foresee (exit() deep in a library) still gets the terminal back. */
static void at_exit(void)
{
	ui_shutdown();
}

/* Ctrl-S would otherwise freeze all output until Ctrl-Q (XON/XOFF): nobody browsing a table
 * means that. Recorded as the program mode, so that endwin gives the shell its own back. */
static void flow_control_off(void)
{
	struct termios t;

	if (tcgetattr(STDIN_FILENO, &t) == 0) {
		t.c_iflag &= ~(tcflag_t)IXON;
		tcsetattr(STDIN_FILENO, TCSANOW, &t);
		def_prog_mode();
	}
}

static int ui_startup(struct gs_err *err)
{
	static bool registered;
	const char *term = getenv("TERM");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		err_set(err, NULL, 0, 0, "the explorer needs a terminal; use --print for reports");
		return -1;
	}
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		err_set(err, NULL, 0, 0, "cannot use terminal type '%s'; use --print for reports",
			term ? term : "(unset)");
		return -1;
	}
	/* a terminal that cannot move the cursor (TERM=dumb) would get a scrolling mess */
	{
		char *cup = tigetstr("cup");
		if (cup == NULL || cup == (char *)-1) {
			endwin();
			delscreen(screen);
			screen = NULL;
			err_set(err, NULL, 0, 0, "terminal type '%s' cannot move the cursor: the explorer "
				"needs a full-screen terminal; use --print for reports", term ? term : "(unset)");
			return -1;
		}
	}
	curses_on = true;
	if (!registered) {
		atexit(at_exit);
		registered = true;
	}
	set_escdelay(25);
	cbreak();
	flow_control_off();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	/* wake up now and then even without input, to notice a signal */
	timeout(250);
	mouseinterval(0);
	ui_draw_init();
	return 0;
}

static void mouse_apply(const struct app *app, bool *on)
{
	if (app->mouse == *on)
		return;
	*on = app->mouse;
	mousemask(*on ? (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
			 | BUTTON5_PRESSED
#endif
			 ) : 0, NULL);
}

/* A mouse event as a pointer code for the key table, which decides what it does; the
 * pointer's cell goes to app->ptr_y/x. 0 when the event means nothing here (other buttons,
 * releases) or the screen is only the "too small" notice. */
static int mouse_code(struct app *app)
{
	MEVENT ev;

	if (getmouse(&ev) != OK || app->lay.too_small)
		return 0;
	app->ptr_y = ev.y;
	app->ptr_x = ev.x;
	if (ev.bstate & BUTTON4_PRESSED)
		return UI_PTR_WHEEL_UP;
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED)
		return UI_PTR_WHEEL_DOWN;
#endif
	if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		return UI_PTR_CLICK;
	return 0;
}

static int event_loop(struct app *app, struct gs_err *err)
{
	unsigned flags = UI_REDRAW;
	bool mouse_on = false;

	mouse_apply(app, &mouse_on);
	for (;;) {
		wint_t ch;
		int rc, key;

		if (got_signal)
			break;
		if (flags & UI_QUIT)
			return 0;
		ui_state_apply(app, flags);
		mouse_apply(app, &mouse_on);
		if (flags)
			ui_draw_frame(app, flags & UI_CLEAR);
		flags = 0;

		rc = get_wch(&ch);
		if (rc == ERR)
			continue;
		if (rc == KEY_CODE_YES) {
			if (ch == KEY_RESIZE) {
				flags = UI_REDRAW;
				continue;
			}
			if (ch == KEY_MOUSE) {
				key = mouse_code(app);
				flags = key ? ui_keys_dispatch(app, key) : 0;
				continue;
			}
			key = UI_FKEY((int)ch);
		} else {
			key = (int)ch;
		}
		flags = ui_keys_dispatch(app, key);
	}
	/* SIGINT is the user's Ctrl-C: a normal quit. Others end the session as an error. */
	if (got_signal == SIGINT)
		return 0;
	err_set(err, NULL, 0, 0, "terminated by signal %d", (int)got_signal);
	return 1;
}

int ui_run(struct dataset *ds, struct params *p, const struct ui_opts *o, struct gs_err *err)
{
	struct app *app;
	int rc;

	/* the terminal wants the user's character set; numbers stay in the C locale so that the
	 * screen and the exported CSV read the same everywhere */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	app = calloc(1, sizeof *app);
	if (!app) {
		err_set(err, NULL, 0, 0, "out of memory");
		return 1;
	}
	ui_state_init(app, ds, p, o);
	{
		const char *cs = nl_langinfo(CODESET);
		app->utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
	}
	ui_keys_help_build(app);
	if (ui_state_recompute(app, err) < 0) {
		ui_state_free(app);
		free(app);
		return 1;
	}
	got_signal = 0;
	signals_install();
	if (ui_startup(err) < 0) {
		/* the terminal cannot run the explorer: a usage error, --print is the way */
		signals_restore();
		ui_state_free(app);
		free(app);
		return 2;
	}
	rc = event_loop(app, err);
	ui_shutdown();
	signals_restore();
	*p = app->p;
	ui_state_free(app);
	free(app);
	return rc;
}
