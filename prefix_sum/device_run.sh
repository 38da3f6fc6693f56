#!/usr/bin/env bash
# On the GPU machine: build prefix_sum's GPU targets only, run the GPU tests, then the benchmark.
# Logs go to $OUT (default build/dev-prefix_sum/out); the benchmark tables are printed last.
#
#   prefix_sum/device_run.sh [bench arguments...]     (default: --all-variants)
#   NO_TESTS=1 prefix_sum/device_run.sh ...          (benchmark only: for the experiments' patches)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build/dev-prefix_sum"
out="${OUT:-$build/out}"
mkdir -p "$build" "$out"
bench_args=("$@")
[ ${#bench_args[@]} -eq 0 ] && bench_args=(--all-variants)
jobs="$(nproc)"

nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader \
  | tee "$out/device.txt"

# CMake for our targets only; if another folder breaks the configure, compile with nvcc directly.
bin="$build/bin"
if cmake -S "$root" -B "$build" -G Ninja -DGPU_BACKEND=CUDA -DGPU_ARCH=90 >"$out/configure.log" 2>&1 &&
   cmake --build "$build" -j "$jobs" --target prefix_sum_gpu_test bench_prefix_sum \
     >"$out/build.log" 2>&1; then
  echo "built with CMake"
else
  echo "CMake build failed (see configure.log/build.log); compiling with nvcc directly"
  bin="$build/direct"
  mkdir -p "$bin"
  flags=(-std=c++17 -O3 -arch=sm_90 --extended-lambda -I "$root/common" -I "$root/prefix_sum")
  host=("$root/prefix_sum/reference.cpp" "$root/common/threads.cpp")
  nvcc "${flags[@]}" -o "$bin/prefix_sum_gpu_test" "$root/prefix_sum/tests/gpu_test.cu" \
    "$root/prefix_sum/kernel.cu" "${host[@]}" >"$out/nvcc_test.log" 2>&1 &
  nvcc "${flags[@]}" -o "$bin/bench_prefix_sum" "$root/prefix_sum/bench.cu" \
    "$root/prefix_sum/kernel.cu" "${host[@]}" >"$out/nvcc_bench.log" 2>&1 &
  wait
  tail -5 "$out"/nvcc_*.log
fi

status=0
if [ "${NO_TESTS:-0}" != 1 ]; then
  echo "== prefix_sum_gpu_test"
  timeout "${TEST_TIMEOUT:-90}" "$bin/prefix_sum_gpu_test" >"$out/gpu_test.log" 2>&1
  test_rc=$?
  grep -E "FAIL|SKIP|repeated scan|checks" "$out/gpu_test.log" | head -30
  echo "gpu test exit code: $test_rc"
  [ $test_rc -eq 0 ] || status=1
fi

echo "== bench_prefix_sum ${bench_args[*]}"
timeout "${BENCH_TIMEOUT:-100}" "$bin/bench_prefix_sum" "${bench_args[@]}" >"$out/bench.log" 2>&1
bench_rc=$?
cat "$out/bench.log"
echo "bench exit code: $bench_rc"
[ $bench_rc -eq 0 ] || status=1
exit $status
