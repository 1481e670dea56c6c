# The command line and --print on the bundled data: usage errors, the paper's references,
# the family filter and family mode, checked against values recomputed here with awk.
. "$GS_TOP/tests/lib.sh"
G=$GPUSCALE
D=$GS_TOP/data

# ---- no file: every bundled round loads, the newest opens ----
expect_exit "no file: every bundled round loads" 0 "$G" --print summary
contains "no file: the newest round (v5.1) opens" "$TMP/out" "round v5.1"
expect_exit "no file: an older bundled round is there too" 0 "$G" --round v4.0 -w bert --print summary
contains "no file: --round v4.0 shows v4.0's BERT" "$TMP/out" "BERT (bert), round v4.0"
expect_exit "no file: an unknown round is refused" 2 "$G" --round v9 --print summary
contains "no file: the valid rounds are the four bundled ones, in version order" "$TMP/err" "v4.0, v4.1, v5.0, v5.1"
expect_exit "files in any order: exit 0" 0 "$G" "$D/mlperf_training_v5.0.csv" "$D/mlperf_training_v4.0.csv" --print summary
contains "files in any order: the newest by version opens (v5.0)" "$TMP/out" "round v5.0"
mkdir -p "$TMP/v10" && sed 's/^v4\.1,/v10.0,/' "$D/mlperf_training_v4.1.csv" >"$TMP/v10/mlperf_training_v10.0.csv"
expect_exit "v10.0 beside v5.1: exit 0" 0 "$G" "$TMP/v10/mlperf_training_v10.0.csv" "$D/mlperf_training_v5.1.csv" --print summary
contains "v10.0 is newer than v5.1 (versions, not text)" "$TMP/out" "round v10.0"
mkdir -p "$TMP/empty"
GPUSCALE_DATA=$TMP/empty expect_exit "a data folder with no round: exit 2" 2 "$G" --print summary
contains "a data folder with no round says what it looked for" "$TMP/err" "no mlperf_training_*.csv here"
# data/*.csv: the families and prices tables among the inputs are used as such
expect_exit "data/*.csv: the tables among the results are no error" 0 "$G" "$D"/*.csv --print summary
contains "data/*.csv: the families table is said to be used" "$TMP/err" "families.csv: a families table, not results: used as the families table"
contains "data/*.csv: the prices table is said to be used" "$TMP/err" "prices.csv: a prices table, not results: used as the prices table"
contains "data/*.csv: the rounds load and the newest opens" "$TMP/out" "round v5.1"
printf 'pattern,vendor,family\nH100,NVIDIA,Hopper-X\n' >"$TMP/fam.csv"
expect_exit "a families file among the inputs: exit 0" 0 "$G" "$TMP/fam.csv" "$D/mlperf_training_v4.1.csv" -w bert --print csv
contains "a families file among the inputs replaces the rules" "$TMP/out" "Hopper-X"
printf 'family,usd_per_hour_low,usd_per_hour_high,source,date\nH100 SXM,-1,2,x,2026\n' >"$TMP/badprice.csv"
expect_exit "a bad prices file among the inputs: exit 2" 2 "$G" "$TMP/badprice.csv" "$D/mlperf_training_v4.1.csv" --print summary
contains "a bad prices file among the inputs is named with its line" "$TMP/err" "badprice.csv:2:"

# -w without --round: the newest round that has the workload (v5.1 has no BERT, v5.0 has)
expect_exit "-w bert with no round: exit 0" 0 "$G" -w bert --print summary
contains "-w bert with no round: the newest round with BERT (v5.0)" "$TMP/out" "BERT (bert), round v5.0"
expect_exit "-w by label with no round: exit 0" 0 "$G" -w RetinaNet --print summary
contains "-w RetinaNet: v5.1 has it" "$TMP/out" "RetinaNet (retinanet), round v5.1"
expect_exit "-w resnet: only v4.0 has it" 0 "$G" -w resnet --print summary
contains "-w resnet: v4.0" "$TMP/out" "ResNet (resnet), round v4.0"
expect_exit "-w of no round: exit 2" 2 "$G" -w nope --print summary
contains "-w of no round: the newest round's workloads listed" "$TMP/err" "unknown workload 'nope' in round v5.1"

# the cross-round view: H100 SXM Llama2-LoRA from v4.0 to v5.1
expect_exit "--all-rounds: exit 0" 0 "$G" --all-rounds -w llama2_70b_lora -f "H100 SXM" --print csv
rounds=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "round") c = i; next } { print $c }' "$TMP/out" | sort -u | tr '\n' ' ')
if [ "$rounds" = "v4.0 v4.1 v5.0 v5.1 " ]; then ok "--all-rounds: rows of the four rounds ($rounds)"
else nok "--all-rounds: rows of the four rounds" "$rounds"; fi
expect_exit "--all-rounds table and summary: exit 0" 0 "$G" --all-rounds -w llama2_70b_lora -f "H100 SXM" --print table,summary
if grep -qE '^# +round +submitter' "$TMP/out"; then ok "--all-rounds: the table has a round column"
else nok "--all-rounds: the table has a round column" "$(head -c 600 "$TMP/out")"; fi
# the round after the plot's letter, as the legend names it
contains "--all-rounds: the round follows its plot letter" "$TMP/out" " b v4.1 "
contains "--all-rounds: the table's title says all rounds" "$TMP/out" "all rounds Llama2-LoRA  reference:"
contains "--all-rounds: the summary says all rounds" "$TMP/out" "Llama2-LoRA (llama2_70b_lora), all rounds"
expect_exit "one round: exit 0" 0 "$G" -w llama2_70b_lora -f "H100 SXM" --print table
lacks "one round: no round column" "$TMP/out" " round "

# no limit on the values of a filter: 100 -f options, the last one a real family
set --
i=0
while [ $i -lt 99 ]; do set -- "$@" -f "none$i"; i=$((i + 1)); done
expect_exit "100 family filters: only unknown names are refused" 2 "$G" "$@" -f "H100 SXM" --print summary
contains "100 family filters: the first unknown one is named" "$TMP/err" "unknown family 'none0'"
lacks "100 family filters: no limit on their count" "$TMP/err" "at most"
set --

# the checks below are written against the v4.1 round alone
# a round by its version alone, a workload by the id its round published
expect_exit "--round 4.1 is v4.1" 0 "$G" --round 4.1 -w bert --print summary
contains "... and shows v4.1" "$TMP/out" "BERT (bert), round v4.1"
expect_exit "--round V4.0 is v4.0" 0 "$G" --round V4.0 -w bert --print summary
contains "... and shows v4.0" "$TMP/out" "BERT (bert), round v4.0"
expect_exit "--round 4.2 is no round" 2 "$G" --round 4.2 --print summary
contains "... and lists the loaded ones" "$TMP/err" "unknown round '4.2' (loaded: v2.0,"
expect_exit "-w ssd --round v4.1: v4.1's own id" 0 "$G" -w ssd --round v4.1 --print summary
contains "... is its RetinaNet" "$TMP/out" "RetinaNet (retinanet), round v4.1"
expect_exit "-w gnn --round v4.0: v4.0's own id" 0 "$G" -w gnn --round v4.0 --print summary
contains "... is its R-GAT" "$TMP/out" "R-GAT (rgat), round v4.0"
one_round v4.1

expect_exit "--help exits 0" 0 "$G" --help
contains "--help shows --print" "$TMP/out" "--print WHAT"
expect_exit "--version exits 0" 0 "$G" --version
contains "--version names the program" "$TMP/out" "gpuscale "
expect_exit "unknown option: exit 2" 2 "$G" --bogus
contains "unknown option named" "$TMP/err" "unknown option '--bogus'"
# An empty value ("--round=", "-w ''") is a usage error naming the option as it was typed,
# caught before any file is read (not "unknown round ''" or a file error with no name).
for o in workload reference family vendor availability division mode clusters features theta \
	round y-metric sort width height mouse print families; do
	expect_exit "--$o= is a usage error" 2 "$G" "--$o=" --print table
	contains "--$o= is named as having an empty value" "$TMP/err" "option '--$o' needs a value, got an empty one"
	expect_exit "--$o '' is a usage error" 2 "$G" "--$o" "" --print table
	contains "--$o '' is named as having an empty value" "$TMP/err" "option '--$o' needs a value, got an empty one"
done
for o in w r f m k; do
	expect_exit "-$o '' is a usage error" 2 "$G" "-$o" "" --print table
	contains "-$o '' is named as having an empty value" "$TMP/err" "option '-$o' needs a value, got an empty one"
done
expect_exit "a value missing at the end: exit 2" 2 "$G" --print table --round
contains "the option missing its value is named" "$TMP/err" "option '--round' needs a value"
# The option at fault is named, not a neighbour: getopt reports a bad short option in a
# cluster ("-xh") before moving past its word, and permutes file names ahead of options.
expect_exit "unknown short option in a cluster: exit 2" 2 "$G" -xh
contains "the unknown short option is named" "$TMP/err" "unknown option '-x'"
expect_exit "unknown short option after a file: exit 2" 2 "$G" some.csv -x
contains "the unknown short option is named, not the file" "$TMP/err" "unknown option '-x'"
for o in log-y reverse help version; do
	expect_exit "--$o=1: exit 2" 2 "$G" "--$o=1"
	contains "--$o=1 is said to take no value" "$TMP/err" "option '--$o' takes no value"
done
expect_exit "an ambiguous abbreviation: exit 2" 2 "$G" --r x
contains "an ambiguous abbreviation lists its options" "$TMP/err" "option '--r' is ambiguous: --reference, --round, --reverse"
expect_exit "unknown workload: exit 2" 2 "$G" -w nope --print table
contains "unknown workload lists valid ones" "$TMP/err" "(valid: bert, llama2_70b_lora, retinanet, stable_diffusion"
expect_exit "unknown family: exit 2" 2 "$G" -w bert -f "Nope 9000" --print table
contains "unknown family lists valid ones" "$TMP/err" "(valid: H200 SXM, "
expect_exit "unknown availability: exit 2" 2 "$G" --availability available --print table
contains "unknown availability lists valid ones" "$TMP/err" "(valid: Available on-premise"
expect_exit "unknown division: exit 2" 2 "$G" --division nope --print table
contains "unknown division lists valid ones" "$TMP/err" "(valid: closed)"
expect_exit "availability filter (case-insensitive): exit 0" 0 "$G" -w bert --availability preview --print csv
if awk -F, 'NR > 1 { n++ } END { exit !(n >= 1 && n < 29) }' "$TMP/out"; then ok "availability filter keeps only its rows"; else nok "availability filter keeps only its rows" "$(head -c 300 "$TMP/out")"; fi
expect_exit "unknown reference system: exit 2" 2 "$G" -w bert -r nope --print table
contains "unknown system lists valid ones" "$TMP/err" "7920T_2xA5000_hdd"
expect_exit "unknown report: exit 2" 2 "$G" --print tables
expect_exit "k out of range: exit 2" 2 "$G" -k 13 --print table
expect_exit "theta not a number: exit 2" 2 "$G" --theta x --print table
# theta's range is GS_THETA_MIN..GS_THETA_MAX (arow.h), both ends allowed, as on screen
tmin=$(sed -n 's/^#define GS_THETA_MIN \([0-9.]*\).*/\1/p' "$GS_TOP/include/arow.h")
tmax=$(sed -n 's/^#define GS_THETA_MAX \([0-9.]*\).*/\1/p' "$GS_TOP/include/arow.h")
expect_exit "theta at its minimum ($tmin): exit 0" 0 "$G" --theta "$tmin" --print summary
expect_exit "theta at its maximum ($tmax): exit 0" 0 "$G" --theta "$tmax" --print summary
below=$(awk -v t="$tmin" 'BEGIN { printf "%.6g", t * 0.99 }')
above=$(awk -v t="$tmax" 'BEGIN { printf "%.6g", t * 1.01 }')
expect_exit "theta below the range ($below): exit 2" 2 "$G" --theta "$below" --print summary
contains "the theta error gives the range" "$TMP/err" "is not a number in $tmin..$(awk -v t="$tmax" 'BEGIN { printf "%g", t }')"
expect_exit "theta above the range ($above): exit 2" 2 "$G" --theta "$above" --print summary
expect_exit "pinned without a reference: exit 2" 2 "$G" -m pinned --print table
expect_exit "plot below 20x8: exit 2" 2 "$G" --print plot --width 19 --height 8
expect_exit "plot at 20x8: exit 0" 0 "$G" --print plot --width 20 --height 8
expect_exit "unknown round: exit 2" 2 "$G" --round v9.9 --print table
# every bad value lists the valid ones
expect_exit "--sort of no column: exit 2" 2 "$G" --sort foo --print table
contains "... lists the columns" "$TMP/err" "--sort: 'foo' is not one of ep, s, e, t, a, n, system, submitter, family,"
for o in "--y-metric" "-m" "--features" "--ref-rule" "--mouse" "--format" "--minimize" "--print" \
	"-f" "--vendor" "--availability" "--division" "-r" "-w" "--round" "-k" "--theta"; do
	"$G" "$o" zzbad --print summary >/dev/null 2>"$TMP/err"
	if grep -qE "not (one of )?[a-z0-9].*(,| or )|valid: |loaded: |in [0-9.]+\.\.[0-9]" "$TMP/err"; then ok "$o zzbad lists what is valid"
	else nok "$o zzbad lists what is valid" "$(cat "$TMP/err")"; fi
