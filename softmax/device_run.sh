#!/usr/bin/env bash
# Builds the softmax GPU targets on an NVIDIA machine, runs the GPU tests and the benchmark (with
# torch.softmax timings when PyTorch is importable) and prints the benchmark table last.
#
#   softmax/device_run.sh [SIZES [SOLVE_SIZES]]     (comma lists; defaults below)
#
# Logs go to $OUT (default build/dev-softmax/out). Only this problem's targets are built; when the
# CMake configure fails (another folder mid-edit), the files are compiled with nvcc directly.
# TEST_TIMEOUT, TORCH_TIMEOUT and BENCH_TIMEOUT (seconds) bound each step; NO_TORCH=1 skips torch,
# NO_TESTS=1 the GPU tests; BENCH_ARGS adds benchmark options (e.g. "--variants 1").
set -u
cd "$(dirname "$0")/.."
SIZES=${1:-500000,1000000,10000000,100000000}
SOLVE_SIZES=${2:-10000000,100000000}
BUILD=build/dev-softmax
OUT=${OUT:-$BUILD/out}
ARCH=${GPU_ARCH:-90}
mkdir -p "$OUT" "$BUILD"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader > "$OUT/device.txt" 2>&1

BIN=$BUILD/bin
if cmake -S . -B "$BUILD" -G Ninja -DGPU_BACKEND=CUDA -DGPU_ARCH="$ARCH" > "$OUT/configure.log" 2>&1 &&
   cmake --build "$BUILD" --target bench_softmax softmax_gpu_test > "$OUT/build.log" 2>&1; then
  echo "built with CMake ($BUILD)"
else
  echo "CMake build failed (see configure.log/build.log); compiling with nvcc directly"
  BIN=$BUILD/nvcc-bin
  mkdir -p "$BIN"
  FLAGS="-std=c++17 -O3 -arch=sm_$ARCH --extended-lambda -Icommon -Isoftmax"
  HOST="softmax/kernel.cu softmax/kernel_engine.cu softmax/reference.cpp common/threads.cpp"
  nvcc $FLAGS softmax/bench.cu $HOST -o "$BIN/bench_softmax" > "$OUT/nvcc_bench.log" 2>&1 &
  nvcc $FLAGS softmax/tests/gpu_test.cu $HOST -o "$BIN/softmax_gpu_test" > "$OUT/nvcc_test.log" 2>&1
  wait
  tail -20 "$OUT"/nvcc_*.log
fi

if [ "${NO_TESTS:-0}" != 1 ]; then
  echo "== GPU tests"
  start=$(date +%s)
  timeout "${TEST_TIMEOUT:-300}" "$BIN/softmax_gpu_test" > "$OUT/test.log" 2>&1
  echo "softmax_gpu_test exit $? in $(( $(date +%s) - start )) s"
  grep -E "^FAIL|checks,|capacity" "$OUT/test.log" | head -30
fi

TORCH_ARG=()
if [ "${NO_TORCH:-0}" = 1 ]; then
  echo "NO_TORCH=1: no torch column"
elif python3 -c "import torch; assert torch.cuda.is_available()" > /dev/null 2>&1; then
  timeout "${TORCH_TIMEOUT:-200}" python3 softmax/bench_torch.py ${SIZES//,/ } > "$OUT/torch.txt" 2> "$OUT/torch.log" &&
    TORCH_ARG=(--torch "$OUT/torch.txt")
else
  echo "PyTorch with CUDA not importable: no torch column"
fi

echo "== benchmark"
# shellcheck disable=SC2086 # BENCH_ARGS is a list of words
timeout "${BENCH_TIMEOUT:-300}" "$BIN/bench_softmax" --sizes "$SIZES" --solve-sizes "$SOLVE_SIZES" \
  "${TORCH_ARG[@]}" ${BENCH_ARGS:-} > "$OUT/bench.log" 2>&1
echo "bench_softmax exit $?"
cat "$OUT/device.txt" "$OUT/bench.log"
