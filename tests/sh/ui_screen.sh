#!/bin/sh
# The screen as htop users expect it, at 80x24, 120x40 and 250x70: names that never get less
# room on a wider terminal, cut in the middle with one '~' and SUBMITTER/SYSTEM for shared ids;
# messages on a line of their own that go after a few seconds; sorting both ways with the
# sorted heading always marked; search counts, a row filter on the status line cleared by one
# key, jumps to the reference and the break-even row, type-ahead in a long family menu that
# scrolls; theta and k typed; the zoom; UTF-8 names drawn by display width.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi
# the checks on the default data are written against the v4.1 round alone
one_round v4.1

V40="'$GS_TOP/data/mlperf_training_v4.0.csv'"

# name_room: the columns the longest names get: in the table alone (z z), the longest shown
# text of the two HPE systems, whose 52-character names are the longest of v4.0 BERT
name_room() {
	ui_keys z z
	ui_wait "view: table only"
	grep -oE '^ *[0-9]+ .*' "$UI_SCREEN" | grep -oE 'HPE-Cray[^ ]*' | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'
	ui_keys z
	ui_wait "view: plot and table"
}

# ---- (1) names ----
last=0
for size in "80 24" "100 30" "120 40" "160 50" "250 70"; do
	set -- $size
	ui_start "$1" "$2" "" "$V40"
	ui_wait "[BERT]"
	room=$(name_room)
	if [ "$room" -ge "$last" ]; then ok "$1x$2: names get $room columns (no fewer than narrower: $last)"
	else nok "$1x$2: names get no less room than on a narrower terminal" "$room < $last" "$(cat "$UI_SCREEN")"; fi
	last=$room
	# the two HPE systems differ only inside their 52-character names: the cut keeps the tail
	if [ "$1" = 80 ]; then
		ui_keys /
		ui_keys -l HPE-Cray
		ui_keys Enter
		ui_wait "match 1/2"
		n=$(grep -cE 'HPE-Cray[^ ]*~[^ ]*_n[12]_pytorch_23\.09|HPE-Cray[^ ]*~[^ ]*[12]_pytorch_23\.09' "$UI_SCREEN")
		if [ "$n" -ge 1 ]; then ok "80x24: long names are cut in the middle with one ~, the distinguishing tail kept"
		else nok "80x24: long names are cut in the middle with one ~" "$(cat "$UI_SCREEN")"; fi
		if grep -E 'HPE-Cray[^ ]*~[^ ]*~' "$UI_SCREEN" >/dev/null; then nok "one cut mark per name" "$(cat "$UI_SCREEN")"
		else ok "one cut mark per name"; fi
	fi
	if [ "$1" = 250 ]; then
		ui_see "250x70: the longest names are whole" "HPE-Cray-XD670-Gen11-H100-SXM5-80GB_n2_pytorch_23.09"
	fi
	ui_keys q
	ui_exit_code >/dev/null
done

printf '%b\n' 'round,submitter,system,benchmark,accelerators,minutes' \
	'r1,Alpha,shared-id,job,1,100' 'r1,Beta,shared-id,job,2,55' 'r1,Gamma,own,job,4,30' \
	'r1,Delta,caf\303\251-1,job,8,16' 'r1,Eps,\346\227\245\346\234\254-2,job,16,9' >"$TMP/names.csv"
for size in "80 24" "120 40" "250 70"; do
	set -- $size
	ui_start "$1" "$2" "" "'$TMP/names.csv'"
	ui_see "$1x$2: a shared id names its submitter" "Alpha/shared-id"
	ui_see "$1x$2: ... both of them" "Beta/shared-id"
	lacks "$1x$2: an id of its own stays bare" "$UI_SCREEN" "Gamma/own"
	# (10) display width: the column where the family starts, in display columns, is the same
	# on every row (in the table alone: wide screens put the plot beside it)
	ui_keys z z
	ui_wait "view: table only"
	cols=$(grep -E '^ +[0-9]+ .*unknown' "$UI_SCREEN" | sed 's/unknown.*//' | python3 -c '
import sys, unicodedata
for l in sys.stdin.read().splitlines():
    print(sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1 for c in l))
