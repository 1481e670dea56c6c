#!/bin/sh
# Paper and pinned mode fit no family against a reference of another family: v4.1 BERT in paper
# mode has the 2x RTX A5000 workstation as its one reference, and the H100 SXM fit is judged, and
# its break-even predicted, on the H100 SXM's own reference (N=4) exactly as family mode does it,
# and says so; a pinned reference of the family's own keeps being the one its fit is judged on.
. "$(dirname "$0")/../lib.sh"

one_round v4.1
"$GPUSCALE" --print summary,fit -w bert >"$TMP/fam" 2>"$TMP/err"
"$GPUSCALE" --print summary,fit -w bert --mode paper >"$TMP/paper" 2>"$TMP/err"
contains "paper mode: the reference is the RTX A5000 workstation" "$TMP/paper" \
	"  reference   Krai/7920T_2xA5000_hdd (N=2, 366.19 min, paper)"
lacks "paper mode: no H100 SXM break-even against the RTX A5000 reference" "$TMP/paper" "N 7670"
contains "paper mode: the H100 SXM fit judged on its own reference, and saying so" "$TMP/paper" \
	"  fit         H100 SXM: poor fit: worst N=48 observed 0.66, fitted 0.83; predicted break-even N 65.6 (poor fit) on its family's own reference (N=4); no peak (kappa 0)"
# the verdict and break-even are family mode's, word for word, but for the words saying whose
fl=$(grep '^  H100 SXM: ' "$TMP/fam")
pl=$(grep '^  H100 SXM: ' "$TMP/paper" | sed "s/ on its family's own reference (N=4)//")
if [ -n "$fl" ] && [ "$fl" = "$pl" ]; then ok "paper mode: the --print fit line is family mode's"
else nok "paper mode: the --print fit line is family mode's" "family: $fl" "paper:  $pl"; fi
"$GPUSCALE" --print fit --format json -w bert --mode paper >"$TMP/j" 2>"$TMP/err"
if python3 -c 'import json,sys
f = [x for x in json.load(open(sys.argv[1]))["fit"][0]["families"] if x["family"] == "H100 SXM"][0]["verdict"]
sys.exit(not (f["n_ref"] == 4 and f["judged"] and f["breakeven"] == 65.6))' "$TMP/j"; then
	ok "paper mode json: the H100 SXM verdict on N_ref 4, break-even 65.6"
else
	nok "paper mode json: the H100 SXM verdict on N_ref 4" "$(head -c 600 "$TMP/j")"
fi
"$GPUSCALE" --print summary -w bert -r eos_n8_ngc23.04_pytorch >"$TMP/pin" 2>"$TMP/err"
contains "pinned to an H100 SXM row: that family's fit is judged on the pinned row" "$TMP/pin" \
	"  fit         H100 SXM: poor fit: worst N=48 observed 0.90, fitted 1.13; predicted break-even N 234 (poor fit); no peak (kappa 0)"
echo "1..$n_"
