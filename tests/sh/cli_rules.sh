#!/bin/sh
# The command line's rules: a results file written with ';', tabs or '|' is refused naming its
# separator; rows given twice (one file twice, or files that share rows) give one warning with
# their count per file; every single-valued option given twice is an error naming it (the
# options are read from --help, so a new one is checked too); without -w every report covers
# every workload of the round, the same as the reports of each workload one by one.
. "$(dirname "$0")/../lib.sh"

G=$GPUSCALE
V41=$GS_TOP/data/mlperf_training_v4.1.csv
one_round v4.1

# ---- separators ----
for sep in ';' '|' tab; do
	ch=$sep
	[ "$sep" = tab ] && ch=$(printf '\t')
	head -n 5 "$V41" | sed 's/"[^"]*"//g' | tr ',' "$ch" >"$TMP/sep.csv"
	expect_exit "fields separated by $sep: exit 2" 2 "$G" "$TMP/sep.csv" --print summary
	case $sep in tab) want="fields are separated by tabs, not ','" ;; *) want="fields are separated by '$sep', not ','" ;; esac
	contains "... and the error names the separator $sep" "$TMP/err" "$want"
	contains "... at the file's header" "$TMP/err" "sep.csv:1:"
done
# a comma-separated file missing a column still says what is missing
head -n 3 "$V41" | sed '1s/,minutes,/,mins,/' >"$TMP/nomin.csv"
expect_exit "a missing column: exit 2" 2 "$G" "$TMP/nomin.csv" --print summary
contains "... named as missing, no separator blamed" "$TMP/err" "missing required column 'minutes'"

# ---- rows given twice ----
rows=$(($(wc -l <"$V41") - 1))
"$G" "$V41" "$V41" -w bert --print summary >/dev/null 2>"$TMP/err"
n=$(grep -c 'warning: .*\(duplicate\|repeat\)' "$TMP/err")
if [ "$n" -eq 1 ]; then ok "one file twice: one warning ($n)"; else nok "one file twice: one warning" "got $n" "$(head -n 3 "$TMP/err")"; fi
contains "... with the count of its rows ($rows)" "$TMP/err" "$rows rows repeat an earlier row"
contains "... and where the first is" "$TMP/err" "mlperf_training_v4.1.csv:2: $rows rows"
head -n 41 "$V41" >"$TMP/a.csv"
{ head -n 1 "$V41"; sed -n '32,61p' "$V41"; } >"$TMP/b.csv"
"$G" "$TMP/a.csv" "$TMP/b.csv" --print summary >/dev/null 2>"$TMP/err"
n=$(grep -c 'warning: .*\(duplicate\|repeat\)' "$TMP/err")
if [ "$n" -eq 1 ]; then ok "files sharing 10 rows: one warning"; else nok "files sharing 10 rows: one warning" "got $n" "$(head -n 3 "$TMP/err")"; fi
contains "... counting the 10" "$TMP/err" "b.csv:2: 10 rows repeat an earlier row"
{ head -n 3 "$V41"; sed -n 2p "$V41"; } >"$TMP/c.csv"
"$G" "$TMP/c.csv" --print summary >/dev/null 2>"$TMP/err"
contains "a single repeated row keeps its own warning" "$TMP/err" "c.csv:4: duplicate of"

