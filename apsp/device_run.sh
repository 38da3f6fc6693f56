#!/usr/bin/env bash
# On the GPU machine: build apsp's GPU targets only, run the GPU tests, the program's case tests,
# then the benchmark. Logs go to $OUT (default build/dev-apsp/out); the tables are printed last.
#
#   apsp/device_run.sh [bench arguments...]     (default: all sections)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build/dev-apsp"
out="${OUT:-$build/out}"
mkdir -p "$build" "$out"
jobs="$(nproc)"

nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader \
  | tee "$out/device.txt"

# CMake for our targets only; if another folder breaks the configure, compile with nvcc directly.
bin="$build/bin"
cmake_ok=0
if cmake -S "$root" -B "$build" -G Ninja -DGPU_BACKEND=CUDA -DGPU_ARCH=90 >"$out/configure.log" 2>&1 &&
   cmake --build "$build" -j "$jobs" --target apsp_gpu_test bench_apsp \
     >"$out/build.log" 2>&1; then
  echo "built with CMake"
  cmake_ok=1
else
  echo "CMake build failed (see configure.log/build.log); compiling with nvcc directly"
  tail -20 "$out/configure.log" "$out/build.log" 2>/dev/null
  bin="$build/direct"
  mkdir -p "$bin"
  flags=(-std=c++17 -O3 -arch=sm_90 --extended-lambda -I "$root/common" -I "$root/apsp")
  kernels=("$root"/apsp/kernel_{path,dense,sparse,rows}.cu)
  nvcc "${flags[@]}" -o "$bin/apsp_gpu_test" "$root/apsp/tests/gpu_test.cu" "$root/apsp/kernel.cu" \
    "${kernels[@]}" "$root/apsp/reference.cpp" "$root/common/threads.cpp" \
    >"$out/nvcc_test.log" 2>&1 &
  nvcc "${flags[@]}" -o "$bin/bench_apsp" "$root/apsp/bench.cu" "${kernels[@]}" \
    >"$out/nvcc_bench.log" 2>&1 &
  wait
  tail -5 "$out"/nvcc_*.log
fi

# Which min-plus instructions the compiler emitted (DPX VIADDMNMX expected for add_min).
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$bin/bench_apsp" >"$out/bench.sass" 2>/dev/null
  for op in VIADDMNMX VIMNMX3 VIMNMX IADD3 IMNMX; do
    printf '%s %s\n' "$op" "$(grep -c "$op" "$out/bench.sass")"
  done | tee "$out/sass_counts.txt"
fi

# Every step gets what is left of the run's budget (APSP_DEADLINE seconds after the start).
deadline="${APSP_DEADLINE:-228}"
left() { local l=$((deadline - SECONDS)); [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; }

status=0
echo "== apsp_gpu_test"
timeout "$(left 90)" "$bin/apsp_gpu_test" >"$out/gpu_test.log" 2>&1
test_rc=$?
grep -E "FAIL|SKIP|checks|graphs" "$out/gpu_test.log" | head -30
echo "gpu test exit code: $test_rc"
[ $test_rc -eq 0 ] || status=1

echo "== bench_apsp $*"
timeout "$(left 150)" "$bin/bench_apsp" "$@" >"$out/bench.log" 2>&1
bench_rc=$?
echo "bench exit code: $bench_rc"
[ $bench_rc -eq 0 ] || status=1

# The contest program on the committed and generated cases (GPU backend = this kernel).
if [ $cmake_ok -eq 1 ] && [ "$(left 60)" -gt 20 ]; then
  if timeout "$(left 60)" cmake --build "$build" -j "$jobs" --target apsp gen verify \
      >"$out/build_program.log" 2>&1; then
    (cd "$build" && timeout "$(left 60)" ctest -R '^apsp' -E 'apsp_gpu_test|reference' \
      --output-on-failure >"$out/ctest.log" 2>&1)
    echo "program case tests exit code: $? ($(grep -E 'tests passed' "$out/ctest.log"))"
    grep -E "Failed|\*\*\*" "$out/ctest.log" | head -10
  else
    echo "program build failed or timed out (see build_program.log)"
  fi
fi

echo "== bench tables"
cat "$out/bench.log"
exit $status
