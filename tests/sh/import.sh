#!/bin/sh
# End-to-end tests of `gpuscale import`: options, exit codes and messages on the fixture trees;
# then, when ../shared/mlperf is present, the shipped data files are re-made byte for byte,
# checked against the Python reference scorer, and every accelerator is given a family.
. "$(dirname "$0")/../lib.sh"
IFIX="$FIX/import"
TREE="$IFIX/training_results_vT"

# --- command line on the fixture trees ---
expect_exit "import -h exits 0" 0 "$GPUSCALE" import -h
contains "import -h prints the usage" "$TMP/out" "usage: gpuscale import"
expect_exit "import without DIR is a usage error" 2 "$GPUSCALE" import
expect_exit "unknown option is a usage error" 2 "$GPUSCALE" import --bogus "$TREE"
expect_exit "-o without a value is a usage error" 2 "$GPUSCALE" import "$TREE" -o
contains "-o without a value is named" "$TMP/err" "option '-o' needs a value"
# An empty value names the option, never DIR (the last word of the command line).
for a in --round --output -o; do
	expect_exit "import $a '' is a usage error" 2 "$GPUSCALE" import "$a" "" "$TREE"
	contains "import $a '' names $a" "$TMP/err" "option '$a' needs a value, got an empty one"
	lacks "import $a '' does not name DIR as the option" "$TMP/err" "option '$TREE'"
done
expect_exit "import --round= DIR is a usage error" 2 "$GPUSCALE" import --round= "$TREE"
contains "import --round= DIR names --round" "$TMP/err" "option '--round' needs a value, got an empty one"
expect_exit "import --output= DIR is a usage error" 2 "$GPUSCALE" import --output= "$TREE"
contains "import --output= DIR names --output" "$TMP/err" "option '--output' needs a value, got an empty one"
expect_exit "import DIR --round: exit 2" 2 "$GPUSCALE" import "$TREE" --round
contains "import DIR --round names --round" "$TMP/err" "option '--round' needs a value"
expect_exit "two DIRs are a usage error" 2 "$GPUSCALE" import "$TREE" "$TREE"
expect_exit "a missing DIR exits 2" 2 "$GPUSCALE" import "$TMP/nope"
mkdir -p "$TMP/plain"
expect_exit "a DIR not named training_results_* needs --round" 2 "$GPUSCALE" import "$TMP/plain"
contains "the message asks for --round" "$TMP/err" "--round"
(cd "$TREE" && "$GPUSCALE" import -o - . >"$TMP/dot.csv" 2>"$TMP/err"); rc=$?
if [ $rc -eq 0 ] && grep -q '^vT,' "$TMP/dot.csv"; then ok "import . inside training_results_vT infers the round vT"
else nok "import . inside training_results_vT infers the round vT" "exit $rc" "$(head -c 300 "$TMP/err")"; fi
ln -s "$TREE" "$TMP/link"
(cd "$TMP" && "$GPUSCALE" import -o - link >"$TMP/dot.csv" 2>"$TMP/err"); rc=$?
if [ $rc -eq 0 ] && grep -q '^vT,' "$TMP/dot.csv"; then ok "import of a symlink to training_results_vT infers vT"
else nok "import of a symlink to training_results_vT infers vT" "exit $rc" "$(head -c 300 "$TMP/err")"; fi