done
expect_exit "explorer without a terminal: exit 2" 2 sh -c "'$G' </dev/null"

# every row of a workload, unfiltered, as CSV: the source of the expected values below
all() { "$G" -w "$1" --print csv; }
# expected paper reference over rows whose family matches $2 (empty: all): fewest N, ties slowest
paper_ref() {
	all "$1" | awk -F, -v fam="$2" 'NR > 1 && (fam == "" || $6 == fam) {
		n = $9 + 0; t = $10 + 0
		if (best == "" || n < bn || (n == bn && t > bt) || (n == bn && t == bt && $5 < best)) { best = $5; bn = n; bt = t }
	} END { print best }'
}

expect_exit "--print summary --mode paper exits 0" 0 "$G" --mode paper --print summary
cp "$TMP/out" "$TMP/summary"
contains "BERT reference is the paper's (Krai 2xA5000, 366.19 min)" "$TMP/summary" \
	"reference   Krai/7920T_2xA5000_hdd (N=2, 366.19 min, paper)"
for w in bert llama2_70b_lora retinanet stable_diffusion; do
	ref=$(paper_ref $w "")
	[ -n "$ref" ] || { nok "paper reference of $w computed"; continue; }
	if awk -v w="($w)" -v r="$ref" 'index($0, w) { on = 1; next } on && /reference/ { found = index($0, "/" r " ") > 0; exit }
		END { exit !found }' "$TMP/summary"; then
		ok "summary names the paper-rule reference of $w ($ref)"
	else
		nok "summary names the paper-rule reference of $w" "expected $ref"
	fi
