#!/usr/bin/env bash
# Everything issue 7 needs from one session on a CUDA machine, in priority order, each step's
# output in $OUT (so a cut-off run still returns what finished):
#   1. the exhaustive float formatter check (all 2^32 patterns), in the background during the build
#   2. CUDA build of the programs, skeletons and probes (build/io2-device, sm_90)
#   3. ctest: the small-input tests, and every committed case forced through the GPU path
#   4. ns/value of the float formatters
#   5. the small-input sweep (GPU path vs CPU reference by size)
#   6. pinned vs pageable input buffers
#   7. the whole-process benchmark (kit vs official skeleton)
# Usage (repository root): OUT=<dir> testcases/bench/device_run.sh
set -uo pipefail
out=${OUT:-/tmp/io2-device-out}
mkdir -p "$out"
build=build/io2-device
work=/tmp/io2-device-work
mkdir -p "$work"
step() { echo "== $(date +%T) $*" | tee -a "$out/steps.log"; }

step "float_format_check (all patterns, 6 threads, background)"
g++ -std=c++17 -O2 -Icommon common/tests/float_format_check.cpp common/threads.cpp -lpthread \
  -o "$work/float_format_check"
KIT_THREADS=6 nice -n 19 "$work/float_format_check" >"$out/float_format_all.log" 2>&1 &
check_pid=$!

step "configure and build"
cmake -S . -B "$build" -G Ninja -DGPU_BACKEND=CUDA -DGPU_ARCH=90 -DCMAKE_BUILD_TYPE=Release \
  >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j 12 --target prefix_sum softmax apsp gen verify run_timed \
  prefix_sum_skeleton softmax_skeleton apsp_skeleton pinned_input_probe format_bench \
  >"$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -30; exit 1; }
step "waiting for float_format_check"
wait "$check_pid"
cat "$out/float_format_all.log"

step "ctest: small-input tests, committed cases through the GPU path"
(cd "$build" && ctest -L small_input --output-on-failure) >"$out/ctest_small_input.log" 2>&1
tail -4 "$out/ctest_small_input.log"
(cd "$build" && KIT_FORCE_GPU=1 ctest -R "_case_" -j 8 --output-on-failure) \
  >"$out/ctest_cases_gpu.log" 2>&1
tail -4 "$out/ctest_cases_gpu.log"

step "format_bench"
"$build/bin/format_bench" | tee "$out/format_bench.log"

step "small-input sweep"
testcases/bench/small_input_sweep.sh "$build" "$work/sweep" | tee "$out/small_input_sweep.md"

step "pinned input probe"
"$build/bin/pinned_input_probe" | tee "$out/pinned_input_probe.md"

step "whole-process benchmark"
testcases/bench_whole_process.sh "$build" "$work/bench" | tee "$out/whole_process.md"
step "done"
