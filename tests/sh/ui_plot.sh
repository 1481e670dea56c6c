#!/bin/sh
# The plot at 80x24 on Llama2-LoRA (v4.1) filtered to H100 SXM, the break-even view of issue 11:
# the break-even mark ':' stands in the column of its N and the legend names it; points below
# theta are drawn dim and those at or above it are not (an attribute, not only a colour); u
# shows the full y range (the two 512+ systems far below are 'v' marks until then); i draws
# the run-to-run interval bars.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

E=$(printf '\033')
# ui_cap_sgr: the screen with its attributes (tmux writes them as SGR sequences)
ui_cap_sgr() { tm capture-pane -e -p -t gs >"$TMP/sgr" 2>/dev/null; }
# plot_rows: the plot's data rows, from below the tab bar down to the x axis line
plot_rows() { sed -n '2,/^ *+\{1,2\}-/p' "$1" | sed '$d'; }

ui_start 80 24 "" --round v4.1 -w llama2_70b_lora -f "'H100 SXM'"
ui_see "80x24 Llama2-LoRA H100 SXM: the explorer is up" "[Llama2-LoRA]"
ui_see "the status line gives the break-even N" "theta 0.8 -> N=64"
ui_see "the legend names the break-even mark" ": break-even N 64"

# the mark: ':' in one column on several plot rows, and that column is N 64's (its x label)
plot_rows "$UI_SCREEN" >"$TMP/plot"
col=$(awk '{ i = index($0, ":"); if (i) print i }' "$TMP/plot" | sort | uniq -c | sort -rn | head -n 1)
n=${col% *}; n=${n##* }; c=${col##* }
if [ -n "$c" ] && [ "$n" -ge 3 ]; then ok "the break-even mark runs down one column ($n rows)"
else nok "the break-even mark runs down one column" "$(cat "$TMP/plot")"; fi
lab=$(sed -n '/^ *+\{1,2\}-/{n;p;q}' "$UI_SCREEN")
under=$(printf '%s\n' "$lab" | awk -v c="$c" '{ s = c - 3; if (s < 1) s = 1; print substr($0, s, 5) }')
case "$under" in *64*) ok "the mark stands over the x label 64" ;;
*) nok "the mark stands over the x label 64" "column $c, under it '$under'" ;; esac

# below theta dim, at or above not: the theta row holds both kinds (0.785 and 0.813 at 16
# and 32 GPUs share the row of 0.8); the reference (E' 1) is never dim
ui_cap_sgr
plot_rows "$TMP/sgr" >"$TMP/psgr"
dim=$(grep -o "${E}\[2m\(${E}\[[0-9;]*m\)*[a-lA-L]" "$TMP/psgr" | wc -l)
[ "$dim" -ge 2 ] && ok "points below theta are dim ($dim)" || nok "points below theta are dim" "$(cat -v "$TMP/psgr")"
if grep -q "${E}\[2m\(${E}\[[0-9;]*m\)*R" "$TMP/psgr"; then nok "the reference (E' 1) is not dim" "$(cat -v "$TMP/psgr")"
else ok "the reference (E' 1) is not dim"; fi
theta_row=$(grep 'theta 0.8' "$TMP/psgr" | head -n 1 | sed 's/theta 0\.8//')
plain=$(printf '%s\n' "$theta_row" | sed "s/${E}\[2m\(${E}\[[0-9;]*m\)*[a-lA-L]//g" | sed "s/${E}\[[0-9;]*m//g" | tr -cd 'a-lA-L' | wc -c)
dimmed=$(printf '%s\n' "$theta_row" | grep -o "${E}\[2m\(${E}\[[0-9;]*m\)*[a-lA-L]" | wc -l)
if [ "$dimmed" -ge 1 ] && [ "$plain" -ge 1 ]; then ok "theta's row tells points below it ($dimmed) from those at or above ($plain)"
else nok "theta's row tells below from above" "$(printf '%s\n' "$theta_row" | cat -v)"; fi

# the robust range: the 512 and 1024 systems (E' 0.23, 0.20) are 'v' marks, counted
# (the short legend form "v2": the break-even range takes the room of "v 2 to 0.204")
ui_see "the two far-below points are counted in the legend" " v2 "
ui_keys u
ui_see "u: the message says every point is shown" "every point"
if ui_wait_gone " v2 "; then ok "u: nothing is clipped any more"; else nok "u: nothing is clipped" "$(cat "$UI_SCREEN")"; fi
plot_rows "$UI_SCREEN" >"$TMP/plot"
if grep -Eq '^ *0\.[0-2]0* \+' "$TMP/plot"; then ok "u: the y axis reaches down to the 0.2 points"
else nok "u: the y axis reaches down to the 0.2 points" "$(cat "$TMP/plot")"; fi
ui_keys u
ui_see "u again: outliers clipped" "outliers clipped"
ui_see "u again: the legend counts them again" " v2 "

# i: run-to-run interval bars, '|' through the points (beyond the y axis), when the rows have
# intervals (--print csv gives them as e_prime_ci_lo/hi)
ui_keys i
ui_see "i: the message says the bars are on" "interval bars on"
has_ci=$("$GPUSCALE" --print csv --round v4.1 -w llama2_70b_lora -f "H100 SXM" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "e_prime_ci_lo") c = i; next }
		 c && $c != "" { n++ } END { print n + 0 }')
ui_cap
plot_rows "$UI_SCREEN" >"$TMP/plot"
bars=$(sed 's/^[^|+]*[|+]//' "$TMP/plot" | tr -cd '|' | wc -c)
if [ "$has_ci" -ge 3 ]; then
	[ "$bars" -ge 3 ] && ok "i: bars drawn ($bars cells)" || nok "i: bars drawn" "$(cat "$TMP/plot")"
else
	skip "i: bars drawn" "no run-to-run intervals in this build"
fi
ui_keys i
ui_see "i again: bars off" "interval bars off"
ui_cap
plot_rows "$UI_SCREEN" >"$TMP/plot"
bars=$(sed 's/^[^|+]*[|+]//' "$TMP/plot" | tr -cd '|' | wc -c)
[ "$bars" -eq 0 ] && ok "i again: no bar left" || nok "i again: no bar left" "$(cat "$TMP/plot")"

# zoomed (the ui's z: plot only), the band theta +- 0.2 gets at least 8 rows: the rows from the
# label 1.0 down to the label 0.6, both tick rows of the axis
ui_keys z
if ui_wait "plot only" 3; then
	ui_wait_gone "plot only" 8 >/dev/null
	ui_cap
	r10=$(grep -n '^ *1\.0 +' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
	r6=$(grep -n '^ *0\.6 +' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
	if [ -n "$r6" ] && [ -n "$r10" ] && [ $((r6 - r10 + 1)) -ge 8 ]; then
		ok "zoomed at 80x24: theta +- 0.2 (0.6 .. 1.0) spans $((r6 - r10 + 1)) rows"
	else
		nok "zoomed at 80x24: theta +- 0.2 spans at least 8 rows" "$(cat "$UI_SCREEN")"
	fi
	ui_keys z z
else
	skip "zoomed at 80x24: theta +- 0.2 spans at least 8 rows" "no zoom key yet"
fi

ui_keys q
ui_stop

