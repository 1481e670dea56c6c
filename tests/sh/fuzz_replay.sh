# Every fuzz corpus and regression input goes through its parser again: no crash, no hang,
# no sanitizer report (in the SANITIZE=1 run).
. "$GS_TOP/tests/lib.sh"
: >"$TMP/replayed"
for dir in "$GS_TOP"/tests/fuzz/corpus/* "$GS_TOP"/tests/fuzz/regress/*; do
	[ -d "$dir" ] || continue
	name=$(basename "$dir")
	kind=$(basename "$(dirname "$dir")")
	bin="$BUILD/tests/replay_$name"
	set -- "$dir"/*
	# the malformed-input files are CSV seeds too, kept once, in tests/malformed
	[ "$kind/$name" = corpus/csv ] && set -- "$@" "$GS_TOP"/tests/malformed/*.csv
	[ -e "$1" ] || continue
	if [ ! -x "$bin" ]; then nok "$kind/$name replays" "no $bin"; continue; fi
	if timeout 300 "$bin" "$@" >"$TMP/out" 2>&1; then
		ok "$kind/$name: $(tail -n 1 "$TMP/out")"
		echo "$kind/$name" >>"$TMP/replayed"
	else
		nok "$kind/$name replays" "$(tail -n 15 "$TMP/out")"
	fi
done
# every fuzz target had its corpus replayed (a moved or empty corpus would test nothing)
missing=
for f in "$GS_TOP"/tests/fuzz/fuzz_*.c; do
	t=$(basename "$f" .c); t=${t#fuzz_}
	grep -qxF "corpus/$t" "$TMP/replayed" || missing="$missing $t"
done
if [ -z "$missing" ] && [ -s "$TMP/replayed" ]; then ok "every fuzz target's corpus was replayed"
else nok "every fuzz target's corpus was replayed" "missing:${missing:- (no target found)}"; fi
