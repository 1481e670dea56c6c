# Helpers for the tests/sh/ui_*.sh scripts: run gpuscale inside a private, detached tmux server
# (its own socket, no config, no terminal needed), send keys, and wait for text on the screen.
# Sourced after tests/lib.sh (which gives ok/nok, $TMP and $GPUSCALE).

UI_SOCK="gs$$"
UI_SCREEN="$TMP/screen"

tm() { tmux -L "$UI_SOCK" -f /dev/null "$@"; }

# ui_have_tmux: 0 when tmux can run here.
ui_have_tmux() { command -v tmux >/dev/null 2>&1; }

# ui_start COLS ROWS "ENV=... ..." [ARGS...]: starts gpuscale in a fresh server, in the folder
# $UI_CWD (default $TMP), through the program $UI_WRAP when set (it gets the command line and
# must exec it, so that the pid stays the program's). The program's
# exit code lands in $TMP/exit, the terminal modes after it in $TMP/stty, its pid in $TMP/pid.
ui_start() {
	cols=$1 rows=$2 envs=$3
	shift 3
	ui_stop
	rm -f "$TMP/exit" "$TMP/stty" "$TMP/pid"
	{
		echo "cd '${UI_CWD:-$TMP}' || exit 1"
		# Ctrl-C reaches the whole foreground group: the wrapper must outlive it to report
		echo "trap : INT"
		# sanitizer builds: leaks of the terminal libraries are not the program's; the slow
		# unwinder sees through the frames of a dlopen'd library to match the suppressions
		echo "export LSAN_OPTIONS='suppressions=$GS_TOP/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}'"
		echo "export ASAN_OPTIONS='fast_unwind_on_malloc=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}'"
		echo "export TERM=xterm-256color LANG=C.UTF-8 $envs"
		[ -z "${GPUSCALE_DATA:-}" ] || echo "export GPUSCALE_DATA='$GPUSCALE_DATA'"
		echo "sh -c 'echo \$\$ > \"$TMP/pid\"; exec ${UI_WRAP:-} \"\$0\" \"\$@\"' '$GPUSCALE' $*"
		echo "echo \"EXIT=\$?\" > '$TMP/exit.tmp'"
		echo "stty -a > '$TMP/stty' 2>&1"
		echo "mv '$TMP/exit.tmp' '$TMP/exit'"
		echo "exec sleep 600"
	} >"$TMP/run.sh"
	tm new-session -d -s gs -x "$cols" -y "$rows" "sh '$TMP/run.sh'"
}

# ui_stop: ends the server; a new one on the same socket right away can race its shutdown.
ui_stop() {
	if tm kill-server >/dev/null 2>&1; then sleep 0.3; fi
	return 0
}

ui_cap() { tm capture-pane -p -t gs >"$UI_SCREEN" 2>/dev/null; }

ui_keys() { tm send-keys -t gs "$@"; }

# The helpers below count in ui_i_, never in a name such as i that a caller's loop may use.

# ui_press_until KEY TEXT [TRIES]: presses KEY (up to TRIES times, default 30) until TEXT (fixed
# string) is on the screen; 0 when it showed up.
ui_press_until() {
	ui_i_=0
	ui_cap
	while [ $ui_i_ -lt "${3:-30}" ] && ! grep -qF -- "$2" "$UI_SCREEN"; do
		tm send-keys -t gs "$1"
		sleep 0.15
		ui_cap
		ui_i_=$((ui_i_ + 1))
	done
	grep -qF -- "$2" "$UI_SCREEN"
}

# ui_wait TEXT [SECONDS]: up to SECONDS (default 5) for TEXT (fixed string) on the screen; 0 when
# it showed up.
ui_wait() {
	ui_i_=0
	while [ $ui_i_ -lt $((${2:-5} * 10)) ]; do
		ui_cap
		grep -qF -- "$1" "$UI_SCREEN" && return 0
		sleep 0.1
		ui_i_=$((ui_i_ + 1))
	done
	return 1
}

# ui_settle [SECONDS]: up to SECONDS (default 3) until two captures 0.2 s apart are the same
# screen, so that positions read off it are those of the screen the program answers from.
ui_settle() {
	ui_i_=0
	ui_cap
	while [ $ui_i_ -lt $((${1:-3} * 5)) ]; do
		sleep 0.2
		cp "$UI_SCREEN" "$UI_SCREEN.prev"
		ui_cap
		cmp -s "$UI_SCREEN" "$UI_SCREEN.prev" && return 0
		ui_i_=$((ui_i_ + 1))
	done
	return 1
}

# ui_wait_gone TEXT [SECONDS]: up to SECONDS (default 5) for TEXT to leave the screen.
ui_wait_gone() {
	ui_i_=0
	while [ $ui_i_ -lt $((${2:-5} * 10)) ]; do
		ui_cap
		grep -qF -- "$1" "$UI_SCREEN" || return 0
		sleep 0.1
		ui_i_=$((ui_i_ + 1))
	done
	return 1
}

# ui_see DESC TEXT: one TAP line, ok when TEXT shows up within 5 s.
ui_see() {
	if ui_wait "$2"; then ok "$1"; else nok "$1" "'$2' not on the screen:" "$(cat "$UI_SCREEN")"; fi
}

# ui_gone DESC TEXT: one TAP line, ok when TEXT leaves the screen within 5 s.
ui_gone() {
	if ui_wait_gone "$2"; then ok "$1"; else nok "$1" "'$2' still on the screen:" "$(cat "$UI_SCREEN")"; fi
}

# ui_exit_code: waits up to 5 s for the program to end; prints its exit code (or "none").
ui_exit_code() {
	ui_i_=0
	while [ $ui_i_ -lt 50 ] && [ ! -f "$TMP/exit" ]; do sleep 0.1; ui_i_=$((ui_i_ + 1)); done
	if [ -f "$TMP/exit" ]; then sed -n 's/^EXIT=//p' "$TMP/exit"; else echo none; fi
}

# ui_exits DESC [CODE [NOTE...]]: one TAP line, ok when the program ends within 5 s with exit
# code CODE (default 0); a failure shows the code it got, then the NOTE lines.
ui_exits() {
	ui_d_=$1 ui_want_=${2:-0}
	shift
	[ $# -gt 0 ] && shift
	ui_got_=$(ui_exit_code)
	if [ "$ui_got_" = "$ui_want_" ]; then ok "$ui_d_"; else nok "$ui_d_" "exit: $ui_got_" "$@"; fi
}

# ui_line PATTERN: the first screen line matching the extended regex PATTERN.
ui_line() { grep -E -m 1 -- "$1" "$UI_SCREEN"; }

# ui_sane DESC: the terminal modes after exit are the cooked ones (echo and icanon back on).
ui_sane() {
	if [ -f "$TMP/stty" ] && grep -Eq '(^| )icanon' "$TMP/stty" && grep -Eq '(^| )echo( |$)' "$TMP/stty" &&
		! grep -Eq '(^| )-icanon' "$TMP/stty" && ! grep -Eq '(^| )-echo( |$)' "$TMP/stty"; then
		ok "$1"
	else
		nok "$1" "stty after exit:" "$(cat "$TMP/stty" 2>/dev/null)"
	fi
}

trap 'ui_stop; rm -rf "$TMP"' EXIT INT TERM