done

# Hardware-controlled view: H100 SXM only; every E' recomputed from T and N.
"$G" -w bert -f "H100 SXM" --print csv >"$TMP/h100.csv" 2>"$TMP/err"
ref=$(paper_ref bert "H100 SXM")
cat >"$TMP/h100.awk" <<'AWK'
NR == 1 { next }
{
	rows++
	if ($6 != "H100 SXM") bad = bad " family:" $5
	if ($16 != ref) bad = bad " ref:" $16
	sys[rows] = $5; n[rows] = $9; t[rows] = $10; ep[rows] = $13
	if ($5 == ref) { rn = $9; rt = $10 }
}
END {
	if (!rows || rn == "") { print "no rows or no reference"; exit 1 }
	for (i = 1; i <= rows; i++) {
		e = (rt / t[i]) / (n[i] / rn); d = e - ep[i]; if (d < 0) d = -d
		if (d > 1e-9 * e) bad = bad " E-prime:" sys[i]
	}
	if (rows < 5) bad = bad " only " rows " rows"
	if (bad != "") { print bad; exit 1 }
}
AWK
if awk -F, -v ref="$ref" -f "$TMP/h100.awk" "$TMP/h100.csv" >"$TMP/why"; then
	ok "-f 'H100 SXM': only H100 SXM rows, reference $ref, every E' = (T_r/T)/(N/N_r)"
