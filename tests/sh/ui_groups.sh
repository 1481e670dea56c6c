#!/bin/sh
# The hardware-controlled view on screen: the explorer opens in family mode; on v5.1
# Llama2-LoRA the points at N 128-576 (E' 0.2-0.3) are drawn, not clipped; the status line and
# the legend give each family's bracket exactly as --print summary does, whole, at every width
# (60..300 for the plot's legend, a spread of terminal widths for the status line).
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
one_round v5.1

# each family's short bracket from the summary: "FAMILY<TAB>BRACKET"
"$GPUSCALE" -w llama2_70b_lora --print summary >"$TMP/sum" 2>"$TMP/err"
awk '/^  family      / { f = substr($0, 15) }
	/^    bracket     / { b = substr($0, 17); sub(/ \(.*/, "", b); sub(/  .*/, "", b); print f "\t" b }' \
	"$TMP/sum" >"$TMP/brackets"
if [ "$(wc -l <"$TMP/brackets")" -ge 5 ]; then ok "summary: a bracket per family ($(wc -l <"$TMP/brackets"))"
else nok "summary: a bracket per family" "$(cat "$TMP/sum")"; fi

# check_pairs DESC TEXT: every "FAMILY BRACKET" the text gives (a comma list) is the summary's
check_pairs() {
	printf '%s\n' "$2" | tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^+[0-9]* more$' | grep . >"$TMP/pairs"
	bad=$(awk -F'\t' 'NR == FNR { want[$1 " " $2] = 1; next } !($0 in want) { print }' "$TMP/brackets" "$TMP/pairs")
	if [ -s "$TMP/pairs" ] && [ -z "$bad" ]; then ok "$1"; else nok "$1" "not the summary's: '$bad'" "text: $2"; fi
}

# ---- the plot's legend, every width 60..300: "FAMILY break-even BRACKET", whole ----
badw=""
w=60
[ "${SANITIZE:-}" = 1 ] && WSTEP=3
while [ $w -le 300 ]; do
	"$GPUSCALE" -w llama2_70b_lora --print plot --width $w --height 20 >"$TMP/p" 2>/dev/null
	leg=$(tail -n 1 "$TMP/p")
	be=$(printf '%s\n' "$leg" | sed -n 's/.*: \(.*\) break-even \([^ ]*\).*/\1 \2/p')
	if [ -n "$be" ]; then
		printf '%s\n' "$be" >"$TMP/pairs"
		awk -F'\t' 'NR == FNR { want[$1 " " $2] = 1; next } !($0 in want) { exit 1 }' "$TMP/brackets" "$TMP/pairs" ||
			badw="$badw $w($be)"
	fi
	# a cut legend ends in ' ~' after a whole field, never inside a number
	case "$leg" in *[0-9]~*|*[0-9][0-9]) badw="$badw $w(cut:${leg##* })" ;; esac
	# a sanitizer build is many times slower: every third width there
	w=$((w + ${WSTEP:-1}))
done
if [ -z "$badw" ]; then ok "--print plot legend at every width 60..300: the bracket whole and equal to the summary's"
else nok "--print plot legend at every width 60..300" "bad at:$badw"; fi

