# valgrind memcheck: --print of every workload and an import: no error, no leak.
# Skipped in the sanitizer build (the two do not mix) and where valgrind is missing.
. "$GS_TOP/tests/lib.sh"
if [ "${SANITIZE:-}" = 1 ]; then skip "valgrind memcheck" "sanitizer build"; exit 0; fi
if ! command -v valgrind >/dev/null 2>&1; then skip "valgrind memcheck" "valgrind not installed"; exit 0; fi
# memcheck runs the program that ships; it follows malloc only in a dynamically linked one
if [ ! -x "$GPUSCALE" ]; then
	nok "memcheck has a program to run" "$GPUSCALE is not an executable file"
	exit 0
fi
if ! command -v readelf >/dev/null 2>&1; then
	skip "valgrind memcheck" "readelf not found: cannot tell whether $GPUSCALE is linked dynamically"
	exit 0
fi
if ! readelf -l "$GPUSCALE" 2>/dev/null | grep -q INTERP; then
	nok "memcheck runs a dynamically linked program" "$GPUSCALE is linked statically"
	exit 0
fi
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"

# memcheck DESC WANT ARGS...: runs the program under valgrind; ok only when it exits WANT (its own
# exit code for that run). Valgrind's errors (99), a death by signal (>= 128) or any other code fail.
memcheck() {
	mc_d=$1 mc_want=$2
	shift 2
	$VG "$GPUSCALE" "$@" >"$TMP/out" 2>"$TMP/err"
	mc_rc=$?
	if [ $mc_rc -eq "$mc_want" ]; then ok "$mc_d"; return; fi
	if [ $mc_rc -eq 99 ]; then mc_why="valgrind found errors"
	elif [ $mc_rc -ge 128 ]; then mc_why="killed by signal $((mc_rc - 128))"
	else mc_why="exit $mc_rc, wanted $mc_want"; fi
	nok "$mc_d" "$mc_why" "$(grep -v '^warning\|^no score' "$TMP/err" | tail -n 20)"
}

# every bundled round loaded (the default), each v4.1 workload shown, and the cross-round view
workloads_of_data "$TMP/wl"
for w in $(cat "$TMP/wl"); do
	memcheck "memcheck clean: --print everything, $w" 0 --round v4.1 -w "$w" -k auto --print table,plot,clusters,pareto,summary,csv
done
memcheck "memcheck clean: the cross-round view with the fit" 0 --all-rounds -w llama2_70b_lora --print table,summary,fit
memcheck "memcheck clean: the tables among the inputs" 0 "$GS_TOP"/data/*.csv --print summary
memcheck "memcheck clean: family mode with a filter" 0 --round v4.1 -m family -f "H100 SXM" -f B200 --print summary
memcheck "memcheck clean: malformed input with warnings" 0 --print table \
	"$GS_TOP/tests/malformed/escapes.csv" "$GS_TOP/tests/malformed/field_counts.csv"
if [ -d "$MLPERF/training_results_v4.1" ]; then
	memcheck "memcheck clean: import of the v4.1 tree" 0 import --force -o "$TMP/v41.csv" "$MLPERF/training_results_v4.1"
else
	skip "memcheck clean: import of the v4.1 tree" "$MLPERF is absent"
fi
# the fixture trees: one imports (exit 0), the other has nothing importable (exit 2)
nfix=0
for t in "$FIX"/import/training_results_*/; do
	[ -d "$t" ] || continue
	case $(basename "$t") in training_results_bad) want=2 ;; *) want=0 ;; esac
	memcheck "memcheck clean: import of fixture $(basename "$t") (exit $want)" $want import --round t -o - "$t"
	nfix=$((nfix + 1))
done
if [ $nfix -ge 2 ]; then ok "memcheck went through the $nfix import fixtures"
else nok "memcheck went through the import fixtures" "found $nfix under $FIX/import"; fi