else
	nok "-f 'H100 SXM' rows, reference and E'" "$(cat "$TMP/why")"
fi
"$G" -w bert -f "H100 SXM" --print table >"$TMP/out" 2>&1
contains "-f 'H100 SXM' table names the reference" "$TMP/out" "$ref"

# Family mode: each row against its own family's paper-rule reference.
"$G" -w bert -m family --print csv >"$TMP/fam.csv" 2>"$TMP/err"
bad= nfam=0
for fam in $(awk -F, 'NR > 1 { print $6 }' "$TMP/fam.csv" | sort -u | tr ' ' '_'); do
	f=$(echo "$fam" | tr '_' ' ')
	want=$(paper_ref bert "$f")
	got=$(awk -F, -v f="$f" 'NR > 1 && $6 == f { print $16 }' "$TMP/fam.csv" | sort -u)
	[ -n "$want" ] && [ "$got" = "$want" ] || bad="$bad $f:$got!=$want"
	nfam=$((nfam + 1))
done
# as many rows as the unfiltered paper-mode CSV, and the seven families of BERT v4.1
rows=$(($(wc -l <"$TMP/fam.csv") - 1)) want_rows=$(($(all bert | wc -l) - 1))
[ "$want_rows" -eq 29 ] || bad="$bad; paper mode has $want_rows rows, not 29"
[ "$rows" -eq "$want_rows" ] || bad="$bad; $rows rows, wanted $want_rows"
[ "$nfam" -eq 7 ] || bad="$bad; $nfam families, wanted 7"
[ -z "$bad" ] && ok "-m family: all 29 rows, each against its own family's paper reference" || nok "-m family references" "$bad" "$(head -c 300 "$TMP/err")"

