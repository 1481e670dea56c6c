# valgrind memcheck: --print of every workload and an import: no error, no leak.
# Skipped in the sanitizer build (the two do not mix) and where valgrind is missing.
. "$GS_TOP/tests/lib.sh"
if [ "${SANITIZE:-}" = 1 ]; then skip "valgrind memcheck" "sanitizer build"; exit 0; fi
if ! command -v valgrind >/dev/null 2>&1; then skip "valgrind memcheck" "valgrind not installed"; exit 0; fi
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"

workloads_of_data "$TMP/wl"
for w in $(cat "$TMP/wl"); do
	if $VG "$GPUSCALE" -w "$w" -k auto --print table,plot,clusters,pareto,summary,csv >"$TMP/out" 2>"$TMP/err"; then
		ok "memcheck clean: --print everything, $w"
	else
		nok "memcheck clean: --print everything, $w" "$(tail -n 20 "$TMP/err")"
	fi
done
if $VG "$GPUSCALE" -m family -f "H100 SXM" -f B200 --print summary >"$TMP/out" 2>"$TMP/err"; then
	ok "memcheck clean: family mode with a filter"
else
	nok "memcheck clean: family mode with a filter" "$(tail -n 20 "$TMP/err")"
fi
if $VG "$GPUSCALE" --print table "$GS_TOP/tests/malformed/escapes.csv" "$GS_TOP/tests/malformed/field_counts.csv" >"$TMP/out" 2>"$TMP/err"; then
	ok "memcheck clean: malformed input with warnings"
else
	nok "memcheck clean: malformed input with warnings" "$(tail -n 20 "$TMP/err")"
fi
if [ -d "$MLPERF/training_results_v4.1" ]; then
	if $VG "$GPUSCALE" import --force -o "$TMP/v41.csv" "$MLPERF/training_results_v4.1" >"$TMP/out" 2>"$TMP/err"; then
		ok "memcheck clean: import of the v4.1 tree"
	else
		nok "memcheck clean: import of the v4.1 tree" "$(grep -v '^warning\|^no score' "$TMP/err" | tail -n 20)"
	fi
else
	skip "memcheck clean: import of the v4.1 tree" "$MLPERF is absent"
fi
if [ -d "$FIX" ]; then
	for t in "$FIX"/import/*/; do
		[ -d "$t" ] || continue
		$VG "$GPUSCALE" import --round t -o - "$t" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if [ $rc -ne 99 ]; then ok "memcheck clean: import of fixture $(basename "$t")"
		else nok "memcheck clean: import of fixture $(basename "$t")" "$(tail -n 20 "$TMP/err")"; fi
	done
fi
