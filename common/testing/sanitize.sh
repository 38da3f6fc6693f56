#!/usr/bin/env bash
# compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over every GPU test binary of a
# CUDA build and over the three contest programs' forced GPU paths at moderate sizes; one verdict
# line per tool and binary, then a total. The GPU tests run at KIT_TEST_SCALE=small (their sizes
# capped, and the few cases whose work outgrows their size left out: docs/TESTING.md). A test's
# cases together can outlast one run's bound under racecheck: SANITIZE_SHARDS splits it.
#
#   common/testing/sanitize.sh BUILD_DIR [tool ...]     (default: all four tools)
#
# SANITIZE_FILTER=REGEX keeps only the test binaries and programs whose name matches (ctest -R
# syntax, e.g. 'radix|bfs' for two basics problems' tests, '^apsp$' for the apsp program).
# SANITIZE_JOBS=N runs up to N sanitizer runs at a time (default 1), each verdict line printed as
# its run ends: most small-scale runs leave the GPU idle while the tool works on the host.
# SANITIZE_TIMEOUT=S bounds each run (default 1200 s; a run past it counts as a failure).
# SANITIZE_SHARDS=N runs each GPU test as N runs, KIT_TEST_SHARD=0/N to N-1/N, each with every
# N-th case (the basics tests and apsp_gpu_test split so; any other test runs whole in the first
# and skips in the rest): with SANITIZE_JOBS, a test too long for one run's bound. KIT_TEST_CASE
# (common/testing/case_selection.h) passes through: it picks the cases of those tests by label.
#
# Needs a CUDA build with the tests and programs built, `compute-sanitizer` on PATH (or in
# /usr/local/cuda/bin), and `gen` and `verify` of the same build. Exit status 0 when every run
# reported zero errors. No suppressions: a report is either a bug or a proven false positive, and
# there are none of the latter.
set -uo pipefail
build=${1:?usage: sanitize.sh BUILD_DIR [memcheck racecheck synccheck initcheck]}
shift
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$sanitizer" ] || { echo "sanitize: compute-sanitizer not found" >&2; exit 2; }
bin=$build/bin
work=$(mktemp -d /tmp/kit-sanitize.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
logs=${OUT:-$work}/sanitize_logs
verdicts=$work/verdicts # one file per finished run: its verdict line
mkdir -p "$logs" "$verdicts"
jobs_max=${SANITIZE_JOBS:-1}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "sanitize: SANITIZE_JOBS=$jobs_max: a count" >&2; exit 2; }
limit=${SANITIZE_TIMEOUT:-1200}
shards=${SANITIZE_SHARDS:-1}
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "sanitize: SANITIZE_SHARDS=$shards: a count" >&2; exit 2; }

