#!/usr/bin/env bash
# The whole test suite, from a fresh clone:
#   1. installs missing Debian packages when run as root (apt-get update once, then install);
#   2. builds the CPU backend and runs every CTest test (host, CPU programs, fuzz);
#   3. builds the CUDA backend (sm_90 + sm_100), the CUDA backend as the MI100 persona (sm_90) and
#      the HIP backend (gfx908) and runs their `gpu` tests, which SKIP on a machine without a GPU
#      (compile and link only) and run for real on one;
#      checks that no kernel (contest or LeetGPU) spills registers on gfx908
#      (<problem>/tests/hip_resource_usage.sh, basics/tests/hip_resource_usage.sh);
#   4. checks that every repository path named in Markdown and in code comments exists
#      (.ci/check_paths.sh);
#   5. creates a LeetGPU and a contest problem with tools/new_problem.py in a scratch copy, builds
#      them for the CPU backend and checks that their tests fail only for their stubs
#      (.ci/check_scaffold.sh);
#   6. runs the SLURM end-to-end test of self_test_and_submit.sbatch and builds the exported
#      submission folders with their own Makefiles.
# It ends with one line per stage: PASS or FAIL, its time, and what it counted (CTest's passed,
# failed and skipped tests; "compiled and linked" when a GPU stage skipped every test for want of
# a GPU). A stage whose script is missing fails.
# Usage: bash .ci/test_all.sh   (as root on a fresh Debian 12 machine; JOBS=N to set parallelism)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-$(nproc)}
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$jobs}
export CMAKE_BUILD_PARALLEL_LEVEL=$jobs
logs=$(mktemp -d /tmp/kit-test-all.XXXXXX) || exit 1
trap 'rm -rf "$logs"' EXIT

failed=0
summary=()

# ctest_counts LOG: "P passed, F failed, S skipped" of every CTest run in LOG ("" when none ran).
ctest_counts() {
  awk '
    / Test +#[0-9]+: / {
      seen = 1
      if ($0 ~ /\*\*\*Skipped|Not Run \(Disabled\)/) skipped++
      else if ($0 ~ / Passed +[0-9.]+ sec/) passed++
      else failed++
    }
    END { if (seen) printf "%d passed, %d failed, %d skipped", passed, failed, skipped }' "$1"
}

# stage_note LOG: what a stage counted: CTest's numbers, with the reason when every test of a GPU
# stage was skipped for want of a GPU, else the stage's own last line.
stage_note() {
  local log=$1 counts
  counts=$(ctest_counts "$log")
  if [ -z "$counts" ]; then
    grep -v '^\s*$' "$log" | tail -n 1
  elif [[ $counts =~ ^0\ passed,\ 0\ failed,\ ([0-9]+)\ skipped$ ]] &&
    grep -q '^GPU: none usable' "$log"; then
    local reason
    reason=$(sed -n 's/^GPU: none usable (\(.*\))$/\1/p' "$log" | head -n 1)
    echo "compiled and linked; ${BASH_REMATCH[1]} GPU tests skipped: no GPU ($reason)"
  else
    echo "$counts"
  fi
}

stage() { # stage NAME COMMAND...: run one stage, keep going on failure, time it, count its tests
  local name=$1
  shift
  local log="$logs/stage_${#summary[@]}.log" start=$SECONDS verdict=PASS
  echo
  echo "=== ${name}"
  "$@" 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { verdict=FAIL; failed=$((failed + 1)); }
  echo "=== ${name}: ${verdict} ($((SECONDS - start)) s)"
  summary+=("$(printf '%s  %s (%d s): %s' "$verdict" "$name" "$((SECONDS - start))" \
    "$(stage_note "$log")")")
}

script_stage() { # script_stage SCRIPT: a stage running a script, which must exist
  if [ -f "$1" ]; then
    stage "$1" bash "$1"
  else
    stage "$1" sh -c "echo 'test_all: $1 is missing'; exit 1"
  fi
}

install_packages() {
  local wanted=(cmake ninja-build g++ clang libclang-rt-14-dev libgtest-dev python3
                hipcc libamdhip64-dev rocm-device-libs libamd-comgr-dev libhsa-runtime-dev
                slurm-wlm munge time unifdef)
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
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null &&
    echo "installed ${#missing[@]} packages"
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
    cmake --build build/ci-cuda && { build/ci-cuda/bin/gpu_info || true; } &&
    ctest --test-dir build/ci-cuda -L "gpu|judge" --output-on-failure
}

# The MI100 persona (common/gpu/persona.h): the same kernels with 64-lane warps, compiled so that it
# cannot rot; its tests run where there is an NVIDIA GPU (common/testing/persona_run.sh).
persona_build() {
  local nvcc
  nvcc=$(find_nvcc) || { echo "nvcc not found"; return 1; }
  cmake -S . -B build/ci-persona -G Ninja -DGPU_BACKEND=CUDA -DGPU_ARCH=90 -DKIT_PERSONA=gfx908 \
    -DCMAKE_CUDA_COMPILER="$nvcc" &&
    cmake --build build/ci-persona && { build/ci-persona/bin/gpu_info || true; } &&
    ctest --test-dir build/ci-persona -L "gpu|judge" --output-on-failure
}

# The contest problems, from contest_problems.txt (the only list of them).
contest_problems() { awk '!/^#/ && NF { print $1 }' contest_problems.txt; }

hip_backend() {
  cmake -S . -B build/ci-hip -G Ninja -DGPU_BACKEND=HIP -DGPU_ARCH=gfx908 &&
    cmake --build build/ci-hip && { build/ci-hip/bin/gpu_info || true; } &&
    ctest --test-dir build/ci-hip -L "gpu|judge" --output-on-failure || return 1
  # No kernel may spill registers on MI100 (each script prints its table).
  local p
  for p in $(contest_problems) basics; do
    [ -f "$p/tests/hip_resource_usage.sh" ] || continue # a problem without a kernel yet
    bash "$p/tests/hip_resource_usage.sh" || return 1
  done
}

stage "Debian packages" install_packages
stage "CPU backend: build and all tests" cpu_backend
stage "CUDA backend (sm_90, sm_100): build, gpu tests" cuda_backend
stage "CUDA as the MI100 persona (sm_90, KIT_PERSONA=gfx908): build, gpu tests" persona_build
stage "HIP backend (gfx908): build, gpu tests" hip_backend
script_stage .ci/check_paths.sh
script_stage .ci/check_scaffold.sh
script_stage .ci/slurm_e2e.sh
script_stage .ci/check_exports.sh

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "test_all: $((${#summary[@]} - failed)) passed, ${failed} failed"
[ "$failed" -eq 0 ]