# ---- an option given twice ----
# value_for OPT: values to try, the first the option takes alone is used
value_for() {
	case $1 in
	workload) echo bert ;; round) echo v4.1 ;; reference) echo 'x-none' ;; mode) echo paper ;;
	ref-rule) echo median ;; theta) echo 0.7 ;; clusters) echo 4 ;; features) echo n-t ;;
	sort) echo min ;; print) echo summary ;; y-metric) echo s ;; width) echo 90 ;;
	height) echo 30 ;; mouse) echo off ;; families) echo "$GS_TOP/data/families.csv" ;;
	prices) echo "$GS_TOP/data/prices.csv" ;; family) echo B200 H100 ;; vendor) echo NVIDIA ;;
	availability) echo Preview Research ;; division) echo closed ;; minimize) echo acc-hours ;;
	format) echo json text ;; columns) echo n,min system n ;; *) echo 1 x 2 summary on ;;
	esac
}
"$G" --help | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+( [^ ]+)?' >"$TMP/opts"
nopts=$(wc -l <"$TMP/opts")
if [ "$nopts" -ge 25 ]; then ok "--help lists $nopts options"; else nok "--help lists the options" "$(cat "$TMP/opts")"; fi
while read -r line; do
	name=$(printf '%s\n' "$line" | sed 's/.*--\([a-z-]*\).*/\1/')
	case $name in help | version) continue ;; esac
	valued=no
	printf '%s\n' "$line" | grep -qE -- "--$name [^ ]" && valued=yes
	# pinned needs a system: a valid one of v4.1 bert
	base="-w bert --print summary"
	case $name in workload) base="--print summary" ;; print) base="-w bert" ;;
	reference) base="--print summary" ;; minimize) base="-w bert --print query --deadline 30" ;;
	columns) base="-w bert --print table" ;; esac
	used=
	if [ $valued = no ]; then
		# shellcheck disable=SC2086
		"$G" --$name $base >/dev/null 2>&1 && used=yes
		set -- "--$name" "--$name"
	else
		for v in $(value_for "$name"); do
			if [ "$name" = reference ]; then v=$("$G" -w bert --print csv | awk -F, 'NR == 2 { print $5 }'); fi
			# shellcheck disable=SC2086
			if "$G" "--$name" "$v" $base >/dev/null 2>&1; then used=$v; break; fi
		done
		set -- "--$name" "$used" "--$name=$used"
	fi
	case $name in family | vendor | availability | division)
		if [ -n "$used" ]; then
			# shellcheck disable=SC2086
			expect_exit "--$name is repeatable" 0 "$G" "$@" $base
		else skip "--$name is repeatable" "no value found"; fi
		continue ;;
	esac
	if [ -z "$used" ]; then skip "--$name given twice" "no value it takes alone"; continue; fi
	# shellcheck disable=SC2086
	expect_exit "--$name given twice: exit 2" 2 "$G" "$@" $base
	contains "... the error names --$name" "$TMP/err" "option '--$name'"
	contains "... and says it was given twice" "$TMP/err" "given twice"
done <"$TMP/opts"
# the short form counts as the long one, and the message quotes both values
expect_exit "-w bert -w retinanet: exit 2" 2 "$G" -w bert -w retinanet --print summary
contains "... naming both values" "$TMP/err" "option '--workload' (-w) given twice ('bert', then 'retinanet')"
expect_exit "-k 3 --clusters 4: exit 2" 2 "$G" -k 3 --clusters 4 --print summary
contains "... -k and --clusters are one option" "$TMP/err" "'--clusters' (-k) given twice"

# ---- without -w, every report covers every workload ----
"$G" --print summary | sed -n 's/^[^ ].* (\([a-z0-9_]*\)), round v4\.1$/\1/p' >"$TMP/works"
nw=$(wc -l <"$TMP/works")
if [ "$nw" -ge 4 ]; then ok "the summary covers $nw workloads"; else nok "the summary covers the workloads" "$(cat "$TMP/works")"; fi
for r in table plot clusters pareto fit csv summary; do
	: >"$TMP/want"
	i=0
	while read -r w; do
		"$G" --print "$r" -w "$w" >"$TMP/one" 2>/dev/null
		if [ "$r" = csv ]; then
			if [ $i -eq 0 ]; then cat "$TMP/one"; else sed 1d "$TMP/one"; fi
		else
			[ $i -eq 0 ] || echo
			case $r in clusters | pareto)
				label=$("$G" --print summary -w "$w" | head -n 1) && echo "$label" ;;
			esac
			cat "$TMP/one"
		fi >>"$TMP/want"
		i=$((i + 1))
	done <"$TMP/works"
	"$G" --print "$r" >"$TMP/all" 2>/dev/null
	if cmp -s "$TMP/all" "$TMP/want"; then ok "--print $r without -w: every workload, as each alone"
	else nok "--print $r without -w: every workload, as each alone" "$(diff "$TMP/all" "$TMP/want" | head -n 6)"; fi
done
echo "1..$n_"
