#!/bin/sh
# The split of E' on screen: the decomposition sentence in the detail, the throughput and
# convergence brackets on the status line at 80x24 and 200x60, and y reaching e_thru and e_conv.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
one_round v5.0

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# status line: the selected group's bracket, then thr and conv (at 80 columns the features take
# their short form for them, where that is enough)
status_split() {
	ui_cap
	if grep -Eq "$2" "$UI_SCREEN"; then ok "$1"; else nok "$1" "$(tail -n 3 "$UI_SCREEN")"; fi
}
ui_start 80 24 "" -w bert -m paper
ui_wait "theta"
status_split "80x24: the status line has the bracket, thr and conv" ' \| theta 0\.8: 512\+ thr 512\+ conv 512\+ \| '
ui_start 200 60 "" -w llama2_70b_lora -r nyx_n1_ngc25.04_nemo
ui_wait "theta"
status_split "200x60: the status line has the bracket, thr and conv" ' \| theta 0\.8: 36\.\.<64 thr [^ |]+ conv [^ |]+ \| '
ui_start 200 60 "" -w llama2_70b_lora -r nyx_n1_ngc25.04_nemo
ui_wait "theta"
ui_keys /
ui_keys tyche_ngpu512 Enter
ui_keys Enter
ui_wait "split"
ui_see "detail: the decomposition sentence" "E' 0.31 = throughput 0.72 x convergence 0.44 (GBS 8 -> 64; samples 3,168 -> 7,296; RCP at GBS 64: 7,780)"
ui_see "detail: the group's split brackets" "split         throughput "
ui_keys Escape
ui_settle
if ui_press_until y "plot: thr" 12; then ok "y reaches e_thru"; else nok "y reaches e_thru" "$(tail -n 3 "$UI_SCREEN")"; fi
if ui_press_until y "plot: conv" 3; then ok "y reaches e_conv"; else nok "y reaches e_conv" "$(tail -n 3 "$UI_SCREEN")"; fi
if ui_press_until y "plot: GBS" 3; then ok "y reaches GBS"; else nok "y reaches GBS" "$(tail -n 3 "$UI_SCREEN")"; fi
ui_stop
echo "1..$n_"
