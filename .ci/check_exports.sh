#!/usr/bin/env bash
# Builds the exported submission the way it will be used:
#   - every contest folder (hip_programming_contest/<problem>/) with its own Makefile and Debian's
#     hipcc: `make OFFLOAD_ARCH=gfx908 HIPFLAGS=<Debian's ROCm paths>`, after `make clean`, like
#     the grader; the program must then print its usage line, and run every committed case of its
#     problem: on this GPU-less machine a case must either pass `verify` (answered on the CPU by
#     the small-input path) or stop with the GPU runtime's error (exit 3, nothing on stdout);
#   - every LeetGPU file (leetgpu/<name>.cu) on its own with `nvcc -c` (sm_90 and sm_100), without
#     a warning (what a user pastes should compile as cleanly as the tree);
#   - every LeetGPU file holds only what a CUDA judge compiles: the exporter resolved its backend
#     branches with unifdef, so no word starting with "hip" (HIP, hipcc, __HIPCC__; "chip" is
#     fine) and no "persona" may remain, in code or comments;
#   - the LeetGPU files' size, printed as a table (lines; lines of code; the kernel.cu's
#     non-blank lines; the lines of the inlined primitives; the bound) with the total. The limit:
#       every file at most 3 x (its kernel.cu's non-blank lines + the lines of the primitives it
#       inlines). Primitives are the project headers outside the vendor layer (common/gpu/):
#       collectives, passes, scans, tiles, counted as they stand in the export (after the backend
#       pass and the pruning of unused declarations), their begin/end lines included. So the vendor
#       layer and the banner may take at most twice what the solution's own code and primitives
#       take: an export that carries the library rather than what its kernel calls fails;
#   - the judge-mirroring GPU tests of EXPORT_TESTS (default vector_add; "" for none) built from
#     the exported files (basics/tests/test_exports.sh): they must build, and SKIP without a GPU;
#   - the exporter's fixture program through the same Makefile and hipcc, built and run, so the
#     Makefile path is exercised even before any contest kernel exists.
# The export comes from a CPU-backend configure (build/ci-export, where only `verify` is built)
# into a temporary folder, with the backend pass required (--backend-pass on: needs unifdef).
# Usage: bash .ci/check_exports.sh   (OFFLOAD_ARCH, NVCC_ARCHS="90 100" to change targets)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OFFLOAD_ARCH=${OFFLOAD_ARCH:-gfx908}
NVCC_ARCHS=${NVCC_ARCHS:-90 100}
KERNEL_LINE_FACTOR=3
VENDOR_DIR=common/gpu/
EXPORT_TESTS=${EXPORT_TESTS-vector_add}
BUILD_DIR=$ROOT/build/ci-export
DEBIAN_BITCODE=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
# Debian's hipcc (ROCm 5.2 under /usr) needs the ROCm root and device libraries spelled out; a
# standard ROCm install needs nothing.
if [ -z "${HIPFLAGS+set}" ] && [ ! -d /opt/rocm ] && [ -d "$DEBIAN_BITCODE" ]; then
  HIPFLAGS="--rocm-path=/usr --hip-device-lib-path=$DEBIAN_BITCODE"
fi
HIPFLAGS=${HIPFLAGS:-}

WORK=$(mktemp -d /tmp/kit-check-exports.XXXXXX) || exit 1
trap 'rm -rf "$WORK"' EXIT
failures=0
checks=0

pass() { echo "PASS $*"; checks=$((checks + 1)); }
failed() { echo "FAIL $*"; checks=$((checks + 1)); failures=$((failures + 1)); }

NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
command -v hipcc >/dev/null || { echo "check_exports: hipcc not found"; exit 1; }
[ -n "$NVCC" ] || { echo "check_exports: nvcc not found"; exit 1; }
command -v python3 >/dev/null || { echo "check_exports: python3 not found"; exit 1; }
command -v unifdef >/dev/null || { echo "check_exports: unifdef not found"; exit 1; }

