#!/usr/bin/env bash
# The device script, on a GPU machine, NVIDIA or AMD: builds the suites' targets for the GPU it
# finds, runs their GPU tests and benchmarks, and rewrites that GPU's results page,
# docs/results/<gpu>.md (common/bench/results_page.py): each suite it runs gets a fresh section,
# named once in the page's table by date, commit, backend and command; the other sections stay.
# Every step's full output is in $BUILD_DIR/device_run_logs; with $OUT set, the page and the logs
# are copied there too.
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
cd "$(dirname "$0")/../.." || exit 2
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

# ---- the results page ---------------------------------------------------------------------------
gpu_line=$("$build/bin/gpu_info" 2>&1) || { echo "$gpu_line"; exit 1; }
gpu_name=$(sed -e 's/^GPU: //' -e 's/ (.*//' <<<"$gpu_line")
gpu_slug=$(tr 'A-Z ' 'a-z-' <<<"$gpu_name" | tr -cd 'a-z0-9-')
results=docs/results/${gpu_slug:-gpu}.md
# KIT_COMMIT names the commit where the tree has no git metadata of its own (a copied tree).
commit=${KIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo "unknown")}
dirty=$(git status --porcelain 2>/dev/null | grep -qv '^??' && echo " (with uncommitted changes)")
run_date=$(date +%Y-%m-%d)
driver_line=
if [ "$backend" = CUDA ]; then
  driver_line=$(nvidia-smi --query-gpu=driver_version,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader 2>/dev/null | head -1 | sed 's/^/driver, max SM and memory clocks: /')
elif command -v rocm-smi >/dev/null; then
  driver_line=$(rocm-smi --showdriverversion 2>/dev/null | grep -i version | head -1)
fi
sections=$logs/sections # one file per suite, the text of its section of the page
rm -rf "$sections" && mkdir -p "$sections"
out=/dev/null # the section being written

# run NAME TIMEOUT COMMAND...: runs a step with its output in the log and in the section.
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
  } >>"$out"
  [ $rc -eq 0 ] || status=1
  return $rc
}
ctest_summary() { # ctest_summary NAME REGEX: the suite's GPU tests, their summary in the section
  local name=$1 regex=$2
  echo "device_run: tests $name"
  ctest --test-dir "$build" -L gpu -R "$regex" -j "${TEST_JOBS:-4}" --output-on-failure \
    >"$logs/ctest_$name.log" 2>&1 || status=1
  {
    printf '### GPU tests\n\n```\n'
    grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Timeout|Not Run|^FAIL" \
      "$logs/ctest_$name.log" | head -40
    printf '```\n\n'
    # The basics tests' one line per problem, JUDGE|problem|passed/total: the judge's cases.
    [ "$name" = basics ] && grep -h "^JUDGE|" "$build/Testing/Temporary/LastTest.log" 2>/dev/null |
      sort |
      awk -F'|' 'NR == 1 { print "| problem | judge cases passed |"; print "|---|---|" }
                 { print "| " $2 " | " $3 " |" } END { if (NR) print "" }'
  } >>"$out"
}
# basics_table PROBLEM...: one Markdown table of the problems' result rows (each bench prints its
# row under the table's header); a problem without a row is listed below it with the end of
# its output.
basics_table() {
  local p header_done=0 missing=()
  for p in "$@"; do
    local log="$logs/bench_basics_$p.log"
    local rows
    rows=$(awk '/^\| problem \| case \| solve/ { print; getline; print; getline; print; exit }' \
      "$log" 2>/dev/null)
    if [ -z "$rows" ]; then
      missing+=("$p")
    elif [ $header_done = 0 ]; then
      echo "$rows"
      header_done=1
    else
      tail -n 1 <<<"$rows"
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo
  for p in "${missing[@]}"; do
    echo "- **$p: no result row** (\`$logs/bench_basics_$p.log\`):"
    echo
    echo '```'
    tail -n 15 "$logs/bench_basics_$p.log" 2>/dev/null
    echo '```'
  done
}

for s in "${suites[@]}"; do
  out=$sections/$s.md
  : >"$out"
  extra_var="BENCH_ARGS_$s"
  read -r -a extra <<<"${!extra_var:-}"
  case $s in
  common)
    [ "${TESTS:-1}" = 0 ] || ctest_summary common '^(gpu_primitives_test|collectives_test)$'
    ;;
  prefix_sum | softmax | apsp)
    [ "${TESTS:-1}" = 0 ] || ctest_summary "$s" "^${s}_"
    if [ "${BENCH:-1}" != 0 ]; then
      printf '### Benchmark\n\n' >>"$out"
      run "bench_$s" 900 "$build/bin/bench_$s" "${extra[@]}"
    fi
    ;;
  basics)
    [ "${TESTS:-1}" = 0 ] || ctest_summary basics '^basics_'
    # The judge's own procedure where answers are long FP32 sums: the exported files called
    # through ctypes on torch tensors, compared with torch's results (needs torch on CUDA).
    if [ "${TESTS:-1}" != 0 ] && [ "$backend" = CUDA ] &&
      python3 -c 'import torch' 2>/dev/null; then
      python3 cmake/export_submission.py --manifest "$build/kit_programs.json" \
        --out "$build/export" >"$logs/export.log" 2>&1 || { cat "$logs/export.log"; status=1; }
      printf '### torch_judge\n\n' >>"$out"
      run torch_judge 900 python3 basics/bench/torch_judge.py "$build/export"
      echo >>"$out"
    fi
    if [ "${BENCH:-1}" != 0 ]; then
      problems=${BASICS:-$(ls "$build/bin/basics" 2>/dev/null)}
      benched=()
      for p in $problems; do
        if [ -x "$build/bin/basics/$p" ]; then
          # The section gets one table of every problem's row (basics_table), not each output.
          (out=/dev/null run "bench_basics_$p" 300 "$build/bin/basics/$p" --bench "${extra[@]}") ||
            status=1
          benched+=("$p")
        else
          echo "device_run: no program bin/basics/$p" >&2
          status=1
        fi
      done
      { printf '### Benchmark\n\n'; basics_table "${benched[@]}"; } >>"$out"
    fi
    ;;
  whole_process)
    if [ "${BENCH:-1}" != 0 ]; then
      printf '### Benchmark\n\n' >>"$out"
      run whole_process 1500 testcases/bench_whole_process.sh "$build" "$build/whole_process" \
        "${extra[@]}"
    fi
    ;;
  esac
done

# ---- the page: this run's sections replace those of the same suites, the others stay ----------
page_args=("$results" --title "$gpu_name" --line "$gpu_line")
page_args+=(--order "$(IFS=,; echo "${all_suites[*]}")")
[ -n "$driver_line" ] && page_args+=(--line "$driver_line")
for s in "${suites[@]}"; do
  page_args+=(--entry "$s" "$run_date" "$commit$dirty" "$backend"
    "common/bench/device_run.sh ${suites[*]}" "$sections/$s.md")
done
python3 common/bench/results_page.py "${page_args[@]}" || {
  echo "device_run: $results not written" >&2
  exit 1
}

echo "device_run: results in $results"
[ -n "${OUT:-}" ] && cp "$results" "$OUT/" && cp -r "$logs" "$OUT/logs" 2>/dev/null
exit $status
