#!/bin/sh
# `gpuscale import` against a hostile file system: FIFOs and devices where data files belong,
# a log cut short while it is read, unreadable or repeated logs, escape bytes and names that
# would not load back, an interruption while the output is being written. Each tree starts
# from one maker: submitter S, systems/s.json (1 x 8 accelerators) and five good logs under
# results/s/bert/ scoring 12.000000 (10..14 minutes, the olympic mean of 11, 12, 13).
. "$(dirname "$0")/../lib.sh"

# log FILE MINUTES: one successful run of that many whole minutes
log() {
	mkdir -p "$(dirname "$1")"
	printf ':::MLLOG {"time_ms": 1000, "key": "run_start", "metadata": {}}\n:::MLLOG {"time_ms": %s, "key": "run_stop", "metadata": {"status": "success"}}\n' \
		"$((1000 + $2 * 60000))" >"$1"
}
sysjson() { # FILE NODES PER_NODE
	mkdir -p "$(dirname "$1")"
	printf '{"submitter": "S", "division": "closed", "status": "Available on-premise", "system_name": "s",\n "number_of_nodes": "%s", "accelerators_per_node": "%s", "accelerator_model_name": "NVIDIA H100-SXM5-80GB", "framework": "fw"}\n' \
		"$2" "$3" >"$1"
}
# tree DIR: the scratch tree
tree() {
	rm -rf "$1"
	sysjson "$1/S/systems/s.json" 1 8
	for r in 0 1 2 3 4; do log "$1/S/results/s/bert/result_$r.txt" $((10 + r)); done
}
# run DIR [ARGS]: imports DIR to $TMP/o.csv under a 10 s timeout; $rc, $TMP/err
run() {
	d=$1; shift
	timeout 10 "$GPUSCALE" import --force -o "$TMP/o.csv" "$@" "$d" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}
T="$TMP/training_results_vR"
# LeakSanitizer cannot run under ptrace: no leak check for the runs under strace
NOLEAK="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

tree "$T"
run "$T"
if [ $rc -eq 0 ] && grep -q ',bert,12.000000,5,0,' "$TMP/o.csv"; then ok "the scratch tree scores 12.000000"; else nok "the scratch tree scores 12.000000" "exit $rc" "$(cat "$TMP/err")"; fi

# --- 1. FIFOs and devices named like JSON files ---
tree "$T"; mkfifo "$T/S/systems/f.json"
run "$T"
[ $rc -eq 0 ] && ok "a FIFO systems JSON does not hang the import" || nok "a FIFO systems JSON does not hang the import" "exit $rc (124: timeout)"
contains "the FIFO is a warning naming its path" "$TMP/err" "S/systems/f.json: cannot read systems JSON: not a regular file"
contains "the other system still scores" "$TMP/o.csv" ",bert,12.000000,5,0,"

tree "$T"; mkfifo "$T/S/results/s/bert/scaling.json"
run "$T"
[ $rc -eq 2 ] && ok "a FIFO scaling.json does not hang the import (nothing else to score: exit 2)" || nok "a FIFO scaling.json does not hang the import" "exit $rc"
contains "the FIFO scaling.json is a warning naming its path" "$TMP/err" "bert/scaling.json: cannot read scaling.json: not a regular file"
contains "and that benchmark has no score" "$TMP/err" "no score: S/s/bert: unusable scaling.json"

tree "$T"; ln -s /dev/zero "$T/S/systems/z.json"
# 400 MB of address space (AddressSanitizer reserves terabytes: no limit under SANITIZE=1)
lim=400000; [ "${SANITIZE:-}" = 1 ] && lim=unlimited
(ulimit -v $lim 2>/dev/null; timeout 10 "$GPUSCALE" import --force -o "$TMP/o.csv" "$T") >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc -eq 0 ] && ok "a systems JSON linked to /dev/zero is refused at once" || nok "a systems JSON linked to /dev/zero is refused at once" "exit $rc" "$(tail -c 300 "$TMP/err")"
contains "the device is a warning naming its path" "$TMP/err" "S/systems/z.json: cannot read systems JSON: not a regular file"
contains "and the CSV is written" "$TMP/o.csv" ",bert,12.000000,5,0,"

