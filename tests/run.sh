#!/bin/sh
# Runs every unit test binary ($BUILD/tests/test_*) and every end-to-end script (tests/sh/*.sh),
# all speaking TAP, and ends with one line: "N passed, N failed, N skipped".
# A run that executes no test fails.
: "${BUILD:=build}"
: "${GPUSCALE:=$(pwd)/gpuscale}"
export GPUSCALE BUILD
top=$(cd "$(dirname "$0")/.." && pwd)
export GS_TOP="$top"
if [ "${SANITIZE:-}" = 1 ]; then
	# full stacks on malloc so that suppressions can name frames inside shared libraries
	export ASAN_OPTIONS="${ASAN_OPTIONS:-fast_unwind_on_malloc=0:abort_on_error=0}"
	export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$top/tests/lsan.supp:print_suppressions=0}"
	export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fi
# Two runs of the suite may share a machine (CI runs the normal and the sanitizer build side by
# side): every test holds a shared lock, and a test that times itself against itself (a line
# "# gs-test: alone" in it) holds it alone, so that nothing else runs while it measures.
lock=${GS_TEST_LOCK:-${TMPDIR:-/tmp}/gpuscale-tests.lock}
locked() { # -s|-x COMMAND...
	if command -v flock >/dev/null 2>&1; then
		m=$1
		shift
		flock "$m" "$lock" "$@"
	else
		shift
		"$@"
	fi
}
CMOCKA_MESSAGE_OUTPUT=TAP
export CMOCKA_MESSAGE_OUTPUT
pass=0 fail=0 skip=0
log=$(mktemp) || exit 1
before=$(mktemp) || exit 1
trap 'rm -f "$log" "$before"' EXIT
# stopped: the run ends after the test at hand (the EXIT trap then cleans up)
trap 'exit 130' INT
trap 'exit 143' TERM
# tests write under $TMP or the build folder, never into the working tree: what is at its top
# before the run is compared with what is there after
ls -A "$top" >"$before"

tally() { # name, exit status, output in $log
	# cmocka marks a skipped test "not ok N # SKIP", TAP scripts "ok N - ... # SKIP"
	p=$(grep '^ok ' "$log" | grep -vc '# *SKIP' | tr -d ' ')
	s=$(grep -Ec '^(not )?ok .*# *SKIP' "$log" | tr -d ' ')
	f=$(grep '^not ok ' "$log" | grep -vc '# *SKIP' | tr -d ' ')
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $1 exited with status $2"
		tail -n 20 "$log" | sed 's/^/    /'
	fi
	grep -E -A4 '^not ok ' "$log" | grep -v '# *SKIP' | grep -E '^(not ok |#)' | sed 's/^/    /' | head -n 60
	grep -E '^(not )?ok .*# *SKIP' "$log" | sed 's/^/    /' | head -n 20
	printf '%-28s %4d passed, %d failed, %d skipped  %ss\n' "$1" "$p" "$f" "$s" $(($(date +%s) - t0))
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	t0=$(date +%s)
	locked -s "$t" >"$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then grep -v '^ok ' "$log" | head -n 30 | sed 's/^/    /'; fi
	tally "$(basename "$t")" $rc
done
for t in "$top"/tests/sh/*.sh; do
	[ -f "$t" ] || continue
	t0=$(date +%s)
	if grep -q '^# gs-test: alone' "$t"; then
		locked -x sh "$t" >"$log" 2>&1
	else
		locked -s sh "$t" >"$log" 2>&1
	fi
	tally "$(basename "$t" .sh)" $?
done
left=$(ls -A "$top" | grep -vxF -f "$before" | tr '\n' ' ')
if [ -n "$left" ]; then
	echo "not ok - the tests left files in the working tree: $left"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ $((pass + fail)) -gt 0 ]
