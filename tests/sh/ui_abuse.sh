#!/bin/sh
# Interactive abuse, in tmux: 200 resizes in a row (1x1, 2x2, 10x3 and 300x100 among them) and
# then the same screen as before at 100x30; 10,000 pseudo-random keys (every key of the key
# table but the quit keys, arrows, pages, Home/End, Esc, Enter, Backspace, digits, letters,
# F-keys, control keys, mouse reports, escape sequences, invalid UTF-8) started in each context
# (main, help, detail, family menu, search prompt), the program alive after every batch; then q
# exits 0 and the terminal is back in cooked mode. Last, names holding ESC [2J, an OSC 52
# clipboard write, BEL and backspace reach the screen as '?' and do nothing to the terminal.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi
set -f # keys such as ? [ * are words here, never patterns

alive() { [ -f "$TMP/pid" ] && kill -0 "$(cat "$TMP/pid")" 2>/dev/null; }

ui_start 100 30 ""
ui_wait "29/29 rows"
cp "$UI_SCREEN" "$TMP/screen0"

# ---- 200 resizes ----
# one tmux command line per 20 sizes, so that the program gets them faster than it can draw
awk 'BEGIN {
	s = 12345
	fixed["0"] = "1 1"; fixed["1"] = "2 2"; fixed["2"] = "10 3"; fixed["3"] = "300 100"
	for (i = 0; i < 200; i++) {
		k = i % 50
		if (k < 4) { split(fixed[k ""], wh, " "); w = wh[1]; h = wh[2] }
		else {
			s = (s * 1103515245 + 12345) % 2147483648; w = 1 + int(s / 65536) % 300
			s = (s * 1103515245 + 12345) % 2147483648; h = 1 + int(s / 65536) % 100
		}
		printf "%sresize-window -t gs -x %d -y %d", (i % 20 ? " ; " : ""), w, h
		if (i % 20 == 19) printf "\n"
	}
}' >"$TMP/resizes"
# n counts the resizes tmux carried out (a command line stops at its first failure)
n=0
while IFS= read -r line; do
	# shellcheck disable=SC2086
	tm $line >/dev/null 2>&1 && n=$((n + 20))
done <"$TMP/resizes"
if [ "$n" -eq 200 ] && alive; then ok "200 resizes (1x1, 2x2, 10x3, 300x100 among them): still running"
else nok "200 resizes: still running" "tmux carried out $n"; fi
# the program followed them to the last one: too small, its notice gives that size
last=$(tail -n 1 "$TMP/resizes" | sed 's/.*-x \([0-9]*\) -y \([0-9]*\) *$/\1x\2/')
case $last in
[0-9]*x[0-9]*) ui_see "after the resizes the notice gives the last size ($last)" "$last," ;;
*) nok "the last resize is known" "'$last'" ;;
esac
tm resize-window -t gs -x 100 -y 30
i=0 same=1
while [ $i -lt 50 ]; do
	ui_cap
	cmp -s "$TMP/screen0" "$UI_SCREEN" && { same=0; break; }
	sleep 0.1
	i=$((i + 1))
done
if [ $same -eq 0 ]; then ok "back at 100x30 the screen is the same as before the resizes"
else nok "back at 100x30 the screen is the same as before" "$(diff "$TMP/screen0" "$UI_SCREEN")"; fi