# --- 2. a log cut short while it is read ---
# strace holds the importer 3 s after the read's fstat of the log (the one stat of it); the
# log is truncated 1 s in, after the fstat has seen its size and before a byte is read: a
# mapped log then faulted (SIGBUS).
if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
	tree "$T"
	big="$T/S/results/s/bert/result_2.txt"
	awk 'BEGIN { print ":::MLLOG {\"time_ms\": 1000, \"key\": \"run_start\", \"metadata\": {}}"
		for (i = 0; i < 200000; i++) print ":::MLLOG {\"time_ms\": 2000, \"key\": \"train_loss\", \"value\": 1.5, \"metadata\": {\"file\": \"train.py\", \"lineno\": 1}}"
		print ":::MLLOG {\"time_ms\": 721000, \"key\": \"run_stop\", \"metadata\": {\"status\": \"success\"}}" }' >"$big"
	ASAN_OPTIONS=$NOLEAK strace -f -qq -o /dev/null -P "$big" -e trace=%%stat -e inject=%%stat:delay_exit=3000000 \
		"$GPUSCALE" import --force -o "$TMP/o.csv" "$T" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 1
	: >"$big"
	wait $pid; rc=$?
	[ $rc -eq 0 ] && ok "a log truncated while it is read is no crash (exit 0)" || nok "a log truncated while it is read is no crash" "exit $rc (135: SIGBUS)" "$(tail -c 300 "$TMP/err")"
	contains "the truncated log is a failed run, named" "$TMP/err" "bert/result_2.txt: run fails: no MLLOG events"
else
	skip "a log truncated while it is read is no crash" "strace is missing or cannot trace here"
	skip "the truncated log is a failed run, named" "strace is missing or cannot trace here"
fi

# --- 3. the first benchmark folder has no logs (qsort of nothing; run under SANITIZE=1 too) ---
tree "$T"; mkdir -p "$T/S/results/s/aaa"
run "$T"
[ $rc -eq 0 ] && ok "an empty first benchmark folder imports (exit 0)" || nok "an empty first benchmark folder imports" "exit $rc" "$(tail -c 600 "$TMP/err")"
contains "the empty folder has no score, with the reason" "$TMP/err" "no score: S/s/aaa: no result logs"
contains "the next folder still scores" "$TMP/o.csv" ",bert,12.000000,5,0,"

# --- 5. logs that cannot be read, and one log reached twice ---
for kind in dangling fifo folder; do
	tree "$T"; f="$T/S/results/s/bert/result_5.txt"
	case $kind in
	dangling) ln -s nowhere.txt "$f" ;;
	fifo) mkfifo "$f" ;;
	folder) mkdir "$f" ;;
	esac
	run "$T"
	[ $rc -eq 2 ] && ok "a $kind result log: nothing else to score (exit 2)" || nok "a $kind result log: exit 2" "exit $rc" "$(head -c 600 "$TMP/err")"
	contains "a $kind result log is a warning naming it" "$TMP/err" "bert/result_5.txt: cannot read result log:"
	contains "a $kind result log leaves the benchmark without a score" "$TMP/err" "no score: S/s/bert: result log result_5.txt cannot be read"
done
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	tree "$T"; chmod 000 "$T/S/results/s/bert/result_4.txt"
	chmod 755 "$TMP"; chmod -R a+rX "$T" 2>/dev/null; chmod 000 "$T/S/results/s/bert/result_4.txt"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$GPUSCALE" import -o - "$T" >"$TMP/out" 2>"$TMP/err"; rc=$?
	[ $rc -eq 2 ] && ok "a permission-denied log (as nobody): nothing else to score (exit 2)" || nok "a permission-denied log: exit 2" "exit $rc" "$(head -c 600 "$TMP/err")"
	contains "a permission-denied log is a warning naming it" "$TMP/err" "bert/result_4.txt: cannot read result log: Permission denied"
	contains "and no failed run is counted in its place" "$TMP/err" "no score: S/s/bert: result log result_4.txt cannot be read"
	chmod 700 "$TMP"
else
	skip "a permission-denied log leaves the benchmark without a score" "needs root and setpriv to act as another user"
