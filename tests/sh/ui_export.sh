#!/bin/sh
# e writes the ranked table (CSV) and the plot (text) under round-workload-time names, says where
# on the status bar, never replaces a file, and reports a folder it cannot write to. Under strace,
# system calls made to fail take it down its other paths: no renameat2(RENAME_NOREPLACE), no
# hard links, an fsync that fails (nothing may be left behind).
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

ui_start 100 30 ""
ui_wait "[BERT]"
ui_keys e
ui_see "e: the status bar says where" "exported ./gpuscale-v4.1-bert-"
csv=$(ls "$TMP"/gpuscale-v4.1-bert-*.csv 2>/dev/null | head -n 1)
txt=${csv%.csv}.txt
if [ -n "$csv" ] && [ -s "$csv" ]; then ok "the CSV file exists"; else nok "the CSV file exists" "$(ls -la "$TMP")"; fi
if [ -n "$csv" ] && [ -s "$txt" ]; then ok "the plot file exists beside it"; else nok "the plot file exists" "$(ls -la "$TMP")"; fi
case "$(basename "$csv")" in
gpuscale-v4.1-bert-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9].csv) ok "named after round, workload and time" ;;
*) nok "named after round, workload and time" "$csv" ;;
esac
rows=$(($(wc -l <"$csv") - 1))
if [ "$rows" -eq 29 ]; then ok "the CSV has every shown row"; else nok "the CSV has every shown row" "$rows rows"; fi
contains "the CSV names the reference" "$csv" "7920T_2xA5000_hdd"
contains "the plot file has the axis" "$txt" "+---"
contains "the plot file says what it shows" "$txt" "# gpuscale v4.1 bert"
ls -a "$TMP" | grep -q '^\.gpuscale-' && nok "no temporary file left" "$(ls -a "$TMP")" || ok "no temporary file left"
# the view line of the plot file, run with --print csv, writes the exported CSV byte for byte:
# the fitted E' too, which the screen shows only with L on
view=$(sed -n 's/^# view: gpuscale //p' "$txt")
# the line quotes as a shell does: read back by the shell
(cd "$TMP" && eval "set -- $view" && "$GPUSCALE" "$@" --print csv) >"$TMP/view.csv" 2>"$TMP/view.err"
if [ -n "$view" ] && cmp -s "$csv" "$TMP/view.csv"; then ok "the export is --print csv of its view line"
else nok "the export is --print csv of its view line" "view: $view" "$(diff "$csv" "$TMP/view.csv" | head -n 6)" "$(cat "$TMP/view.err")"; fi
fitcol=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "e_prime_fit") c = i; next } c && $c != "" { n++ } END { print n + 0 }' "$csv")
if [ "$fitcol" -gt 0 ]; then ok "the export has fitted E' with the fit not shown ($fitcol rows)"; else nok "the export has fitted E' with the fit not shown"; fi

# a second export in the same second gets another name; the first files stay as they were
sum1=$(cksum <"$csv")
ui_keys f j Space Enter
ui_wait "filter: "
ui_keys e e
ui_wait "exported"
sleep 0.3
n=$(ls "$TMP"/gpuscale-v4.1-bert-*.csv | wc -l | tr -d ' ')
if [ "$n" -eq 3 ]; then ok "three exports, three CSV files"; else nok "three exports, three CSV files" "$(ls "$TMP")"; fi
if [ "$(cksum <"$csv")" = "$sum1" ]; then ok "an existing export is never overwritten"; else nok "an existing export is never overwritten"; fi
# under a family filter too (a name with a space: the view line quotes it)
same=0
for c in "$TMP"/gpuscale-v4.1-bert-*.csv; do
	v=$(sed -n 's/^# view: gpuscale //p' "${c%.csv}.txt")
	(cd "$TMP" && eval "set -- $v" && "$GPUSCALE" "$@" --print csv) >"$TMP/view.csv" 2>/dev/null &&
		cmp -s "$c" "$TMP/view.csv" && same=$((same + 1))
done
if [ "$same" -eq 3 ]; then ok "each of the three exports is --print csv of its view line"
else nok "each of the three exports is --print csv of its view line" "$same of 3" "$(grep -h '^# view' "$TMP"/gpuscale-v4.1-bert-*.txt)"; fi
ui_keys q
ui_exit_code >/dev/null

# a folder that cannot be written (removed under the running program: fails even as root)
mkdir "$TMP/gone"
UI_CWD="$TMP/gone"
ui_start 100 30 ""
unset UI_CWD
ui_wait "[BERT]"
rmdir "$TMP/gone"
ui_keys e
ui_see "export into a folder that is gone: an error on the status bar" "export failed"
ui_keys q
code=$(ui_exit_code)
if [ "$code" = 0 ]; then ok "no crash: q exits 0 after the failed export"; else nok "q exits 0 after a failed export" "exit: $code"; fi
ui_stop

