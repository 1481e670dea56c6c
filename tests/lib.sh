# Helpers for the end-to-end scripts under tests/sh: TAP output, a scratch folder, and checks.
# Sourced; expects GPUSCALE (the binary) and GS_TOP (the source tree) from tests/run.sh.
: "${GS_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${GPUSCALE:=$GS_TOP/gpuscale}"
FIX="$GS_TOP/tests/fixtures"
MLPERF="$GS_TOP/../shared/mlperf"
n_=0
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

ok()   { n_=$((n_ + 1)); echo "ok $n_ - $1"; }
nok()  { n_=$((n_ + 1)); echo "not ok $n_ - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { n_=$((n_ + 1)); echo "ok $n_ - $1 # SKIP $2"; }

# check DESC CMD...: passes when CMD exits 0.
check() { d=$1; shift; if "$@" >"$TMP/out" 2>&1; then ok "$d"; else nok "$d" "$(head -c 600 "$TMP/out")"; fi; }

# expect_exit DESC CODE CMD...: runs CMD (stdout+stderr to $TMP/out), passes on that exit code.
expect_exit() {
	d=$1 want=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"; got=$?
	if [ "$got" -eq "$want" ]; then ok "$d"; else nok "$d" "exit $got, wanted $want" "$(head -c 600 "$TMP/err")"; fi
}

# contains DESC FILE TEXT: passes when FILE has the fixed string TEXT.
contains() { if grep -qF -- "$3" "$2"; then ok "$1"; else nok "$1" "'$3' not in $2:" "$(head -c 800 "$2")"; fi; }
lacks()    { if grep -qF -- "$3" "$2"; then nok "$1" "'$3' found in $2"; else ok "$1"; fi; }

# one_round VERSION: what follows sees a data folder holding that bundled round alone (with the
# families and prices tables), for the checks written against one round's numbers.
one_round() {
	mkdir -p "$TMP/data-$1" &&
		ln -sf "$GS_TOP/data/mlperf_training_$1.csv" "$GS_TOP/data/families.csv" \
			"$GS_TOP/data/prices.csv" "$TMP/data-$1/" || exit 1
	GPUSCALE_DATA=$TMP/data-$1
	export GPUSCALE_DATA
}

# workloads_of_data FILE: the benchmark ids of the bundled v4.1 data (its CSV, not a message of
# the program), one a line in file order, into FILE; one TAP line, ok when the list holds at least
# the four workloads of the paper, so that a loop over FILE cannot quietly test nothing.
workloads_of_data() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "benchmark") b = i; next }
		{ gsub(/"[^"]*"/, "q") } b && $b != "" && !seen[$b]++ { print $b }' \
		"$GS_TOP/data/mlperf_training_v4.1.csv" >"$1"
	wod_missing=
	for wod_w in bert llama2_70b_lora retinanet stable_diffusion; do
		grep -qxF "$wod_w" "$1" || wod_missing="$wod_missing $wod_w"
	done
	if [ -z "$wod_missing" ]; then ok "the bundled data has $(wc -l <"$1" | tr -d ' ') workloads to go through"
	else nok "the bundled data has the paper's workloads" "missing:$wod_missing" "list: $(tr '\n' ' ' <"$1")"; fi
}

# best_ms N CMD...: the best wall time of N runs of CMD (output discarded), in ms, in $ms; for
# tests that compare two of their own runs (a ratio), never an absolute time.
best_ms() {
	bm_n=$1
	shift
	ms=
	while [ "$bm_n" -gt 0 ]; do
		bm_t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		bm_t1=$(date +%s%N)
		bm_t=$(((bm_t1 - bm_t0) / 1000000))
		{ [ -z "$ms" ] || [ "$bm_t" -lt "$ms" ]; } && ms=$bm_t
		bm_n=$((bm_n - 1))
	done
}

# rounds_csv R FILE: a results CSV of R rounds r00000.. of one workload (mybench), 9 rows a round
# over two families, times varying by round: many rounds where real data has eight.
rounds_csv() {
	awk -v nr="$1" 'BEGIN {
		print "round,submitter,system,accelerator,nodes,accelerators_per_node,accelerators,benchmark,minutes,runs_scored,runs_failed"
		for (r = 0; r < nr; r++)
			for (i = 0; i < 9; i++) {
				n = 2 ^ (i % 5)
				printf "r%05d,S,s%d_%d,%s,%d,1,%d,mybench,%.4f,5,0\n", r, r, i, i < 5 ? "GPUA" : "GPUB", n, n, 100 / n ^ 0.8 + r % 7
			}
	}' >"$2"
}