fi
tree "$T"; ln -s result_1.txt "$T/S/results/s/bert/result_9.txt"
run "$T"
contains "a log reached twice counts once: the score stays 12.000000 from 5 runs" "$TMP/o.csv" ",bert,12.000000,5,0,"
contains "and is named in a warning" "$TMP/err" "bert/result_9.txt: the same file as an earlier log of this folder; counted once"
# a hard link in a folder of plain files: no stat of each log, the folder's inode numbers tell
tree "$T"; ln "$T/S/results/s/bert/result_1.txt" "$T/S/results/s/bert/result_8.txt"
run "$T"
contains "a log hard-linked twice counts once: the score stays 12.000000 from 5 runs" "$TMP/o.csv" ",bert,12.000000,5,0,"
contains "and is named in a warning" "$TMP/err" "bert/result_8.txt: the same file as an earlier log of this folder; counted once"

# --- 9. escape bytes in names reach no terminal and no file name ---
esc=$(printf '\033')
E="$TMP/training_results_v${esc}]0;PWNED$(printf '\a')"
tree "$E"
mkdir -p "$TMP/escwd"
(cd "$TMP/escwd" && "$GPUSCALE" import "$E" >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc -eq 0 ] && ok "a tree whose name holds escape bytes imports" || nok "a tree whose name holds escape bytes imports" "exit $rc"
if LC_ALL=C grep -q "$esc" "$TMP/err"; then nok "no escape byte in the messages" "$(od -c "$TMP/err" | head -5)"; else ok "no escape byte in the messages"; fi
if ls "$TMP/escwd" | LC_ALL=C grep -q '[[:cntrl:]]'; then nok "the output file name has no control byte" "$(ls "$TMP/escwd" | od -c | head -3)"; else ok "the output file name has no control byte"; fi
contains "the output is named with the cleaned round" "$TMP/err" "mlperf_training_v?]0;PWNED?.csv"
(cd "$TMP/escwd" && "$GPUSCALE" import "$E" >"$TMP/out" 2>"$TMP/err"); rc=$?
[ $rc -eq 2 ] && ok "the second import finds the file (exit 2)" || nok "the second import finds the file" "exit $rc"
if LC_ALL=C grep -q "$esc" "$TMP/err"; then nok "no escape byte in the 'exists' message"; else ok "no escape byte in the 'exists' message"; fi
tree "$T"; mv "$T/S" "$T/S${esc}[31m"
run "$T"
if LC_ALL=C grep -q "$esc" "$TMP/err" "$TMP/o.csv"; then nok "an escape byte in a submitter folder reaches neither messages nor CSV"; else ok "an escape byte in a submitter folder reaches neither messages nor CSV"; fi
contains "the submitter is written cleaned" "$TMP/o.csv" "S?[31m,s,"
# U+202E (right-to-left override) reorders what a terminal shows: unsafe like a control
rlo=$(printf '\342\200\256')
tree "$T"; mv "$T/S" "$T/S${rlo}x"
run "$T"
if LC_ALL=C grep -q "$rlo" "$TMP/err" "$TMP/o.csv"; then nok "a bidi control in a folder name reaches neither messages nor CSV"; else ok "a bidi control in a folder name reaches neither messages nor CSV"; fi
contains "the submitter is written with one '?' per byte of it" "$TMP/o.csv" "S???x,s,"

# --- 10. names that would not load back ---
tree "$T"; mv "$T/S/results/s/bert" "$T/S/results/s/ bert"; cp -r "$T/S/results/s/ bert" "$T/S/results/s/bert "
run "$T"
rows=$(($(wc -l <"$TMP/o.csv") - 1))
[ "$rows" -eq 1 ] && ok "folders ' bert' and 'bert ' give one row" || nok "folders ' bert' and 'bert ' give one row" "got $rows"
contains "the name is written trimmed" "$TMP/o.csv" ",bert,12.000000,5,0,1,10.0000;11.0000;12.0000;13.0000;14.0000,bert,"
contains "the second folder is named in a warning" "$TMP/err" "bert : benchmark bert is already read from S/results/s/ bert; skipped"
tree "$T"; mv "$T/S/results/s/bert" "$T/S/results/s/ssd"; cp -r "$T/S/results/s/ssd" "$T/S/results/s/retinanet"
run "$T"
rows=$(($(wc -l <"$TMP/o.csv") - 1))
[ "$rows" -eq 1 ] && ok "folders retinanet and ssd of one system give one row" || nok "folders retinanet and ssd of one system give one row" "got $rows"
tree "$T"
for c in 001 002; do
	sysjson "$T/S/systems/s$(printf "\\$c").json" 1 8
	for r in 0 1 2; do log "$T/S/results/s$(printf "\\$c")/bert/result_$r.txt" $((10 + r)); done
