# make install / uninstall honour PREFIX and DESTDIR: binary, data, man page, and back out.
. "$GS_TOP/tests/lib.sh"
D="$TMP/dest"
if make -s -C "$GS_TOP" install DESTDIR="$D" PREFIX=/opt/gs SANITIZE="${SANITIZE:-}" >"$TMP/out" 2>&1; then
	ok "make install DESTDIR=... PREFIX=/opt/gs"
else
	nok "make install" "$(tail -n 20 "$TMP/out")"
fi
for f in bin/gpuscale share/gpuscale/mlperf_training_v4.1.csv share/gpuscale/mlperf_training_v4.0.csv \
	share/gpuscale/families.csv share/man/man1/gpuscale.1; do
	if [ -f "$D/opt/gs/$f" ]; then ok "installed $f"; else nok "installed $f"; fi
done
GPUSCALE_DATA="$D/opt/gs/share/gpuscale" "$D/opt/gs/bin/gpuscale" --print summary >"$TMP/out" 2>&1
contains "the installed binary opens the newest installed round" "$TMP/out" "round v5.1"
GPUSCALE_DATA="$D/opt/gs/share/gpuscale" "$D/opt/gs/bin/gpuscale" --round v4.1 -w bert --print summary >"$TMP/out" 2>&1
contains "the installed binary has every installed round" "$TMP/out" "Krai/7920T_2xA5000_hdd"
make -s -C "$GS_TOP" uninstall DESTDIR="$D" PREFIX=/opt/gs SANITIZE="${SANITIZE:-}" >"$TMP/out" 2>&1
left=$(find "$D" -type f | wc -l)
[ "$left" -eq 0 ] && ok "make uninstall removes every installed file" || nok "make uninstall removes every installed file" "$(find "$D" -type f)"