# Pinned: E' of the pinned row is 1 and it is marked as the reference.
"$G" -w bert -r 7920T_2xA5000_ssd --print csv >"$TMP/pin.csv" 2>&1
if awk -F, 'NR > 1 && $5 == "7920T_2xA5000_ssd" { n++; ep = $13; isref = $17 }
	NR > 1 && $17 == 1 { refs++ }
	END { exit !(n == 1 && ep == "1" && isref == "1" && refs == 1) }' "$TMP/pin.csv"; then
	ok "-r pins the reference (its row is there, E' = 1, the only row marked reference)"
else
	nok "-r pins the reference (E' = 1)" "$(grep -e '^rank,' -e ',7920T_2xA5000_ssd,' "$TMP/pin.csv" | head -c 600)"
fi
# A pinned reference hidden by the filter still serves.
"$G" -w bert -r 7920T_2xA5000_ssd -f "H100 SXM" --print table >"$TMP/out" 2>&1
contains "pinned reference hidden by a filter still serves" "$TMP/out" "hidden by the filter"

for w in 20 60 80; do
	"$G" -w bert --print table --width $w >"$TMP/out" 2>&1
	rc=$?
	long=$(awk -v w=$w 'length($0) > w' "$TMP/out" | wc -l)
	rows=$(grep -cE '^ *[0-9]+  ' "$TMP/out")
	[ $rc -eq 0 ] && [ "$rows" -eq 29 ] && [ "$long" -eq 0 ] && ok "--print table --width $w: all 29 rows, no line longer" ||
		nok "--print table --width $w" "exit $rc, $rows rows, $long lines too long" "$(cat "$TMP/out")"
done
"$G" -w bert --print table >"$TMP/out" 2>&1
contains "--print table without --width keeps whole names" "$TMP/out" "lambda_1cc_n2_H100-SXM-80GB_ngc24.04_nemo"
grep -q ' $' "$TMP/out" && nok "no trailing spaces in --print table" || ok "no trailing spaces in --print table"

# Numbers in the C locale whatever the environment says.
loc=$(locale -a 2>/dev/null | grep -i '^de_DE.utf' | head -n 1)
if [ -n "$loc" ]; then
	LC_ALL=$loc "$G" -w bert --print csv >"$TMP/de.csv" 2>&1
	"$G" -w bert --print csv >"$TMP/c.csv" 2>&1
	check "csv identical under LC_ALL=$loc" cmp "$TMP/de.csv" "$TMP/c.csv"
else
	skip "csv identical under a German locale" "no de_DE locale installed"
fi

# Determinism: two runs, same clusters.
"$G" -k auto --print summary,clusters >"$TMP/a" 2>&1; "$G" -k auto --print summary,clusters >"$TMP/b" 2>&1
check "auto-k and clusters identical across runs" cmp "$TMP/a" "$TMP/b"
workloads_of_data "$TMP/wl"
for w in $(cat "$TMP/wl"); do
	"$G" -w "$w" --print table,plot,clusters,pareto >"$TMP/o" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q '^Pareto frontier' "$TMP/o"; then nok "the reports of $w" "exit $rc" "$(head -c 300 "$TMP/o")"
	elif grep -qiw nan "$TMP/o"; then nok "no NaN in the reports of $w"; else ok "no NaN in the reports of $w"; fi
done