mkdir -p "$TMP/cwd"
(cd "$TMP/cwd" && "$GPUSCALE" import "$TREE" >"$TMP/out" 2>"$TMP/err"); rc=$?
if [ $rc -eq 0 ] && [ -f "$TMP/cwd/mlperf_training_vT.csv" ]; then ok "default output is mlperf_training_<round>.csv"; else nok "default output is mlperf_training_<round>.csv" "exit $rc" "$(cat "$TMP/err")"; fi
contains "final line counts systems, rows, warnings, skipped" "$TMP/err" "2 systems, 7 rows, 15 warnings, 4 skipped"
lacks "no progress line when stderr is not a terminal" "$TMP/err" "files,"
contains "corrupt line named with file, line and column" "$TMP/err" "unet3d/result_9.txt:6:107: run fails: MLLOG payload is not valid JSON"
contains "systems with no score are listed with the reason" "$TMP/err" "no score: Acme/sysA/dlrm_dcnv2: 2 of 5 runs failed (at most 1 allowed)"
contains "results without systems JSON are named" "$TMP/err" "Beta/results/sysC: no systems/sysC.json"
contains "bad systems JSON named with line and column" "$TMP/err" "Beta/systems/sysB.json:2:6:"
contains "a systems JSON that cannot be used names the result folders it leaves unscored" "$TMP/err" \
	"Beta/systems/sysB.json: systems JSON cannot be used: no score for Beta/results/sysB/bert"
if [ -s "$TMP/out" ]; then nok "nothing on stdout when writing a file" "$(head -c 300 "$TMP/out")"; else ok "nothing on stdout when writing a file"; fi
contains "unet3d keeps sorted[4:len-2] of 8 runs with 2 failed" "$TMP/cwd/mlperf_training_vT.csv" ",unet3d,5.500000,8,2,1,"
contains "scaling factor is applied and printed" "$TMP/cwd/mlperf_training_vT.csv" ",retinanet,45.000000,4,1,1.5,"

cp "$TMP/cwd/mlperf_training_vT.csv" "$TMP/keep.csv"
(cd "$TMP/cwd" && "$GPUSCALE" import "$TREE" >"$TMP/out" 2>"$TMP/err"); rc=$?
if [ $rc -eq 2 ] && grep -q -- "--force" "$TMP/err"; then ok "an existing OUT is not replaced without --force"; else nok "an existing OUT is not replaced without --force" "exit $rc" "$(cat "$TMP/err")"; fi
check "the existing OUT is left as it was" cmp "$TMP/keep.csv" "$TMP/cwd/mlperf_training_vT.csv"
expect_exit "--force replaces it" 0 "$GPUSCALE" import --force --round vX -o "$TMP/cwd/mlperf_training_vT.csv" "$TREE"
contains "--round sets the round column" "$TMP/cwd/mlperf_training_vT.csv" "vX,Acme,sysA,"
if ls -A "$TMP/cwd" | grep -q '^\.'; then nok "no temporary file is left behind" "$(ls -A "$TMP/cwd")"; else ok "no temporary file is left behind"; fi

"$GPUSCALE" import -o - "$TREE" >"$TMP/stdout.csv" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/stdout.csv" "$TMP/keep.csv"; then ok "-o - writes the same CSV to stdout"; else nok "-o - writes the same CSV to stdout" "exit $rc"; fi
contains "-o - still prints the final line on stderr" "$TMP/err" "-> stdout"

expect_exit "nothing importable exits 2" 2 "$GPUSCALE" import -o "$TMP/bad.csv" "$IFIX/training_results_bad"
contains "nothing importable says so" "$TMP/err" "nothing could be imported"
if [ -e "$TMP/bad.csv" ]; then nok "nothing importable writes no file"; else ok "nothing importable writes no file"; fi

if [ -w /dev/full ]; then
	expect_exit "a failed write (/dev/full) exits 1" 1 "$GPUSCALE" import -o /dev/full "$TREE"
	contains "a failed write names the file" "$TMP/err" "/dev/full"
else
	skip "a failed write (/dev/full) exits 1" "/dev/full is not writable here"
fi
cp "$TMP/keep.csv" "$TMP/full.csv"
# messages go through a pipe: the size limit would cut a file they were written to
{ (ulimit -f 1 && trap '' XFSZ && exec "$GPUSCALE" import --force -o "$TMP/full.csv" "$TREE" 2>&1); echo "rc=$?"; } |
	cat >"$TMP/err"
