# A 100,000-row results CSV (ten times the largest sweep a user brings) loads, and memory stays
# proportional to the file: the peak RSS of `--print summary` is at most 4x the file size plus
# 10 MB (each row carries its metrics beside its text). Not a timing test: no clock is read,
# only the exit status and the peak resident size.
. "$GS_TOP/tests/lib.sh"
big="$TMP/big.csv"
# every row a distinct system (the pool and the duplicate set grow with the file), a quarter
# of them with a quoted field (libcsv's lines), a few unquoted blanks and CRLF lines
awk 'BEGIN {
	print "round,submitter,system,system_name,division,availability,accelerator,nodes," \
	      "accelerators_per_node,accelerators,framework,benchmark,minutes,runs_scored," \
	      "runs_failed,scaling_factor,run_minutes"
	split("bert llama2_70b_lora ssd stable_diffusion", w, " ")
	split("NVIDIA H100-SXM5-80GB|AMD MI300X-192GB|TPU-v5p|Intel Gaudi2|NVIDIA B200-SXM-180GB", acc, "|")
	for (i = 0; i < 100000; i++) {
		e = i % 12; n = 1; for (k = 0; k < e; k++) n *= 2
		per = n >= 8 ? 8 : n; nodes = n / per
		t = 2000 / (n ^ 0.8) + (i % 97) / 100
		fw = (i % 4 == 0) ? "\"MXNet, PyTorch and DGL 24.09\"" : "PyTorch 24.09"
		eol = (i % 50 == 0) ? "\r" : ""
		printf "v9.9,Sub%03d,sys%07d,System %d %dx%d,closed, available ,%s,%d,%d,%d,%s,%s,%.6f,5,0,1,%.4f;%.4f;%.4f;%.4f;%.4f%s\n",
			(i / 7) % 97, i, i, nodes, per, acc[i % 5 + 1], nodes, per, n, fw, w[i % 4 + 1],
			t, t * 0.97, t * 0.99, t, t * 1.01, t * 1.03, eol
	}
}' >"$big" || { nok "generate a 100,000-row CSV" "awk failed"; exit 0; }
size_kb=$(( $(wc -c <"$big") / 1024 ))
budget_kb=$(( 4 * size_kb + 10240 ))

if [ "${SANITIZE:-}" = 1 ]; then
	# AddressSanitizer's shadow memory and quarantine are no measure of the loader's memory
	expect_exit "100,000 rows: --print summary exits 0" 0 "$GPUSCALE" --print summary "$big"
	skip "100,000 rows: peak RSS" "sanitizer build"
elif [ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
	/usr/bin/time -o "$TMP/rss" -f %M "$GPUSCALE" --print summary "$big" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 0 ]; then ok "100,000 rows: --print summary exits 0"; else
		nok "100,000 rows: --print summary exits 0" "exit $rc" "$(head -c 600 "$TMP/err")"; fi
	rss_kb=$(tail -n 1 "$TMP/rss")
	if [ "$rss_kb" -le "$budget_kb" ] 2>/dev/null; then
		ok "100,000 rows: peak RSS $((rss_kb / 1024)) MB <= 4x the $((size_kb / 1024)) MB file + 10 MB"
	else
		nok "100,000 rows: peak RSS within 4x the file + 10 MB" \
			"peak $rss_kb KB, budget $budget_kb KB (file $size_kb KB)"
	fi
else
	expect_exit "100,000 rows: --print summary exits 0" 0 "$GPUSCALE" --print summary "$big"
	skip "100,000 rows: peak RSS" "no /usr/bin/time"
fi
contains "100,000 rows: every row is taken (4 workloads of 25,000)" "$TMP/out" "25000 shown of 25000"
lacks "100,000 rows: no warnings" "$TMP/err" "warning"