# count DIR NAME-PATTERN: how many files in DIR match
count() { find "$1" -maxdepth 1 -type f -name "$2" | wc -l | tr -d ' '; }
# pairs DIR: "CSVS TXTS TEMPS" counted in DIR
pairs() { echo "$(count "$1" 'gpuscale-*.csv') $(count "$1" 'gpuscale-*.txt') $(count "$1" '.gpuscale-*')"; }
# taken DIR EXT...: files "mine" under the names exports get in the next 30 s (false without
# GNU date)
taken() {
	dir=$1
	shift
	mkdir -p "$dir"
	now=$(date +%s) && date -d "@$now" +%Y%m%d-%H%M%S >/dev/null 2>&1 || return 1
	for i in $(seq 0 30); do
		for x in "$@"; do
			echo mine >"$dir/gpuscale-v4.1-bert-$(date -d "@$((now + i))" +%Y%m%d-%H%M%S).$x"
		done
	done
}

# the plot's name is taken but not the CSV's: the pair moves on to the next name together, and
# the file already there stays as it was
d=$TMP/pair
if taken "$d" txt; then
	UI_CWD=$d
	ui_start 100 30 ""
	unset UI_CWD
	ui_wait "[BERT]"
	ui_keys e
	ui_see "export with the plot's name taken: it says where" "-2.csv"
	ui_keys q
	code=$(ui_exit_code)
	csvs=$(cd "$d" && echo *.csv)
	mine=$(cat "$d"/*.txt | grep -c '^mine$')
	case $csvs in
	gpuscale-v4.1-bert-*-2.csv)
		if [ "$code" = 0 ] && [ -s "$d/${csvs%.csv}.txt" ] && [ "$mine" -eq 31 ] &&
			[ "$(pairs "$d")" = "1 32 0" ]; then
			ok "export with a taken plot name: the pair goes to -2, no CSV left alone, nothing replaced"
		else
			nok "export with a taken plot name" "exit $code; mine $mine; $(ls -la "$d")"
		fi ;;
	*) nok "export with a taken plot name: the pair goes to -2" "$(ls -la "$d")" ;;
	esac
else
	skip "export with a taken plot name" "date -d not available"
fi

# ---- other paths, by making system calls fail under strace ----
if ! command -v strace >/dev/null 2>&1 ||
	! strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:error=EIO true >/dev/null 2>&1; then
	for t in "no RENAME_NOREPLACE" "no hard links" "a failed fsync"; do
		skip "export with $t" "strace with fault injection not available"
	done
	ui_stop
	exit 0
fi
real=$GPUSCALE
# traced DIR STRACE-ARGS...: starts the explorer in DIR under strace with those injections
# (leak checking off: LeakSanitizer cannot attach to a process strace already traces)
traced() {
	dir=$1
	shift
	mkdir -p "$dir"
	{
		echo '#!/bin/sh'
		echo 'ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; export ASAN_OPTIONS'
		echo "exec strace -f -qq -o /dev/null $* '$real' \"\$@\""
	} >"$TMP/traced"
	chmod +x "$TMP/traced"
	GPUSCALE=$TMP/traced
	UI_CWD=$dir
	ui_start 100 30 ""
	unset UI_CWD
	GPUSCALE=$real
	ui_wait "[BERT]"
}

# the final names are taken: each fallback must still refuse to replace them
for mode in "no RENAME_NOREPLACE|-e trace=renameat2 -e inject=renameat2:error=ENOSYS" \
	"no hard links|-e trace=renameat2,link,linkat -e inject=renameat2:error=EINVAL -e inject=link,linkat:error=EPERM"; do
	name=${mode%%|*}
	d=$TMP/fb$(echo "$name" | tr -cd 'a-z')
	if ! taken "$d" csv txt; then skip "export with $name" "date -d not available"; continue; fi
	traced "$d" "${mode#*|}"
	ui_keys e
	ui_wait "exported"
	ui_keys e
	sleep 0.5
	ui_keys q
	code=$(ui_exit_code)
	got=$(pairs "$d")
	mine=$(cat "$d"/* | grep -c '^mine$')
	if [ "$code" = 0 ] && [ "$got" = "33 33 0" ] && [ "$mine" -eq 62 ] &&
		[ "$(count "$d" '*-[23].csv')" -eq 2 ] && [ "$(count "$d" '*-[23].txt')" -eq 2 ]; then
		ok "export with $name: two exports to new names, nothing replaced, no temporary"
	else
		nok "export with $name" "exit $code; csv txt temps: $got; mine: $mine" "$(ls -la "$d")" "$(cat "$UI_SCREEN")"
	fi
done

# every fsync fails: the export says so and leaves nothing behind
d=$TMP/fsync
traced "$d" -e trace=fsync -e inject=fsync:error=EIO
ui_keys e
ui_see "export with a failed fsync: an error on the status bar" "export failed"
ui_keys q
code=$(ui_exit_code)
if [ "$code" = 0 ] && [ -z "$(ls -A "$d")" ]; then
	ok "a failed fsync leaves no file, final or temporary; q exits 0"
else
	nok "a failed fsync leaves nothing" "exit $code" "$(ls -la "$d")"
fi

ui_stop