# build_contest_folder DIR NAME: make clean; make with hipcc, then the binary must run.
build_contest_folder() {
  local dir=$1 name=$2 start=$SECONDS
  # -j: the folders' translation units build in parallel (the grader's plain `make` is serial).
  if ! (cd "$dir" && make clean >/dev/null &&
    make -j "$(nproc)" OFFLOAD_ARCH="$OFFLOAD_ARCH" HIPFLAGS="$HIPFLAGS") \
    >"$dir/make.log" 2>&1; then
    tail -n 25 "$dir/make.log" | sed 's/^/    /'
    failed "$name: make OFFLOAD_ARCH=$OFFLOAD_ARCH failed"
    return 1
  fi
  [ -x "$dir/$name" ] || { failed "$name: make produced no ./$name"; return 1; }
  pass "$name: make OFFLOAD_ARCH=$OFFLOAD_ARCH ($((SECONDS - start)) s)"
}

# ---- the fixture, through the generated Makefile and hipcc ------------------------------------
python3 - "$ROOT" "$WORK/fixture" <<'EOF'
import json, os, shutil, sys
root, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(root, "cmake", "tests"))
import test_export_submission as t
src = os.path.join(work, "src")
shutil.copytree(t.FIXTURE, src)
manifest = {"version": 1, "source_root": src, "backend": "CPU",
            "common_include_dirs": [os.path.join(src, "common")],
            "programs": [t.toy_program(src)]}
with open(os.path.join(work, "manifest.json"), "w") as f:
    json.dump(manifest, f)
EOF
if python3 cmake/export_submission.py --manifest "$WORK/fixture/manifest.json" \
  --out "$WORK/fixture/out" >/dev/null; then
  toy="$WORK/fixture/out/hip_programming_contest/toy"
  if build_contest_folder "$toy" toy; then
    got=$("$toy/toy")
    [ "$got" = "main: value=15" ] && pass "fixture: ./toy prints main: value=15" ||
      failed "fixture: ./toy printed '$got', expected main: value=15"
  fi
else
  failed "fixture: export failed"
fi

# ---- the kit's own export ---------------------------------------------------------------------
if ! cmake -S "$ROOT" -B "$BUILD_DIR" -DGPU_BACKEND=CPU >"$WORK/configure.log" 2>&1; then
  tail -n 20 "$WORK/configure.log"
  echo "check_exports: configure failed"
  exit 1
fi
if ! cmake --build "$BUILD_DIR" --target verify >"$WORK/verify_build.log" 2>&1; then
  tail -n 20 "$WORK/verify_build.log"
  echo "check_exports: building verify failed"
  exit 1
fi
VERIFY=$BUILD_DIR/bin/verify
if ! python3 cmake/export_submission.py --manifest "$BUILD_DIR/kit_programs.json" \
  --out "$WORK/export" --backend-pass on | tee "$WORK/export.log"; then
  echo "check_exports: the export failed"
  exit 1
fi