# ---- 10,000 random keys ----
# The pool: tmux key names, one word each, and "H:.." for raw bytes (tmux send-keys -H). Left
# out: q, F10 and Ctrl-C (they quit; tested last), Ctrl-Z, Ctrl-\ (job control), Ctrl-S and Ctrl-Q
# (flow control: the tty, not the program) and ';' (tmux's command separator); no raw sequence
# holds a q either.
awk 'BEGIN {
	n = split("? F1 Tab BTab 1 2 3 4 5 6 7 8 9 0 [ ] Up Down Left Right k j PPage NPage g G " \
		"Home End Enter f F r R m + - a c y Y t T p s S / n N e M C-l Escape Space BSpace " \
		"F2 F3 F4 F5 F6 F7 F8 F9 F11 F12 IC DC C-a C-b C-d C-e C-h C-u C-w C-v C-o M-x " \
		"b d h i l o u v w x z A B C D E H I J K L O P Q U V W X Z ! @ # $ % ^ & * ( ) _ = " \
		"{ } | : , . < > ~", pool, " ")
	m = split("1b,5b,3c,30,3b,31,30,3b,35,4d 1b,5b,3c,30,3b,33,30,3b,31,30,6d " \
		"1b,5b,3c,36,34,3b,35,3b,35,4d 1b,5b,4d,20,21,21 1b,5b,32,4a 1b,5d,35,32,3b,63,3b,5a,6d,39,76,07 " \
		"1b,5b 1b,4f 1b,5b,31,3b,35,41 1b,5b,39,39,39,3b,39,39,39,52 07 08 00 7f ff c3,28 " \
		"e2,82 1b,50,31,24,72,1b,5c 1b,5b,3f,31,30,34,39,6c 9b,32,4a", raw, " ")
	s = 4242
	for (i = 0; i < 10000; i++) {
		s = (s * 1103515245 + 12345) % 2147483648
		r = int(s / 65536)
		if (r % 16 == 0) print "H:" raw[1 + int(r / 16) % m]
		else print pool[1 + int(r / 16) % n]
	}
	for (i = 1; i <= n; i++) print "ALL " pool[i] > "/dev/stderr"
}' >"$TMP/keys" 2>"$TMP/pool"
missing=0 npool=0
for k in $(sed -n 's/^ALL //p' "$TMP/pool"); do
	grep -qxF -- "$k" "$TMP/keys" || missing=$((missing + 1))
	npool=$((npool + 1))
done
nkeys=$(wc -l <"$TMP/keys" | tr -d ' ')
if [ $missing -eq 0 ] && [ $npool -ge 100 ] && [ "$nkeys" -eq 10000 ]; then
	ok "the random sequence holds every key of the pool ($npool keys)"
else
	nok "the random sequence holds every key of the pool" "$missing missing of $npool; $nkeys keys"
fi

# send_batch FIRST COUNT: keys FIRST..FIRST+COUNT-1 of the sequence in one tmux command line
send_batch() {
	awk -v a="$1" -v c="$2" 'NR >= a && NR < a + c {
		if ($0 ~ /^H:/) { gsub(",", " ", $0); printf " ; send-keys -t gs -H %s", substr($0, 3) }
		else printf " ; send-keys -t gs %s", $0
	}' "$TMP/keys" | sed 's/^ ; //' >"$TMP/batch"
	# shellcheck disable=SC2046
	tm $(cat "$TMP/batch") >/dev/null 2>&1
}

first=1 dead=0
for ctx in main help detail menu search; do
	case $ctx in
	main) open= mark="? help" ;;
	help) open='?' mark="this help" ;;
	detail) open=Enter mark="detail: " ;;
	menu) open=f mark="family filter" ;;
	search) open=/ mark="Enter keeps, Esc cancels" ;;
	esac
	b=0 reached=1
	while [ $b -lt 8 ]; do
		# back to the main screen (Esc closes every overlay), a known state, then the context
		tm send-keys -t gs Escape \; send-keys -t gs Escape \; send-keys -t gs C-l
		[ -n "$open" ] && tm send-keys -t gs "$open"
		# a backlog of keys to work through: a longer limit
		if [ $b -eq 0 ]; then ui_wait "$mark" 20 || reached=0; fi
		send_batch "$first" 250
		first=$((first + 250))
		b=$((b + 1))
		alive || { dead=1; break; }
	done
	if [ $reached -eq 1 ]; then ok "context $ctx reached before its keys"
	else nok "context $ctx reached before its keys" "$(cat "$UI_SCREEN")"; fi
	if [ $dead -eq 0 ]; then ok "2000 random keys from the $ctx context: still running"
	else nok "2000 random keys from the $ctx context: still running" "$(cat "$TMP/exit" 2>/dev/null)" \
		"$(cat "$UI_SCREEN")"; break; fi
