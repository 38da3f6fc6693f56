#!/usr/bin/env bash
# One session on a GPU machine, NVIDIA or AMD: builds the suites' targets for the GPU it finds,
# runs their GPU tests and benchmarks, and writes everything to one results file,
# docs/results/<date>-<gpu>.md (and to $OUT when that is set).
#
#   common/bench/device_run.sh [suite ...]      suites: common prefix_sum softmax apsp basics
#                                               whole_process (default: all of them)
#
# Environment: BACKEND (CUDA or HIP; default: HIP when rocm-smi or rocminfo sees a GPU, CUDA when
# nvidia-smi does), GPU_ARCH (default: the visible GPU), BUILD_DIR (default
# build/device-<backend>), JOBS (default nproc), TESTS=0 or BENCH=0 to skip a phase,
# BENCH_ARGS_<suite> (extra arguments for that suite's benchmark, e.g. BENCH_ARGS_softmax="--variants"),
# BASICS (basics problems to bench, default all built; with torch importable, the basics tests
# also run basics/bench/torch_judge.py), KIT_COMMIT (the commit to record when the
# tree is a copy without its own git history). Exit status: 0 when every test and
# benchmark that ran succeeded.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
all_suites=(common prefix_sum softmax apsp basics whole_process)
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=("${all_suites[@]}")
for s in "${suites[@]}"; do
  [[ " ${all_suites[*]} " == *" $s "* ]] || {
    echo "device_run: unknown suite '$s' (expected: ${all_suites[*]})" >&2
    exit 2
  }
done

backend=${BACKEND:-}
if [ -z "$backend" ]; then
  if { command -v rocm-smi && rocm-smi --showproductname; } >/dev/null 2>&1 ||
    { command -v rocminfo && rocminfo | grep -q 'gfx[0-9]'; } >/dev/null 2>&1; then
    backend=HIP
  elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    backend=CUDA
  else
    echo "device_run: no GPU found (neither rocm-smi/rocminfo nor nvidia-smi sees one)" >&2
    exit 2
  fi
fi
case $backend in CUDA | HIP) ;; *) echo "device_run: BACKEND=$backend: CUDA or HIP" >&2; exit 2 ;; esac
build=${BUILD_DIR:-build/device-${backend,,}}
jobs=${JOBS:-$(nproc)}
logs=$build/device_run_logs
mkdir -p "$logs" docs/results
status=0

# ---- build (everything: the suites share most targets, and a GPU machine builds it in minutes) --
cmake_args=(-S . -B "$build" -G Ninja -DGPU_BACKEND="$backend" -DCMAKE_BUILD_TYPE=Release)
[ -n "${GPU_ARCH:-}" ] && cmake_args+=(-DGPU_ARCH="$GPU_ARCH")
cmake "${cmake_args[@]}" >"$logs/configure.log" 2>&1 || {
  tail -30 "$logs/configure.log"
  exit 1
}
start=$SECONDS
cmake --build "$build" -j "$jobs" >"$logs/build.log" 2>&1 || {
  grep -E "error|FAILED" "$logs/build.log" | head -30
  exit 1
}
echo "device_run: built in $((SECONDS - start)) s ($backend)"

# ---- the results file ---------------------------------------------------------------------------
gpu_line=$("$build/bin/gpu_info" 2>&1) || { echo "$gpu_line"; exit 1; }
gpu_slug=$(sed -e 's/^GPU: //' -e 's/ (.*//' <<<"$gpu_line" | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')
results=docs/results/$(date +%Y-%m-%d)-${gpu_slug:-gpu}.md
# KIT_COMMIT names the commit where the tree has no git metadata of its own (a copied tree).
commit=${KIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo "unknown")}
dirty=$(git status --porcelain 2>/dev/null | grep -qv '^??' && echo " (with uncommitted changes)")
{
  echo "# $(date '+%Y-%m-%d %H:%M') on $(hostname): ${suites[*]}"
  echo
  echo "- $gpu_line"
  echo "- commit $commit$dirty, $backend backend, \`common/bench/device_run.sh ${suites[*]}\`"
  [ "$backend" = CUDA ] && nvidia-smi --query-gpu=driver_version,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader 2>/dev/null | sed 's/^/- driver, max SM and memory clocks: /'
  [ "$backend" = HIP ] && command -v rocm-smi >/dev/null && rocm-smi --showdriverversion 2>/dev/null |
    grep -i version | head -1 | sed 's/^/- /'
  echo
} >>"$results"

