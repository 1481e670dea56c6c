/* ui_main.c: the terminal and the event loop. One place starts curses and one place ends it
 * (ui_shutdown), on every path: q, errors, and every signal whose default action ends the
 * process. Those signals only set a flag; the loop notices it at once (reads are not restarted),
 * leaves, restores the terminal and then ends the process by the same signal with its default
 * action, so the shell sees what it would have seen. Faults (SIGSEGV and the like) cannot get
 * back to the loop: their handler writes the terminal's restore sequence and the saved modes
 * (both async-signal-safe: write and tcsetattr) and hands the signal on. Nothing draws from a
 * handler. Each turn of the loop handles one input event, recomputes only what the event's
 * flags ask for, and draws one frame (erase, draw from state, one refresh: no flicker over slow
 * links). A terminal that goes away (end of file or an error on reads) ends the loop too. */
#define _XOPEN_SOURCE_EXTENDED 1
#include "ui_app.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "err.h"

static volatile sig_atomic_t got_signal;
static bool curses_on;
static SCREEN *screen;

/* Signals whose default action ends the process, in two kinds. Those the loop can wait for: */
static const int end_sigs[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ,
	SIGVTALRM, SIGPROF, SIGIO,
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
/* and faults, after which the program cannot go on: */
static const int fault_sigs[] = { SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS };

#define NSIGS 65 /* signal numbers are below this on Linux, the real-time ones included */
static struct sigaction old_act[NSIGS];
static bool caught[NSIGS];

/* What the fault handler writes: the terminal's own strings for leaving the alternate screen,
 * showing the cursor, keypad off, attributes off, plus every mouse mode off; and the modes the
 * shell had. Filled while curses starts. */
static char restore_seq[256];
static size_t restore_len;
static struct termios shell_modes;
static bool have_shell_modes;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_fault(int sig)
{
	if (curses_on) {
		ssize_t w = write(STDOUT_FILENO, restore_seq, restore_len);
		(void)w;
		if (have_shell_modes)
			tcsetattr(STDIN_FILENO, TCSANOW, &shell_modes);
	}
	/* the old action (the default, or a sanitizer's report) takes it from here: the raised
	 * signal is delivered when this handler returns, and a real fault recurs anyway */
	if (sig > 0 && sig < NSIGS)
		sigaction(sig, &old_act[sig], NULL);
	raise(sig);
}

static void catch(int sig, void (*fn)(int))
{
	struct sigaction sa;

	if (sig <= 0 || sig >= NSIGS || sigaction(sig, NULL, &old_act[sig]) < 0)
		return;
	/* a signal the user ignores (nohup, a background job) stays ignored */
	if (old_act[sig].sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a pending read returns at once and the loop sees the flag */
	if (sigaction(sig, &sa, NULL) == 0)
		caught[sig] = true;
}

/* Installed before curses starts, so that ncurses leaves SIGINT and SIGTERM to us instead of
 * putting its own exit-from-the-handler in place. */
static void signals_install(void)
{
	for (size_t i = 0; i < sizeof end_sigs / sizeof end_sigs[0]; i++)
		catch(end_sigs[i], on_signal);
	for (int s = SIGRTMIN; s <= SIGRTMAX && s < NSIGS; s++)
		catch(s, on_signal);
	for (size_t i = 0; i < sizeof fault_sigs / sizeof fault_sigs[0]; i++)
		catch(fault_sigs[i], on_fault);
}

static void signals_restore(void)
{
	for (int s = 1; s < NSIGS; s++)
		if (caught[s]) {
			sigaction(s, &old_act[s], NULL);
			caught[s] = false;
		}
}

/* After the terminal is restored: the process ends as the signal would have ended it. */
static void signal_reraise(int sig)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

static void seq_add(const char *s)
{
	size_t len;

	if (!s || s == (char *)-1)
		return;
	len = strlen(s);
	if (restore_len + len < sizeof restore_seq) {
		memcpy(restore_seq + restore_len, s, len);
		restore_len += len;
	}
}

/* The restore sequence of the fault handler, from the terminal's description. */
static void restore_seq_build(void)
{
	restore_len = 0;
	/* X10, button, any-motion, UTF-8, SGR and urxvt mouse reports off: terminals ignore the
	 * private modes they do not know */
	seq_add("\033[?1000l\033[?1002l\033[?1003l\033[?1005l\033[?1006l\033[?1015l");
	seq_add(tigetstr("sgr0"));
	seq_add(tigetstr("cnorm"));
	seq_add(tigetstr("rmkx"));
	seq_add(tigetstr("rmcup"));
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


/* Home and End as the terminals that TERM does not describe send them (a TERM of xterm under
 * tmux or screen, the Linux console, rxvt): an unknown sequence would otherwise read as Esc,
 * which closes what is open, followed by stray keys. */
static void define_keys(void)
{
	static const struct { const char *seq; int key; } extra[] = {
		{ "\033[1~", KEY_HOME }, { "\033[4~", KEY_END }, { "\033[7~", KEY_HOME }, { "\033[8~", KEY_END },
		{ "\033[H", KEY_HOME }, { "\033[F", KEY_END }, { "\033OH", KEY_HOME }, { "\033OF", KEY_END },
	};

	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		if (key_defined(extra[i].seq) == 0)
			define_key(extra[i].seq, extra[i].key);
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
	have_shell_modes = tcgetattr(STDIN_FILENO, &shell_modes) == 0;
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
	restore_seq_build();
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
	define_keys();
	curs_set(0);
	/* wake up now and then even without input, to notice a signal */
	timeout(250);
	mouseinterval(0);
	ui_draw_init();
	return 0;
}

static void mouse_apply(const struct app *app, bool *on)
{
	if (app->scr.mouse == *on)
		return;
	*on = app->scr.mouse;
	mousemask(*on ? (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
			 | BUTTON5_PRESSED
#endif
			 ) : 0, NULL);
}

/* A mouse event as a pointer code for the key table, which decides what it does; the
 * pointer's cell goes to app->scr.ptr_y/x. 0 when the event means nothing here (other buttons,
 * releases) or the screen is only the "too small" notice. */
static int mouse_code(struct app *app)
{
	MEVENT ev;

	if (getmouse(&ev) != OK || app->scr.lay.too_small)
		return 0;
	app->scr.ptr_y = ev.y;
	app->scr.ptr_x = ev.x;
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

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The input timeout is 250 ms: a read that gives nothing much sooner, with the terminal
 * reporting a hangup, an error or input ncurses could not read, is a terminal that is gone (its
 * reads return end of file or EIO at once, for ever). Three in a row, so that one early wake-up
 * is never taken for it. While busy (a timeout of 0), a hangup or an error three times. */
static bool tty_gone(long long waited, bool busy, int *quick)
{
	struct pollfd pf = { .fd = STDIN_FILENO, .events = POLLIN, .revents = 0 };
	/* busy (no wait for input: work goes on between keys), only a hangup or an error tells */
	short gone = busy ? POLLHUP | POLLERR | POLLNVAL : POLLIN | POLLHUP | POLLERR | POLLNVAL;

	if (!busy && waited >= 200) {
		*quick = 0;
		return false;
	}
	if (poll(&pf, 1, 0) < 0 || !(pf.revents & gone)) {
		*quick = 0;
		return false;
	}
	return ++*quick >= 3;
}

static int event_loop(struct app *app, struct gs_err *err)
{
	unsigned flags = UI_REDRAW;
	bool mouse_on = false;
	int quick = 0;

	mouse_apply(app, &mouse_on);
	for (;;) {
		wint_t ch;
		int rc, key;
		long long t0;
		bool busy;

		if (got_signal)
			return 0;
		if (flags & UI_QUIT)
			return 0;
		ui_state_apply(app, flags);
		mouse_apply(app, &mouse_on);
		if (flags)
			ui_draw_frame(app, flags & UI_CLEAR);
		flags = 0;

		t0 = now_ms();
		/* work left (intervals) goes on between keys: a key waiting comes first */
		busy = ui_state_busy(app);
		timeout(busy ? 0 : 250);
		rc = get_wch(&ch);
		if (rc == ERR) {
			long long t1 = now_ms();
			if (!got_signal && tty_gone(t1 - t0, busy, &quick)) {
				err_set(err, NULL, 0, 0, "the terminal went away (end of input)");
				return 1;
			}
			flags = ui_state_tick(app, t1) | ui_state_work(app);
			continue;
		}
		quick = 0;
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
		err_oom(err, NULL, 0);
		return 1;
	}
	ui_state_init(app, ds, p, o);
	{
		const char *cs = nl_langinfo(CODESET);
		app->scr.utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
	}
	ui_keys_help_build(app);
	if (ui_state_recompute(app, err) < 0) {
		ui_app_free(app);
		free(app);
		return 1;
	}
	got_signal = 0;
	signals_install();
	if (ui_startup(err) < 0) {
		/* the terminal cannot run the explorer: a usage error, --print is the way */
		signals_restore();
		ui_app_free(app);
		free(app);
		return 2;
	}
	rc = event_loop(app, err);
	ui_shutdown();
	*p = app->p;
	if (p->filter.families == app->menu.famsel) {
		/* the menu's list goes with the state */
		p->filter.families = NULL;
		p->filter.nfamilies = 0;
	}
	ui_app_free(app);
	free(app);
	if (got_signal)
		signal_reraise(got_signal);
	signals_restore();
	return rc;
}
