#!/usr/bin/env bash
# On an NVIDIA machine: builds the on-chip kernel with its phase marks (SOFTMAX_PHASE_TIMES) and
# prints where its time goes (phase_times.cu). Not part of any build or test.
#
#   softmax/experiments/phase_times.sh [N ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${PHASE_OUT:-build/phase-times}
mkdir -p "$out"
nvcc -std=c++17 -O3 -arch=sm_"${GPU_ARCH:-90}" --extended-lambda -DSOFTMAX_PHASE_TIMES \
  -Icommon -Isoftmax -o "$out/phase_times" softmax/experiments/phase_times.cu \
  softmax/kernel_engine.cu
"$out/phase_times" "$@"