# --print pareto names exactly the csv's Pareto rows, and its E' is each row's E' (3 digits).
cat >"$TMP/pareto.awk" <<'AWK'
NR == FNR { if (FNR > 1 && $19 == 1) { ep[$5] = $13; n++ } next }
/E'=/ {
	split($0, w, " "); sys = w[1]; v = substr(w[5], 4) + 0; seen++
	if (!(sys in ep)) { print "not Pareto in csv: " sys; bad = 1; next }
	d = v - ep[sys]; if (d < 0) d = -d
	if (d > 0.0051 * ep[sys]) { print sys ": shown " v " vs " ep[sys]; bad = 1 }
}
END { if (seen != n || n == 0) { print "rows " seen " vs " n; bad = 1 } exit bad }
AWK
for w in $(cat "$TMP/wl"); do
	"$G" -w "$w" --print csv >"$TMP/p.csv" 2>/dev/null
	"$G" -w "$w" --print pareto >"$TMP/p.txt" 2>/dev/null
	if awk -F, -f "$TMP/pareto.awk" "$TMP/p.csv" FS=' ' "$TMP/p.txt" >"$TMP/why"; then
		ok "--print pareto of $w: the csv's Pareto rows with their E'"
	else
		nok "--print pareto of $w" "$(cat "$TMP/why")"
	fi
done

# Reports come out in the order asked for.
"$G" -w bert --print pareto,summary,table >"$TMP/out" 2>&1
order=$(grep -nE '^Pareto frontier|^BERT \(bert\)|^#  ' "$TMP/out" | cut -d: -f2 | cut -c1-6 | tr '\n' '|')
[ "$order" = "Pareto|BERT (|#   sy|" ] || [ "$order" = "Pareto|BERT (|#   su|" ] && ok "reports in the order asked for" || nok "reports in the order asked for" "$order"
# A filter that hides everything says so.
"$G" -w bert --vendor AMD -f "H100 SXM" --print table,summary >"$TMP/out" 2>&1
contains "an empty table says why" "$TMP/out" "no rows: the filter hides every system"
contains "an empty summary says no rows are shown" "$TMP/out" "none (no rows shown)"

# One system id under several submitters (v4.0's SMC results) is several results.
V40="$GS_TOP/data/mlperf_training_v4.0.csv"
"$G" "$V40" -w unet3d --no-collapse --print csv >"$TMP/out" 2>"$TMP/err"
n=$(grep -c ',1xSMC-H100-SXM-80GB,' "$TMP/out")
[ "$n" -eq 3 ] && ok "v4.0: the three SMC submitters' results of one system are all kept" || nok "v4.0: SMC results kept" "got $n"
# By default identical runs under several submitters are one row that names them all.
"$G" "$V40" -w unet3d --print csv >"$TMP/out2" 2>/dev/null
n=$(grep -c ',1xSMC-H100-SXM-80GB,' "$TMP/out2")
[ "$n" -eq 2 ] && ok "v4.0: identical SMC submissions collapse (3 rows -> 2)" || nok "v4.0: SMC collapse" "got $n"
contains "the standing row lists the submitters it stands for" "$TMP/out2" "smc;smc-"
lacks "the bundled data loads without a duplicate warning" "$TMP/err" "duplicate"
expect_exit "a shared system id as reference is ambiguous: exit 2" 2 "$G" "$V40" -w unet3d -r 1xSMC-H100-SXM-80GB --print table
contains "the ambiguity lists SUBMITTER/SYSTEM names" "$TMP/err" "smc-ac-power/1xSMC-H100-SXM-80GB"
expect_exit "SUBMITTER/SYSTEM pins it" 0 "$G" "$V40" -w unet3d --no-collapse -r smc-ac-power/1xSMC-H100-SXM-80GB --print summary
contains "the pinned reference is that submitter's" "$TMP/out" "smc-ac-power/1xSMC-H100-SXM-80GB (N=8, 12.26 min, pinned)"
expect_exit "a collapsed submission pins the row that stands for it" 0 "$G" "$V40" -w unet3d -r smc-ac-power/1xSMC-H100-SXM-80GB --print summary
contains "the standing row (the one with energy) is the reference" "$TMP/out" "smc-dc-power/1xSMC-H100-SXM-80GB (N=8, 12.26 min, pinned)"
"$G" "$V40" -w unet3d --no-collapse --print pareto >"$TMP/out" 2>&1
contains "reports name a shared system id with its submitter" "$TMP/out" "smc-ac-power/9xSMC-H100-SXM-80GB"