done
run "$T"
rows=$(grep -c ',s?,' "$TMP/o.csv")
[ "$rows" -eq 1 ] && ok "systems differing only in a control byte give one system" || nok "systems differing only in a control byte give one system" "got $rows rows"
contains "the second is named in a warning" "$TMP/err" "once cleaned; system skipped"
tree "$T"; sysjson "$T/S/systems/big.json" 100000 100000
for r in 0 1 2; do log "$T/S/results/big/bert/result_$r.txt" 10; done
run "$T"
contains "100000 x 100000 accelerators is refused with a warning" "$TMP/err" "big.json: 100000 nodes x 100000 accelerators is more than the 1000000000 accelerators a results CSV holds; system skipped"
lacks "and gives no row" "$TMP/o.csv" "S,big,"
# every row written loads back: all the trees above at once
tree "$T"
mv "$T/S/results/s/bert" "$T/S/results/s/ bert"; cp -r "$T/S/results/s/ bert" "$T/S/results/s/bert "
sysjson "$T/S/systems/ s2 .json" 1 8; for r in 0 1 2; do log "$T/S/results/ s2 /bert/result_$r.txt" 10; done
for c in 001 002; do
	sysjson "$T/S/systems/s$(printf "\\$c").json" 1 8
	for r in 0 1 2; do log "$T/S/results/s$(printf "\\$c")/bert/result_$r.txt" $((10 + r)); done
done
sysjson "$T/S/systems/big.json" 100000 100000; for r in 0 1 2; do log "$T/S/results/big/bert/result_$r.txt" 10; done
run "$T"
rows=$(($(wc -l <"$TMP/o.csv") - 1))
"$GPUSCALE" --print csv "$TMP/o.csv" >"$TMP/back.csv" 2>"$TMP/lerr"
back=$(($(wc -l <"$TMP/back.csv") - 1))
if [ "$rows" -eq 3 ] && [ "$back" -eq "$rows" ] && ! grep -qiE 'skipped|duplicate|ignored' "$TMP/lerr"; then
	ok "every row the importer writes loads back (3 of 3, no loader warning)"
else
	nok "every row the importer writes loads back" "$rows written, $back loaded" "$(head -c 400 "$TMP/lerr")"
fi

# --- 11. an interrupted write leaves no temporary file ---
# strace holds the importer in fsync for 3 s; SIGTERM arrives meanwhile.
if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
	tree "$T"; mkdir -p "$TMP/w"
	ASAN_OPTIONS=$NOLEAK strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=3000000 \
		"$GPUSCALE" import -o "$TMP/w/out.csv" "$T" >"$TMP/out" 2>"$TMP/err" &
	spid=$!
	n=0
	while [ -z "$(ls -A "$TMP/w")" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	ipid=$(pgrep -P $spid | head -n 1)
	[ -n "$(ls -A "$TMP/w")" ] && ok "the temporary file exists while fsync is slow" || nok "the temporary file exists while fsync is slow"
	kill -TERM "$ipid" 2>/dev/null
	wait $spid; rc=$?
	[ $rc -ne 0 ] && ok "SIGTERM ends the import" || nok "SIGTERM ends the import" "exit $rc"
	if [ -z "$(ls -A "$TMP/w")" ]; then ok "SIGTERM during fsync leaves no temporary file and no output"; else nok "SIGTERM during fsync leaves no temporary file" "$(ls -A "$TMP/w")"; fi
else
	skip "SIGTERM during fsync leaves no temporary file" "strace is missing or cannot trace here"
fi

echo "1..$n_"
