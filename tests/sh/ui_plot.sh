#!/bin/sh
# The plot at 80x24 on Llama2-LoRA (v4.1) filtered to H100 SXM, the break-even view: the
# break-even mark ':' stands in the column of its N and the legend names the family's bracket;
# points below theta are drawn dim and those at or above it are not (an attribute, not only a
# colour), and theta's row holds only points at or above it; the two 512+ systems far below are
# drawn where they are, never clipped (u changes nothing for them); i draws the run-to-run
# interval bars.
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
# against XE9640x4 (N=4, 61.87 min): eos_n8 at N=64 has E' 0.846, every N=128 row is below
ui_see "the status line gives the family's bracket" "theta 0.8: H100 SXM 64..<128 |"
ui_see "the legend names the break-even mark" ": H100 SXM break-even 64..<128"

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

# below theta dim, at or above not; the reference (E' 1) is never dim
ui_cap_sgr
plot_rows "$TMP/sgr" >"$TMP/psgr"
dim=$(grep -o "${E}\[2m\(${E}\[[0-9;]*m\)*[a-lA-L]" "$TMP/psgr" | wc -l)
[ "$dim" -ge 2 ] && ok "points below theta are dim ($dim)" || nok "points below theta are dim" "$(cat -v "$TMP/psgr")"
if grep -q "${E}\[2m\(${E}\[[0-9;]*m\)*R" "$TMP/psgr"; then nok "the reference (E' 1) is not dim" "$(cat -v "$TMP/psgr")"
else ok "the reference (E' 1) is not dim"; fi
# position alone tells above from below: theta's row and the rows over it hold no dim point
# (0.813 and 0.814 at 32 and 64 GPUs are on theta's row), the rows under it no plain one (0.785
# at 16, 0.765 at 64, the 512+ systems)
awk -v e="$E" '
	{ bare = $0; gsub(e "\\[[0-9;]*m", "", bare) }
	bare ~ /^ *\+\+?-/ { exit }
	{
		on = index(bare, "theta 0.8") > 0; if (on) t = NR
		line = $0; sub(/theta 0\.8.*/, "", line); rest = line; d = 0
		while (match(line, e "\\[2m(" e "\\[[0-9;]*m)*[a-lA-L]")) { d++; line = substr(line, RSTART + RLENGTH) }
		gsub(e "\\[2m(" e "\\[[0-9;]*m)*[a-lA-L]", "", rest); gsub(e "\\[[0-9;]*m", "", rest)
		p = gsub(/[a-lA-L]/, "", rest)
		if (t == 0 || on) { dim_up += d; if (on) plain_on += p } else { dim_low += d; plain_low += p }
	}
	END { printf "%d %d %d %d %d\n", t, dim_up, plain_on, dim_low, plain_low }' "$TMP/psgr" >"$TMP/rows"
read -r t dim_up plain_on dim_low plain_low <"$TMP/rows"
if [ "$t" -gt 0 ] && [ "$dim_up" -eq 0 ] && [ "$plain_on" -ge 1 ] && [ "$dim_low" -ge 2 ] && [ "$plain_low" -eq 0 ]; then
	ok "theta's row and above: $plain_on plain on it, none dim; below: $dim_low dim, none plain"
else
	nok "theta's row holds only points at or above theta" "theta row $t, dim on or above $dim_up, plain on it $plain_on, dim below $dim_low, plain below $plain_low" "$(cat -v "$TMP/psgr")"
fi

# the robust range clips only far-above outliers: the 512 and 1024 systems (E' 0.23, 0.20)
# are the decline, drawn on the 0.2 axis, with no 'v' count in the legend, before and after u
# y_low NAME: the y axis reaches down to the 0.2 points and no low clip is counted
y_low() {
	ui_cap
	plot_rows "$UI_SCREEN" >"$TMP/plot"
	leg=$(sed -n '/^ *+\{1,2\}-/{n;n;p;q}' "$UI_SCREEN")
	if grep -Eq '^ *0\.[0-2]0* \+' "$TMP/plot" && ! printf '%s\n' "$leg" | grep -Eq ' v ?[0-9]'; then ok "$1"
	else nok "$1" "legend: $leg" "$(cat "$TMP/plot")"; fi
}
y_low "the y axis reaches down to the 0.2 points, nothing clipped below"
ui_keys u
ui_see "u: the message says every point is shown" "every point"
y_low "u: the 0.2 points are still drawn"
ui_keys u
ui_see "u again: outliers clipped" "outliers clipped"
y_low "u again: the 0.2 points are not among them"

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

# zoomed (the ui's z: plot only), the band theta +- 0.2 gets more rows than in the stacked view
# (0.4 of E' in rows, from the first two tick labels of the axis, both ends counted), and the y
# axis still reaches the 0.2 points: the whole range 0.2 .. 1.2 on 16 rows leaves the band 7
band() {
	awk '/^ *[0-9]+\.[0-9]+ \+/ { v = $1 + 0; if (!n) { r1 = NR; v1 = v } else if (n == 1) { r2 = NR; v2 = v }; n++ }
		END { if (n >= 2 && v1 > v2) printf "%d\n", 0.4 * (r2 - r1) / (v1 - v2) + 1.5; else print 0 }' "$UI_SCREEN"
}
ui_cap
b0=$(band)
ui_keys z
if ui_wait "plot only" 3; then
	ui_wait_gone "plot only" 8 >/dev/null
	ui_cap
	b1=$(band)
	if [ "$b0" -gt 0 ] && [ "$b1" -gt "$b0" ] && [ "$b1" -ge 7 ] && grep -Eq '^ *0\.[0-2]0* \+' "$UI_SCREEN"; then
		ok "zoomed at 80x24: theta +- 0.2 (0.6 .. 1.0) spans $b1 rows (stacked: $b0), the axis still reaches 0.2"
	else
		nok "zoomed at 80x24: theta +- 0.2 spans more rows, the axis still reaches 0.2" "stacked $b0, zoomed $b1" "$(cat "$UI_SCREEN")"
	fi
	ui_keys z z
else
	skip "zoomed at 80x24: theta +- 0.2 spans more rows" "no zoom key yet"
fi

ui_keys q
ui_stop

