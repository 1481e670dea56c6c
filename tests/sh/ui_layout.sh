#!/bin/sh
# The screen's layout at 80x24, 120x40 and 200x60, measured from the captured screen: from 160
# columns the plot takes at least half the width; the table shows at least six rows and keeps
# N, min, E' and A (the names are cut first), and the cross-round view keeps the round and the
# family; the tabs show their digit, which means one workload in every round; the sensitivity
# list of the detail gives first the candidates that set the range's ends and, in the
# cross-round view, each candidate's round; x names the rules it skips; a cut plot label keeps
# a blank before any other mark.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# table: the table pane of the screen (the columns right of the plot when they stand side by
# side), from its heading line on
table() {
	awk 'at == 0 { i = index($0, "  # "); if (i > 0 && $0 ~ /# +(round +)?(submitter +)?system/) at = i }
		at > 0 { print substr($0, at) }' "$UI_SCREEN"
}
# heads: the table's headings as words (the sort arrow dropped), one line
heads() { table | head -n 1 | sed 's/ [v^]\( \|$\)/ /g' | tr -s ' ' | sed 's/^ //'; }
# has_heads WORD...: 0 when the table's headings hold every WORD
has_heads() {
	h=" $(heads) "
	for w in "$@"; do case "$h" in *" $w "*) ;; *) return 1 ;; esac; done
	return 0
}
# table_rows: data rows the table shows (below its heading line)
table_rows() { table | grep -cE '^ +[0-9]+ +[^ ]'; }
# detail_text: the detail overlay's lines without its borders
detail_text() {
	awk 'at == 0 { at = index($0, "+- detail"); next }
		{ t = substr($0, at); if (t ~ /^\+-/) exit; sub(/^\| /, "", t); sub(/ *\|.*$/, "", t); print t }' "$UI_SCREEN"
}

for size in 80x24 120x40 200x60; do
	cols=${size%x*} rows=${size#*x}
	ui_start "$cols" "$rows" "" -w llama2_70b_lora
	ui_wait "q quit" || ui_wait "help"
	ui_cap
	# ---- 1: layout ----
	if has_heads N min "E'" A; then ok "$size: the table keeps N, min, E' and A ($(heads))"
	else nok "$size: the table keeps N, min, E' and A" "$(heads)"; fi
	n=$(table_rows)
	[ "$n" -ge 6 ] && ok "$size: the table shows $n rows (at least 6)" || nok "$size: at least 6 table rows" "$n" "$(cat "$UI_SCREEN")"
	# names are cut before a kept column goes: a cut name ('~') only beside every kept column
	if [ "$cols" -ge 160 ]; then
		bar=$(grep -m 1 'vs accelerators' "$UI_SCREEN" | awk '{ print index($0, "|") }')
		if [ "${bar:-0}" -gt $((cols / 2)) ]; then ok "$size: the plot takes $((bar - 1)) of $cols columns (at least half)"
		else nok "$size: the plot takes at least half the width" "border at ${bar:-none}" "$(cat "$UI_SCREEN")"; fi
	fi
	# ---- 2: tabs show their digit, the same workload in every round ----
	tabs=$(sed -n 1p "$UI_SCREEN")
	case "$tabs" in *"2[Llama2-LoRA]"*) ok "$size: the active tab shows its digit (2[Llama2-LoRA])" ;;
		*) nok "$size: the active tab shows its digit" "$tabs" ;; esac
	case "$tabs" in *" 3 RetinaNet"*) ok "$size: the other tabs show theirs (3 RetinaNet)" ;;
		*) nok "$size: the other tabs show theirs" "$tabs" ;; esac
	ui_keys 1
	ui_see "$size: 1 in v5.1 says the round has no BERT" "v5.1 has no BERT"
	ui_keys '['
	ui_see "$size: [ keeps Llama2-LoRA in v5.0" "2[Llama2-LoRA]"
	ui_keys 1
	ui_see "$size: 1 is BERT in v5.0" "1[BERT]"
	ui_keys 2
	ui_see "$size: 2 is Llama2-LoRA in v5.0 as in v5.1" "2[Llama2-LoRA]"
	ui_keys ']'
	ui_wait "v5.1 (8/8)" >/dev/null
	# ---- 1: the cross-round view keeps the round and the family ----
	ui_keys A
	ui_wait "cross-round view" >/dev/null
	ui_cap
	if has_heads round family N "E'"; then ok "$size: the cross-round view keeps round and family ($(heads))"
	else nok "$size: the cross-round view keeps round and family" "$(heads)" "$(cat "$UI_SCREEN")"; fi
	# ---- 3: the sensitivity list names each candidate's round, the ends first ----
	# a B200 row of v5.1: its group spans v4.1 to v5.1
	ui_keys / && ui_keys -l 1xXE9680Lx8B200-SXM && ui_keys Enter
	ui_wait "match" >/dev/null
	ui_keys Enter
	ui_wait "sensitivity" >/dev/null
	# scrolled until the sensitivity heading is the first line (or the end is reached)
	ui_press_until j "sensitivity   N" 60 >/dev/null
	i=0
	while [ $i -lt 60 ] && ! detail_text | head -n 1 | grep -q '^sensitivity' && ! grep -q -- "-- end (" "$UI_SCREEN"; do
		ui_keys j
		sleep 0.1
		ui_cap
		i=$((i + 1))
	done
	detail_text | awk '/^sensitivity   / { on = 1; print; next }
		on && /^  +[^ ]/ { sub(/^ +/, ""); if ($0 != "reference:") print; next } on { exit }' >"$TMP/sens"
	if [ "$(wc -l <"$TMP/sens")" -ge 3 ] && awk 'NR > 1 && !/^(v[0-9]+\.[0-9]+ |and [0-9]+ more)/ { bad = 1 } END { exit bad }' "$TMP/sens"
	then ok "$size: every sensitivity candidate names its round ($(($(wc -l <"$TMP/sens") - 1)) listed)"
	else nok "$size: every sensitivity candidate names its round" "$(cat "$TMP/sens")" "$(cat "$UI_SCREEN")"; fi
	# the range's ends: "N lo..hi" (or "N lo"); the first candidates give them
	lo=$(sed -n '1s/^sensitivity   N \([0-9]*\).*/\1/p' "$TMP/sens")
	hi=$(sed -n '1s/^sensitivity   N [0-9]*\.\.\([0-9]*\).*/\1/p' "$TMP/sens")
	first=$(sed -n '2s/.*-> \([0-9]*\).*/\1/p' "$TMP/sens")
	second=$(sed -n '3s/.*-> \([0-9]*\).*/\1/p' "$TMP/sens")
	if [ -n "$lo" ] && [ -n "$hi" ] && [ "$first" = "$lo" ] && [ "$second" = "$hi" ]; then
		ok "$size: the candidates that set the ends ($lo..$hi) come first"
	else nok "$size: the candidates that set the ends come first" "range $lo..$hi, first $first, second $second" "$(cat "$TMP/sens")"; fi
	ui_keys q
	ui_keys q
	ui_exit_code >/dev/null