rc=$(sed -n 's/^rc=//p' "$TMP/err")
if [ $rc -eq 1 ]; then ok "a write that runs out of room (ulimit -f) exits 1"; else nok "a write that runs out of room exits 1" "exit $rc" "$(cat "$TMP/err")"; fi
check "a write that runs out of room keeps the old file" cmp "$TMP/keep.csv" "$TMP/full.csv"
contains "a write that runs out of room says so" "$TMP/err" "full.csv"
if ls -A "$TMP" | grep -q '^\.full'; then nok "no temporary file left after a failed write" "$(ls -A "$TMP")"; else ok "no temporary file left after a failed write"; fi
mkdir -p "$TMP/ro" && cp "$TMP/keep.csv" "$TMP/ro/out.csv" && chmod 555 "$TMP/ro"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	# root ignores folder permissions: the same as an unprivileged user
	chmod 755 "$TMP" && chmod -R a+rX "$TREE" "$TMP/ro" 2>/dev/null
	expect_exit "a read-only folder exits 1 (as nobody)" 1 \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$GPUSCALE" import --force -o "$TMP/ro/out.csv" "$TREE"
	contains "a read-only folder is named in the message" "$TMP/err" "$TMP/ro"
	check "a read-only folder keeps the old file" cmp "$TMP/keep.csv" "$TMP/ro/out.csv"
elif [ "$(id -u)" -eq 0 ]; then
	skip "a read-only folder keeps the old file and exits 1" "root ignores folder permissions and setpriv is missing"
else
	expect_exit "a read-only folder exits 1" 1 "$GPUSCALE" import --force -o "$TMP/ro/out.csv" "$TREE"
	check "a read-only folder keeps the old file" cmp "$TMP/keep.csv" "$TMP/ro/out.csv"
fi
chmod 755 "$TMP/ro"
expect_exit "a missing output folder exits 1" 1 "$GPUSCALE" import -o "$TMP/none/out.csv" "$TREE"

# --- the shipped data, re-made from ../shared/mlperf ---
for r in v5.1 v5.0 v4.1 v4.0 v3.1 v3.0 v2.1 v2.0; do
	src="$MLPERF/training_results_$r"
	if [ ! -d "$src" ]; then
		skip "re-import of $r equals data/mlperf_training_$r.csv" "$src is absent"
		skip "reference scorer agrees on $r" "$src is absent"
		continue
	fi
	expect_exit "import of $r succeeds" 0 "$GPUSCALE" import -o "$TMP/$r.csv" "$src"
	cp "$TMP/err" "$TMP/err.$r"
	check "re-import of $r equals data/mlperf_training_$r.csv" cmp "$TMP/$r.csv" "$GS_TOP/data/mlperf_training_$r.csv"
	if command -v python3 >/dev/null 2>&1; then
		check "reference scorer agrees on every $r cell to 1e-6 min" python3 "$GS_TOP/tests/tools/score_ref.py" "$src" "$TMP/$r.csv"
		check "reference energy scorer agrees on every $r energy_j and power_measurement" \
			python3 "$GS_TOP/tests/tools/energy_ref.py" "$r" "$src" "$TMP/$r.csv"
		# the official result summarizer's table: every cell, to 1e-6 min, and no other row
		case $r in v3.0) cells=259 ;; v3.1) cells=209 ;; v4.1) cells=153 ;; v5.0) cells=201 ;; v5.1) cells=184 ;; *) cells= ;; esac
		if [ -n "$cells" ] && [ -f "$MLPERF/official/official_summarizer_$r.csv" ]; then
			check "$r equals the official table's $cells cells, and has no other row" \
				python3 "$GS_TOP/tests/tools/official_ref.py" "$MLPERF/official/official_summarizer_$r.csv" "$TMP/$r.csv" "$cells"
		fi
	else
		skip "reference scorer agrees on $r" "python3 is absent"
	fi
