#!/usr/bin/env bash
# The whole test suite, from a fresh clone:
#   1. installs missing Debian packages when run as root (apt-get update once, then install);
#   2. builds the CPU backend and runs every CTest test (host, CPU programs, fuzz);
#   3. builds the CUDA backend (sm_90 + sm_100) and the HIP backend (gfx908) and runs their `gpu`
#      tests, which SKIP on a machine without a GPU (compile and link only) and run for real on one;
#      checks that no contest kernel spills registers on gfx908 (<problem>/hip_resource_usage.sh);
#   4. runs the SLURM end-to-end test of self_test_and_submit.sbatch and builds the exported
#      submission folders with their own Makefiles.
# Usage: bash .ci/test_all.sh   (as root on a fresh Debian 12 machine; JOBS=N to set parallelism)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-$(nproc)}
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$jobs}
export CMAKE_BUILD_PARALLEL_LEVEL=$jobs

passed=0
failed=0
failed_names=()

stage() { # stage NAME COMMAND...: run one stage, keep going on failure, time it
  local name=$1
  shift
  echo
  echo "=== ${name}"
  local start=$SECONDS
  if "$@"; then
    echo "=== ${name}: PASS ($((SECONDS - start)) s)"
    passed=$((passed + 1))
  else
    echo "=== ${name}: FAIL ($((SECONDS - start)) s)"
    failed=$((failed + 1))
    failed_names+=("$name")
  fi
}

install_packages() {
  local wanted=(cmake ninja-build g++ clang libclang-rt-14-dev libgtest-dev python3
                hipcc libamdhip64-dev rocm-device-libs libamd-comgr-dev libhsa-runtime-dev
                slurm-wlm munge time)
  local missing=()
  for p in "${wanted[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "all packages present"
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing packages (${missing[*]}) and not root: install them first" >&2
    return 1
  fi
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

find_nvcc() {
  command -v nvcc 2>/dev/null || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; }
}

cpu_backend() {
  cmake --preset cpu && cmake --build --preset cpu && ctest --preset cpu
}

cuda_backend() {
  local nvcc
  nvcc=$(find_nvcc) || { echo "nvcc not found"; return 1; }
  cmake -S . -B build/ci-cuda -G Ninja -DGPU_BACKEND=CUDA -DGPU_ARCH="90;100" \
    -DCMAKE_CUDA_COMPILER="$nvcc" &&
    cmake --build build/ci-cuda &&
    ctest --test-dir build/ci-cuda -L gpu --output-on-failure
}

hip_backend() {
  cmake -S . -B build/ci-hip -G Ninja -DGPU_BACKEND=HIP -DGPU_ARCH=gfx908 &&
    cmake --build build/ci-hip &&
    ctest --test-dir build/ci-hip -L gpu --output-on-failure &&
    # No contest kernel may spill registers on MI100 (each script prints its table).
    bash prefix_sum/hip_resource_usage.sh && bash softmax/hip_resource_usage.sh &&
    bash apsp/hip_resource_usage.sh
}

stage "Debian packages" install_packages
stage "CPU backend: build and all tests" cpu_backend
stage "CUDA backend (sm_90, sm_100): build, gpu tests" cuda_backend
stage "HIP backend (gfx908): build, gpu tests" hip_backend
for script in .ci/slurm_e2e.sh .ci/check_exports.sh; do
  [ -f "$script" ] && stage "$script" bash "$script"
done

echo
[ ${#failed_names[@]} -gt 0 ] && printf 'failed stage: %s\n' "${failed_names[@]}"
echo "test_all: ${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