# Every column name --help lists for --sort, and every metric for --y-metric, is taken.
bad=
for c in $("$G" --help | sed -n '/--sort COL/,/(default ep, descending)/p' | sed 's/.*rank by//; s/(default.*//' | tr ',' ' '); do
	# v4.0's BERT has energy and prices, so that every column has values to sort by
	"$G" "$V40" -w bert --sort "$c" --print table >/dev/null 2>"$TMP/err" || bad="$bad $c"
done
[ -z "$bad" ] && ok "every --sort name of --help is taken" || nok "every --sort name of --help is taken" "refused:$bad"
bad=
for m in $("$G" --help | grep -- '--y-metric M' | sed 's/.*plot y://; s/(default.*//' | tr ',' ' '); do
	"$G" "$V40" -w bert --y-metric "$m" --print plot >/dev/null 2>"$TMP/err" || bad="$bad $m"
done
[ -z "$bad" ] && ok "every --y-metric name of --help is taken" || nok "every --y-metric name of --help is taken" "refused:$bad"
expect_exit "--y-metric n (a column, not a plot metric) is refused: exit 2" 2 "$G" -w bert --y-metric n --print plot
# a column no shown row has would rank by the tie-break alone: an error naming it
expect_exit "--sort kwh where no row has energy (v4.1 BERT): exit 2" 2 "$G" --round v4.1 -w bert --sort kwh --print table
contains "... naming the column and why" "$TMP/err" "--sort kwh: no shown row of v4.1 bert has energy measured (kwh)"
expect_exit "--y-metric kwh there: exit 2" 2 "$G" --round v4.1 -w bert --y-metric kwh --print plot
contains "... naming the metric" "$TMP/err" "--y-metric kwh: no shown row of v4.1 bert has energy measured"
# a skipped row is counted and named; --strict makes it an error
printf 'system,benchmark,accelerators,minutes,accelerator\na,bert,8,10,H100\nb,bert,16,6,H100\nc,bert,x,3,H100\nd,bert,32,4,H100\n' >"$TMP/typo.csv"
expect_exit "a CSV row with a typo is skipped: exit 0" 0 "$G" "$TMP/typo.csv" --print summary
contains "the summary counts the skipped row and names it" "$TMP/out" "skipped     1 bad row of the input, not in any count (the first: $TMP/typo.csv:4:"
expect_exit "--strict: the skipped row is an error, exit 2" 2 "$G" "$TMP/typo.csv" --strict --print summary
contains "--strict names file, line and column" "$TMP/err" "$TMP/typo.csv:4:8: accelerators: 'x'"
# under --strict a bad row is an error, not a skipped row, and each is said once
printf 'e,bert,64,0,H100\n' >>"$TMP/typo.csv"
expect_exit "--strict with two bad rows: exit 2" 2 "$G" "$TMP/typo.csv" --strict --print summary
lacks "--strict: no row is said to be skipped" "$TMP/err" "row skipped"
if [ "$(grep -c "typo.csv:4:8" "$TMP/err")" -eq 1 ] && [ "$(grep -c "typo.csv:6:" "$TMP/err")" -eq 1 ]; then
	ok "--strict: each bad row said once"
else nok "--strict: each bad row said once" "$(cat "$TMP/err")"; fi
contains "--strict: each bad row an error" "$TMP/err" "gpuscale: error: $TMP/typo.csv:6:11: minutes: '0' is not a positive finite number"
contains "--strict: the verdict counts them" "$TMP/err" "--strict: 2 bad rows of the input (above) are an error; nothing reported"
expect_exit "--pareto-cost --print pareto: exit 0" 0 "$G" --round v4.1 -w bert --pareto-cost --print pareto
contains "--pareto-cost: the header says cost" "$TMP/out" "Pareto frontier on (T, cost to train)"

# Trainings per hour: the X/h column is 60 / min on every row, and a sort and a plot metric.
"$G" -w bert --print table >"$TMP/out" 2>&1
python3 - "$TMP/out" >"$TMP/bad" 2>&1 <<'PY' &&
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = lines[1]
# numbers are right-aligned: a cell ends where its heading ends
def cell(line, name):
    end = head.index(" " + name + " ") + 1 + len(name)
    return float(line[:end].split()[-1])
rows = [l for l in lines[2:] if l.strip()]
bad = [l for l in rows if abs(cell(l, "X/h") - 60 / cell(l, "min")) > 0.006 * 60 / cell(l, "min")]
if not rows or bad:
    print("\n".join(bad) or "no rows")
    sys.exit(1)
