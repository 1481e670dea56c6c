#!/bin/sh
# CSV for spreadsheets: a text cell that starts with = + - @ (a formula to a spreadsheet) is
# written after a ' by --print csv, the export and the importer, unless --raw; numbers (a
# -1.5 as a name) are never touched; the loader reads both back to the
# same values, so the round trip stays exact.
. "$(dirname "$0")/../lib.sh"
G=$GPUSCALE
IN="$TMP/in.csv"
cat >"$IN" <<'EOF'
round,submitter,system,accelerator,accelerators,benchmark,minutes,framework,run_minutes
v9,"=HYPERLINK(""http://x"")",+sys,@acc,8,bert,10,-1.5,10;10;10
v9,'=a,-sys2,''+b,16,bert,6,'-1.5,6;6;6
v9,'x,-7,-1e5,32,bert,4,-1+2,4;4;4
v9,S,fast,acc,64,bert,3.9,fw,3.9;3.9;3.9
EOF
"$G" "$IN" --print csv >"$TMP/o.csv" 2>"$TMP/err" || nok "the input loads" "$(head -c 300 "$TMP/err")"
# cells: python's csv module, the way a spreadsheet import reads the file
cells() { # FILE COLUMN...: "a|b|c" per row
	python3 - "$@" <<'PY'
import csv, sys
f, cols = sys.argv[1], sys.argv[2:]
for r in csv.DictReader(open(f, newline="")):
    print("|".join(r[c] for c in cols))
PY
}
if ! command -v python3 >/dev/null 2>&1; then
	skip "cells checked as a CSV reader sees them" "no python3"
else
	cells "$TMP/o.csv" submitter system accelerator framework >"$TMP/c"
	contains "a formula in a name gets a ' (inside the quotes)" "$TMP/c" "'=HYPERLINK(\"http://x\")|'+sys|'@acc|-1.5"
	contains "a cell that had a ' before a formula keeps it and gets one more" "$TMP/c" "'=a|'-sys2|''+b|''-1.5"
	contains "a plain number in a text column is left alone; -1+2 is not a number" "$TMP/c" "'x|-7|-1e5|'-1+2"
	# every numeric column reads as a number or is empty: none got a '
	cells "$TMP/o.csv" karp_flatt minutes speedup e_prime >"$TMP/n"
	if grep -q "'" "$TMP/n"; then nok "numeric cells are never guarded" "$(grep "'" "$TMP/n" | head -n 3)"
	elif [ "$(grep -c . "$TMP/n")" -eq 4 ]; then ok "numeric cells are never guarded"
	else nok "numeric cells of 4 rows to check" "$(cat "$TMP/n")"; fi
	"$G" --raw "$TMP/o.csv" --print csv >"$TMP/raw.csv" 2>/dev/null
	cells "$TMP/raw.csv" submitter system accelerator framework >"$TMP/c"
	contains "--raw writes cells as they are" "$TMP/c" "=HYPERLINK(\"http://x\")|+sys|@acc|-1.5"
	contains "--raw: what had a ' keeps it" "$TMP/c" "=a|-sys2|'+b|'-1.5"
fi
"$G" "$TMP/o.csv" --print csv >"$TMP/o2.csv" 2>/dev/null
if cmp -s "$TMP/o.csv" "$TMP/o2.csv"; then ok "the guarded CSV loads back to the same values (same output)"
else nok "the guarded CSV loads back to the same values" "$(diff "$TMP/o.csv" "$TMP/o2.csv" | head -n 6)"; fi
"$G" --print csv >"$TMP/b.csv" 2>/dev/null
"$G" --raw --print csv >"$TMP/b2.csv" 2>/dev/null
if [ -s "$TMP/b.csv" ] && cmp -s "$TMP/b.csv" "$TMP/b2.csv"; then ok "the bundled rounds have no cell to guard"
else nok "the bundled rounds have no cell to guard" "$(diff "$TMP/b.csv" "$TMP/b2.csv" | head -n 4)"; fi

# the importer: folder names that are formulas
T="$TMP/training_results_vG"
S="$T/=HYPERLINK(\"http:__x\")"
mkdir -p "$S/systems" "$S/results/-sys/bert"
printf '{"submitter": "x", "division": "closed", "status": "available", "system_name": "@name",\n "number_of_nodes": 1, "accelerators_per_node": 8, "accelerator_model_name": "+acc", "framework": "-1.5"}\n' >"$S/systems/-sys.json"
for r in 0 1 2; do
	printf ':::MLLOG {"time_ms": 0, "key": "run_start", "metadata": {}}\n:::MLLOG {"time_ms": %s, "key": "run_stop", "metadata": {"status": "success"}}\n' \
		"$((600000 + r * 60000))" >"$S/results/-sys/bert/result_$r.txt"
done
"$G" import -o "$TMP/imp.csv" "$T" >"$TMP/out" 2>"$TMP/err"
contains "import: formula cells guarded" "$TMP/imp.csv" "v${T##*_v},\"'=HYPERLINK(\"\"http:__x\"\")\",'-sys,'@name,closed,available,'+acc,1,8,8,-1.5,bert,"
"$G" import --raw -o "$TMP/imp_raw.csv" "$T" >"$TMP/out" 2>"$TMP/err"
contains "import --raw: as they are" "$TMP/imp_raw.csv" ",\"=HYPERLINK(\"\"http:__x\"\")\",-sys,@name,"
"$G" "$TMP/imp.csv" --print csv >"$TMP/l.csv" 2>/dev/null
"$G" --raw "$TMP/imp.csv" --print csv >"$TMP/lr.csv" 2>/dev/null
contains "the loader reads the guarded names back as the folders have them" "$TMP/lr.csv" ",\"=HYPERLINK(\"\"http:__x\"\")\",-sys,"
if command -v python3 >/dev/null 2>&1; then
	check "the reference scorer agrees on the guarded import" python3 "$GS_TOP/tests/tools/score_ref.py" "$T" "$TMP/imp.csv"
else
	skip "the reference scorer agrees on the guarded import" "no python3"
fi
echo "1..$n_"
