#!/usr/bin/env bash
# Measures where the small-input path (common/program/small_input.h) should stop. Each program
# runs whole (output to a file) on generated inputs of growing size, 5 times, with KIT_TIMING=1
# (phase times on stderr, common/program/phase_timer.h); medians are reported.
#   - CPU path (KIT_SMALL_INPUT_MAX=huge, or any CPU-backend build): wall time, and parse +
#     reference: what the CPU path spends where the GPU path would be waiting for its runtime.
#   - GPU path (KIT_SMALL_INPUT_MAX=0, GPU builds only): wall time, and the GPU start-up wait that
#     parsing did not hide.
# The CPU path is certainly the faster one while parse + reference stays below the GPU runtime's
# start-up (the GPU path cannot end before the runtime is up, and both pay for the output); with
# a GPU build the two wall times can be compared directly.
#
#   testcases/bench/small_input_sweep.sh BUILD_DIR WORK_DIR
# Environment: SIZES (prefix_sum/softmax N values), APSP_V (apsp vertex counts, "" to skip),
# REPEATS (runs per measurement, default 5), e.g. SIZES="20000000 100000000" APSP_V="" REPEATS=3.
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
gpu_build=0
grep -q '"backend": "\(CUDA\|HIP\)"' "$build/kit_programs.json" && gpu_build=1

# The limits in force, for comparison: read from <problem>/small_input_limits.h, where they are
# written.
root=$(cd "$(dirname "$0")/../.." && pwd)
limits() {
  sed -n "s/.*kSmallInputLimits{ *\([0-9']*\) *, *\([0-9']*\) *}.*/contest \1, fastest \2/p" \
    "$root/$1/small_input_limits.h" | tr -d "'"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Runs `program input` $REPEATS times with KIT_SMALL_INPUT_MAX=$3; prints "median_wall median_ms" where
# the ms are the sum of the phases matching the regex $4 in the KIT_TIMING line.
measure() {
  local walls=() phases=()
  for ((i = 0; i < ${REPEATS:-5}; ++i)); do
    read -r wall _ status < <(KIT_TIMING=1 KIT_SMALL_INPUT_MAX=$3 "$bin/run_timed" "$work/got" \
      "$1" "$2" 2>"$work/timing")
    [[ $status -eq 0 ]] || { echo "$1 $2 exited with $status" >&2; exit 1; }
    walls+=("$wall")
    phases+=("$(tr ',' '\n' <"$work/timing" | grep -E "$4" | awk '{s += $(NF-1)} END {print s + 0}')")
  done
  echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${phases[@]}" | median)"
}

row() { # problem size_label gen_args...
  local problem=$1 label=$2
  shift 2
  "$bin/gen" "$problem" "$@" "$work/case" >/dev/null
  local cpu gpu="- -"
  cpu=$(measure "$bin/$problem" "$work/case.in" 18446744073709551614 "parse|CPU reference|solve")
  if ((gpu_build)); then
    gpu=$(measure "$bin/$problem" "$work/case.in" 0 "GPU start-up wait")
  fi
  read -r cpu_wall cpu_ms <<<"$cpu"
  read -r gpu_wall gpu_wait <<<"$gpu"
  echo "| $problem | $label | $cpu_ms | $cpu_wall | $gpu_wall | $gpu_wait |"
  rm -f "$work/case.in" "$work/case.out" "$work/got" "$work/timing"
}

echo "Small-input sweep: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
  "GPU build: $gpu_build"
echo "Limits in force: prefix_sum N $(limits prefix_sum); softmax N $(limits softmax);" \
  "apsp V $(limits apsp)"
echo
echo "| problem | size | CPU path: parse + reference (ms) | CPU path wall (s) | GPU path wall (s) | GPU start-up wait (ms) |"
echo "|---|---|---:|---:|---:|---:|"
for problem in prefix_sum softmax; do
  [[ -x $bin/$problem ]] || continue
  for n in ${SIZES-1000 10000 100000 300000 1000000 2000000 3000000 5000000 10000000}; do
    row "$problem" "N = $n" random "$n" 11
  done
done
if [[ -x $bin/apsp ]]; then
  # Dense graphs are the CPU reference's worst case at a given V (Floyd-Warshall, V^3).
  for v in ${APSP_V-64 128 256 384 512 640 768 1024}; do
    row apsp "V = $v, E = $((v * v / 4))" random "$v" $((v * v / 4)) 11
  done
fi
