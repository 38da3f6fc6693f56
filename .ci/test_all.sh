#!/usr/bin/env bash
# The whole test suite, from a fresh clone:
#   1. installs missing Debian packages when run as root (apt-get update once, then install);
#   2. builds the CPU backend and runs every CTest test (host, CPU programs, fuzz);
#   3. builds the CUDA backend (sm_90 + sm_100; the basics kernels for sm_90 only, as the export
#      check compiles every LeetGPU file for both), the CUDA backend as the MI100 persona (sm_90)
#      and the HIP backend (gfx908) and runs their `gpu` tests, which SKIP on a machine without a
#      GPU (compile and link only) and run for real on one;
#      checks that no kernel (contest or LeetGPU) spills registers on gfx908
#      (<problem>/tests/hip_resource_usage.sh, basics/tests/hip_resource_usage.sh), reading the
#      compiler's resource-usage remarks that the HIP build itself recorded;
#   4. checks that every repository path named in Markdown and in code comments exists
#      (.ci/check_paths.sh);
#   5. creates a LeetGPU and a contest problem with tools/new_problem.py in a scratch copy, builds
#      them for the CPU backend and checks that their tests fail only for their stubs
#      (.ci/check_scaffold.sh);
#   6. runs the SLURM end-to-end test of self_test_and_submit.sbatch and builds the exported
#      submission folders with their own Makefiles.
# Steps 4-6 run beside step 3 (two lanes of stages, each stage's own parallelism inside), so that
# the cores stay busy while a stage configures, links or waits. One compiler cache serves the
# run's builds (ccache, empty at the start, removed at the end): the host C++ that every build
# compiles alike (the basics harness, the I/O and program libraries, verify, gen) is compiled once.
# Each stage's output is printed whole when it ends. The run ends with one line per stage: PASS or
# FAIL, its time, and what it counted (CTest's passed, failed and skipped tests; "compiled and
# linked" when a GPU stage skipped every test for want of a GPU), then where the build time went
# (tools/build_times.py). A stage whose script is missing fails.
# Usage: bash .ci/test_all.sh   (as root on a fresh Debian 12 machine; JOBS=N to set parallelism,
# LANES=1 to run the stages one after another, CCACHE=0 to build without the cache)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-$(nproc)}
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$jobs}
export CMAKE_BUILD_PARALLEL_LEVEL=$jobs
lanes=${LANES:-2}
logs=$(mktemp -d /tmp/kit-test-all.XXXXXX) || exit 1
trap 'rm -rf "$logs"' EXIT
run_start=$SECONDS

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

# stage INDEX NAME COMMAND...: runs one stage, keeps going on failure, times it, counts its
# tests; its output is printed whole when it ends (stages of two lanes would interleave), its
# summary line goes to $logs/result_INDEX.
stage() {
  local index=$1 name=$2
  shift 2
  local log="$logs/stage_$index.log" start=$SECONDS verdict=PASS
  echo "=== started: ${name}"
  "$@" >"$log" 2>&1 </dev/null || verdict=FAIL
  local seconds=$((SECONDS - start))
  {
    flock 9
    echo
    echo "=== ${name}"
    cat "$log"
    echo "=== ${name}: ${verdict} (${seconds} s)"
  } 9>"$logs/print.lock"
  printf '%s  %s (%d s): %s\n' "$verdict" "$name" "$seconds" "$(stage_note "$log")" \
    >"$logs/result_$index"
}

script_stage() { # script_stage INDEX SCRIPT: a stage running a script, which must exist
  if [ -f "$2" ]; then
    stage "$1" "$2" bash "$2"
  else
    stage "$1" "$2" sh -c "echo 'test_all: $2 is missing'; exit 1"
  fi
}

