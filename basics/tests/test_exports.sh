#!/usr/bin/env bash
# The basics' judge-mirroring GPU tests run against the EXPORTED files: what a LeetGPU user
# pastes, not the tree's kernel.cu.
#   1. configures a CUDA build (BUILD_DIR) and exports the solutions with
#      cmake/export_submission.py (backend branches resolved by unifdef, as for submission) into
#      BUILD_DIR/export, unless EXPORT_DIR names an existing export;
#   2. reconfigures with KIT_BASICS_FROM_EXPORT=<that export>: each problem's kernel object is
#      compiled from leetgpu/<name>.cu with solve.h force-included, as the tree's kernel.cu is, so
#      a signature that drifted from the judge's does not compile (basics/CMakeLists.txt);
#   3. builds, per problem, the GPU test and the program (and the case tools they use) and runs
#      `ctest -L gpu` on that problem's tests: basics_<name>_test (every judge case, against the
#      judge's reference), _example, _generated and _bad_input. Without a GPU they SKIP.
# Usage: bash basics/tests/test_exports.sh [problem ...]   (default: every problem exported)
# Environment: BUILD_DIR (default build/export-test), GPU_ARCH (default: the visible GPU, else
# 90;100), EXPORT_DIR, JOBS (build parallelism, default nproc), TEST_JOBS (tests run at a time,
# default 4: they share the GPU, and none times itself).
# Exit status: 0 when everything built and no test failed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-$ROOT/build/export-test}
JOBS=${JOBS:-$(nproc)}

NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
[ -n "$NVCC" ] || { echo "test_exports: nvcc not found"; exit 1; }
configure_args=(-DGPU_BACKEND=CUDA -DKIT_PERSONA= -DCMAKE_CUDA_COMPILER="$NVCC")
[ -n "${GPU_ARCH:-}" ] && configure_args+=(-DGPU_ARCH="$GPU_ARCH")
command -v ninja >/dev/null && [ ! -f "$BUILD_DIR/CMakeCache.txt" ] && configure_args+=(-G Ninja)

configure() { # configure EXPORT: (re)configure BUILD_DIR with KIT_BASICS_FROM_EXPORT=EXPORT
  if ! cmake -S "$ROOT" -B "$BUILD_DIR" "${configure_args[@]}" -DKIT_BASICS_FROM_EXPORT="$1" \
    >"$BUILD_DIR.configure.log" 2>&1; then
    tail -n 20 "$BUILD_DIR.configure.log"
    echo "test_exports: configuring $BUILD_DIR failed (log: $BUILD_DIR.configure.log)"
    exit 1
  fi
}

mkdir -p "$(dirname "$BUILD_DIR")"
if [ -z "${EXPORT_DIR:-}" ]; then
  EXPORT_DIR=$BUILD_DIR/export
  configure ""
  if ! python3 cmake/export_submission.py --manifest "$BUILD_DIR/kit_programs.json" \
    --out "$EXPORT_DIR" --backend-pass on >"$BUILD_DIR/export.log" 2>&1; then
    cat "$BUILD_DIR/export.log"
    echo "test_exports: the export failed"
    exit 1
  fi
fi
EXPORT_DIR=$(cd "$EXPORT_DIR" && pwd) || { echo "test_exports: no export in $EXPORT_DIR"; exit 1; }
configure "$EXPORT_DIR"
echo "test_exports: kernels from $EXPORT_DIR/leetgpu (build: $BUILD_DIR)"

problems=("$@")
if [ ${#problems[@]} -eq 0 ]; then
  for file in "$EXPORT_DIR"/leetgpu/*.cu; do
    [ -f "$file" ] && problems+=("$(basename "$file" .cu)")
  done
fi
[ ${#problems[@]} -gt 0 ] || { echo "test_exports: no problem to test"; exit 1; }

targets=(basics_gen basics_compare)
for name in "${problems[@]}"; do
  [ -f "$EXPORT_DIR/leetgpu/$name.cu" ] ||
    { echo "test_exports: $EXPORT_DIR/leetgpu/$name.cu does not exist"; exit 1; }
  targets+=("basics_${name}_test" "basics_$name")
done
if ! nice cmake --build "$BUILD_DIR" --parallel "$JOBS" --target "${targets[@]}"; then
  echo "test_exports: building ${targets[*]} failed"
  exit 1
fi

names=$(IFS='|'; echo "${problems[*]}")
pattern="^basics_($names)_(test|example|generated|bad_input)\$"
ctest --test-dir "$BUILD_DIR" --no-tests=error -L gpu -R "$pattern" --parallel "${TEST_JOBS:-4}" \
  --output-on-failure
