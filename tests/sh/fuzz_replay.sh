# Every fuzz corpus and regression input goes through its parser again: no crash, no hang,
# no sanitizer report (in the SANITIZE=1 run).
. "$GS_TOP/tests/lib.sh"
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
	else
		nok "$kind/$name replays" "$(tail -n 15 "$TMP/out")"
	fi
done