PY
	ok "the X/h column is 60 / min on every row" || nok "the X/h column is 60 / min on every row" "$(head -c 600 "$TMP/bad")"
"$G" -w bert --sort xh --print csv >"$TMP/out" 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "minutes") t = i; next }
	{ if (prev != "" && $t + 0 < prev + 0) bad = 1; prev = $t } END { exit bad || NR < 3 }' "$TMP/out" &&
	ok "--sort xh ranks the fastest first" || nok "--sort xh ranks the fastest first" "$(head -c 600 "$TMP/out")"
"$G" -w bert --y-metric xh --print plot >"$TMP/out" 2>&1
contains "--y-metric xh plots trainings per hour" "$TMP/out" "X/h vs accelerators"

# An E' past the largest double is no number: blank, ranked last, never the break-even row.
printf 'system,benchmark,accelerators,minutes,accelerator\nref,bert,1,1e300,H100\nfast,bert,2,1e-300,H100\nmid,bert,4,1e299,H100\n' >"$TMP/inf.csv"
"$G" "$TMP/inf.csv" --print csv >"$TMP/out" 2>"$TMP/err"
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["system"] == "fast" { f = ($c["rank"] == 3 && $c["e_prime"] == "" && $c["break_even"] == 0) }
	END { exit !f }' "$TMP/out"; then ok "an overflowing E' is blank, ranked last, not the break-even"
else nok "an overflowing E' is blank, ranked last, not the break-even" "$(cat "$TMP/out")"; fi

# No fixed limit on families: 40 families give 40 blocks in the summary, none left out.
awk 'BEGIN { print "system,benchmark,accelerators,minutes,accelerator"
	for (f = 0; f < 40; f++) for (n = 1; n <= 4; n *= 2) printf "s%d_%d,bert,%d,%g,Acc%02d\n", f, n, n, 100 / n ^ 0.9, f }' >"$TMP/fam40.csv"
"$G" "$TMP/fam40.csv" --print summary >"$TMP/out" 2>"$TMP/err"
got=$(grep -c '^  family      Acc' "$TMP/out")
[ "$got" -eq 40 ] && ok "40 families: 40 blocks in the summary" || nok "40 families: 40 blocks in the summary" "got $got"

# --columns: the table shows the columns named (the system always), in the table's order; an
# unknown name is a usage error naming it.
expect_exit "--columns n,ep,family: accepted" 0 "$G" --round v4.1 -w bert --print table --columns n,ep,family
head_line=$(sed -n 2p "$TMP/out" | tr -s ' ')
[ "$head_line" = "system family N E'" ] && ok "--columns n,ep,family: system, family, N, E' ($head_line)" \
	|| nok "--columns n,ep,family: system, family, N, E'" "$head_line"
expect_exit "--columns rank,min: the rank by name" 0 "$G" --round v4.1 -w bert --print table --columns rank,min
head_line=$(sed -n 2p "$TMP/out" | tr -s ' ')
[ "$head_line" = "# system min" ] && ok "--columns rank,min: #, system, min" || nok "--columns rank,min: #, system, min" "$head_line"
expect_exit "--columns with an unknown name: a usage error" 2 "$G" --round v4.1 -w bert --print table --columns n,bogus
contains "--columns: the error names the column and lists the valid ones" "$TMP/err" "--columns: 'bogus' is not one of rank, ep, s, e, t, a, n, system,"
# --help's --sort names, every one a --columns name but the one --help says has no column
sorts=$("$G" --help | sed -n '/--sort COL/,/(default/p' | sed 's/.*rank by//; s/(default.*//' | tr -d ' \n')
bad=
for name in $(echo "$sorts" | tr ',' ' '); do
	[ "$name" = division ] && continue
	"$G" --round v4.1 -w bert --print table --columns "$name" >/dev/null 2>&1 || bad="$bad $name"
done
if [ -n "$sorts" ] && [ -z "$bad" ]; then ok "every --sort name of --help but division is a --columns name ($sorts)"
else nok "every --sort name of --help but division is a --columns name" "refused:${bad:- (no names read from --help)}"; fi
"$G" --help >"$TMP/help"
contains "--help says which --sort name has no column" "$TMP/help" "the --sort names
                          but division"
expect_exit "--columns division: a usage error" 2 "$G" --round v4.1 -w bert --print table --columns n,division
contains "... that says how the table shows the division" "$TMP/err" "--columns: 'division' has no column: the table marks an open-division row o"
