#!/bin/sh
# Interval bars on 30,000 rows: i draws the intervals a slice at a time between keys instead of
# all of them in the press, so the screen never freezes. The status line counts
# them, a key pressed meanwhile is answered at once (? opens the help) and its message is not
# covered, and the count reaches every row, with bars on the plot. With the plot hidden the
# work waits (no busy loop); with the terminal gone the explorer still ends.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

csv="$TMP/rows.csv"
awk 'BEGIN {
	print "round,submitter,system,system_name,division,availability,accelerator,nodes," \
	      "accelerators_per_node,accelerators,framework,benchmark,minutes,runs_scored," \
	      "runs_failed,scaling_factor,run_minutes"
	split("NVIDIA H100-SXM5-80GB|AMD MI300X-192GB|NVIDIA B200-SXM-180GB", acc, "|")
	for (i = 0; i < 30000; i++) {
		e = i % 10; n = 1; for (k = 0; k < e; k++) n *= 2
		per = n >= 8 ? 8 : n; nodes = n / per
		t = 2000 / (n ^ 0.8) * (1 + (i % 97) / 500)
		printf "v9.9,Sub%03d,sys%07d,System %d,closed,available,%s,%d,%d,%d,PyTorch,bert,%.6f,5,0,1,%.4f;%.4f;%.4f;%.4f;%.4f\n",
			i % 89, i, i, acc[i % 3 + 1], nodes, per, n, t, t * 0.97, t * 0.99, t, t * 1.01, t * 1.03
	}
}' >"$csv" || { nok "generate a 30,000-row CSV" "awk failed"; exit 0; }

# ui_wait polls ten times a second; a wait of minutes polls once a second, leaving the
# processors to the explorer's work. wait_long TEXT SECONDS: 0 when TEXT showed up.
wait_long() {
	wl_i=0
	while [ $wl_i -lt "$2" ]; do
		ui_cap
		grep -qF -- "$1" "$UI_SCREEN" && return 0
		sleep 1
		wl_i=$((wl_i + 1))
	done
	ui_cap
	grep -qF -- "$1" "$UI_SCREEN"
}
# the count of rows done on the status line, or nothing
count() { sed -n 's/.*interval bars on: \([0-9]*\) of 30000 rows so far.*/\1/p' "$UI_SCREEN" | head -n 1; }
# bar cells: '|' right of the y axis (its own '|' are in the first 5 columns)
bar_cells() { sed -n '2,/^ *+\{1,2\}-/p' "$UI_SCREEN" | sed '$d' | cut -c6- | tr -cd '|' | wc -c; }
ticks() { awk '{ print $14 + $15 }' "/proc/$(cat "$TMP/pid")/stat"; }

# One session draws the intervals of every row once (most of this script's time): the help,
# a key's message and the hidden plot all come while they are being drawn.
ui_start 140 40 "" "'$csv'"
ui_see "30,000 rows: the explorer is up" "30000/30000 rows"
ui_keys i
ui_see "i: the bars come a slice at a time, counted on the status line" "of 30000 rows so far"
ui_keys '?'
if ui_wait "keys, then what you see" 2; then
	ok "a key pressed while the bars are drawn is answered at once (? opens the help)"
else
	nok "a key pressed while the bars are drawn is answered at once (? opens the help)" "no help within 2 s:" "$(cat "$UI_SCREEN")"
fi
ui_keys Escape
# the help gone first: Escape waits out its delay, and the bars may be done before that
ui_wait_gone "keys, then what you see" 5
# after the help the count goes on (every row reached: below, once the plot is back)
c0=$(count)
ui_i_=0
while [ $ui_i_ -lt 100 ]; do
	sleep 0.1
	ui_cap
	c1=$(count)
	{ [ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -gt "$c0" ]; } && break
	grep -qF "interval bars on: all 30000 rows" "$UI_SCREEN" && c1=30000 && break
	[ -z "$c0" ] && c0=$c1
	ui_i_=$((ui_i_ + 1))
done
if [ -n "$c1" ] && [ "$c1" -gt "${c0:-0}" ]; then ok "the bars go on after the help ($c0, then $c1 rows)"
else nok "the bars go on after the help" "the count did not move in 10 s ($c0, $c1):" "$(tail -n 3 "$UI_SCREEN")"; fi
# a key's message while they are drawn stays: the count never covers it
ui_keys Y
ui_see "Y: its message shows" "log y on"
sleep 0.6
ui_cap
if grep -qF "log y on" "$UI_SCREEN"; then
	ok "0.6 s later the message is still there (the count, done or not, never covers it)"
else
	nok "0.6 s later the message is still there" "the count covered it:" "$(tail -n 2 "$UI_SCREEN")"
fi
ui_keys Y
# with the plot hidden (z z: table only) the bars wait, idle, and go on once it shows
ui_keys z z
ui_see "z z: table only" "table only"
t0=$(ticks); sleep 1; t1=$(ticks)
[ $((t1 - t0)) -lt 30 ] && ok "with the plot hidden the bars wait: the explorer is idle ($((t1 - t0)) ticks in 1 s)" ||
	nok "with the plot hidden the bars wait" "$((t1 - t0)) ticks of CPU in 1 s"
ui_keys z
# z's own message stays its 4 s (the count never covers it); then the count, or nothing when
# the bars were done meanwhile: i off and on then draws nothing more (every interval kept)
ui_wait_gone "(z cycles)" 10
if grep -qF "rows so far" "$UI_SCREEN"; then
	# (every row's interval: a minute or two on a loaded machine, more under the sanitizers)
	if wait_long "interval bars on: all 30000 rows" 180; then ok "the plot back: the bars go on to every row"
	else nok "the plot back: the bars go on to every row" "not all within 180 s:" "$(tail -n 3 "$UI_SCREEN")"; fi
else
	ui_keys i
	ui_see "(i off)" "interval bars off"
	ui_keys i
	ui_see "(i on)" "interval bars on"
	sleep 0.5
	ui_cap
	if grep -qF "rows so far" "$UI_SCREEN"; then
		nok "the plot back: the bars go on to every row" "rows left to draw after the plot came back:" "$(tail -n 2 "$UI_SCREEN")"
	else
		ok "the plot back: the bars went on to every row (i again draws nothing more)"
	fi
fi
ui_settle
on=$(bar_cells)
contains "the legend names the bars" "$UI_SCREEN" "| interval"
ui_keys i
ui_see "i again: bars off" "interval bars off"
off=$(bar_cells)
[ "$on" -gt "$off" ] && ok "the plot draws the bars ($on bar cells; $off with them off)" ||
	nok "the plot draws the bars" "$on bar cells on, $off off:" "$(cat "$UI_SCREEN")"
ui_keys i
ui_see "on again with this analysis: its intervals are kept, all at once" "interval bars on"
ui_keys q
ui_exits "q quits"

# the terminal gone while the bars are drawn: the explorer ends (3 s; 10 s under sanitizers)
ui_start 140 40 "" "'$csv'"
ui_see "once more: the explorer is up" "30000/30000 rows"
pid=$(cat "$TMP/pid")
ui_keys i
ui_see "bars being drawn" "rows so far"
tm kill-server
lim=30; [ "${SANITIZE:-}" = 1 ] && lim=100
i=0
while [ $i -lt $lim ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$pid" 2>/dev/null; then
	kill -KILL "$pid"
	nok "the terminal gone while the bars are drawn, the explorer ends within $((lim / 10)) s" "still running"
else
	ok "the terminal gone while the bars are drawn, the explorer ends within $((lim / 10)) s"
fi
ui_stop