install_packages() {
  local wanted=(cmake ninja-build g++ clang libclang-rt-14-dev libgtest-dev python3
                hipcc libamdhip64-dev rocm-device-libs libamd-comgr-dev libhsa-runtime-dev
                slurm-wlm munge time unifdef ccache)
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

# The run's compiler cache (C and C++ only; nvcc and the HIP compiler are not cached): CMake
# reads the launcher from the environment at each configure, the scripts' builds included.
use_compiler_cache() {
  if [ "${CCACHE:-1}" = 0 ] || ! command -v ccache >/dev/null; then
    echo "test_all: no compiler cache (CCACHE=0 or ccache missing): each build compiles all"
    return
  fi
  # base_dir: paths relative to the build folder, so that the scaffold's copy of the repository
  # (under build/, .ci/check_scaffold.sh) finds what the CPU stage compiled.
  export CCACHE_DIR=$logs/ccache CCACHE_BASEDIR=$root CCACHE_MAXSIZE=4G CCACHE_NOCOMPRESS=1
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
  ccache --zero-stats >/dev/null
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
    -DKIT_BASICS_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER="$nvcc" &&
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
  cmake -S . -B build/ci-hip -G Ninja -DGPU_BACKEND=HIP -DGPU_ARCH=gfx908 \
    -DKIT_HIP_RESOURCE_USAGE=ON &&
    cmake --build build/ci-hip && { build/ci-hip/bin/gpu_info || true; } &&
    ctest --test-dir build/ci-hip -L "gpu|judge" --output-on-failure || return 1
  # No kernel may spill registers on MI100 (each script prints its table), as the build compiled
  # them: the remarks its compiles recorded (KIT_HIP_RESOURCE_USAGE).
  local p
  for p in $(contest_problems) basics; do
    [ -f "$p/tests/hip_resource_usage.sh" ] || continue # a problem without a kernel yet
    BUILD_DIR=build/ci-hip bash "$p/tests/hip_resource_usage.sh" || return 1
  done
}

# The stages that compile the GPU backends, and the others; with LANES=2 the two lists run side
# by side after the CPU stage (which fills the compiler cache first).
gpu_stages() {
  stage 2 "CUDA backend (sm_90, sm_100): build, gpu tests" cuda_backend
  stage 3 "CUDA as the MI100 persona (sm_90, KIT_PERSONA=gfx908): build, gpu tests" persona_build
  stage 4 "HIP backend (gfx908): build, gpu tests" hip_backend
}
other_stages() {
  # The SLURM job's bound: its build shares the cores with the other lane.
  export JOB_TIMEOUT_S=${JOB_TIMEOUT_S:-480}
  script_stage 5 .ci/check_paths.sh
  script_stage 6 .ci/check_scaffold.sh
  script_stage 7 .ci/slurm_e2e.sh
  script_stage 8 .ci/check_exports.sh
}

stages=9 # indices 0 to 8 above and below
stage 0 "Debian packages" install_packages
use_compiler_cache
stage 1 "CPU backend: build and all tests" cpu_backend
if [ "$lanes" -ge 2 ]; then
  gpu_stages &
  other_stages &
  wait
else
  gpu_stages
  other_stages
fi

echo
echo "=== where the build time went (tools/build_times.py)"
for dir in build/cpu build/ci-cuda build/ci-persona build/ci-hip; do
  [ -f "$dir/.ninja_log" ] && python3 tools/build_times.py "$dir" --top 8
done
if [ -n "${CCACHE_DIR:-}" ]; then
  echo
  echo "compiler cache: $(ccache --print-stats | awk -F'\t' '
    $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { hits += $2 }
    $1 == "cache_miss" { misses = $2 }
    END { printf "%d hits, %d misses", hits, misses }')"
fi

echo
echo "=== summary ($((SECONDS - run_start)) s)"
failed=0
for ((index = 0; index < stages; index++)); do
  if [ -f "$logs/result_$index" ]; then
    cat "$logs/result_$index"
    grep -q '^PASS' "$logs/result_$index" || failed=$((failed + 1))
  else
    echo "FAIL  stage $index: no result"
    failed=$((failed + 1))
  fi
done
echo "test_all: $((stages - failed)) passed, ${failed} failed"
[ "$failed" -eq 0 ]
