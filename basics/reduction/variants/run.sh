#!/usr/bin/env bash
# Builds and runs the reduction variants measurement (variants.cu) on this machine's NVIDIA GPU;
# the table goes to stdout and $OUT/reduction_variants.txt (or build/reduction-variants/).
#   basics/reduction/variants/run.sh [--quick]   (--quick: the committed kernel and 256 x 8 only)
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${OUT:-build/reduction-variants}
mkdir -p "$out"
arch=${GPU_ARCH:-90}
nvcc -std=c++17 -O3 -arch=sm_$arch -I common -I basics -x cu \
  basics/reduction/variants/variants.cu basics/device/timing.cpp basics/bench/limits.cu \
  -o "$out/reduction_variants"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader || true
"$out/reduction_variants" "$@" | tee "$out/reduction_variants.txt"
