#!/usr/bin/env bash
# The working tree built several times with different preprocessor settings (one quoted set of
# nvcc arguments per variant, e.g. "-DSOFTMAX_FMA_LANES=1"; "" for the plain build), all built in
# parallel and then run alternately (ROUNDS times each, default 2), so that the variants are
# priced within one session. Modes as for compare_with.sh (phase: phase_times.cu's marks; bench:
# the benchmark). Not part of any build or test.
#
#   softmax/experiments/compare_defines.sh phase|bench VARIANT ... -- [ARG ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=$1
shift
case "$mode" in
phase | bench) ;;
*) echo "compare_defines.sh: mode must be phase or bench, not '$mode'" >&2 && exit 2 ;;
esac
variants=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  variants+=("$1")
  shift
done
[ $# -gt 0 ] && shift
if [ ${#variants[@]} -eq 0 ]; then
  echo "compare_defines.sh: no variants before --" >&2 && exit 2
fi
out=${COMPARE_OUT:-build/compare-defines}
mkdir -p "$out"
builds=()
for i in "${!variants[@]}"; do
  # shellcheck disable=SC2086 # each variant is a list of nvcc arguments
  softmax/experiments/nvcc_build.sh "$mode" . "$out/v$i" ${variants[$i]} &
  builds+=($!)
done
for pid in "${builds[@]}"; do
  wait "$pid"
done
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for round in $(seq "${ROUNDS:-2}"); do
  for i in "${!variants[@]}"; do
    echo "== [${variants[$i]:-plain}], round $round"
    "$out/v$i" "$@" 2>&1 | if [ "$mode" = phase ]; then tail -n +3; else cat; fi
  done
done
