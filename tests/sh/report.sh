# --print reports: the CSV carries every input column and loads back as itself; the table pads
# and cuts by display width and always writes valid UTF-8; write errors exit 1.
. "$GS_TOP/tests/lib.sh"
G=$GPUSCALE

# ---- round trip: --print csv -> load -> --print csv is identical ----
for f in "$GS_TOP"/data/mlperf_training_v4.0.csv "$GS_TOP"/data/mlperf_training_v4.1.csv; do
	r=$(basename "$f" .csv)
	bad=
	for w in $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "benchmark") b = i; next }
		{ gsub(/"[^"]*"/, "q") } !seen[$b]++ { print $b }' "$f"); do
		"$G" "$f" -w "$w" --print csv >"$TMP/a.csv" 2>"$TMP/err" || bad="$bad $w(first)"
		"$G" "$TMP/a.csv" -w "$w" --print csv >"$TMP/b.csv" 2>"$TMP/err" || bad="$bad $w(load)"
		cmp -s "$TMP/a.csv" "$TMP/b.csv" || bad="$bad $w"
		[ -s "$TMP/err" ] && bad="$bad $w(warns: $(head -c 200 "$TMP/err"))"
	done
	if [ -z "$bad" ]; then ok "$r: every workload's --print csv loads back and prints the same"
	else nok "$r: --print csv round trip" "differs:$bad"; fi
done
# every column the loader reads (its table of names in dataset_csv.c) is in the output, by name
sed -n '/column_names\[C_NCOLS\] = {/,/^};/p' "$GS_TOP/src/dataset_csv.c" | grep -o '"[a-z_]*"' | tr -d '"' >"$TMP/in_cols"
"$G" -w bert --print csv | head -n 1 | tr ',' '\n' >"$TMP/out_cols"
missing=$(grep -vxF -f "$TMP/out_cols" "$TMP/in_cols" | tr '\n' ' ')
[ -z "$missing" ] && [ "$(wc -l <"$TMP/in_cols")" -ge 17 ] && ok "--print csv carries every input column" || nok "--print csv carries every input column" "missing: $missing"

# quotes, commas, line breaks, UTF-8 and blank optional fields survive the trip
cat >"$TMP/odd.csv" <<'CSV'
round,submitter,system,system_name,division,availability,accelerator,nodes,accelerators_per_node,accelerators,framework,benchmark,minutes,runs_scored,runs_failed,scaling_factor,run_minutes,benchmark_published,source,run_files,failed_files,energy_j,power_measurement
vX,"Sub ""q""",café-1,"name, with comma",closed,Preview,Acc X,,,8,"fw ""1"", 2",bert,10.5,,,,,,,,,,
vX,S2,系统-2,"two
lines",open,Available cloud,Acc X,2,8,16,"cr
lf",bert,6.123456789012345,5,1,1.25,6.1;6.2;6.3,language_model,S2/results/x/bert,result_0.txt;result_1.txt,result_2.txt,1234567.5,AC
vX,S3,sys-3,s3,closed,Research,Acc Y,1,4,4,fw,bert,0.30000000000000004,3,0,1,0.1;0.2;0.30000000000000004,,,,,,
CSV
printf 'vX,S4,sys-4,s4,closed,Preview,Acc Y,1,4,4,"c\rr",bert,20,,,,,,,,,,\n' >>"$TMP/odd.csv"
"$G" "$TMP/odd.csv" --print csv >"$TMP/a.csv" 2>"$TMP/err"
"$G" "$TMP/a.csv" --print csv >"$TMP/b.csv" 2>>"$TMP/err"
if cmp -s "$TMP/a.csv" "$TMP/b.csv" && [ "$(grep -c '^[0-9]' "$TMP/a.csv")" -eq 4 ]; then
	ok "quoted, multi-line, UTF-8 and blank fields make the round trip"
else
	nok "quoted, multi-line, UTF-8 and blank fields make the round trip" "$(diff "$TMP/a.csv" "$TMP/b.csv" | head -n 8)" "$(head -c 300 "$TMP/err")"
fi
contains "a field with a comma and quotes is quoted, quotes doubled" "$TMP/a.csv" '"Sub ""q"""'
contains "numbers print the shortest text that reads back" "$TMP/a.csv" ',6.123456789012345,'
contains "a number that needs 17 digits keeps them" "$TMP/a.csv" ';0.30000000000000004'
contains "the importer's columns make the trip" "$TMP/b.csv" ',language_model,S2/results/x/bert,result_0.txt;result_1.txt,result_2.txt,1234567.5,AC'
