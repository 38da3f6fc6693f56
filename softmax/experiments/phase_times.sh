#!/usr/bin/env bash
# On an NVIDIA machine: builds the on-chip kernel with its phase marks (SOFTMAX_PHASE_TIMES) and
# prints where its time goes (phase_times.cu). Not part of any build or test.
#
#   softmax/experiments/phase_times.sh [N ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${PHASE_OUT:-build/phase-times}
mkdir -p "$out"
softmax/experiments/nvcc_build.sh phase . "$out/phase_times"
"$out/phase_times" "$@"