done
tm send-keys -t gs Escape \; send-keys -t gs Escape \; send-keys -t gs M-x \; send-keys -t gs '?'
if ui_wait "this help" 20; then ok "after 10,000 keys the keys still work (? shows the help)"
else nok "after 10,000 keys the keys still work" "$(cat "$UI_SCREEN")"; fi
ui_keys q
ui_gone "q closes the help" "this help"
ui_keys q
ui_exits "q exits 0" 0 "$(cat "$UI_SCREEN")"
ui_sane "the terminal is back in cooked mode"

# ---- control characters and escape sequences in the data ----
esc=$(printf '\033') bel=$(printf '\007') bs=$(printf '\010')
{
	echo "system,system_name,submitter,benchmark,accelerators,minutes"
	echo "clear${esc}[2Jme,name${bel}bell,sub${bs}${bs}back,bert,8,10"
	echo "clip,osc${esc}]52;c;Y2xpcGJvYXJk${bel}end,${esc}]52;c;c3VibWl0dGVy${bel}x,bert,16,6"
	echo "plain_ref,plain,plainsub,bert,4,18"
} >"$TMP/hostile.csv"
ui_start 100 30 "" "'$TMP/hostile.csv'"
# an OSC 52 write would become a tmux paste buffer once the clipboard is on; Ctrl-L then sends
# every cell of the screen again
tm set-option -g set-clipboard on
ui_wait "3/3 rows"
ui_keys C-l
ui_wait "3/3 rows"
ui_keys /
ui_keys -l clear
ui_keys Enter Enter
ui_wait "detail: "
tm capture-pane -e -p -t gs >"$TMP/raw"
# what is left once the colour and attribute sequences (ESC [ ... m) are taken out
sed 's/\x1b\[[0-9;]*m//g' "$TMP/raw" >"$TMP/plain"
if grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/plain"; then
	nok "no control character reaches the screen" "$(grep -n "$(printf '[\001-\010\013-\037\177]')" "$TMP/plain" | cat -v)"
else
	ok "no control character reaches the screen"
fi
contains "ESC [2J shows as ?[2J" "$TMP/plain" "clear?[2Jme"
contains "BEL shows as ?" "$TMP/plain" "name?bell"
contains "backspaces show as ??" "$TMP/plain" "sub??back"
contains "the screen was not cleared: the header is still there" "$TMP/plain" "gpuscale"
contains "the screen was not cleared: the table is still there" "$TMP/plain" "plain_ref"
ui_keys q /
ui_keys -l clip
ui_keys Enter Enter
ui_wait "detail: clip"
tm capture-pane -p -t gs >"$TMP/plain2"
contains "an OSC 52 sequence shows as ?]52;c;...?" "$TMP/plain2" "osc?]52;c;Y2xpcGJvYXJk?end"
if [ -z "$(tm list-buffers 2>/dev/null)" ]; then ok "no clipboard write reached tmux"
else nok "no clipboard write reached tmux" "$(tm list-buffers)"; fi
# the check above can fail: the same sequence printed raw does set a buffer
tm new-window -d "printf '\033]52;c;Y29udHJvbA==\007'; sleep 5"
i=0
while [ $i -lt 30 ] && [ -z "$(tm list-buffers 2>/dev/null)" ]; do sleep 0.1; i=$((i + 1)); done
if [ -n "$(tm list-buffers 2>/dev/null)" ]; then ok "control: a raw OSC 52 does reach tmux here"
else skip "control: a raw OSC 52 does reach tmux here" "this tmux ignores OSC 52"; fi
ui_keys q q
ui_exits "q exits 0 after the hostile names"
ui_stop
