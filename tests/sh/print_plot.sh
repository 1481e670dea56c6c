#!/bin/sh
# --print plot draws what the explorer draws, from the same chart layer: the break-even mark
# and its legend, Preview rows named in the legend, families instead of clusters in family
# mode, and the two far-below systems of Llama2-LoRA H100 SXM drawn where they are, not clipped.
. "$(dirname "$0")/../lib.sh"
G=$GPUSCALE

"$G" --print plot --round v4.1 -w llama2_70b_lora -f "H100 SXM" --width 100 --height 24 >"$TMP/lora" 2>&1
contains "the legend names the family's break-even bracket 64..<128" "$TMP/lora" ": H100 SXM break-even 64..<128"
# E' falls with N: the 512- and 1024-GPU systems (E' 0.234 and 0.204) are the finding, drawn
# below 0.4 and never clipped to 'v'
low=$(awk '/^ *0\.4 \+/ { on = 1 } /^ *\+\+/ { on = 0 } on { t = substr($0, 6); n += gsub(/[A-Za-z0-9]/, "", t) } END { print n + 0 }' "$TMP/lora")
[ "$low" -eq 2 ] && ok "the 512- and 1024-GPU systems are drawn below 0.4" || nok "the 512- and 1024-GPU systems are drawn below 0.4" "$low marks there" "$(cat "$TMP/lora")"
tail -n 1 "$TMP/lora" >"$TMP/lora_legend"
lacks "nothing is clipped below: no 'v' count in the legend" "$TMP/lora_legend" " v "
n=$(grep -c ':' "$TMP/lora")
[ "$n" -ge 5 ] && ok "the mark runs down the plot ($n rows)" || nok "the mark runs down the plot" "$(cat "$TMP/lora")"
# the band theta +- 0.2 gets at least 8 rows once the outliers are clipped
r6=$(grep -n '^ *0\.6 +' "$TMP/lora" | cut -d: -f1)
r10=$(grep -n '^ *1\.0 +' "$TMP/lora" | cut -d: -f1)
if [ -n "$r6" ] && [ -n "$r10" ] && [ $((r6 - r10 + 1)) -ge 8 ]; then ok "0.6 .. 1.0 spans $((r6 - r10 + 1)) rows"
else nok "0.6 .. 1.0 spans at least 8 rows" "$(cat "$TMP/lora")"; fi

"$G" --print plot --round v4.1 -w llama2_70b_lora -m family --width 120 --height 20 >"$TMP/fam" 2>&1
contains "family mode: the legend names the families by glyph" "$TMP/fam" "a B200 b H100 SXM c H200 SXM"
lacks "family mode: no cluster legend" "$TMP/fam" "clusters"

# one meaning per letter: with families drawn a b c, the clusters below the plot are numbered
# (cluster 1 ...), never lettered; the table writes each family after its plot letter and the
# cluster column holds numbers; paper mode draws clusters as letters and its legend says a is
# cluster 1
"$G" --print plot,clusters,table --round v4.1 -w llama2_70b_lora -m family --width 120 --height 20 >"$TMP/famcl" 2>&1
contains "family mode: the legend names a B200" "$TMP/famcl" "a B200 b H100 SXM"
if grep -Eq '^  cluster 1 +[0-9]+ systems' "$TMP/famcl" && ! grep -Eq '^  [a-l] +[0-9]+ system' "$TMP/famcl"; then
	ok "family mode: --print clusters numbers the clusters, no letter"
else nok "family mode: --print clusters numbers the clusters, no letter" "$(cat "$TMP/famcl")"; fi
bad=$(awk '/^#/ { for (i = 1; i <= NF; i++) if ($i == "cl") c = i; t = 1; next }
	t && NF && $1 ~ /^[0-9]+$/ {
		f = 0; for (i = 1; i <= NF; i++) if ($i ~ /^(B200|H100|H200)$/) { f = i; break }
		if (!f || $(f - 1) !~ /^[abc]$/) print "family " $0
		if ($(NF - 1) !~ /^[0-9]+$/ && $(NF - 2) !~ /^[0-9]+$/) print "cluster " $0
	}' "$TMP/famcl" | head -n 3)
[ -z "$bad" ] && ok "family mode: the table writes each family after its letter" || nok "family mode: the table writes each family after its letter" "$bad"
grep -E '^ *[0-9]+ ' "$TMP/famcl" | grep -F ' b H100 SXM ' >/dev/null && ok "an H100 SXM row reads b H100 SXM, as the legend" ||
	nok "an H100 SXM row reads b H100 SXM, as the legend" "$(cat "$TMP/famcl")"
"$G" --print plot --round v4.1 -w llama2_70b_lora -m paper --width 160 --height 20 >"$TMP/papercl" 2>&1
contains "paper mode: the legend says which cluster each letter is" "$TMP/papercl" "a b c clusters 1 2 3"

"$G" --print plot --round v4.1 -w gpt3 --width 120 --height 16 >"$TMP/gpt3" 2>&1
contains "GPT3 v4.1 has Preview rows: the legend says how they are marked" "$TMP/gpt3" "preview"
"$G" --print plot --round v4.1 -w bert --width 120 --height 16 -f "H100 SXM" >"$TMP/bert" 2>&1
contains "BERT H100 SXM has FlexAI's Preview system: marked" "$TMP/bert" "preview"
lacks "Llama2-LoRA H100 SXM has no Preview row: no Preview legend" "$TMP/lora" "preview"

# a legend longer than the width wraps over more rows and never cuts a name: v5.1 Llama2-LoRA
# has ten families, each named whole at 80 columns
"$G" --print plot --round v5.1 -w llama2_70b_lora --width 80 --height 24 >"$TMP/wrap" 2>&1
n=$(wc -l <"$TMP/wrap" | tr -d ' ')
leg=$(awk '/^ *\+\+?-/ { ax = NR; next } ax && NR > ax + 1' "$TMP/wrap" | tr '\n' ' ')
bad=""
for f in "a B200" "b B300" "c GB200" "d GB300" "e H100 SXM" "f H200 SXM" "g Instinct MI300X" \
	"h Instinct MI325X" "i Instinct MI350X" "j Instinct MI355X"; do
	case "$leg" in *"$f"*) ;; *) bad="$bad '$f'" ;; esac
done
case "$leg" in *"~"*) bad="$bad (cut with ~)" ;; esac
[ -z "$bad" ] && ok "80 columns: the legend names all ten families, wrapped" || nok "80 columns: the legend names all ten families, wrapped" "missing:$bad" "$(cat "$TMP/wrap")"
[ "$n" -eq 25 ] && ok "the plot keeps its height (24 rows and its title)" || nok "the plot keeps its height (24 rows and its title)" "$n lines"
