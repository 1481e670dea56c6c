# Documentation stays in step with the program: the man page lints clean, and every option
# of --help appears in the man page and the README.
. "$GS_TOP/tests/lib.sh"
cd "$GS_TOP" || exit 1

if command -v mandoc >/dev/null 2>&1; then
	check "man page lints clean (mandoc -Tlint)" mandoc -Tlint -W warning man/gpuscale.1
else
	skip "man page lints clean" "mandoc not installed"
fi

"$GPUSCALE" --help >"$TMP/help" 2>&1
opts=$(grep -o -- '--[a-z][a-z-]*' "$TMP/help" | sort -u)
[ -n "$opts" ] && ok "--help lists options" || nok "--help lists options"
missing=
for o in $opts; do
	# the option as typed, or with every dash escaped as roff writes it (\-\-log\-y)
	esc=$(printf '%s' "$o" | sed 's/-/\\-/g')
	grep -qF -- "$o" man/gpuscale.1 || grep -qF -- "$esc" man/gpuscale.1 || missing="$missing $o"
done
[ -z "$missing" ] && ok "every --help option is in the man page" || nok "every --help option is in the man page" "missing:$missing"
missing=
for o in $opts; do grep -q -- "$o" README.md || missing="$missing $o"; done
[ -z "$missing" ] && ok "every --help option is in README.md" || nok "every --help option is in README.md" "missing:$missing"
for t in "make run" "make check"; do contains "README shows '$t'" README.md "$t"; done
