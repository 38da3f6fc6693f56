#!/usr/bin/env bash
# Measures where the small-input path (common/small_input.h) should stop: each GPU-built program
# on generated inputs of growing size, run whole (output to a file) once with the GPU path forced
# (KIT_SMALL_INPUT_MAX=0) and once with the CPU reference forced (KIT_SMALL_INPUT_MAX=huge),
# median wall time of 5 runs each. The limit is the largest size the CPU still wins.
#
#   testcases/bench/small_input_sweep.sh BUILD_DIR WORK_DIR
#
# BUILD_DIR: a configured GPU build (the programs, gen and run_timed are built there).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "Usage: $0 BUILD_DIR WORK_DIR" >&2
  exit 1
fi
build=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
bin=$build/bin
cmake --build "$build" --target gen run_timed prefix_sum softmax apsp >"$work/build.log" 2>&1 || {
  tail -20 "$work/build.log" >&2
  exit 1
}

median_wall() { # program input limit
  local walls=()
  for ((i = 0; i < 5; ++i)); do
    read -r wall _ status < <(KIT_SMALL_INPUT_MAX=$3 "$bin/run_timed" "$work/got" "$1" "$2")
    [[ $status -eq 0 ]] || { echo "$1 $2 exited with $status" >&2; exit 1; }
    walls+=("$wall")
  done
  printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

row() { # problem size_label gen_args...
  local problem=$1 label=$2
  shift 2
  "$bin/gen" "$problem" "$@" "$work/case" >/dev/null
  local gpu cpu
  gpu=$(median_wall "$bin/$problem" "$work/case.in" 0)
  cpu=$(median_wall "$bin/$problem" "$work/case.in" 18446744073709551614)
  awk -v p="$problem" -v l="$label" -v g="$gpu" -v c="$cpu" \
    'BEGIN { printf "| %s | %s | %.3f | %.3f | %s |\n", p, l, g, c, (c <= g ? "CPU" : "GPU") }'
  rm -f "$work/case.in" "$work/case.out" "$work/got"
}

echo "Small-input sweep: $(nproc) cores, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
echo
echo "| problem | size | GPU path wall (s) | CPU reference wall (s) | faster |"
echo "|---|---|---:|---:|---|"
for problem in prefix_sum softmax; do
  [[ -x $bin/$problem ]] || continue
  for n in 1000 10000 30000 100000 300000 1000000 3000000 10000000; do
    row "$problem" "N = $n" random "$n" 11
  done
done
if [[ -x $bin/apsp ]]; then
  for v in 64 128 256 384 512 768 1024 1536 2048; do
    row apsp "V = $v, E = $((8 * v))" random "$v" $((8 * v)) 11
  done
fi