' | sort -u | wc -l | tr -d ' ')
	if [ "$cols" = 1 ]; then ok "$1x$2: every table row is as wide on screen (UTF-8 padded by display width)"
	else nok "$1x$2: every table row as wide on screen" "$(grep -E '^ +[0-9]+ ' "$UI_SCREEN")"; fi
	ui_see "$1x$2: the UTF-8 name in the table" "café-1"
	ui_keys z
	ui_wait "view: plot and table"
	ui_keys /
	ui_keys -l caf
	ui_keys Enter
	ui_wait "match 1/1"
	n=$(grep -c 'café-1' "$UI_SCREEN")
	if [ "$n" -ge 2 ]; then ok "$1x$2: the plot label reads café-1 too"
	else nok "$1x$2: the plot label reads café-1 too" "$(cat "$UI_SCREEN")"; fi
	lacks "$1x$2: no raw bytes shown as ?" "$UI_SCREEN" "caf??"
	ui_keys q
	ui_exit_code >/dev/null
done

# ---- (3) messages, (5) sort, (6) search and filter, (8) typed values, zoom: each size ----
for size in "80 24" "120 40" "250 70"; do
	set -- $size
	ui_start "$1" "$2" ""
	ui_wait "[BERT]"
	clus=$(grep -m 1 'clusters: ' "$UI_SCREEN")
	ui_keys a
	ui_see "$1x$2: a: the message on the last line" "auto-k: k="
	last_line=$(tail -n 1 "$UI_SCREEN")
	case $last_line in *"auto-k: k="*) ok "$1x$2: the message has a line of its own" ;;
	*) nok "$1x$2: the message has a line of its own" "$last_line" ;; esac
	if grep -q ' clusters: ' "$UI_SCREEN" && grep -q 'I=' "$UI_SCREEN"; then ok "$1x$2: the cluster line and I= stay"
	else nok "$1x$2: the cluster line and I= stay" "$(cat "$UI_SCREEN")"; fi
	ui_keys j
	if ui_wait_gone "auto-k: k=" 8; then ok "$1x$2: the message goes after a few seconds"
	else nok "$1x$2: the message goes after a few seconds" "$(tail -n 1 "$UI_SCREEN")"; fi
	ui_see "$1x$2: then the key reminder" "? help"
	: "$clus"

	# sort both ways; the sorted heading always marked, apart from its name
	ui_keys '<'
	ui_see "$1x$2: <: sorted by the previous column" "sorted by"
	h=$(ui_line '(^|\| ) *# ')
	case $h in *" v"* | *" ^"*) ok "$1x$2: the sorted heading is marked" ;; *) nok "$1x$2: the sorted heading is marked" "$h" ;; esac
	ui_keys '>'
	ui_see "$1x$2: >: back to E'" "E' v"

	# search counts, row filter, jumps
	ui_keys /
	ui_keys -l nvidia
	ui_see "$1x$2: the search counts its matches" '/6 for "nvidia"'
	m1=$(grep -oE 'match [0-9]+/6' "$UI_SCREEN")
	ui_keys Enter
	ui_keys n
	ui_wait "/6"
	m2=$(grep -oE 'match [0-9]+/6' "$UI_SCREEN")
	if [ -n "$m1" ] && [ -n "$m2" ] && [ "$m1" != "$m2" ]; then ok "$1x$2: n moves on ($m1 -> $m2)"
	else nok "$1x$2: n moves on" "'$m1' -> '$m2'" "$(tail -n 1 "$UI_SCREEN")"; fi
	ui_keys '|'
	ui_keys -l h100
	ui_keys Enter
	ui_see "$1x$2: the row filter is on the status line" "rows ~ h100"
	lacks "$1x$2: rows without h100 are gone" "$UI_SCREEN" "b200_preview_pytorch"
	ui_keys Escape
	ui_see "$1x$2: Esc clears the row filter" "29/29 rows"
	# the last row, eos_n434 (E' 0.102), is H100 SXM's: its group's reference is GX2560M7 (N=4,
	# the slower of the two 4-GPU H100 SXM systems)
	ui_keys G o Enter
	ui_see "$1x$2: o goes to the reference row of the selected row's family" "detail: GX2560M7_H100_SXM_80GBx4"
	ui_keys q
	ui_wait_gone "detail: "
	ui_keys g b Enter
	# the detail says so in its cluster line, below the fold on small screens
	ui_press_until j "break-even row"
	ui_see "$1x$2: b goes to the break-even row" "break-even row"
	ui_keys q
	ui_wait_gone "detail: "

	# typed theta and k
	ui_keys =
	ui_see "$1x$2: = asks for theta" "theta: _"
	ui_keys -l 0.7
	ui_keys Enter
	ui_see "$1x$2: theta typed" "theta 0.7: "
	if ui_line ' theta 0\.7: [^|~]*[^ |~] \| [0-9]+/[0-9]+ rows' >/dev/null; then ok "$1x$2: theta typed: the brackets at it, whole"
	else nok "$1x$2: theta typed: the brackets at it, whole" "$(tail -n 3 "$UI_SCREEN")"; fi
	ui_keys =
	ui_keys -l 2000
	ui_keys Enter
	ui_see "$1x$2: theta out of the command line's range is refused" "not a number in 0.05..10"
	ui_keys Escape
	ui_keys K
	ui_keys -l 5
	ui_keys Enter
	ui_see "$1x$2: k typed" " k=5 "

	# family menu: type-ahead
	ui_keys f
	ui_wait "family filter"
	ui_keys -l h1
	ui_see "$1x$2: type-ahead shows what was typed" 'family filter: "h1"'
	ui_keys Space Enter
	ui_see "$1x$2: the family typed is the filter" "filter: H100"
	ui_keys F

	# zoom
	ui_keys z
	ui_see "$1x$2: z: plot only" "view: plot only"
	lacks "$1x$2: no table heading in plot-only" "$UI_SCREEN" " system "
	ui_keys z
	ui_see "$1x$2: z again: table only" "view: table only"
	if grep -Eq '^ *[0-9.]+ \+-' "$UI_SCREEN"; then nok "$1x$2: no plot axis in table-only" "$(cat "$UI_SCREEN")"
	else ok "$1x$2: no plot axis in table-only"; fi
	ui_keys z
	ui_see "$1x$2: z again: both" "view: plot and table"
	ui_keys q
	ui_exits "$1x$2: q exits 0"
done

# ---- (9) a long family menu scrolls; type-ahead reaches the 200th family ----
{
	echo 'round,submitter,system,accelerator,benchmark,accelerators,minutes'
	i=0
	while [ $i -lt 200 ]; do
		printf 'r1,S,sys%03d,Accel%03d,job,%d,%d\n' $i $i $((1 + i % 7)) $((100 + i))
		i=$((i + 1))
	done
} >"$TMP/fam.csv"
ui_start 80 24 "" "'$TMP/fam.csv'"
ui_wait "200/200 rows"
ui_keys f
ui_see "200 families listed" "family filter (200"
ui_see "a long list scrolls: position shown" "-- more ("
ui_keys End
ui_see "End reaches the 200th family" "Accel199"
ui_keys Home
ui_keys -l accel150
ui_see "type-ahead reaches Accel150" 'family filter: "accel150"'
ui_keys Space Enter
ui_see "Enter applies the family typed" "filter: Accel150"
ui_see "one row left" "1/200 rows"
ui_keys q
ui_exits "q exits 0"
ui_stop
