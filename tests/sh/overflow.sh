# An E' past the largest double is no number everywhere: the break-even, its sensitivity over
# the candidate references and the range agree (a row whose speedup overflows reaches nothing).
. "$GS_TOP/tests/lib.sh"
printf 'system,benchmark,accelerators,minutes\nr1,bert,1,1e308\nr2,bert,1,1.7e308\nx,bert,2,1e-300\ny,bert,4,2\nz,bert,8,1\n' >"$TMP/inf.csv"
expect_exit "overflowing E': --print summary exits 0" 0 "$GPUSCALE" --print summary -m paper "$TMP/inf.csv"
contains "the bracket leaves the overflowing row out" "$TMP/out" "theta 0.8 -> 8+ (no row beyond 8)"
contains "so does the sensitivity, with every candidate" "$TMP/out" "sensitivity N 8  over 2 candidates of the fewest accelerators: r2 (1.70e+308 min) -> 8+, r1 (1.00e+308 min) -> 8+"
contains "and the range" "$TMP/out" "range       N 8"
"$GPUSCALE" --print summary --format json -m paper "$TMP/inf.csv" >"$TMP/j" 2>&1
lacks "the JSON has no lower end at N 2" "$TMP/j" '"lo": 2,'
