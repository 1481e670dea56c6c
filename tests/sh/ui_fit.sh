#!/bin/sh
# The fit key on Llama2-LoRA filtered to H100 SXM: the predicted break-even (the one --print fit
# gives) in the status line next to the observed one, the fitted curve in a glyph of its own
# over the points, the row's residual in the detail; off again on a second press.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

args="-w llama2_70b_lora --round v4.1 -f 'H100 SXM'"
# what the screen must show, from the report (not written down here)
eval "\"\$GPUSCALE\" --print fit $args" >"$TMP/fit" 2>&1
# the prediction with its mark ("63.7 (poor fit)"), and the family's observed bracket
be=$(sed -n 's/^  H100 SXM: .*break-even N \([0-9.e+]*\( ([a-z, ]*)\)\{0,1\}\) at theta.*/\1/p' "$TMP/fit")
if [ -n "$be" ]; then ok "--print fit predicts a break-even for H100 SXM ($be)"; else nok "--print fit predicts a break-even for H100 SXM" "$(cat "$TMP/fit")"; fi
eval "\"\$GPUSCALE\" --print summary $args" >"$TMP/sum" 2>&1
obs=$(sed -n 's/^    bracket     \([^ ]*\) .*/\1/p' "$TMP/sum")
if [ -n "$obs" ]; then ok "--print summary gives H100 SXM's observed bracket ($obs)"; else nok "--print summary gives H100 SXM's observed bracket" "$(cat "$TMP/sum")"; fi

ui_start 160 40 "" $args
ui_wait "Llama2-LoRA" || { nok "explorer starts" "$(cat "$UI_SCREEN")"; exit 0; }
ui_cap
lacks "before L: no fit in the status line" "$UI_SCREEN" " fit N "
lacks "before L: no fit curve in the legend" "$UI_SCREEN" ". fit"
n0=$(sed -n '2,34p' "$UI_SCREEN" | cut -c1-70 | tr -cd '.' | wc -c)

ui_keys L
ui_see "L: the message says the fit is on" "scaling-law fit on"
ui_see "L: the status line gives the observed bracket, as --print summary says" "theta 0.8: H100 SXM $obs"
ui_see "L: ... and the prediction of the H100 SXM law, as --print fit says" "H100 SXM fit N $be"
if ui_line " theta [0-9.]+: H100 SXM [0-9.<+]+( thr [^ ,]+ conv [^ ,]+)?, H100 SXM fit N " >/dev/null; then ok "L: observed, then predicted"; else nok "L: observed, then predicted" "$(tail -n 3 "$UI_SCREEN")"; fi

# the curve: its own glyph, named in the legend, drawn between the points' rows
ui_see "L: the legend names the fitted curve" ". fit"
n=$(sed -n '2,34p' "$UI_SCREEN" | cut -c1-70 | tr -cd '.' | wc -c)
if [ "$n" -ge $((n0 + 15)) ]; then ok "L: the fitted curve is drawn over the points ($((n - n0)) cells)"; else nok "L: the fitted curve is drawn over the points" "$(cat "$UI_SCREEN")"; fi

ui_keys Enter
ui_see "Enter: the detail gives the row's residual against the law" "residual "
ui_see "Enter: ... and its fitted E'" "fitted E' "
ui_keys q
ui_gone "q closes the detail" "residual "

ui_keys L
ui_see "L again: off" "scaling-law fit off"
ui_gone "L again: the prediction leaves the status line" " fit N "
ui_gone "L again: the curve leaves the legend" ". fit"
ui_keys q
ui_exits "q quits"
ui_stop