# run_committed_cases DIR NAME: the exported binary on testcases/NAME (see the header).
run_committed_cases() {
  local dir=$1 name=$2 mode=exact passed=0 need_gpu=0 wrong=0 input expected rc
  [ "$name" = softmax ] && mode=softmax
  for input in "$ROOT/testcases/$name"/*.in; do
    [ -f "$input" ] || continue
    expected=${input%.in}.out
    timeout 120 "$dir/$name" "$input" >"$WORK/case.out" 2>"$WORK/case.err"
    rc=$?
    if [ "$rc" -eq 0 ] && "$VERIFY" "$mode" "$WORK/case.out" "$expected" >"$WORK/case.verify" 2>&1
    then
      passed=$((passed + 1))
    elif [ "$rc" -eq 3 ] && [ ! -s "$WORK/case.out" ] && grep -q '^HIP error' "$WORK/case.err"; then
      need_gpu=$((need_gpu + 1))
    else
      wrong=$((wrong + 1))
      echo "    $(basename "$input"): exit $rc; $(head -n 1 "$WORK/case.err" "$WORK/case.verify" \
        2>/dev/null | grep -v '^==>' | head -n 2 | tr '\n' ' ')"
    fi
  done
  if [ "$wrong" -eq 0 ]; then
    pass "$name: committed cases: $passed pass on the CPU path, $need_gpu need a GPU"
  else
    failed "$name: committed cases: $wrong wrong ($passed pass, $need_gpu need a GPU)"
  fi
}

for dir in "$WORK/export/hip_programming_contest"/*/; do
  [ -d "$dir" ] || continue
  name=$(basename "$dir")
  build_contest_folder "${dir%/}" "$name" || continue
  # Usage error, as in the official skeleton: exit 1 and nothing on stdout.
  (cd "$dir" && "./$name" >"$WORK/usage.out" 2>"$WORK/usage.err")
  status=$?
  if [ "$status" -eq 1 ] && [ ! -s "$WORK/usage.out" ] && [ -s "$WORK/usage.err" ]; then
    pass "$name: ./$name without arguments prints its usage and exits 1"
  else
    failed "$name: ./$name without arguments exited $status" \
      "(stdout $(wc -c <"$WORK/usage.out") bytes)"
  fi
  run_committed_cases "${dir%/}" "$name"
done

gencodes=()
for arch in $NVCC_ARCHS; do gencodes+=(-gencode "arch=compute_$arch,code=sm_$arch"); done
# compile_leetgpu FILE: one nvcc -c; its verdict goes to FILE.verdict (runs in parallel).
compile_leetgpu() {
  local file=$1 name start=$SECONDS verdict=$1.verdict
  name=$(basename "$file" .cu)
  if grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file"; then
    echo "FAIL leetgpu/$name.cu: still has a quoted #include" >"$verdict"
  elif "$NVCC" -std=c++17 -c "${gencodes[@]}" "$file" -o "$WORK/$name.o" \
    >"$WORK/$name.log" 2>&1; then
    if grep -q 'warning' "$WORK/$name.log"; then
      echo "FAIL leetgpu/$name.cu: nvcc -c warns" >"$verdict"
      grep -A 2 'warning' "$WORK/$name.log" | head -n 15 | sed 's/^/    /' >>"$verdict"
    else
      echo "PASS leetgpu/$name.cu: nvcc -c, sm_${NVCC_ARCHS// /, sm_} ($((SECONDS - start)) s)" \
        >"$verdict"
    fi
  else
    echo "FAIL leetgpu/$name.cu: nvcc -c failed" >"$verdict"
    tail -n 15 "$WORK/$name.log" | sed 's/^/    /' >>"$verdict"
  fi
}
for file in "$WORK/export/leetgpu"/*.cu; do
  [ -f "$file" ] || continue
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
  compile_leetgpu "$file" &
done
wait
for verdict in "$WORK/export/leetgpu"/*.cu.verdict; do
  [ -f "$verdict" ] || continue
  cat "$verdict"
  checks=$((checks + 1))
  head -n 1 "$verdict" | grep -q '^PASS' || failures=$((failures + 1))
done

# ---- LeetGPU files: nothing of HIP or the persona, and their size (see the header) -----------
python3 - "$ROOT" "$WORK/export/leetgpu" "$KERNEL_LINE_FACTOR" \
  "$VENDOR_DIR" >"$WORK/leetgpu_lines.log" <<'EOF'
import glob, os, re, sys
root, folder, factor, vendor = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
removed_talk = re.compile(r"(?<![a-z])hip|persona", re.IGNORECASE)
begin = re.compile(r"^// ---- begin (.*) \(inlined\) ----$")
end = re.compile(r"^// ---- end (.*) ----$")
mentions, over, rows, total = [], [], [], 0
for path in sorted(glob.glob(os.path.join(folder, "*.cu"))):
    name = os.path.basename(path)[:-3]
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for number, line in enumerate(lines, start=1):
        if removed_talk.search(line):
            mentions.append(f"    {name}.cu:{number}: {line.strip()}")
    # Lines of each inlined header (the innermost one a line lies in, its begin/end lines too).
    headers, primitives = [], 0
    for line in lines:
        opened = begin.match(line)
        if opened:
            headers.append(opened.group(1))
        if headers and not headers[-1].startswith(vendor):
            primitives += 1
        if end.match(line) and headers:
            headers.pop()
    with open(os.path.join(root, "basics", name, "kernel.cu"), encoding="utf-8") as f:
        kernel = sum(1 for line in f if line.strip())
    bound = factor * (kernel + primitives)
    code = sum(1 for line in lines if line.strip() and not line.lstrip().startswith("//"))
    rows.append((name, len(lines), code, kernel, primitives, bound))
    total += len(lines)
    if len(lines) > bound:
        over.append(f"{name} ({len(lines)} > {bound})")
print(f"    {'file':34} {'lines':>6} {'code':>6} {'kernel':>7} {'primitives':>11} {'bound':>6}")
for name, count, code, kernel, primitives, bound in rows:
    flag = "  over" if count > bound else ""
    print(f"    {name + '.cu':34} {count:6} {code:6} {kernel:7} {primitives:11} {bound:6}{flag}")
print(f"    {'total':34} {total:6}")
if mentions:
    print(f"FAIL leetgpu: {len(mentions)} line(s) still speak of HIP or the persona:")
    print("\n".join(mentions[:20]))
else:
    print(f"PASS leetgpu: no file speaks of HIP or the persona ({len(rows)} files)")
if over:
    print(f"FAIL leetgpu: {len(over)} file(s) over their line bound: {', '.join(over)}")
else:
    print(f"PASS leetgpu: every file within its line bound")
EOF
cat "$WORK/leetgpu_lines.log"
if grep -q '^\(PASS\|FAIL\) ' "$WORK/leetgpu_lines.log"; then
  checks=$((checks + $(grep -c '^\(PASS\|FAIL\) ' "$WORK/leetgpu_lines.log")))
  failures=$((failures + $(grep -c '^FAIL ' "$WORK/leetgpu_lines.log")))
else
  failed "leetgpu: the line report failed"
fi

# ---- the basics GPU tests built from the exported files ---------------------------------------
if [ -n "$EXPORT_TESTS" ]; then
  # shellcheck disable=SC2086 # EXPORT_TESTS is a list of problem names
  if BUILD_DIR=$ROOT/build/ci-export-test EXPORT_DIR=$WORK/export \
    bash basics/tests/test_exports.sh $EXPORT_TESTS >"$WORK/export_tests.log" 2>&1; then
    pass "export tests ($EXPORT_TESTS): built from leetgpu/*.cu;" \
      "$(grep -E '^[0-9]+% tests passed' "$WORK/export_tests.log" | tail -n 1)," \
      "$(grep -c '\*\*\*Skipped' "$WORK/export_tests.log") skipped"
  else
    tail -n 30 "$WORK/export_tests.log" | sed 's/^/    /'
    failed "export tests ($EXPORT_TESTS): basics/tests/test_exports.sh failed"
  fi
fi

contest=$(find "$WORK/export/hip_programming_contest" -mindepth 1 -maxdepth 1 -type d 2>/dev/null |
  wc -l)
leetgpu=$(find "$WORK/export/leetgpu" -name '*.cu' 2>/dev/null | wc -l)
echo "check_exports: $contest contest folder(s), $leetgpu LeetGPU file(s);" \
  "$((checks - failures)) of $checks checks passed"
[ "$failures" -eq 0 ]
