#!/bin/sh
# What a results, prices or families file may be: a regular file, or a pipe read exactly like
# it (`<(cat FILE)`, a FIFO, waited for until its writer comes, "-" for standard input); a
# device is refused at once, naming it,
# and an endless stream stops at the loader's cap with an error naming it, in seconds.
. "$(dirname "$0")/../lib.sh"
G=$GPUSCALE
one_round v4.1
R="$GS_TOP/data/mlperf_training_v4.1.csv"
FAM="$GS_TOP/data/families.csv"
PRI="$GS_TOP/data/prices.csv"

# refused DESC TEXT CMD...: CMD fails within 5 s (timeout says 124) and says TEXT
refused() {
	d=$1 text=$2; shift 2
	timeout 5 "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -qF -- "$text" "$TMP/err"; then ok "$d"
	else nok "$d" "exit $rc (124: timed out)" "$(head -c 400 "$TMP/err")"; fi
}
refused "/dev/zero as results: refused at once, named" "/dev/zero: not a regular file or a pipe" \
	"$G" /dev/zero --print summary
refused "/dev/zero as families: refused at once, named" "/dev/zero: not a regular file or a pipe" \
	"$G" --families /dev/zero "$R" --print summary
refused "/dev/zero as prices: refused at once, named" "/dev/zero: not a regular file or a pipe" \
	"$G" --prices /dev/zero "$R" --print summary
refused "a folder as results: refused, named" "$TMP: not a regular file or a pipe" \
	"$G" "$TMP" --print summary
# endless streams through a pipe: zeros (no line ends) and short lines
refused "an endless pipe of zeros as results: stopped at the line cap, named" \
	"/dev/stdin: a line longer than" sh -c "cat /dev/zero | '$G' /dev/stdin --print summary"
refused "an endless pipe of zeros as families: stopped, named" "/dev/stdin: larger than" \
	sh -c "cat /dev/zero | '$G' --families /dev/stdin '$R' --print summary"
refused "an endless pipe of lines as prices: stopped at the size cap, named" "/dev/stdin: larger than" \
	sh -c "yes family,1,2,x,2024 | '$G' --prices /dev/stdin '$R' --print summary"

# the same output through a pipe as from the file
"$G" "$R" --print csv >"$TMP/want" 2>"$TMP/want.err" || nok "the file loads" "$(head -c 300 "$TMP/want.err")"
same() { # DESC CMD...: CMD's --print csv equals the file's
	d=$1; shift
	timeout 20 "$@" >"$TMP/got" 2>"$TMP/err"; rc=$?
	if [ $rc -eq 0 ] && cmp -s "$TMP/got" "$TMP/want"; then ok "$d"
	else nok "$d" "exit $rc" "$(head -c 300 "$TMP/err")" "$(diff "$TMP/want" "$TMP/got" | head -n 5)"; fi
}
same "results from standard input ('-') load like the file" sh -c "'$G' - --print csv <'$R'"
same "results through a pipe (/dev/stdin) load like the file" sh -c "cat '$R' | '$G' /dev/stdin --print csv"
same "families through a pipe load like the file" sh -c "cat '$FAM' | '$G' --families /dev/stdin '$R' --print csv"
same "prices through a pipe load like the file" sh -c "cat '$PRI' | '$G' --prices /dev/stdin '$R' --print csv"
mkfifo "$TMP/fifo"
(cat "$R" >"$TMP/fifo" &)
same "results through a FIFO load like the file" "$G" "$TMP/fifo" --print csv
# a FIFO whose writer comes later is waited for, as cat waits (not read as an empty file)
rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
(sleep 0.3; timeout 10 sh -c "cat \"$R\" >\"$TMP/fifo\"") &
same "results through a FIFO whose writer starts 0.3 s later load like the file" "$G" "$TMP/fifo" --print csv
wait
rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
(sleep 0.3; timeout 10 sh -c "cat \"$FAM\" >\"$TMP/fifo\"") &
same "families through a FIFO whose writer starts 0.3 s later load like the file" "$G" --families "$TMP/fifo" "$R" --print csv
wait
if command -v bash >/dev/null 2>&1; then
	same "results as <(cat FILE) load like the file" bash -c "'$G' <(cat '$R') --print csv"
	same "prices and families as <(cat FILE) load like the files" \
		bash -c "'$G' --families <(cat '$FAM') --prices <(cat '$PRI') '$R' --print csv"
else
	skip "results as <(cat FILE)" "no bash"
	skip "prices and families as <(cat FILE)" "no bash"
fi
echo "1..$n_"