section() { printf '\n## %s\n\n' "$*" >>"$results"; }
# run NAME TIMEOUT COMMAND...: runs a step with its output in the log and the results file.
run() {
  local name=$1 limit=$2
  shift 2
  echo "device_run: $name"
  timeout "$limit" "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  {
    echo '```'
    cat "$logs/$name.log"
    echo '```'
    [ $rc -eq 0 ] || echo "**$name: exit $rc**"
  } >>"$results"
  [ $rc -eq 0 ] || status=1
  return $rc
}
ctest_summary() { # ctest_summary NAME REGEX: the suite's GPU tests, their summary in the results
  local name=$1 regex=$2
  echo "device_run: tests $name"
  ctest --test-dir "$build" -L gpu -R "$regex" -j "${TEST_JOBS:-4}" --output-on-failure \
    >"$logs/ctest_$name.log" 2>&1 || status=1
  {
    echo '```'
    grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Timeout|Not Run|^FAIL" \
      "$logs/ctest_$name.log" | head -40
    # The basics tests' one line per problem: judge cases passed / total.
    grep -h "^JUDGE|" "$build/Testing/Temporary/LastTest.log" 2>/dev/null | sort
    echo '```'
  } >>"$results"
}

for s in "${suites[@]}"; do
  section "$s"
  extra_var="BENCH_ARGS_$s"
  read -r -a extra <<<"${!extra_var:-}"
  case $s in
  common)
    [ "${TESTS:-1}" = 0 ] || ctest_summary common '^(gpu_primitives_test|collectives_test)$'
    ;;
  prefix_sum | softmax | apsp)
    [ "${TESTS:-1}" = 0 ] || ctest_summary "$s" "^${s}_"
    [ "${BENCH:-1}" = 0 ] || run "bench_$s" 900 "$build/bin/bench_$s" "${extra[@]}"
    ;;
  basics)
    [ "${TESTS:-1}" = 0 ] || ctest_summary basics '^basics_'
    # The judge's own procedure where answers are long FP32 sums: the exported files called
    # through ctypes on torch tensors, compared with torch's results (needs torch on CUDA).
    if [ "${TESTS:-1}" != 0 ] && [ "$backend" = CUDA ] &&
      python3 -c 'import torch' 2>/dev/null; then
      python3 cmake/export_submission.py --manifest "$build/kit_programs.json" \
        --out "$build/export" >"$logs/export.log" 2>&1 || { cat "$logs/export.log"; status=1; }
      run torch_judge 900 python3 basics/bench/torch_judge.py "$build/export"
    fi
    if [ "${BENCH:-1}" != 0 ]; then
      problems=${BASICS:-$(ls "$build/bin/basics" 2>/dev/null)}
      for p in $problems; do
        [ -x "$build/bin/basics/$p" ] && run "bench_basics_$p" 300 "$build/bin/basics/$p" --bench \
          "${extra[@]}"
      done
    fi
    ;;
  whole_process)
    [ "${BENCH:-1}" = 0 ] ||
      run whole_process 1500 testcases/bench_whole_process.sh "$build" "$build/whole_process" \
        "${extra[@]}"
    ;;
  esac
done

echo "device_run: results in $results"
[ -n "${OUT:-}" ] && cp "$results" "$OUT/" && cp -r "$logs" "$OUT/logs" 2>/dev/null
exit $status