done
if [ -f "$TMP/v4.0.csv" ]; then
	# the published v4.0 energy-to-train figures, to the joule
	for e in 1x:11769962 8x:20381549 64x:45837402; do
		if grep -q "^v4.0,smc-dc-power,${e%%:*}SMC-H100-SXM-80GB,.*,llama2_70b_lora,.*,${e#*:},DC," "$TMP/v4.0.csv"; then
			ok "v4.0 smc-dc-power ${e%%:*} llama2_70b_lora: ${e#*:} J, DC"
		else
			nok "v4.0 smc-dc-power ${e%%:*} llama2_70b_lora: ${e#*:} J, DC" "$(grep "smc-dc-power,${e%%:*}SMC.*llama2_70b_lora" "$TMP/v4.0.csv")"
		fi
	done
	contains "power logs left out of the tree: a warning naming the run's folder, no energy" "$TMP/err.v4.0" \
		"smc-ac-power/results/64xSMC-H100-SXM-80GB/llama2_70b_lora/power/result_5731-240517004956429471933_3: no node_*.txt power log for this run; no energy for this system"
fi
if [ -f "$TMP/v5.0.csv" ]; then
	# compliance rule 5: an initialization of 30 minutes or more fails the run
	contains "v5.0 tinycorp tinybox_green bert result_2.txt fails by its 32.3 min initialization" "$TMP/err.v5.0" \
		"tinycorp/results/tinybox_green/bert/result_2.txt:8:39: run fails: initialization took 32.3 min, 30 min or more"
	contains "and the official score counts it as failed (9 scored, 1 failed)" "$TMP/v5.0.csv" \
		",tinybox_green,tinybox green,closed,Available on-premise,NVIDIA GeForce RTX 4090,1,6,6,\"tinygrad, branch mlperf_training_v5.0\",bert,213.604290,9,1,"
	for b in flux1 llama31_405b llama31_8b; do
		if grep -q ",$b,[0-9.]*,[0-9]*,[0-9]*,.*,$b,[^,]*/$b," "$TMP/v5.1.csv"; then ok "v5.1 imports $b"; else nok "v5.1 imports $b"; fi
	done
fi
if [ -f "$TMP/v3.0.csv" ]; then
	# compliance rule 6: the official checker requires opt_lamb_epsilon in every v3.0 bert log
	contains "v3.0 Lenovo SR670v2 bert logs lacking opt_lamb_epsilon fail, named with the key" "$TMP/err.v3.0" \
		"Lenovo/results/SR670v2-4xA100_SXM4_40GB_400W/bert/result_1.txt: run fails: compliance: 'opt_lamb_epsilon' is missing; ruleset 3.0.0 requires it exactly once"
	if grep -q ',SR670v2-4xA100_SXM4_40GB_400W,.*,bert,' "$TMP/v3.0.csv"; then nok "and that row has no score"; else ok "and that row has no score"; fi
	contains "the system is listed as unscored with the reason" "$TMP/err.v3.0" \
		"no score: Lenovo/SR670v2-4xA100_SXM4_40GB_400W/bert: 10 of 10 runs failed"
	# CPU-only systems: the official count is 0 accelerators
	if grep -q '^v3.0,Intel,16-nodes-SPR-pytorch,.*,N/A,16,0,0,' "$TMP/v3.0.csv"; then ok "v3.0 Intel CPU-only system: 16 nodes, 0 accelerators"; else nok "v3.0 Intel CPU-only system: 16 nodes, 0 accelerators" "$(grep 16-nodes-SPR "$TMP/v3.0.csv" | head -1)"; fi
