# Every report a script reads, kept exactly: a digest of `--print csv` and `--print summary
# --format json` of every bundled round x workload x mode (paper, family) x theta (0.5, 0.8,
# 1.2), intervals included, and of each workload's cross-round view, against
# tests/golden/print_digest.txt. A deliberate change of output: rerun with GS_UPDATE_GOLDEN=1
# and review the diff of that file in git.
. "$GS_TOP/tests/lib.sh"
golden=$GS_TOP/tests/golden/print_digest.txt
if ! command -v sha256sum >/dev/null 2>&1; then skip "report digests" "sha256sum not found"; exit 0; fi
# round and benchmark ids of every bundled file (quoted fields folded first: they hold commas)
for f in "$GS_TOP"/data/mlperf_training_v*.csv; do
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "round") r = i; if ($i == "benchmark") b = i }; next }
		{ gsub(/"[^"]*"/, "q") } r && b && $b != "" && !seen[$r " " $b]++ { print $r, $b }' "$f"
done | sort >"$TMP/views"
nv=$(wc -l <"$TMP/views" | tr -d ' ')
if [ "$nv" -lt 50 ]; then nok "the bundled data has its round x workload views" "only $nv"; exit 0; fi
ok "the bundled data has $nv round x workload views"
: >"$TMP/got"
while read -r rd wl; do
	: >"$TMP/all"
	for m in paper family; do
		for t in 0.5 0.8 1.2; do
			"$GPUSCALE" --print csv --round "$rd" -w "$wl" -m "$m" --theta "$t" >>"$TMP/all" 2>/dev/null
			echo "exit $?" >>"$TMP/all"
			"$GPUSCALE" --print summary --format json --round "$rd" -w "$wl" -m "$m" --theta "$t" \
				>>"$TMP/all" 2>/dev/null
			echo "exit $?" >>"$TMP/all"
		done
	done
	echo "$rd $wl $(sha256sum <"$TMP/all" | cut -c1-16)" >>"$TMP/got"
done <"$TMP/views"
cut -d' ' -f2 "$TMP/views" | sort -u >"$TMP/wls"
while read -r wl; do
	: >"$TMP/all"
	for m in paper family; do
		"$GPUSCALE" --print csv,summary --all-rounds -w "$wl" -m "$m" >>"$TMP/all" 2>/dev/null
		echo "exit $?" >>"$TMP/all"
	done
	echo "all-rounds $wl $(sha256sum <"$TMP/all" | cut -c1-16)" >>"$TMP/got"
done <"$TMP/wls"
if [ "${GS_UPDATE_GOLDEN:-}" = 1 ]; then
	cp "$TMP/got" "$golden"
	ok "report digests written to $golden"
	exit 0
fi
if [ ! -f "$golden" ]; then nok "report digests" "$golden is missing (GS_UPDATE_GOLDEN=1 makes it)"; exit 0; fi
if diff "$golden" "$TMP/got" >"$TMP/diff"; then
	ok "every round x workload x mode x theta report is as kept ($(wc -l <"$golden" | tr -d ' ') digests)"
else
	nok "every round x workload x mode x theta report is as kept" "views that changed:" \
		"$(grep '^>' "$TMP/diff" | head -n 20)"
fi
