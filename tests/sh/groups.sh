#!/bin/sh
# Comparison groups over every bundled round x workload x mode (paper, family) x theta (0.5, 0.8,
# 1.2): each group's bracket in --print summary against an independent computation from the
# --print csv rows (tests/tools/groups_ref.py), no range reversed, no break-even row or
# reference candidate of another family, single-row groups "one row".
. "$(dirname "$0")/../lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "groups: independent bracket check" "python3 not installed"
	echo "1..$n_"
	exit 0
fi
# a sanitizer build is many times slower: one theta there (the normal build runs all three)
python3 "$GS_TOP/tests/tools/groups_ref.py" "$GPUSCALE" "${GPUSCALE_DATA:-$GS_TOP/data}" \
	$([ "${SANITIZE:-}" = 1 ] && echo --quick)