done

# ---- 4: x skips the rules that pick the same references, and says so ----
# two systems share the fewest accelerators: median and fastest pick the same one
printf 'system,benchmark,accelerators,minutes,accelerator\nslow2,bert,2,100,H100\nfast2,bert,2,90,H100\neight,bert,8,24,H100\nsixteen,bert,16,13,H100\n' >"$TMP/two.csv"
printf 'system,benchmark,accelerators,minutes,accelerator\nonly2,bert,2,100,H100\neight,bert,8,24,H100\n' >"$TMP/one.csv"
for size in 80x24 120x40 200x60; do
	ui_start "${size%x*}" "${size#*x}" "" -m paper "'$TMP/two.csv'"
	ui_wait "help" >/dev/null
	ui_keys x
	ui_see "$size: x: median, which fastest equals here" "reference rule median = fastest"
	ui_keys x
	ui_see "$size: x again: back to slowest, fastest skipped" "reference rule slowest"
	ui_keys q
	ui_exit_code >/dev/null
	ui_start "${size%x*}" "${size#*x}" "" -m paper "'$TMP/one.csv'"
	ui_wait "help" >/dev/null
	ui_keys x
	ui_see "$size: x with one candidate: every rule picks the same" "every rule picks the same references"
	ui_keys q
	ui_exit_code >/dev/null
done

# ---- 7: C chooses the table's columns ----
for size in 80x24 120x40 200x60; do
	ui_start "${size%x*}" "${size#*x}" "" --round v4.1 -w bert
	ui_wait "help" >/dev/null
	ui_keys C
	ui_see "$size: C opens the column chooser" "table columns ("
	ui_keys -l accelerator-h
	ui_keys Space Enter
	ui_see "$size: Enter applies the columns" "table columns: "
	ui_cap
	if has_heads N min "E'" && ! has_heads A; then ok "$size: A unchecked leaves the table ($(heads))"
	else nok "$size: A unchecked leaves the table" "$(heads)" "$(cat "$UI_SCREEN")"; fi
	ui_keys q
	ui_exit_code >/dev/null
done

# ---- 8: a cut label keeps a blank before any other mark ----
# the label is cut (the last line then names the selected row whole): on its plot row the
# label is the name's head, '~' and its tail, with nothing glued to either end
for size in 80x24 120x40 200x60; do
	ui_start "${size%x*}" "${size#*x}" "" --round v4.1 -w bert
	ui_wait "help" >/dev/null
	seen=0 bad=""
	i=0
	while [ $i -lt 30 ]; do
		ui_cap
		name=$(sed -n 's/^ selected: \([^ ]*\) .*/\1/p' "$UI_SCREEN")
		if [ -n "$name" ]; then
			# tokens with a cut mark on the plot's rows (above the x axis labels)
			# (side by side: the plot's columns only, left of the table's border)
			pw=$(awk '/vs accelerators/ { print index($0, "|") - 1; exit }' "$UI_SCREEN")
			for t in $(sed -n '2,/^ *[0-9]* *++/p' "$UI_SCREEN" | cut -c "1-${pw:-999}" | tr ' ' '\n' | grep '~'); do
				t=${t#|}
				head=${t%%~*} tail=${t#*~}
				case "$name" in "$head"*"$tail") seen=$((seen + 1)) ;; *) bad="$bad $t($name)" ;; esac
			done
		fi
		ui_keys j
		sleep 0.1
		i=$((i + 1))
	done
	if [ -z "$bad" ] && [ "$seen" -gt 0 ]; then ok "$size: $seen cut labels, each the name's head~tail with a blank beside it"
	elif [ -z "$bad" ]; then skip "$size: cut labels keep a blank" "no label was cut at this size"
	else nok "$size: a cut label runs into a mark" "$bad"; fi
	ui_keys q
	ui_exit_code >/dev/null
done
ui_stop
echo "1..$n_"
