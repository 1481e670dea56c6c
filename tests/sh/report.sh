# --print reports: the CSV carries every input column and loads back as itself; the table pads
# and cuts by display width and always writes valid UTF-8; write errors exit 1.
. "$GS_TOP/tests/lib.sh"
G=$GPUSCALE

# ---- round trip: --print csv -> load -> --print csv is identical ----
# same_csv A B: identical, except e_prime_fit, which the fit computes from the points in the
# order the rows come (the reloaded file is in ranked order) and so may differ past the 8th
# significant digit: there, agreement to 1e-8 relative.
same_csv() {
	cmp -s "$1" "$2" && return 0
	python3 - "$1" "$2" <<'PY'
import csv, sys
a, b = (list(csv.reader(open(f, newline=""))) for f in sys.argv[1:3])
if len(a) != len(b) or a[0] != b[0]:
    sys.exit(1)
fit = a[0].index("e_prime_fit") if "e_prime_fit" in a[0] else -1
for x, y in zip(a, b):
    if len(x) != len(y):
        sys.exit(1)
    for i, (u, v) in enumerate(zip(x, y)):
        if u == v:
            continue
        if i != fit or not u or not v or abs(float(u) - float(v)) > 1e-8 * abs(float(u)):
            sys.exit(1)
PY
}
for f in "$GS_TOP"/data/mlperf_training_v4.0.csv "$GS_TOP"/data/mlperf_training_v4.1.csv; do
	r=$(basename "$f" .csv)
	bad=
	for w in $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "benchmark") b = i; next }
		{ gsub(/"[^"]*"/, "q") } !seen[$b]++ { print $b }' "$f"); do
		"$G" "$f" -w "$w" --print csv >"$TMP/a.csv" 2>"$TMP/err" || bad="$bad $w(first)"
		"$G" "$TMP/a.csv" -w "$w" --print csv >"$TMP/b.csv" 2>"$TMP/err" || bad="$bad $w(load)"
		same_csv "$TMP/a.csv" "$TMP/b.csv" || bad="$bad $w"
		[ -s "$TMP/err" ] && bad="$bad $w(warns: $(head -c 200 "$TMP/err"))"
	done
	if [ -z "$bad" ]; then ok "$r: every workload's --print csv loads back and prints the same"
	else nok "$r: --print csv round trip" "differs:$bad"; fi
done
# with every round loaded, rows carried over from an earlier round keep the mark through the
# trip, though the file read back holds one round only
"$G" -w llama2_70b_lora --print csv >"$TMP/all.csv" 2>"$TMP/err"
"$G" "$TMP/all.csv" -w llama2_70b_lora --print csv >"$TMP/all2.csv" 2>>"$TMP/err"
if grep -q ',v5\.0,' "$TMP/all.csv" && cmp -s "$TMP/all.csv" "$TMP/all2.csv"; then
	ok "every round loaded: the view's CSV (carried-over rows included) loads back as itself"
else
	nok "every round loaded: the CSV round trip" "$(diff "$TMP/all.csv" "$TMP/all2.csv" | head -n 6)"
fi
# every column the loader reads (the schema table, include/schema.h) is in the output, by name
sed -n '/^#define SCHEMA_COLUMNS/,/^$/p' "$GS_TOP/include/schema.h" | grep -o 'X([A-Z_]*, "[a-z_]*"' |
	sed 's/.*"\([a-z_]*\)"/\1/' >"$TMP/in_cols"
"$G" "$GS_TOP/data/mlperf_training_v4.1.csv" -w bert --print csv | head -n 1 | tr ',' '\n' >"$TMP/out_cols"
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

# ---- --print table: display width, one cut mark, collided ids (goldens) ----
# tests/golden/report_names_<width>.txt hold the exact output; GS_UPDATE_GOLDEN=1 rewrites them
# from the current output (review the diff before committing). Paper mode: its header names the
# reference, a UTF-8 name (Société café-1) that the narrow widths must cut by display width.
NAMES="$GS_TOP/tests/fixtures/report/names.csv"
for w in none 24 40 60 80 120; do
	gold="$GS_TOP/tests/golden/report_names_$w.txt"
	if [ "$w" = none ]; then set -- ; else set -- --width "$w"; fi
	"$G" "$NAMES" -m paper --print table,pareto "$@" >"$TMP/t.txt" 2>/dev/null
	if [ "${GS_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$TMP/t.txt" "$gold"; fi
	if cmp -s "$TMP/t.txt" "$gold"; then ok "--print table with UTF-8 names at width $w matches its golden"
	else nok "--print table with UTF-8 names at width $w matches $gold" "$(diff "$gold" "$TMP/t.txt" | head -n 12)"; fi
done
"$G" "$NAMES" --print table >"$TMP/t.txt" 2>/dev/null
contains "ids that collide show SUBMITTER/SYSTEM" "$TMP/t.txt" "smc-ac-power/1xSMC-H100-SXM-80GB"
contains "an id of one submitter shows alone" "$TMP/t.txt" "  café-1  "
"$G" "$NAMES" --print table --width 60 >"$TMP/t.txt" 2>/dev/null
# a CJK name (2 columns a character) and a combining accent line up with ASCII names: every
# table line has the same display width up to the N column
if python3 - "$TMP/t.txt" <<'PY'
import re, sys, unicodedata
def cols(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()[1:]
head = lines[0]
n_at = cols(head[: head.index(" N ") + 2])
# rank, name, blanks, (the plot's letter and the family,) N: where the N column ends, in
# display columns
ends = set()
for l in lines[1:]:
    m = re.match(r"^(\d+\s+\S+\s+(?:[a-l.] )?(?:[^\d\s]\S*\s+)?\d+)\s", l)
    ends.add(cols(m.group(1)) if m else -1)
sys.exit(0 if ends == {n_at} and len(lines) == 8 else 1)
PY
then ok "UTF-8 and CJK names pad by display width (the N column lines up)"
else nok "UTF-8 and CJK names pad by display width" "$(cat "$TMP/t.txt")"; fi
contains "a long name is cut in the middle, keeping its tail" "$GS_TOP/tests/golden/report_names_60.txt" "~"

# ---- property: every --print table output is valid UTF-8, at every width 20..400 ----
# Names from random pieces: ASCII, accents, CJK, combining marks, emoji, and what the sanitizer
# must catch (invalid bytes, cut sequences, C0/C1 and bidi controls); a fixed seed, so a
# failure repeats.
if python3 - "$G" "$TMP" <<'PY'
import random, subprocess, sys
g, tmp = sys.argv[1], sys.argv[2]
random.seed(17)
pieces = [b"a", b"Z9", b"-", b"_", b"caf\xc3\xa9", "系统".encode(), "超级".encode(), b"e\xcc\x81",
          "😀".encode(), b"\xff", b"\xe7\xb3", b"\xc2\x85", b"\x1b[2J", b"\xe2\x80\xae", b"\x7f", b" "]
rows = [b"round,submitter,system,accelerators,benchmark,minutes"]
for i in range(40):
    name = b"".join(random.choice(pieces) for _ in range(random.randint(1, 24))) + b"%d" % i
    sub = b"".join(random.choice(pieces) for _ in range(random.randint(1, 8)))
    q = lambda s: b'"' + s.replace(b'"', b'""') + b'"'
    rows.append(b"v1," + q(sub) + b"," + q(name) + b",%d,bert,%g" % (2 ** random.randint(0, 9), random.uniform(1, 90)))
open(tmp + "/hostile.csv", "wb").write(b"\n".join(rows) + b"\n")
bad = []
for w in range(20, 401):
    out = subprocess.run([g, tmp + "/hostile.csv", "--print", "table", "--width", str(w)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        text = out.stdout.decode("utf-8", "strict")
    except UnicodeDecodeError as e:
        bad.append("width %d: %s" % (w, e)); continue
    if out.returncode != 0 or text.count("\n") < 41:
        bad.append("width %d: exit %d, %d lines" % (w, out.returncode, text.count("\n")))
    ctl = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) < 0xa0 or 0x202a <= ord(c) <= 0x202e]
    if ctl:
        bad.append("width %d: control characters %r" % (w, ctl[:3]))
print("\n".join(bad[:5]))
sys.exit(1 if bad else 0)
PY
then ok "--print table is valid UTF-8 without controls at every width 20..400 (40 hostile names)"
else nok "--print table is valid UTF-8 at every width 20..400" "see above"; fi

# ---- the line and paragraph separators (U+2028, U+2029) break a terminal's line: a table
# escapes them as it escapes control characters, and its rows stay aligned ----
printf 'system,benchmark,accelerators,minutes\nline\342\200\250sep,bert,8,10\npara\342\200\251sep,bert,16,6\nplain_name,bert,32,4\n' >"$TMP/sep.csv"
"$G" --print table --columns n,min "$TMP/sep.csv" >"$TMP/out" 2>"$TMP/err"
if LC_ALL=C grep -q "$(printf '\342\200[\250\251]')" "$TMP/out"; then nok "--print table escapes U+2028 and U+2029" "$(head -c 400 "$TMP/out")"
else ok "--print table escapes U+2028 and U+2029"; fi
contains "... as it escapes control characters" "$TMP/out" "line???sep"
# every row's N ends in the same column
cols=$(awk 'NR > 2 { print index($0, " " $2 " ") + length($2) }' "$TMP/out" | sort -u | wc -l)
if [ "$cols" -eq 1 ]; then ok "... and the rows stay aligned"; else nok "... and the rows stay aligned" "$(cat "$TMP/out")"; fi

# ---- exit status: a lost write or out of memory is a runtime error (1), not bad input (2) ----
if [ -w /dev/full ]; then
	# each report, and the reproduction of one round's CSV (a few KiB, written at exit)
	for what in table csv summary plot fit pareto clusters sensitivity predict trend "summary --format json" \
		"csv -w bert --round v4.1" "query --deadline 60"; do
		expect_exit "--print $what >/dev/full exits 1" 1 sh -c "'$G' --predict 64 --print $what >/dev/full"
		contains "... and names the output and the error" "$TMP/err" "gpuscale: cannot write standard output: No space left on device"
	done
	expect_exit "--help >/dev/full names the output and the error" 1 sh -c "'$G' --help >/dev/full"
	contains "... on standard error" "$TMP/err" "gpuscale: cannot write standard output: No space left on device"
	expect_exit "--help >/dev/full exits 1" 1 sh -c "'$G' --help >/dev/full"
	expect_exit "--version >/dev/full exits 1" 1 sh -c "'$G' --version >/dev/full"
	expect_exit "import -h >/dev/full exits 1" 1 sh -c "'$G' import -h >/dev/full"
	expect_exit "--help to a working stdout still exits 0" 0 "$G" --help
else
	skip "--print >/dev/full exits 1" "no writable /dev/full"
fi
# Address-space limits are found on the machine the test runs on, not assumed: how much a
# program takes depends on its libc, its kernel and how it was linked.
# least_limit CMD: a `ulimit -v` (KB) under which sh -c CMD exits 0 into $least, and one 250 KB
# or less below it under which it does not into $lo, found by bisection; $least empty when even
# 4,000,000 KB is not enough. (What a process takes is not monotonic in the limit: malloc falls
# back from the heap to mappings of other sizes, so a limit further below may still do.)
least_limit() {
	lo=0 hi=8000 least=
	until sh -c "ulimit -v $hi; $1" >/dev/null 2>&1; do
		lo=$hi hi=$((hi * 2))
		[ $hi -gt 4000000 ] && return
	done
	while [ $((hi - lo)) -gt 250 ]; do
		mid=$(((lo + hi) / 2))
		if sh -c "ulimit -v $mid; $1" >/dev/null 2>&1; then hi=$mid; else lo=$mid; fi
	done
	least=$hi
}
# 300,000 rows under a limit a little above what the program needs to start run out of memory
# while loading (their rows alone take tens of MB)
awk 'BEGIN { print "round,submitter,system,accelerators,benchmark,minutes"
	for (i = 0; i < 300000; i++) printf "v1,s%d,sys-%d-abcdefghijklmnopqrstuvwxyz,8,bert,%d.5\n", i, i, i % 90 + 1 }' >"$TMP/big.csv"
if [ "${SANITIZE:-0}" = 1 ]; then
	skip "out of memory while loading exits 1" "ASan reserves more address space than the limit"
	skip "out of memory is named" "ASan reserves more address space than the limit"
else
	least_limit "exec '$G' --version"
	if [ -z "$least" ]; then
		nok "out of memory while loading exits 1" "--version does not start under 4,000,000 KB"
	else
		lim=$((least + 8000))
		expect_exit "out of memory while loading exits 1 (ulimit -v $lim)" 1 sh -c "ulimit -v $lim; '$G' '$TMP/big.csv' --print summary"
		contains "out of memory is named" "$TMP/err" "out of memory"
	fi
fi
# --print csv of 6,000 rows with 3 to 12 runs each (every interval drawn) under address-space
# limits around the least it needs on this machine: at and above it the whole table, the same
# bytes as without a limit; just below it exit 1 naming out of memory with nothing on standard
# output; further below either of the two; never a table cut short
awk 'BEGIN { print "round,submitter,system,accelerators,benchmark,minutes,run_minutes"
	for (i = 0; i < 6000; i++) { n = 2 ^ (i % 9); k = 3 + i % 10; t = 900 / n * (1 + (i % 13) / 40)
		printf "v1,s%d,sys%d,%d,bert,%.4f,", i % 50, i, n, t
		for (j = 0; j < k; j++) printf "%s%.4f", j ? ";" : "", t * (0.95 + j / 100)
		print "" } }' >"$TMP/runs.csv"
"$G" "$TMP/runs.csv" --print csv >"$TMP/runs_ref.csv" 2>/dev/null
if [ "${SANITIZE:-0}" = 1 ]; then
	skip "--print csv under memory limits: whole or nothing" "ASan reserves more address space than the limit"
elif [ "$(wc -l <"$TMP/runs_ref.csv")" -ne 6001 ]; then
	nok "--print csv under memory limits: whole or nothing" "no reference table ($(wc -l <"$TMP/runs_ref.csv") lines)"
else
	least_limit "exec '$G' '$TMP/runs.csv' --print csv"
	least_start=$least below=$lo
	least_limit "exec '$G' --version"
	if [ -z "$least_start" ] || [ -z "$least" ]; then
		nok "--print csv under memory limits: whole or nothing" "no limit up to 4,000,000 KB is enough"
	else
		bad="" whole=0 oom=0
		for lim in $((below - 2000)) $((below - 1000)) $below \
			$least_start $((least_start + 500)) $((least_start + 2000)) $((least_start * 2)); do
			[ $lim -le "$least" ] && continue # below what starting takes: nothing to learn
			sh -c "ulimit -v $lim; exec '$G' '$TMP/runs.csv' --print csv" >"$TMP/lim.csv" 2>"$TMP/lim.err"
			rc=$?
			if [ $lim -ne "$below" ] && [ $rc -eq 0 ] && cmp -s "$TMP/lim.csv" "$TMP/runs_ref.csv"; then
				whole=$((whole + 1))
			elif [ $lim -lt "$least_start" ] && [ $rc -eq 1 ] && [ ! -s "$TMP/lim.csv" ] &&
				grep -q "out of memory" "$TMP/lim.err"; then
				oom=$((oom + 1))
			else
				bad="$bad $lim:rc=$rc,$(wc -c <"$TMP/lim.csv")B"
			fi
		done
		if [ -z "$bad" ] && [ $whole -ge 4 ] && [ $oom -gt 0 ]; then
			ok "--print csv under memory limits: whole or nothing (least ${least_start} KB; $whole whole, $oom out of memory)"
		else
			nok "--print csv under memory limits: whole or nothing" "least $least_start KB: $whole whole, $oom out of memory, wrong:$bad"
		fi
	fi
fi
expect_exit "a plot size out of range is still a usage error (2), found before loading" 2 "$G" --print plot --height 7 /nonexistent.csv
contains "the plot size error names the option" "$TMP/err" "--height: a plot needs 8 to 200 lines, got 7"

# A narrow table keeps N, min and E' and cuts the names first: at every width 40..56 the header
# holds them, and a name is cut ('~') only while a column the width drops is not one of them.
bad=""
for w in 40 42 44 46 48 50 52 54 56; do
	"$G" --round v4.1 -w bert --print table --width $w >"$TMP/t.txt" 2>/dev/null
	h=$(sed -n 2p "$TMP/t.txt")
	case "$h" in *" N "*" min "*" E'"*) ;; *) bad="$bad $w:[$h]" ;; esac
	awk -v w=$w 'NR > 1 && length($0) > w { exit 1 }' "$TMP/t.txt" || bad="$bad $w:wider"
