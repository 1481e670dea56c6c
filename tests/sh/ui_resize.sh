#!/bin/sh
# Every resize re-lays out at once: stacked at 80x24 with all panes, side by side at 200x60, a
# "terminal too small" notice at 30x8 (minimum 60x16), and back; overlays survive a resize.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

ui_start 100 30 ""
ui_wait "[BERT]"

tm resize-window -t gs -x 80 -y 24
ui_see "80x24: header" "[BERT]"
ui_see "80x24: status bar with the reference" "7920T_2xA5000_hdd"
ui_see "80x24: cluster line" "clusters: a "
ui_see "80x24: rows shown / total" "29/29 rows"
ui_see "80x24: table header" "system"
rows=$(grep -cE '^ +[0-9]+ [A-Za-z0-9]' "$UI_SCREEN")
if [ "$rows" -ge 8 ]; then ok "80x24: at least 8 table rows ($rows)"; else nok "80x24: at least 8 table rows" "$(cat "$UI_SCREEN")"; fi
long=$(awk 'length($0) > 80' "$UI_SCREEN" | wc -l | tr -d ' ')
if [ "$long" -eq 0 ]; then ok "80x24: nothing drawn past column 80"; else nok "80x24: nothing past column 80"; fi
ui_keys G
ui_see "80x24: G scrolls the table to the last row" " 29 "

tm resize-window -t gs -x 200 -y 60
ui_see "200x60: side by side, the plot has its title" "vs accelerators (log2 N)"
line=$(ui_line 'vs accelerators')
case "$line" in *system*) ok "200x60: the table sits beside the plot" ;; *) nok "200x60: table beside the plot" "$line" ;; esac
ui_see "200x60: every row fits" " 29 "
ui_see "200x60: the submitter column is back" "submitter"

tm resize-window -t gs -x 30 -y 8
ui_see "30x8: terminal too small notice" "terminal too small"
ui_see "30x8: it says the minimum" "needs 60x16"
tm resize-window -t gs -x 59 -y 30
ui_see "59 columns is too small" "terminal too small"
tm resize-window -t gs -x 60 -y 16
ui_see "60x16 is enough" "[BERT]"
ui_gone "60x16: no notice" "too small"

tm resize-window -t gs -x 100 -y 30
ui_see "back to 100x30" "[BERT]"
ui_gone "the notice is gone" "too small"
ui_keys '?'
ui_wait "this help"
tm resize-window -t gs -x 80 -y 24
ui_see "an overlay survives a resize" "this help"
tm resize-window -t gs -x 10 -y 3
ui_see "10x3: still the notice" "too small"
tm resize-window -t gs -x 1 -y 1
sleep 0.2
tm resize-window -t gs -x 100 -y 30
ui_see "1x1 and back: the overlay is still there" "this help"
ui_keys q
ui_gone "q closes it" "this help"
i=0
while [ $i -lt 30 ]; do
	tm resize-window -t gs -x $((20 + i * 7 % 180)) -y $((5 + i * 3 % 55))
	i=$((i + 1))
done
tm resize-window -t gs -x 100 -y 30
ui_see "30 resizes in a row, then a normal screen" "[BERT]"
ui_keys q
ui_exits "q exits 0"
ui_sane "the terminal is usable afterwards"
ui_stop

# beyond what the rasterizer draws (400x200) the plot keeps its largest size
ui_start 900 260 ""
ui_see "900x260: the plot is still drawn (its legend)" "x: N (log2)"
ui_stop
