#!/bin/sh
# An answer longer than the message line is never cut: at 80x24 and 200x60 (v5.1
# Llama2-LoRA), "Q max-cost 5" ends "(possibly within 5 USD); ... minimizing acc-hours)" and then
# what the best family's law predicts, "(possibly within budget)"; "Q deadline 12" names every
# family it marks and the law's answer, read whole from the last lines (wrapped over the lines
# above when longer than one); a wrapped answer outlasts the four seconds of a message and goes
# with the next key.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# answer FILE: the message, from its first line ("best ...") to the last line, joined by blanks
answer() {
	awk '/^ best / || /^ query / { on = 1 } on { sub(/^ /, ""); sub(/ +$/, ""); printf "%s%s", sep, $0; sep = " " }
		END { print "" }' "$1"
}

for size in 80x24 200x60; do
	cols=${size%x*} rows=${size#*x}
	ui_start "$cols" "$rows" "" --round v5.1 -w llama2_70b_lora
	ui_wait "q quit" || true
	ui_keys Q
	ui_wait "query" || true
	ui_keys "max-cost 5" Enter
	ui_wait "within budget)" || true
	a=$(answer "$UI_SCREEN")
	case "$a" in *"~"*) nok "$size: Q max-cost 5: the answer is not cut" "$a" ;;
	*"cost 3.14..16.9 USD (possibly within 5 USD); 1 family marked @; unpriced families left out (cost <= 5 USD; minimizing acc-hours); B200 law: predicted "*" min, "*"(possibly within budget)")
		ok "$size: Q max-cost 5: the whole answer, its qualifier too" ;;
	*) nok "$size: Q max-cost 5: the whole answer, its qualifier too" "$a" "$(cat "$UI_SCREEN")" ;; esac
	if [ "$size" = 80x24 ]; then
		n=$(awk '/^ best /, 0' "$UI_SCREEN" | wc -l | tr -d ' ')
		[ "$n" -ge 2 ] && ok "$size: it wraps over $n lines" || nok "$size: it wraps over the lines above" "$(cat "$UI_SCREEN")"
		sleep 4.5
		ui_cap
		case "$(answer "$UI_SCREEN")" in *"minimizing acc-hours); B200 law: "*"within budget)") ok "$size: a wrapped answer outlasts four seconds" ;;
		*) nok "$size: a wrapped answer outlasts four seconds" "$(cat "$UI_SCREEN")" ;; esac
		ui_keys j
		ui_gone "$size: the next key takes it away" "possibly within 5 USD"
		ui_see "$size: the status lines are back" "62/62 rows"
	fi
	ui_keys Q
	ui_wait "query" || true
	ui_keys "deadline 12" Enter
	ui_wait " law: " || true
	sleep 0.3
	ui_cap
	a=$(answer "$UI_SCREEN")
	# the answer's own end: the constraint and the objective, in parentheses
	case "$a" in *"~"*) nok "$size: Q deadline 12: the answer is not cut" "$a" ;;
	*"marked @"*"(T <= 12 min; minimizing acc-hours); "*" law: predicted "*" min"*) ok "$size: Q deadline 12: the whole answer" ;;
	*) nok "$size: Q deadline 12: the whole answer" "$a" "$(cat "$UI_SCREEN")" ;; esac
	# no row meets it: the selected row's family's law still answers, never a refusal
	ui_keys Q
	ui_wait "query" || true
	ui_keys "deadline 0.38" Enter
	ui_wait " law: " || true
	sleep 0.3
	ui_cap
	a=$(answer "$UI_SCREEN")
	case "$a" in *"query T <= 0.38 min; minimizing acc-hours: no shown row meets it; "*" law: predicted "*" N "*" min"*)
		ok "$size: Q deadline 0.38: no row meets it, the law gives its N" ;;
	*) nok "$size: Q deadline 0.38: no row meets it, the law gives its N" "$a" "$(cat "$UI_SCREEN")" ;; esac
done
ui_stop