done
[ -z "$bad" ] && ok "--width 40..56: N, min and E' stay, the names are cut" || nok "--width 40..56: N, min and E' stay" "$bad"

# In the cross-round view every entry of a list names its round: the Pareto rows, the
# break-even rows and the sensitivity candidates.
"$G" -w llama2_70b_lora --all-rounds --print pareto,summary >"$TMP/t.txt" 2>/dev/null
if awk '/^Pareto frontier/ { p = 1; next } p && /^  / { n++; if ($1 !~ /^v[0-9]+\.[0-9]+$/) bad++ } p && !/^  / { p = 0 }
	/sensitivity/ { s = $0; sub(/^.*fewest accelerators: /, "", s); k = split(s, e, ", ")
		for (i = 1; i <= k; i++) { c++; if (e[i] !~ /^(v[0-9]+\.[0-9]+ |and [0-9]+ more)/) bad++ } }
	END { exit !(n > 2 && c > 5 && !bad) }' "$TMP/t.txt"
then ok "cross-round view: every Pareto row and sensitivity candidate names its round"
else nok "cross-round view: every list entry names its round" "$(grep -A4 -E '^Pareto|sensitivity' "$TMP/t.txt" | head -12)"; fi

# A summary ranks nothing, yet lists Pareto rows of equal T as the ranking orders them, as
# the Pareto report does: alpha and beta tie on T and N, their submitters sort them the other
# way round from their system ids and from the file.
printf 'round,submitter,system,accelerator,benchmark,accelerators,minutes\nv1,Z,alpha,NVIDIA H100,bert,8,10\nv1,A,beta,NVIDIA H100,bert,8,10\nv1,S,gamma,NVIDIA H100,bert,4,30\nv1,S,delta,NVIDIA H100,bert,16,12\n' >"$TMP/tie.csv"
for s in system submitter; do
	"$G" "$TMP/tie.csv" --sort $s --print summary,pareto >"$TMP/t.txt" 2>/dev/null
	if [ $s = system ]; then want="alpha (N=8), beta (N=8)"; first=alpha; else want="beta (N=8), alpha (N=8)"; first=beta; fi
	if grep -qF "pareto      2: $want" "$TMP/t.txt" && [ "$(awk '/^Pareto frontier/ { getline; print $1; exit }' "$TMP/t.txt")" = $first ]
	then ok "--sort $s: the summary lists tied Pareto rows as the Pareto report ranks them ($want)"
	else nok "--sort $s: tied Pareto rows in the ranking's order" "$(cat "$TMP/t.txt")"; fi
done
