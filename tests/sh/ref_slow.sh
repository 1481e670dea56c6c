#!/bin/sh
# A reference more than 2x slower than the median of the rows it was picked from (its group's
# fewest-accelerator rows) is flagged with that median: in the summary (text and JSON), on the
# status line (compact) and in the detail. v5.1 RetinaNet's B200 reference takes 55.64 min where
# the other eight 8-GPU rows take 21.5 to 22.3 (median of the nine: 21.99); the fixture's family
# A has 25 min against a median of 11 (flagged, 2.27x), family B 22 against 11 (exactly 2x: not).
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
fx=$GS_TOP/tests/fixtures/refslow/refslow.csv

one_round v5.1
"$GPUSCALE" --print summary -w retinanet >"$TMP/s" 2>"$TMP/err"
contains "v5.1 RetinaNet: the B200 reference is flagged with its candidates' median" "$TMP/s" \
	"    warning     reference 55.64 min is 2.53x the median (21.99 min) of the 9 rows at N=8 it was picked from: the group's E' are about 2.53x what a typical one gives"
if [ "$(grep -c '    warning     reference ' "$TMP/s")" -eq 1 ]; then ok "... and no other family of it"
else nok "... and no other family of it" "$(grep 'warning' "$TMP/s")"; fi
"$GPUSCALE" --print summary -w retinanet --format json >"$TMP/j" 2>"$TMP/err"
if python3 -c 'import json,sys
g = {x["family"]: x for x in json.load(open(sys.argv[1]))["summary"][0]["groups"]}
w = g["B200"]["reference_slow"]
others = [f for f in g if f != "B200" and g[f]["reference_slow"] is not None]
sys.exit(not (w and w["minutes"] == 55.640689 and w["candidates_median"] == 21.98775 and
              w["candidates"] == 9 and abs(w["ratio"] - 55.640689 / 21.98775) < 1e-15 and not others))' "$TMP/j"; then
	ok "json: reference_slow of B200 (55.640689 against the median 21.98775 of 9), null elsewhere"
else
	nok "json: reference_slow of B200" "$(head -c 400 "$TMP/j")"
fi

"$GPUSCALE" --print summary "$fx" >"$TMP/f" 2>"$TMP/err"
contains "fixture: 25 min against a median of 11 is flagged (2.27x)" "$TMP/f" \
	"    warning     reference 25.00 min is 2.27x the median (11.00 min) of the 3 rows at N=8 it was picked from"
if [ "$(grep -c 'warning     reference' "$TMP/f")" -eq 1 ]; then ok "fixture: exactly 2x the median is not flagged"
else nok "fixture: exactly 2x the median is not flagged" "$(cat "$TMP/f")"; fi
"$GPUSCALE" --print summary --mode paper "$fx" >"$TMP/fp" 2>"$TMP/err"
contains "fixture, paper mode: the one reference (25 min of six rows at N=8, median 11) is flagged" "$TMP/fp" \
	"  warning     reference 25.00 min is 2.27x the median (11.00 min) of the 6 rows at N=8 it was picked from"
"$GPUSCALE" --print summary --ref-rule median "$fx" >"$TMP/fm" 2>"$TMP/err"
lacks "fixture: the median rule's reference is no outlier" "$TMP/fm" "warning     reference"

if ! ui_have_tmux; then skip "the flag on screen" "tmux not installed"; echo "1..$n_"; exit 0; fi
ui_start 80 24 "NO_COLOR=1" -w retinanet
ui_wait "B200"
ui_see "80x24: the status line flags the B200 reference, compact" "B200 16..<32 (ref 2.5x median)"
ui_keys Enter
ui_wait "detail:"
ui_keys j j j
ui_see "detail: the warning under the reference" "warning       reference 55.64 min is 2.53x the median (21.99 min)"
ui_keys q q
ui_stop
ui_start 200 60 "NO_COLOR=1" -w retinanet
ui_wait "B200"
ui_see "200x60: the status line flags it" "B200 16..<32 (ref 2.5x median)"
ui_keys q
ui_stop
echo "1..$n_"
