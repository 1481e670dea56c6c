#!/bin/sh
# One meaning per letter on the screen, at 80x24 and 200x60 (v5.1 Llama2-LoRA, family mode):
# the plot's letters are families, named in the legend; the table writes each family after its
# letter (nebius_b300_n1: b B300, drawn b); the clusters line and the cluster column number the
# clusters (1: 2: 3:) and never letter them. Paper mode draws the clusters as letters and its
# legend says which number each is; the table then writes no letter before the family. The help
# says which is which. The legend wraps over more rows rather than cut a name: every letter of
# the table is named in it.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

E=$(printf '\033')
# legend FILE: the plot's legend, its rows joined (under the x axis labels, cut to the plot's
# width, down to the table's heading or the clusters line)
legend() {
	awk 'ax == 0 && /^ *\+\+?-/ { ax = NR; w = length($0); if (match($0, /-\| /)) w = RSTART; next }
		ax && NR == ax + 1 { next }
		ax && (/^  # / || /^ clusters:/) { exit }
		ax { s = substr($0, 1, w); sub(/ *\|? *$/, "", s); printf "%s ", s }
		END { print "" }' "$1"
}
# table_pane FILE: the table from its heading on (right of the plot when side by side)
table_pane() {
	awk '/^ clusters:/ { exit }
		at == 0 { i = index($0, "  # "); if (i > 0 && $0 ~ /# +(submitter +)?system/) at = i }
		at > 0 { print substr($0, at) }' "$1"
}

for size in 80x24 200x60; do
	cols=${size%x*} rows=${size#*x}
	ui_start "$cols" "$rows" "" --round v5.1 -w llama2_70b_lora
	ui_wait "clusters:" || true
	ui_settle
	row1=$(table_pane "$UI_SCREEN" | sed -n 2p)
	case "$row1" in *nebius_b300_n1*" b B300 "*) ok "$size: the table writes b before B300" ;;
	*) nok "$size: the table writes b before B300" "$row1" ;; esac
	case "$(legend "$UI_SCREEN")" in *"b B300"*) ok "$size: the legend names b B300" ;;
	*) nok "$size: the legend names b B300" "$(legend "$UI_SCREEN")" ;; esac
	cl=$(grep -m 1 '^ clusters: ' "$UI_SCREEN")
	if printf '%s\n' "$cl" | grep -Eq '^ clusters: 1: .*\| 2: ' && ! printf '%s\n' "$cl" | grep -Eq '(: |\| )[a-l] '; then
		ok "$size: the clusters line numbers the clusters"
	else nok "$size: the clusters line numbers the clusters" "$cl"; fi
	# every shown row's letter is named in the legend, which is never cut
	table_pane "$UI_SCREEN" | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $3 }' | sort -u >"$TMP/letters"
	lg=" $(legend "$UI_SCREEN") "
	bad=""
	while read -r l; do
		case "$l" in [a-l]) case "$lg" in *" $l "*) ;; *) bad="$bad $l" ;; esac ;; *) bad="$bad '$l'" ;; esac
	done <"$TMP/letters"
	case "$lg" in *"~"*) bad="$bad (cut)" ;; esac
	if [ -z "$bad" ] && [ -s "$TMP/letters" ]; then ok "$size: the legend names every letter of the table ($(tr '\n' ' ' <"$TMP/letters"))"
	else nok "$size: the legend names every letter of the table" "missing:$bad" "$lg"; fi
	if [ "$size" = 200x60 ]; then
		# the cluster column holds numbers; the selected row 1 is drawn b, reversed
		vals=$(table_pane "$UI_SCREEN" | awk 'NR == 1 { c = index($0, " cl ") + 1; next }
			$1 ~ /^[0-9]+$/ { v = substr($0, c, 2); gsub(/ /, "", v); print v }' | sort -u | tr '\n' ' ')
		case "$vals" in *[a-z]*|"") nok "$size: the cluster column holds numbers" "'$vals'" "$h" ;;
		*) ok "$size: the cluster column holds numbers ($vals)" ;; esac
		tm capture-pane -e -p -t gs >"$TMP/sgr" 2>/dev/null
		if grep -q "${E}\[\([0-9]*;\)*7\(;[0-9]*\)*mb${E}" "$TMP/sgr"; then ok "$size: nebius_b300_n1 is drawn b"
		else nok "$size: nebius_b300_n1 is drawn b" "$(cat "$UI_SCREEN")"; fi
	fi
done

# paper mode: the clusters are the letters; the legend says a is cluster 1, the family stands
# alone in the table
ui_start 200 60 "" --round v5.1 -w llama2_70b_lora -m paper
ui_wait "clusters:" || true
ui_settle
case "$(legend "$UI_SCREEN")" in *"a b c clusters 1 2 3"*) ok "paper mode: the legend says a b c are clusters 1 2 3" ;;
*) nok "paper mode: the legend says a b c are clusters 1 2 3" "$(legend "$UI_SCREEN")" ;; esac
if table_pane "$UI_SCREEN" | grep -Eq ' [a-l] (B200|B300|GB200|H100) '; then
	nok "paper mode: no letter before the family" "$(table_pane "$UI_SCREEN" | head -n 5)"
else ok "paper mode: no letter before the family"; fi

# the help says which letter means what
ui_keys '?'
ui_wait "help" || true
ui_press_until Space "cluster 1, 2, 3" 20 && ok "the help: paper and pinned modes draw cluster 1, 2, 3 as a b c" ||
	nok "the help: paper and pinned modes draw cluster 1, 2, 3 as a b c" "$(cat "$UI_SCREEN")"
ui_stop
