#!/usr/bin/env bash
# Whole-process benchmark: the kit's programs against "official skeleton" builds of the
# same problems (testcases/bench/skeleton_*.cpp: ifstream >> / cout <<, linked with the kit's own
# solve), timed like the grader times them: `./program input > file`, wall clock of the whole
# process, plus its peak RSS. Both outputs are checked against gen's expected output with verify.
#
#   testcases/bench_whole_process.sh BUILD_DIR WORK_DIR [quick|full] [PROBLEM...]
#
# BUILD_DIR: a configured build tree (any backend); the programs, gen, verify, run_timed and the
# <problem>_skeleton targets are built there. WORK_DIR: scratch space for the generated cases
# (several GB at N = 1e8; each case is deleted after use). "quick" keeps N <= 1e6 and V <= 4000;
# "full" (the default) runs every case. PROBLEM... limits the run to those problems.
# Prints a Markdown table: median wall time and peak RSS of each program, and skeleton / kit.
set -euo pipefail

usage() {
  echo "Usage: $0 BUILD_DIR WORK_DIR [quick|full] [prefix_sum|softmax|apsp ...]" >&2
  exit 1
}
[[ $# -ge 2 ]] || usage
build=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
quick=${3:-full}
[[ $quick == quick || $quick == full ]] || usage
selected=("${@:4}")
[[ ${#selected[@]} -gt 0 ]] || selected=(prefix_sum softmax apsp)
for problem in "${selected[@]}"; do
  [[ $problem =~ ^(prefix_sum|softmax|apsp)$ ]] || usage
done
wanted() { [[ " ${selected[*]} " == *" $1 "* ]]; }
bin=$build/bin

targets=(gen verify run_timed)
built=$(python3 "$(dirname "$0")/../cmake/manifest.py" "$build/kit_programs.json" built) || exit 1
for problem in "${selected[@]}"; do
  if grep -qx "$problem" <<<"$built"; then
    targets+=("$problem" "${problem}_skeleton")
  fi
done
cmake --build "$build" --target "${targets[@]}" >"$work/build.log" 2>&1 || {
  echo "build failed, see $work/build.log" >&2
  tail -20 "$work/build.log" >&2
  exit 1
}

backend=$(sed -n 's/.*"backend": "\([A-Z]*\)".*/\1/p' "$build/kit_programs.json")
cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)
echo "Whole-process benchmark: backend $backend, $(nproc) cores available ($cpu)," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
echo
echo "| problem | case | kit wall (s) | kit peak RSS (MiB) | skeleton wall (s) | skeleton peak RSS (MiB) | skeleton / kit |"
echo "|---|---|---:|---:|---:|---:|---:|"

# Runs `program input` `repeats` times with stdout to $work/<tag>.got; prints "median_wall max_rss".
# Each run starts after `sync`, so that the writeback of the generated case or of the previous
# run's output (up to a few GB at N = 1e8) does not throttle its writes.
measure() {
  local tag=$1 program=$2 input=$3 repeats=$4
  local walls=() rss=0
  for ((i = 0; i < repeats; ++i)); do
    sync # start from clean page cache state: no writeback of earlier files during the run
    read -r wall kib status < <("$bin/run_timed" "$work/$tag.got" "$program" "$input")
    if [[ $status -ne 0 ]]; then
      echo "$program $input exited with $status" >&2
      exit 1
    fi
    walls+=("$wall")
    ((kib > rss)) && rss=$kib
  done
  local median
  median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$median $rss"
}

# One case: generate, run both programs (alternating), verify both, print the row.
run_case() {
  local problem=$1 mode=$2 label=$3 repeats=$4
  shift 4
  wanted "$problem" && [[ -x $bin/$problem ]] || return 0
  "$bin/gen" "$problem" "$@" "$work/case" >/dev/null
  local kit_result skeleton_result
  kit_result=$(measure kit "$bin/$problem" "$work/case.in" "$repeats")
  "$bin/verify" "$mode" "$work/kit.got" "$work/case.out" >/dev/null ||
    { echo "$problem $label: the kit's output is wrong" >&2; exit 1; }
  skeleton_result=$(measure skeleton "$bin/${problem}_skeleton" "$work/case.in" "$repeats")
  "$bin/verify" "$mode" "$work/skeleton.got" "$work/case.out" >/dev/null ||
    { echo "$problem $label: the skeleton's output is wrong" >&2; exit 1; }
  read -r kit_wall kit_rss <<<"$kit_result"
  read -r skeleton_wall skeleton_rss <<<"$skeleton_result"
  awk -v p="$problem" -v c="$label" -v kw="$kit_wall" -v kr="$kit_rss" -v sw="$skeleton_wall" \
    -v sr="$skeleton_rss" 'BEGIN {
      printf "| %s | %s | %.3f | %.0f | %.3f | %.0f | %.1f |\n", p, c, kw, kr / 1024, sw,
             sr / 1024, sw / (kw > 0 ? kw : 0.001)
    }'
  rm -f "$work/case.in" "$work/case.out" "$work/kit.got" "$work/skeleton.got"
}

sizes=(1000 1000000 10000000 100000000)
[[ $quick == quick ]] && sizes=(1000 1000000)
for problem in prefix_sum softmax; do
  mode=exact
  [[ $problem == softmax ]] && mode=softmax
  for n in "${sizes[@]}"; do
    repeats=5
    ((n >= 10000000)) && repeats=3
    ((n >= 100000000)) && repeats=1
    run_case "$problem" "$mode" "N = $n" "$repeats" random "$n" 7
  done
done
run_case apsp exact "80x80 grid (V = 6400)" 3 grid 6400 0 7
run_case apsp exact "V = 4000, E = 70000" 3 random 4000 70000 7
if [[ $quick != quick ]]; then
  run_case apsp exact "V = 10000, E = 100000" 1 random 10000 100000 7
fi
