#!/bin/sh
# Comparison hygiene on screen: the Preview mark and the key that hides such rows (v4.1 GPT3,
# whose reference is a Preview system), the reference-rule key (x) with the status line, the
# break-even range on the status line, and the collapse key (d) on v4.0.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# paper mode: one reference for every row (the paper's), so BERT's compares across families and
# the reference rule picks among every 4-GPU Llama2-LoRA system
ui_start 160 34 "" -m paper
ui_wait "[BERT]"
ui_see "BERT mixes families: the status line warns" "E' mixes RTX A5000 and"
ui_keys 5
ui_see "5: GPT3" "[GPT3]"
ui_see "the Preview reference carries the mark v" "R*>v"
ui_keys v
ui_see "v: the message says Preview rows are hidden" "Preview and Research rows hidden"
ui_gone "v: the Preview rows are gone" "b200_n8_preview"
ui_keys v
ui_see "v again: they are back" "b200_n8_preview"

ui_keys 2
ui_see "2: Llama2-LoRA" "[Llama2-LoRA]"
ui_see "the paper rule takes the slowest 4-GPU system" "ref (paper) Dell/XE9640x4H100-SXM-80GB"
# against XE9640x4 (N=4, 61.87 min) the fastest row at E' >= 0.8 is eos_n8 (N=64, E' 0.846),
# every row at N=128 is below: 64..<128
ui_see "the status line gives the break-even bracket" "theta 0.8: 64..<128 thr "
ui_keys x
ui_see "x: the median of the three 4-GPU systems" "ref (paper, median) Dell/XE8640x4H100-SXM-80GB"
ui_see "x: the message names the rule" "reference rule median"
ui_keys x
ui_see "x again: the fastest" "ref (paper, fastest) Fujitsu/GX2560M7_H100_SXM_80GBx4"
# against GX2560M7 (58.42 min) lambda_1cc_n4 at N=32 reaches 0.888, every N=64 row is below
ui_see "with it the break-even moves" "theta 0.8: 32..<64 thr "
ui_keys x
ui_see "x: back to the slowest" "ref (paper) Dell/XE9640x4H100-SXM-80GB"
ui_keys Enter
ui_keys G
# firm: the fastest row whose interval is wholly above theta (lambda_1cc_n4, N=32); loose: the
# fastest whose interval reaches it (eos_n8, N=64)
ui_see "the detail gives the bracket and its range" "all shown rows: 64..<128, range N 32..64"
ui_see "the detail states the sensitivity" "sensitivity   N 32..64"
ui_see "the detail gives the interval and its runs" "(90% bootstrap of"
ui_keys q
ui_keys q
ui_exit_code >/dev/null

ui_start 120 34 "" "'$GS_TOP/data/mlperf_training_v4.0.csv'"
ui_wait "[BERT]"
rows() { ui_cap; grep -o '[0-9]*/[0-9]* rows' "$UI_SCREEN" | head -n 1; }
before=$(rows)
ui_keys d
ui_see "d: every submitter of identical runs shown" "identical submissions shown under every submitter"
after=$(rows)
if [ "$before" != "$after" ]; then
	ok "d: the v4.0 smc submissions come apart ($before -> $after)"
else
	skip "d: the v4.0 smc submissions come apart" "the loader marks no duplicates yet ($before)"
fi
ui_keys d
ui_see "d again: collapsed" "identical submissions collapsed"
ui_keys q
ui_exits "q exits 0"
ui_stop
echo "1..$n_"