fi
if [ -f "$TMP/v2.1.csv" ]; then
	contains "before ruleset 3.0.0 a missing key only warns, once per folder, as today's list" "$TMP/err.v2.1" \
		"compliance: 'eval_samples' is missing; today's key list for ruleset 2.1.0 requires it exactly once (counted: before 3.0.0 the check only warns, the round's own list may differ); and 9 more logs of this folder"
	# v2.1's checker asked BERT for opt_epsilon, as its logs have it; today's 2.1.0 list says
	# opt_lamb_epsilon, which RNN-T's logs have
	lacks "no v2.1 log is said to lack opt_lamb_epsilon" "$TMP/err.v2.1" "opt_lamb_epsilon"
	lacks "nor opt_epsilon" "$TMP/err.v2.1" "'opt_epsilon'"
fi
if [ -f "$TMP/v2.0.csv" ]; then
	if grep -Eq ',retinanet,[0-9.]+,[0-9]+,[0-9]+,[^,]*,[^,]*,ssd,' "$TMP/v2.0.csv"; then ok "v2.0 ssd is RetinaNet (retinanet)"; else nok "v2.0 ssd is RetinaNet (retinanet)"; fi
fi
if [ -f "$TMP/v4.1.csv" ]; then
	for p in ssd:retinanet gnn:rgat; do
		pub=${p%%:*} id=${p#*:}
		if grep -Eq ",$id,[0-9.]+,[0-9]+,[0-9]+,[^,]*,[^,]*,$pub,[^,]*/results/[^,]*/$pub," "$TMP/v4.1.csv"; then
			ok "v4.1 $pub is written $id, with the published id and its folder"
		else
			nok "v4.1 $pub is written $id, with the published id and its folder"
		fi
		if grep -Eq ",$pub,[0-9.]+,[0-9]+,[0-9]+," "$TMP/v4.1.csv"; then nok "no v4.1 row keeps the id $pub"; else ok "no v4.1 row keeps the id $pub"; fi
	done
	n=$(($(wc -l <"$TMP/v4.1.csv") - 1))
	if [ "$n" -eq 153 ]; then ok "v4.1 has the 153 official cells"; else nok "v4.1 has the 153 official cells" "got $n"; fi
	c=$(grep -c 'Lambda/.*run fails: MLLOG payload is not valid JSON' "$TMP/err.v4.1")
	if [ "$c" -eq 3 ]; then ok "the three corrupt Lambda logs fail"; else nok "the three corrupt Lambda logs fail" "got $c"; fi
fi

# --- families: every shipped accelerator matches a specific rule ---
# The bare chip names (H100, A100) are the fallbacks for unknown form factors: a shipped
# accelerator must match something more specific.
unmatched=$(awk -F, '
	FNR == 1 { next }
	FILENAME ~ /families/ { pat[++n] = tolower($1); fam[n] = $3; next }
	{
		# accelerator is field 7 unless an earlier quoted field holds a comma
		line = $0; f = 0; acc = ""
		while (length(line) > 0 && f < 7) {
			if (substr(line, 1, 1) == "\"") {
				match(line, /^"([^"]|"")*"/); v = substr(line, 2, RLENGTH - 2); line = substr(line, RLENGTH + 2)
			} else {
				i = index(line, ","); if (i == 0) { v = line; line = "" } else { v = substr(line, 1, i - 1); line = substr(line, i + 1) }
			}
			f++; if (f == 7) acc = v
		}
		if (acc in seen) next; seen[acc] = 1
		a = tolower(acc); hit = ""
		for (k = 1; k <= n; k++) if (index(a, pat[k])) { hit = pat[k]; break }
		if (hit == "" || hit == "h100" || hit == "a100") print acc " -> " (hit == "" ? "no rule" : "fallback " hit)
	}' "$GS_TOP/data/families.csv" "$GS_TOP"/data/mlperf_training_v*.csv)
if [ -z "$unmatched" ]; then ok "every shipped accelerator has a specific family rule"; else nok "every shipped accelerator has a specific family rule" "$unmatched"; fi
check "families.csv has its header" sh -c "head -n 1 '$GS_TOP/data/families.csv' | grep -qx 'pattern,vendor,family'"

echo "1..$n_"
