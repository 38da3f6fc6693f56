#!/usr/bin/env bash
# The scaffold end to end (a stage of .ci/test_all.sh): in a scratch copy of the repository's
# files, tools/new_problem.py creates one LeetGPU and one contest problem; the copy is configured
# for the CPU backend and only what their tests need is built; then
#   - the tests that reach the stubs fail, and only for that reason: basics_harness_test (each of
#     its failures names basics/<leetgpu>/reference.cpp, so no other problem and no other harness
#     check broke), basics_gen_<leetgpu>, <contest>_reference_test and
#     <contest>_accepts_hand_checked each print "not implemented: ..." for their stub;
#   - every other test of the new problems passes (the contest program's usage and bad inputs);
#   - the generated C++ is clang-formatted already (where clang-format is installed), and every
#     repository path its comments and Markdown name exists (.ci/check_paths.py, as if committed);
#   - a signature the harness cannot bind is refused with one line and exit 2, writing nothing.
# The copy is deleted at the end. About 75 s of CPU time, most of it compiling the LeetGPU harness
# (every problem's reference.cpp).
#   bash .ci/check_scaffold.sh       (JOBS=N to set the build's parallelism; KEEP=1 keeps the copy)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
jobs=${JOBS:-$(nproc)}
leetgpu=scaffold_check_leetgpu
contest=scaffold_check_contest
# The copy lives in the repository's build/ (git-ignored) and builds in build/cpu as the CPU preset
# does: the same sources at the same relative paths, so that a compiler cache whose base_dir is the
# repository (.ci/test_all.sh) finds what the CPU stage compiled.
mkdir -p build || exit 2
scratch=$(mktemp -d "$PWD/build/kit-scaffold.XXXXXX") || exit 2
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$scratch"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# The repository's files as a clone has them (plus any not yet committed, ignored ones excepted),
# in $scratch/kit; the logs in $scratch/logs.
mkdir -p "$scratch/kit" "$scratch/logs" || exit 2
git ls-files -z --cached --others --exclude-standard |
  tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$scratch/kit" ||
  { echo "FAIL: cannot copy the repository to $scratch/kit"; exit 1; }
cd "$scratch/kit" || exit 2
logs=$scratch/logs

# A signature the harness cannot bind: one line on stderr, exit 2, nothing written.
python3 tools/new_problem.py leetgpu refused --signature "const double* x, double* y, int N" \
  >"$logs/refused.out" 2>"$logs/refused.err"
rc=$?
if [ "$rc" -ne 2 ] || [ "$(wc -l <"$logs/refused.err")" -ne 1 ] || [ -s "$logs/refused.out" ] ||
  ! grep -q "'const double\* x': solve's parameters are pointers to float" "$logs/refused.err" ||
  [ -e basics/refused ] || grep -q '^refused ' basics/problems.txt; then
  fail "a double* signature: expected exit 2 and one line, got exit $rc: $(cat "$logs/refused.err")"
fi

python3 tools/new_problem.py leetgpu "$leetgpu" \
  --signature "const float* input, float* output, int N" --atol 1e-5 --rtol 1e-5 \
  --challenge "challenges/easy/0_$leetgpu" >/dev/null &&
  python3 tools/new_problem.py contest "$contest" >/dev/null ||
  { echo "FAIL: tools/new_problem.py failed"; exit 1; }
grep -q "^$leetgpu " basics/problems.txt || fail "$leetgpu is not listed in basics/problems.txt"
grep -q "^$contest " contest_problems.txt || fail "$contest is not listed in contest_problems.txt"

if command -v clang-format >/dev/null; then
  generated=$(find "basics/$leetgpu" "$contest" -name '*.h' -o -name '*.cpp' -o -name '*.cu')
  # shellcheck disable=SC2086 # one word per file
  clang-format --dry-run --Werror --style=file $generated 2>"$logs/clang-format.log" ||
    fail "generated C++ is not clang-formatted: $(head -n 3 "$logs/clang-format.log")"
fi
# The paths the generated files name, checked as if they were committed.
{ git init -q && git add -A; } >"$logs/git.log" 2>&1 ||
  { echo "FAIL: git add in the copy"; exit 1; }
python3 .ci/check_paths.py >"$logs/check_paths.log" 2>&1 ||
  fail "generated files name missing paths:" \
    "$(grep -v '^check_paths' "$logs/check_paths.log" | head -n 3)"

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build/cpu "${generator[@]}" -DGPU_BACKEND=CPU >"$logs/configure.log" 2>&1 ||
  { tail -n 20 "$logs/configure.log"; echo "FAIL: configure"; exit 1; }
grep -q "GoogleTest found" "$logs/configure.log" ||
  { echo "FAIL: the host tests need GoogleTest"; exit 1; }
cmake --build build/cpu -j "$jobs" --target basics_harness_test basics_gen basics_compare "$contest" \
  "${contest}_reference_test" >"$logs/build.log" 2>&1 ||
  { tail -n 30 "$logs/build.log"; echo "FAIL: the new problems do not build"; exit 1; }

# The new problems' tests; those expected to fail, each with its stub's message.
declare -A stub_of=(
  [basics_harness_test]="not implemented: basics/$leetgpu/reference.cpp"
  [basics_gen_$leetgpu]="not implemented: basics/$leetgpu/reference.cpp"
  [${contest}_reference_test]="not implemented: $contest/reference.cpp"
  [${contest}_accepts_hand_checked]="not implemented: $contest/reference.cpp"
)
ctest --test-dir build/cpu -R "^(basics_harness_test|basics_gen_$leetgpu|${contest}_.*)\$" \
  >"$logs/ctest.log" 2>&1
ran=$(grep -c ' Test  *#[0-9]*: ' "$logs/ctest.log")
failed=$(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (.*$/\1/p' "$logs/ctest.log" | sort)
expected=$(printf '%s\n' "${!stub_of[@]}" | sort)
[ "$failed" = "$expected" ] ||
  fail "expected exactly these tests to fail: $(echo $expected); failed: $(echo $failed)"
for test in "${!stub_of[@]}"; do
  ctest --test-dir build/cpu -R "^$test\$" --output-on-failure >"$logs/one_$test.log" 2>&1
  grep -qF "${stub_of[$test]}" "$logs/one_$test.log" ||
    fail "$test does not fail with '${stub_of[$test]}': $(tail -n 5 "$logs/one_$test.log")"
done

# Every failure inside the harness test is the new problem's stub: no other problem broke.
build/cpu/bin/basics_harness_test --gtest_output=json:"$logs/harness.json" >/dev/null 2>&1
if ! python3 - "$leetgpu" "$logs/harness.json" <<'EOF'; then
import json, sys
name, path = sys.argv[1], sys.argv[2]
stub = f"not implemented: basics/{name}/reference.cpp"
failures = [(case["name"], f["failure"]) for suite in json.load(open(path))["testsuites"]
            for case in suite["testsuite"] for f in case.get("failures", [])]
others = [(test, (text.splitlines() or [""])[0]) for test, text in failures if stub not in text]
for test, first_line in others:
    print(f"  {test}: {first_line}")
print(f"basics_harness_test: {len(failures)} failures, {len(others)} not the stub's")
sys.exit(0 if failures and not others else 1)
EOF
  fail "basics_harness_test failed for another reason"
fi

if [ "$failures" -eq 0 ]; then
  echo "check_scaffold: PASS: $ran tests of the new problems ran, the ${#stub_of[@]} that reach" \
    "a stub failed with its message, the others passed"
else
  echo "check_scaffold: FAIL ($failures checks)"
fi
[ "$failures" -eq 0 ]
