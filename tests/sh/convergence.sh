#!/bin/sh
# Convergence columns of the bundled rounds (gbs, samples_to_converge, convergence_unit,
# run_samples) against an extractor that reads the logs apart from the C code
# (tests/tools/convergence_ref.py), a fresh import against data/, data/rcp.csv against the
# official RCP files it is derived from, and the hand-worked figures of the split.
. "$(dirname "$0")/../lib.sh"

DATA="$GS_TOP/data"
# the hand-worked pairs (reference -> system): GBS and samples_to_converge as the summarizer prints them
row_has() { # description, round, source, text
	if grep -F "$3," "$DATA/mlperf_training_$2.csv" | grep -qF "$4"; then ok "$1"; else
		nok "$1" "$(grep -F "$3," "$DATA/mlperf_training_$2.csv" | cut -c1-400)"; fi
}
row_has "v5.0 llama2_70b_lora nyx_n1: GBS 8, 3168 samples" v5.0 "NVIDIA/results/nyx_n1_ngc25.04_nemo/llama2_70b_lora" ",8,3168,samples,"
row_has "v5.0 llama2_70b_lora tyche_ngpu512: GBS 64, 7296 samples, RCP at 64 interpolated" v5.0 \
	"NVIDIA/results/tyche_ngpu512_ngc25.04_nemo/llama2_70b_lora" ",64,7296,samples,6912;6912;6912;7296;7296;7296;7296;7680;7680;7680,7779.555555555556"
row_has "v5.1 llama31_8b theia_ngpu8: GBS 16" v5.1 "NVIDIA/results/theia_ngpu8_ngc25.09_nemo/llama31_8b" ",16,179712,samples,"
row_has "v5.1 llama31_8b theia_ngpu512: GBS 64" v5.1 "NVIDIA/results/theia_ngpu512_ngc25.09_nemo/llama31_8b" ",64,224256,samples,"
row_has "v3.0 bert dgxh100: GBS 768" v3.0 "NVIDIA/results/dgxh100_ngc23.04_pytorch/bert" ",768,2549468.125,samples,"
row_has "v3.0 bert dgxh100_n96: GBS 4608" v3.0 "NVIDIA/results/dgxh100_n96_ngc23.04_pytorch/bert" ",4608,2901857.25,samples,"
row_has "v3.1 resnet eos: GBS 3200, 35 epochs" v3.1 "NVIDIA/results/eos_ngc23.09_mxnet/resnet" ",3200,35,epochs,"
row_has "v3.1 resnet coreweave n448: GBS 57344, 77 epochs" v3.1 "NVIDIA/results/coreweave_hgxh100_n448_ngc23.04_mxnet/resnet" ",57344,77,epochs,"
row_has "minigo has no convergence cells" v2.0 "NVIDIA/results/dgxa100_ngc22.04_tensorflow/minigo" ",,,,,"
row_has "runs that disagree on GBS leave every cell empty" v2.0 "Dell/results/32xXE8545x4A100-SXM-40GB/maskrcnn" ",,,,,"

if ! command -v python3 >/dev/null 2>&1; then
	skip "the reference extractor agrees on every bundled round" "python3 is absent"
elif [ ! -d "$MLPERF" ]; then
	skip "the reference extractor agrees on every bundled round" "../shared/mlperf is absent (the raw trees)"
else
	check "data/rcp.csv is what the official RCP files give" \
		python3 "$GS_TOP/tests/tools/rcp_means.py" --check "$MLPERF/rcp" "$DATA/rcp.csv"
	for f in "$DATA"/mlperf_training_v*.csv; do
		r=${f##*_training_}; r=${r%.csv}
		tree="$MLPERF/training_results_$r"
		if [ ! -d "$tree" ]; then skip "$r: the reference extractor agrees" "$tree is absent"; continue; fi
		check "$r: the reference extractor agrees on every row (gbs, samples_to_converge, unit, run_samples)" \
			python3 "$GS_TOP/tests/tools/convergence_ref.py" --check "$tree" "$f"
		GPUSCALE_DATA="$DATA" "$GPUSCALE" import -o "$TMP/$r.csv" "$tree" 2>"$TMP/err.$r" >/dev/null
		if cmp -s "$TMP/$r.csv" "$f"; then ok "$r: a fresh import is data/ byte for byte"; else
			nok "$r: a fresh import is data/ byte for byte" "$(diff "$TMP/$r.csv" "$f" | head -5)"; fi
	done
fi
echo "1..$n_"
