# Documentation stays in step with the program: the man page lints clean and has every
# option of --help; README is the front door (at most 200 lines, the two commands, pointers to
# the manual). The man page's KEYS against the key table: tests/test_ui_keydoc.c.
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
n=$(wc -l <README.md)
[ "$n" -le 200 ] && ok "README.md is at most 200 lines ($n)" || nok "README.md is at most 200 lines" "$n lines"
contains "README points to the manual" README.md "man gpuscale"
contains "README points to the tests' inventory" README.md "tests/README"
contains "README points to the benchmarks" README.md "tests/bench/README"
# statements that were true of an earlier loader or duplicate rule
lacks "README does not say plain lines are split in place" README.md "split in place"
lacks "README does not say the first submitter always stands" README.md "the row of the first submitter by name stands"
contains "the man page says which row stands for a duplicate group" man/gpuscale.1 "one with an energy score"
[ -f tests/bench/README ] && grep -q '^<!-- bench:begin -->' tests/bench/README && grep -q '^<!-- bench:end -->' tests/bench/README &&
	ok "tests/bench/README has the table markers make bench-readme fills" || nok "tests/bench/README has its table markers"
for t in "make run" "make check"; do contains "README shows '$t'" README.md "$t"; done

# The man page's --sort and --y-metric entries name every value --help lists (--help prints
# them from the column registry, so a new column shows there first).
entry() { awk -v o="$1" 'index($0, ".It Li \\-\\-" o) == 1 { on = 1; next } /^\.It/ { on = 0 } on' man/gpuscale.1; }
for o in sort y-metric; do
	esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	entry "$esc" >"$TMP/entry"
	case $o in
	sort) names=$("$GPUSCALE" --help | sed -n '/--sort COL/,/(default ep, descending)/p' | sed 's/.*rank by//; s/(default.*//' | tr ',' ' ') ;;
	*) names=$("$GPUSCALE" --help | grep -- '--y-metric M' | sed 's/.*plot y://; s/(default.*//' | tr ',' ' ') ;;
	esac
	missing=
	for n in $names; do grep -qw -- "$n" "$TMP/entry" || missing="$missing $n"; done
	[ -s "$TMP/entry" ] && [ -z "$missing" ] && ok "the man page's --$o names every value of --help" ||
		nok "the man page's --$o names every value of --help" "missing:$missing" "$(head -c 300 "$TMP/entry")"
done