# ---- the explorer ----
if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; echo "1..$n_"; exit 0; fi
for size in 80x24 200x60 60x20 100x30 120x40 160x50 250x60 300x70; do
	cols=${size%x*} rows=${size#*x}
	ui_start "$cols" "$rows" ""
	if ! ui_wait "[Llama2-LoRA]"; then nok "$size: opens on Llama2-LoRA" "$(cat "$UI_SCREEN")"; continue; fi
	ui_cap
	st=$(grep -F ' | theta 0.8: ' "$UI_SCREEN" | head -n 1)
	if grep -qF 'ref: per family' "$UI_SCREEN"; then ok "$size: opens in family mode"
	else nok "$size: opens in family mode" "$(tail -n 4 "$UI_SCREEN")"; fi
	# (the throughput and convergence brackets that follow a bracket are split.sh's)
	groups=$(printf '%s\n' "$st" | sed 's/.* | theta 0\.8: //; s/ | .*//; s/ thr [^ ,]*//g; s/ conv [^ ,]*//g')
	check_pairs "$size: the status line's brackets are the summary's, whole" "$groups"
	leg=$(grep -F ' break-even ' "$UI_SCREEN" | head -n 1)
	be=$(printf '%s\n' "$leg" | sed -n 's/.*: \(.*\) break-even \([^ ]*\).*/\1 \2/p')
	check_pairs "$size: the legend's bracket is the summary's" "$be"
	# no point clipped below: the legend has no 'v N' count, and the low points are drawn
	if printf '%s\n' "$leg" | grep -Eq '(^| )v [0-9]'; then nok "$size: no point clipped below theta" "$leg"
	else ok "$size: no point clipped below theta"; fi
	if [ "$size" = 80x24 ] || [ "$size" = 200x60 ]; then
		# the bottom data row holds the lowest E' of the view or lies below it: the N 128-576
		# points at E' 0.2-0.3 are in range (the row's value from the two lowest y labels, the
		# rows evenly spaced; a value is in the row within half a step)
		minep=$("$GPUSCALE" --print csv --round v5.1 -w llama2_70b_lora 2>/dev/null |
			awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "e_prime") c = i; next }
				c && (m == "" || $c + 0 < m) { m = $c + 0 } END { print m }')
		low=$(awk '/^ *\+\+?-/ { ax = NR; exit } /^ *[0-9.]+ \+/ { r2 = r1; v2 = v1; r1 = NR; v1 = $1 + 0 }
			END { if (r2 && ax) { d = (v2 - v1) / (r1 - r2); printf "%.6g\n", v1 - (ax - 1 - r1) * d - d / 2 } }' "$UI_SCREEN")
		if awk -v v="$low" -v m="$minep" 'BEGIN { exit !(v != "" && m != "" && v + 0 <= m + 1e-9) }'; then
			ok "$size: the y axis reaches down to the low-E' points (bottom row from $low, lowest E' $minep)"
		else nok "$size: the y axis reaches down to the low-E' points" "bottom row '$low'" "$(cat "$UI_SCREEN")"; fi
	fi
done

# ---- the row filter narrows the view, says so, and the export writes and heads what is shown
mkdir -p "$TMP/exp"
UI_CWD="$TMP/exp" ui_start 120 40 ""
ui_wait "[Llama2-LoRA]"
ui_keys '|'
ui_keys t h e i a
ui_keys Enter
if ui_wait "/62 rows ~ theia"; then ok "row filter: the status line says the view and its filter"
else nok "row filter: the status line says the view and its filter" "$(tail -n 4 "$UI_SCREEN")"; fi
# the filter takes little room: the groups' brackets keep theirs (Instinct MI300X: theia's family)
if grep -E "/62 rows ~ theia" "$UI_SCREEN" | grep -qE "theta [0-9.]+: [A-Za-z]"; then
	ok "row filter: the status line keeps the groups' brackets"
else nok "row filter: the status line keeps the groups' brackets" "$(tail -n 4 "$UI_SCREEN")"; fi
view=$(sed -n 's/.* \([0-9]*\)\/62 rows ~ theia.*/\1/p' "$UI_SCREEN" | head -n 1)
ui_keys e
ui_wait "exported"
csv=$(ls "$TMP/exp"/gpuscale-*.csv 2>/dev/null | head -n 1)
txt=$(ls "$TMP/exp"/gpuscale-*.txt 2>/dev/null | head -n 1)
want=$("$GPUSCALE" -w llama2_70b_lora --print csv | awk -F, 'NR > 1 && $5 ~ /theia/' | wc -l)
if [ -n "$csv" ] && [ "$(($(wc -l <"$csv") - 1))" -eq "$want" ] && [ "$view" = "$want" ]; then
	ok "row filter: the export writes the $want rows shown"
else nok "row filter: the export writes the rows shown" "csv '$csv' lines $(wc -l <"$csv" 2>/dev/null), view '$view', want $want"; fi
if [ -n "$txt" ] && head -n 1 "$txt" | grep -qF " $want/62 rows ~ theia (row filter: these rows only"; then
	ok "row filter: the plot file is headed with the rows shown and the filter"
else nok "row filter: the plot file is headed with the rows shown and the filter" "$(head -n 1 "$txt" 2>/dev/null)"; fi
# at 80x24 too the filter leaves the selected row's group its bracket (it once took them all)
ui_start 80 24 ""
ui_wait "[Llama2-LoRA]"
ui_keys '|'
ui_keys t h e i a
ui_keys Enter
ui_wait "/62 rows ~ theia"
if grep -E "/62 rows ~ theia" "$UI_SCREEN" | grep -qE "theta [0-9.]+: [A-Za-z]"; then
	ok "80x24 row filter: the status line keeps the selected group's bracket"
else nok "80x24 row filter: the status line keeps the selected group's bracket" "$(tail -n 4 "$UI_SCREEN")"; fi
ui_stop
echo "1..$n_"