# verdict TOOL NAME LOG RC: one line from the sanitizer's summary, printed and kept in $verdicts:
# clean, TIMEOUT, REPORTED (the tool found errors or left no summary), FAILED (the tool found
# nothing, but the run's own check failed: a test case, or the program's answer under `verify`) or
# skipped (a shard of a test that runs whole in its first: kit::test::begin_gpu_test's SKIP line
# in common/testing/test_support.h, matched by its words).
verdict() {
  local tool=$1 name=$2 log=$3 rc=$4 summary line nothing_found=0
  summary=$(grep -sE "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1 | sed 's/^=* *//')
  grep -qsE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$log" && nothing_found=1
  if [ "$rc" -eq 124 ]; then
    # A GPU test's output is line-buffered: its last line is the last case it finished.
    line=$(printf '%-10s %-34s TIMEOUT (%s s)' "$tool" "$name" "$limit")
    [ -s "$log.out" ] && line+=$(printf ', its last line: %.120s' "$(tail -n 1 "$log.out")")
  elif [ "$nothing_found" = 1 ] && [ "$rc" -eq 0 ]; then
    line=$(printf '%-10s %-34s clean (%s)' "$tool" "$name" "$summary")
  elif [ "$nothing_found" = 1 ] && [ "$rc" -eq 77 ] &&
    grep -qs "does not split into shards" "$log.out"; then
    line=$(printf '%-10s %-34s skipped: %.120s' "$tool" "$name" "$(tail -n 1 "$log.out")")
  elif [ "$nothing_found" = 1 ] && [ "$rc" -ne 99 ]; then
    line=$(printf '%-10s %-34s FAILED (exit %s: its own check; the tool: %s) log %s' "$tool" \
      "$name" "$rc" "$summary" "$log")
  else
    line=$(printf '%-10s %-34s REPORTED (exit %s: %s) log %s' "$tool" "$name" "$rc" \
      "${summary:-none}" "$log")
  fi
  echo "$line"
  echo "$line" >"$verdicts/$(basename "$log")"
}

# under_tool TOOL LOG COMMAND...: COMMAND under the sanitizer's TOOL, its report in LOG, bounded by
# SANITIZE_TIMEOUT (exit 124 past it, 99 when the tool reports).
under_tool() {
  local tool=$1 log=$2 extra=()
  shift 2
  [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
  timeout "$limit" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
    --log-file "$log" "$@"
}

# sanitize_test TOOL BINARY SHARD: one GPU test (its cases of shard SHARD of $shards) under the
# tool, at the small scale.
sanitize_test() {
  local tool=$1 t=$2 shard=$3 name log
  name=$(basename "$t")
  log="$logs/$tool.$name.log"
  if [ "$shards" -gt 1 ]; then
    log="$logs/$tool.$name.shard-$shard-of-$shards.log"
    name+=" [$shard/$shards]"
  fi
  KIT_TEST_SCALE=small KIT_TEST_SHARD=$shard/$shards under_tool "$tool" "$log" "$t" \
    >"$log.out" 2>&1
  verdict "$tool" "$name" "$log" $?
}

# sanitize_program TOOL PROGRAM CASE MODE: a contest program's forced GPU path on a generated case
# under the tool; its answer must then pass `verify`.
sanitize_program() {
  local tool=$1 program=$2 case=$3 mode=$4 log rc
  log="$logs/$tool.$program.$case.log"
  # The sanitizer's report goes to its own log: stdout is the program's answer.
  KIT_FORCE_GPU=1 under_tool "$tool" "$log" "$bin/$program" "$work/$case.in" \
    >"$work/$tool.$case.got" 2>"$log.err"
  rc=$?
  if [ $rc -eq 0 ] && ! "$bin/verify" "$mode" "$work/$tool.$case.got" "$work/$case.out" \
    >"$log.verify" 2>&1; then
    rc=98 # a wrong answer under the tool
  fi
  verdict "$tool" "$program ($case)" "$log" $rc
}

# start COMMAND...: runs one sanitizer run in the background once fewer than $jobs_max are running.
start() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  "$@" &
}

# The contest programs' forced GPU paths: cases across each kernel's paths (prefix_sum: tiles in
# a cooperative launch at 3e6, tickets at 5e6; softmax: resident, on-chip in both shapes,
# two-pass; apsp: sparse and dense). Each entry: program, case, verify mode, gen arguments; only
# the cases of programs that SANITIZE_FILTER keeps are generated.
filter=${SANITIZE_FILTER:-}
cases=("prefix_sum prefix_3e6 exact random 3000000 11" "prefix_sum prefix_5e6 exact random 5000000 18"
  "softmax softmax_2e5 softmax random 200000 12" "softmax softmax_2e6 softmax random 2000000 13"
  "softmax softmax_8e6 softmax random 8000000 17" "softmax softmax_2e7 softmax random 20000000 14"
  "apsp apsp_grid_1600 exact grid 1600 0 15" "apsp apsp_dense_700 exact random 700 120000 16")
programs=()
for entry in "${cases[@]}"; do
  read -r program case mode gen_args <<<"$entry"
  [[ -z $filter || $program =~ $filter ]] || continue
  # shellcheck disable=SC2086 # gen_args is a list of words
  "$bin/gen" "$program" $gen_args "$work/$case" >/dev/null ||
    { echo "sanitize: gen $program $gen_args failed" >&2; exit 2; }
  programs+=("$program $case $mode")
done

# The GPU tests (CTest label gpu) that are executables of their own.
tests=()
for name in $(ctest --test-dir "$build" -N -L gpu ${filter:+-R "$filter"} | sed -n 's/^ *Test *#[0-9]*: \([A-Za-z0-9_]*\)$/\1/p'); do
  [ -x "$bin/$name" ] && tests+=("$bin/$name")
done

for tool in "${tools[@]}"; do
  for t in "${tests[@]}"; do
    for ((shard = 0; shard < shards; ++shard)); do
      start sanitize_test "$tool" "$t" "$shard"
    done
  done
  for entry in "${programs[@]}"; do
    read -r program case mode <<<"$entry"
    start sanitize_program "$tool" "$program" "$case" "$mode"
  done
done
wait
runs=$(find "$verdicts" -type f | wc -l)
[ "$runs" -gt 0 ] || { echo "sanitize: nothing to run (SANITIZE_FILTER=$filter)"; exit 1; }
failed=$(cat "$verdicts"/* | grep -cE ' (TIMEOUT|REPORTED|FAILED)( |$)')
skipped=$(cat "$verdicts"/* | grep -cE ' skipped: ')
summary="sanitize: $((runs - failed - skipped)) of $runs runs clean"
[ "$skipped" -eq 0 ] || summary+=", $skipped skipped (shards of tests that run whole)"
echo "$summary"
[ "$failed" -eq 0 ]
