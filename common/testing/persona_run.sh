#!/usr/bin/env bash
# The MI100 persona on an NVIDIA GPU machine (common/gpu/persona.h): builds the kit as usual and
# with -DKIT_PERSONA=gfx908 (64-lane warps, MI100's limits, gfx908's tuning tables), then
#   1. runs every GPU test (ctest -L gpu) of the persona build;
#   2. runs the three programs' forced GPU paths on cases of the hidden cases' sizes in both
#      builds: prefix_sum's and apsp's outputs must be byte-identical, softmax's must pass the
#      grader's rule against the normal build's and against the CPU reference;
#   3. runs the self-test's shipped cases and contest-scale tier under the persona.
# One summary line per step, then a verdict. Usage: common/testing/persona_run.sh [steps]
# (steps: tests programs selftest; default all). Environment: GPU_ARCH (default: the visible
# GPU), JOBS, OUT (logs are copied there).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(tests programs selftest)
jobs=${JOBS:-$(nproc)}
normal=build/persona-reference
persona=build/persona-gfx908
logs=$persona/persona_logs
mkdir -p "$logs"
arch_args=()
[ -n "${GPU_ARCH:-}" ] && arch_args=(-DGPU_ARCH="$GPU_ARCH")
status=0
summary=()
note() {
  summary+=("$*")
  echo "persona: $*"
}

build() { # build DIR CMAKE_ARGS...
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DGPU_BACKEND=CUDA -DCMAKE_BUILD_TYPE=Release "${arch_args[@]}" \
    "$@" >"$logs/configure_$(basename "$dir").log" 2>&1 &&
    cmake --build "$dir" -j "$jobs" >"$logs/build_$(basename "$dir").log" 2>&1
}
start=$SECONDS
build "$persona" -DKIT_PERSONA=gfx908 || {
  grep -E "error|FAILED" "$logs"/build_*.log | head -30
  exit 1
}
note "persona build: done in $((SECONDS - start)) s ($("$persona/bin/gpu_info" | head -1))"

if [[ " ${steps[*]} " == *" tests "* ]]; then
  ctest --test-dir "$persona" -L gpu -j "${TEST_JOBS:-4}" --output-on-failure \
    >"$logs/ctest_gpu.log" 2>&1 || status=1
  note "GPU tests under the persona: $(grep -E 'tests passed|tests failed' "$logs/ctest_gpu.log")"
  grep -E "\*\*\*Failed|\*\*\*Timeout|Not Run" "$logs/ctest_gpu.log" | head -20
fi

if [[ " ${steps[*]} " == *" programs "* ]]; then
  start=$SECONDS
  build "$normal" || { grep -E "error|FAILED" "$logs"/build_*.log | head -30; exit 1; }
  cases=$(mktemp -d /tmp/kit-persona.XXXXXX)
  trap 'rm -rf "$cases"' EXIT
  while read -r problem name args; do
    "$normal/bin/gen" "$problem" $args 77 "$cases/$name" >/dev/null || { status=1; continue; }
    for b in normal persona; do
      dir=$normal
      [ $b = persona ] && dir=$persona
      KIT_FORCE_GPU=1 "$dir/bin/$problem" "$cases/$name.in" >"$cases/$name.$b" 2>"$logs/$name.$b.err" ||
        echo "exit $? ($b)" >>"$logs/$name.$b.err"
    done
    if [ "$problem" = softmax ]; then
      "$normal/bin/verify" softmax "$cases/$name.persona" "$cases/$name.normal" >"$logs/$name.cmp" 2>&1 &&
        "$normal/bin/verify" softmax "$cases/$name.persona" "$cases/$name.out" >>"$logs/$name.cmp" 2>&1
    else
      cmp "$cases/$name.persona" "$cases/$name.normal" >"$logs/$name.cmp" 2>&1 &&
        "$normal/bin/verify" exact "$cases/$name.persona" "$cases/$name.out" >>"$logs/$name.cmp" 2>&1
    fi
    if [ $? -eq 0 ]; then
      note "$problem $name: persona output $([ "$problem" = softmax ] && echo "within the grader's rule of" || echo "byte-identical to") the normal build's, and correct"
    else
      note "$problem $name: MISMATCH ($(head -1 "$logs/$name.cmp"))"
      status=1
    fi
    rm -f "$cases/$name".*
  done <<'EOF'
prefix_sum n1e6 small 1000000
prefix_sum n1e7 random 10000000
prefix_sum n1e8 random 100000000
softmax n1e6 random 1000000
softmax n1e7 random 10000000
softmax n1e8 random 100000000
apsp grid_80x80 grid 6400 0
apsp v4000_e70000 random 4000 70000
apsp v10000_e100000 random 10000 100000
apsp complete_2000 complete 2000 0
EOF
  note "programs: $((SECONDS - start)) s"
fi

if [[ " ${steps[*]} " == *" selftest "* ]]; then
  KIT_PERSONA=gfx908 GPU_BACKEND=CUDA BUILD_DIR="$root/$persona" EXPORT=0 JOBS=$jobs \
    bash self_test_and_submit.sbatch >"$logs/self_test.log" 2>&1 || status=1
  note "self-test under the persona: $(grep -E '^FINAL RESULT' "$logs/self_test.log")," \
    "$(grep -E '^Passed cases' "$logs/self_test.log" | tail -1)"
fi

echo
echo "==== MI100 persona summary"
printf '%s\n' "${summary[@]}"
[ $status -eq 0 ] && echo "persona: ALL PASSED" || echo "persona: FAILED"
[ -n "${OUT:-}" ] && cp -r "$logs" "$OUT/persona_logs" 2>/dev/null
exit $status
