# The malformed-input corpus (tests/malformed): each file gives its expected exit code and a
# message naming file, line and column; nothing crashes, no control byte or NaN reaches the output.
. "$GS_TOP/tests/lib.sh"
dir="$GS_TOP/tests/malformed"
cd "$dir" || exit 1
esc=$(printf '\033')
: >"$TMP/ran"
while IFS='|' read -r file code err out; do
	case "$file" in ''|'#'*) continue ;; esac
	echo "$file" >>"$TMP/ran"
	"$GPUSCALE" --print table,summary "$file" >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	why=
	[ "$rc" -eq "$code" ] || why="exit $rc, wanted $code"
	[ -z "$err" ] || grep -qF -- "$err" "$TMP/stderr" || why="$why; stderr lacks '$err'"
	[ -z "$out" ] || grep -qF -- "$out" "$TMP/stdout" || why="$why; stdout lacks '$out'"
	grep -q "$esc" "$TMP/stdout" "$TMP/stderr" && why="$why; an escape byte reached the output"
	# a bad field quoted back from the input ('NaN' in the summary's skipped line) is not a number
	sed "s/'[^']*' is not a / is not a /g" "$TMP/stdout" | grep -qiw 'nan' && why="$why; NaN printed as a number"
	[ "$rc" -ge 128 ] && why="$why; killed by a signal"
	if [ -z "$why" ]; then ok "$file (exit $code)"; else nok "$file" "$why" "$(head -c 400 "$TMP/stderr")"; fi
done <EXPECT
# every file of the corpus has its line in EXPECT (an empty or cut EXPECT would test nothing)
missing=
for f in *.csv; do grep -qxF -- "$f" "$TMP/ran" || missing="$missing $f"; done
if [ -z "$missing" ] && [ -s "$TMP/ran" ]; then ok "every file of tests/malformed was run ($(wc -l <"$TMP/ran" | tr -d ' '))"
else nok "every file of tests/malformed was run" "not in EXPECT:${missing:- (no file at all)}"; fi

# Generated: too big to keep in the repository.
# a field of n copies of a letter, without awk's sprintf limits
run_of() { head -c "$1" /dev/zero | tr '\0' "$2"; }
{ echo "system,benchmark,accelerators,minutes,system_name"; printf 'a,bert,8,1,'; run_of 1048576 x
  printf '\nz,bert,16,0.6,short\n'; } >"$TMP/field_1mb.csv"
expect_exit "a 1 MB field loads" 0 "$GPUSCALE" --print table "$TMP/field_1mb.csv"
{ echo "system,benchmark,accelerators,minutes,system_name"; printf 'a,bert,8,1,'; run_of 99989 y
  printf '\nz,bert,16,0.6,s\n'; } >"$TMP/line_100k.csv"
expect_exit "a 100,000-character line loads" 0 "$GPUSCALE" --print table "$TMP/line_100k.csv"
expect_exit "a missing file: exit 2" 2 "$GPUSCALE" --print table "$TMP/no-such-file.csv"
contains "a missing file is named" "$TMP/err" "no-such-file.csv: cannot open"
expect_exit "a folder instead of a file: exit 2" 2 "$GPUSCALE" --print table "$TMP"

# Prices tables (tests/malformed/prices): every defect is an error at its file:line:column and
# exit 2, whether the table is given with --prices or among the inputs.
cd "$dir/prices" || exit 1
: >"$TMP/ran"
while IFS='|' read -r file err; do
	case "$file" in ''|'#'*) continue ;; esac
	echo "$file" >>"$TMP/ran"
	"$GPUSCALE" --prices "$file" --print summary >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	why=
	[ "$rc" -eq 2 ] || why="exit $rc, wanted 2"
	grep -qF -- "$err" "$TMP/stderr" || why="$why; stderr lacks '$err'"
	if [ -z "$why" ]; then ok "--prices $file (exit 2)"; else nok "--prices $file" "$why" "$(head -c 400 "$TMP/stderr")"; fi
done <EXPECT
missing=
for f in *.csv; do grep -qxF -- "$f" "$TMP/ran" || missing="$missing $f"; done
if [ -z "$missing" ] && [ -s "$TMP/ran" ]; then ok "every prices file of tests/malformed/prices was run"
else nok "every prices file of tests/malformed/prices was run" "not in EXPECT:${missing:- (none)}"; fi
expect_exit "--prices of a missing file: exit 2" 2 "$GPUSCALE" --prices "$TMP/none.csv" --print summary
contains "--prices of a missing file names it" "$TMP/err" "none.csv: cannot open"
expect_exit "the shipped prices.csv loads" 0 "$GPUSCALE" --prices "$GS_TOP/data/prices.csv" --print summary
