#!/usr/bin/env bash
# The benchmark's auto rows with the on-chip slots starting at other offsets of the dynamic shared
# memory (OnChipScratch::bytes in kernel_passes.h, replaced in a copy of the sources), run
# alternately ROUNDS times (default 2). NVIDIA only; not part of any build or test.
#
#   softmax/experiments/slot_offsets.sh [OFFSET ...]     (bytes; default 160 176 256 272)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${SLOT_OUT:-build/slot-offsets}
offsets=${*:-160 176 256 272}
sizes=${SIZES:-4000000,8000000,10000000,12000000,12976128}
mkdir -p "$out"
for o in $offsets; do # past the pair scratch and the copy barriers, on 16 bytes
  if ((o < 160 || o % 16 != 0)); then
    echo "slot_offsets.sh: offset $o must be a multiple of 16, at least 160" >&2 && exit 2
  fi
done
build() { # offset
  local tree="$out/tree-$1"
  rm -rf "$tree" && mkdir -p "$tree" && cp -r common softmax "$tree/"
  sed -i -e "s|^  static constexpr int bytes = .*;|  static constexpr int bytes = $1;|" \
    -e '/"slots 16 bytes past 128"/d' "$tree/softmax/kernel_passes.h"
  grep -q "static constexpr int bytes = $1;" "$tree/softmax/kernel_passes.h"
  softmax/experiments/nvcc_build.sh bench "$tree" "$out/bench_$1"
}
pids=()
for o in $offsets; do
  build "$o" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for round in $(seq "${ROUNDS:-2}"); do
  for o in $offsets; do
    echo "offset $o ($((o % 128)) past 128), round $round: $("$out/bench_$o" --sizes "$sizes" \
      --solve-sizes 1000000 2>&1 | awk '/^copy bandwidth/ {printf "copy %s GB/s  ", $(NF-1)}
                                         / auto=/ {printf "%s %s  ", $1, $3}')"
  done
done
