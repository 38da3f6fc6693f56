#!/usr/bin/env bash
# Builds the basics targets for the GPU of this machine, runs their GPU tests and benchmarks,
# and prints the results table (the one in basics/README.md) and the judge summary: per problem,
# the official challenge's cases passed and the performance case's time against its limit. Logs
# go to $OUT (or build/...).
#
#   basics/device_run.sh                      # build, bench, test
#   PHASES="bench" basics/device_run.sh       # only some phases (build bench test)
#   PROBLEMS="relu softmax" basics/device_run.sh
#   DEADLINE=230 basics/device_run.sh         # stop the tests in time to print everything
set -uo pipefail
deadline=${DEADLINE:-100000}
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build/dev-basics}
out=${OUT:-$build/logs}
phases=${PHASES:-build bench test}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"

all=(vector_add matrix_multiplication matrix_transpose color_inversion convolution_1d
     reverse_array relu leaky_relu rainbow_table matrix_copy count_array_element
     count_2d_array_element reduction softmax prefix_sum)
problems=()
for p in ${PROBLEMS:-${all[@]}}; do
  [[ -f basics/$p/kernel.cu ]] && problems+=("$p")
done

if [[ " $phases " == *" build "* ]]; then
  start=$SECONDS
  if ! cmake -S . -B "$build" -G Ninja -DGPU_BACKEND=CUDA -DGPU_ARCH="${GPU_ARCH:-90}" \
      > "$out/configure.log" 2>&1; then
    echo "full configure failed (another folder mid-edit?): building basics/standalone"
    tail -5 "$out/configure.log"
    build=$build-standalone
    cmake -S basics/standalone -B "$build" -G Ninja -DGPU_BACKEND=CUDA \
      -DGPU_ARCH="${GPU_ARCH:-90}" > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
  fi
  targets=(basics_gen basics_compare)
  for p in "${problems[@]}"; do targets+=("basics_$p" "basics_${p}_test"); done
  if ! cmake --build "$build" -j "$jobs" --target "${targets[@]}" > "$out/build.log" 2>&1; then
    grep -E "error|FAILED" "$out/build.log" | head -40
    exit 1
  fi
  echo "build: $((SECONDS - start)) s"
  # The rainbow_table loop's instruction mix, for the count its README states.
  obj=$(find "$build" -path '*basics_rainbow_table_kernel.dir*' -name '*.o' | head -1)
  command -v cuobjdump > /dev/null && [[ -n $obj ]] && cuobjdump -sass "$obj" > "$out/rainbow_table.sass"
fi
[[ -d $build-standalone && ! -f $build/CMakeCache.txt ]] && build=$build-standalone

if [[ " $phases " == *" bench "* ]]; then
  start=$SECONDS
  : > "$out/results.txt"
  : > "$out/bench.log"
  for p in "${problems[@]}"; do
    "$build/bin/basics/$p" --bench > "$out/bench_one.log" 2>&1
    cat "$out/bench_one.log" >> "$out/bench.log"
    grep '^RESULT|' "$out/bench_one.log" >> "$out/results.txt" || {
      echo "bench $p failed:"; tail -5 "$out/bench_one.log"; }
  done
  rm -f "$out/bench_one.log"
  echo "bench: $((SECONDS - start)) s"
  nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader 2>/dev/null
  echo "| problem | case | solve ms | limit | limit ms | % of limit | % of copy bw | baseline | baseline ms | speed-up | check |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  awk -F'|' '{ row = "|"; for (i = 2; i <= NF; ++i) row = row " " $i " |"; print row }' \
    "$out/results.txt"
fi

if [[ " $phases " == *" test "* ]]; then
  start=$SECONDS
  regex=$(IFS='|'; echo "^basics_(${problems[*]})_")
  left=$((deadline - SECONDS - 5))
  timeout "$left" ctest --test-dir "$build" -R "$regex" -j "${TEST_JOBS:-8}" \
    --output-on-failure > "$out/ctest.log" 2>&1 || echo "ctest: failures or stopped at the deadline"
  cp "$build/Testing/Temporary/LastTest.log" "$out/ctest_all_output.log" 2>/dev/null
  echo "gpu test cases: $(grep -c '^PASS ' "$out/ctest_all_output.log") passed," \
    "$(grep -c '^FAIL ' "$out/ctest_all_output.log") failed"
  grep -E "^FAIL " "$out/ctest.log" | head -20
  grep -E "tests passed|tests failed|Failed|\*\*\*" "$out/ctest.log" | tail -20
  echo "test: $((SECONDS - start)) s"
fi

# The judge summary, from the GPU tests' `JUDGE|<problem>|<passed>/<total>` lines and the
# benchmark's RESULT lines of this run, or of an earlier one into the same $out.
if [[ -f $out/ctest_all_output.log || -f $out/results.txt ]]; then
  echo "| problem | judge cases passed | performance case | solve ms | limit | limit ms | % of limit |"
  echo "|---|---|---|---|---|---|---|"
  for p in "${problems[@]}"; do
    judge=$(grep -h "^JUDGE|$p|" "$out/ctest_all_output.log" 2> /dev/null | tail -1 | cut -d'|' -f3)
    result=$(grep -h "^RESULT|$p|" "$out/results.txt" 2> /dev/null | tail -1)
    IFS='|' read -r _ _ perf_case solve_ms limit limit_ms limit_percent _ <<< "$result"
    echo "| $p | ${judge:-not run} | ${perf_case:--} | ${solve_ms:--} | ${limit:--}" \
      "| ${limit_ms:--} | ${limit_percent:--} |"
  done
fi
