#!/usr/bin/env bash
# Builds one softmax experiment binary with nvcc from the sources under TREE (this checkout, a
# worktree of another commit, or an edited copy): `phase` is phase_times.cu with the phase marks,
# `bench` the benchmark. Extra arguments go to nvcc (e.g. -DSOFTMAX_...). Not part of any build.
#
#   softmax/experiments/nvcc_build.sh phase|bench TREE OUTPUT [NVCC_ARG ...]
set -euo pipefail
mode=$1
tree=$2
output=$3
shift 3
flags=(-std=c++17 -O3 -arch=sm_"${GPU_ARCH:-90}" --extended-lambda -I"$tree/common"
  -I"$tree/softmax" "$@")
case "$mode" in
phase)
  nvcc "${flags[@]}" -DSOFTMAX_PHASE_TIMES -o "$output" "$tree/softmax/experiments/phase_times.cu" \
    "$tree/softmax/kernel_engine.cu"
  ;;
bench)
  nvcc "${flags[@]}" -o "$output" "$tree/softmax/bench.cu" "$tree/softmax/kernel.cu" \
    "$tree/softmax/kernel_engine.cu" "$tree/softmax/reference.cpp" "$tree/common/threads.cpp"
  ;;
*) echo "nvcc_build.sh: mode must be phase or bench, not '$mode'" >&2 && exit 2 ;;
esac
