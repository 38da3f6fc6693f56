#!/usr/bin/env bash
# cmake/hip_resource_remarks.sh and the BUILD_DIR mode of cmake/hip_resource_usage.sh, with a
# stand-in compiler that prints what clang prints: a remark block (its include stack, the first
# remark's source line and caret) between two warnings, each with its own include stack. The
# remarks must land in <object>.resource-usage and nothing else of them on stderr; the warnings
# must pass through whole; the compiler's exit status must be kept; the spill check must read the
# record, pass a kernel without spills and fail one with them, and fail a cooperative kernel (-c)
# whose SGPRs, with the trap handler's 16, leave fewer waves per SIMD than its VGPRs.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
checks=0 failures=0
check() { # check WHAT CONDITION...
  local what=$1
  shift
  checks=$((checks + 1))
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}

remark() { # remark LOCATION TEXT: one resource-usage remark line
  echo "$1: remark: $2 [-Rpass-analysis=kernel-resource-usage]"
}
kernel_block() { # kernel_block MANGLED VGPR_SPILL [SGPRS]
  local at=/src/common/primitives/elementwise.h:118:1
  remark "$at" "Function Name: $1"
  if [ "$1" = _Z5firstPf ]; then
    echo "    unary_vec4(const T *__restrict__ in, T *__restrict__ out) {"
    echo "^"
  fi
  remark "$at" "    SGPRs: ${3:-14}"
  remark "$at" "    VGPRs: 8"
  remark "$at" "    AGPRs: 0"
  remark "$at" "    ScratchSize [bytes/lane]: 0"
  remark "$at" "    Occupancy [waves/SIMD]: 10"
  remark "$at" "    SGPRs Spill: 0"
  remark "$at" "    VGPRs Spill: $2"
  remark "$at" "    LDS Size [bytes/block]: 0"
}

# The stand-in compiler: prints $FAKE_MESSAGES on stderr and exits with $FAKE_STATUS.
cat >"$work/compiler" <<'EOF'
#!/usr/bin/env bash
cat "$FAKE_MESSAGES" >&2
exit "$FAKE_STATUS"
EOF
chmod +x "$work/compiler"
{
  echo "In file included from /src/basics/relu/kernel.cu:3:"
  echo "/src/common/gpu/vendor.h:10:5: warning: first warning [-Wunused-variable]"
  echo "    int unused;"
  echo "        ^"
  echo "In file included from /src/basics/relu/kernel.cu:8:"
  echo "In file included from /src/common/primitives/elementwise.h:4:"
  kernel_block _Z5firstPf 0
  kernel_block _Z6secondPf 0
  echo "/src/basics/relu/kernel.cu:20:1: warning: second warning [-Wextra-semi]"
  echo "};"
  echo "^"
  echo "2 warnings generated."
} >"$work/messages"
cat >"$work/expected_stderr" <<'EOF'
In file included from /src/basics/relu/kernel.cu:3:
/src/common/gpu/vendor.h:10:5: warning: first warning [-Wunused-variable]
    int unused;
        ^
/src/basics/relu/kernel.cu:20:1: warning: second warning [-Wextra-semi]
};
^
2 warnings generated.
EOF

mkdir -p "$work/build/basics/CMakeFiles/relu.dir"
object=$work/build/basics/CMakeFiles/relu.dir/kernel.cu.o
FAKE_MESSAGES=$work/messages FAKE_STATUS=0 bash "$root/cmake/hip_resource_remarks.sh" \
  "$work/compiler" -O3 -o "$object" -x hip -c "$root/basics/relu/kernel.cu" 2>"$work/stderr"
status=$?
check "the compiler's exit status 0 is kept" [ "$status" -eq 0 ]
check "the record names its source first" \
  [ "$(head -n 1 "$object.resource-usage")" = "source: $root/basics/relu/kernel.cu" ]
check "the record holds the 18 remark lines" \
  [ "$(grep -c 'kernel-resource-usage' "$object.resource-usage")" -eq 18 ]
check "stderr keeps both warnings whole and nothing of the remarks" \
  diff "$work/expected_stderr" "$work/stderr"

FAKE_MESSAGES=$work/messages FAKE_STATUS=1 bash "$root/cmake/hip_resource_remarks.sh" \
  "$work/compiler" -o "$object" -c "$root/basics/relu/kernel.cu" 2>/dev/null
status=$?
check "the compiler's exit status 1 is kept" [ "$status" -eq 1 ]

# The spill check on the record (the build's cache gives the architecture).
echo "GPU_ARCH:STRING=gfx908" >"$work/build/CMakeCache.txt"
FAKE_MESSAGES=$work/messages FAKE_STATUS=0 bash "$root/cmake/hip_resource_remarks.sh" \
  "$work/compiler" -o "$object" -c "$root/basics/relu/kernel.cu" 2>/dev/null
BUILD_DIR=$work/build bash "$root/cmake/hip_resource_usage.sh" basics/relu/kernel.cu \
  >"$work/table" 2>&1
status=$?
check "no spills: the check passes and lists both kernels" \
  eval '[ $status -eq 0 ] && grep -q "^8 .* first$" "$work/table" &&
    grep -q " second$" "$work/table"'
{ kernel_block _Z5firstPf 0; kernel_block _Z6secondPf 4; } >"$work/messages"
FAKE_MESSAGES=$work/messages FAKE_STATUS=0 bash "$root/cmake/hip_resource_remarks.sh" \
  "$work/compiler" -o "$object" -c "$root/basics/relu/kernel.cu" 2>/dev/null
BUILD_DIR=$work/build bash "$root/cmake/hip_resource_usage.sh" basics/relu/kernel.cu \
  >"$work/table" 2>&1
status=$?
check "a spilling kernel fails the check" eval '[ $status -eq 1 ] && grep -q "^FAIL" "$work/table"'
# Cooperative kernels: 14 SGPRs (30 with the trap handler's: 32 allocated, 25 waves, capped at 8)
# pass beside 8 VGPRs (8 waves); 102 SGPRs (128 allocated: 6 waves) fail.
{ kernel_block _Z5firstPf 0 14; kernel_block _Z6secondPf 0 102; } >"$work/messages"
FAKE_MESSAGES=$work/messages FAKE_STATUS=0 bash "$root/cmake/hip_resource_remarks.sh" \
  "$work/compiler" -o "$object" -c "$root/basics/relu/kernel.cu" 2>/dev/null
BUILD_DIR=$work/build bash "$root/cmake/hip_resource_usage.sh" -c '^first' \
  basics/relu/kernel.cu >"$work/table" 2>&1
status=$?
check "a cooperative kernel whose SGPRs leave its waves passes" \
  eval '[ $status -eq 0 ] && grep -q "1 cooperative kernels, none bound by its SGPRs" "$work/table"'
BUILD_DIR=$work/build bash "$root/cmake/hip_resource_usage.sh" -c 'first|second' \
  basics/relu/kernel.cu >"$work/table" 2>&1
status=$?
check "a cooperative kernel bound by its SGPRs fails, named with its numbers" \
  eval '[ $status -eq 1 ] && ! grep -q "  first:" "$work/table" &&
    grep -q "second: 102 SGPRs + 16 for the trap handler leave 6 waves per SIMD, its 8 VGPRs 8" \
      "$work/table"'
BUILD_DIR=$work/build bash "$root/cmake/hip_resource_usage.sh" basics/sigmoid/kernel.cu \
  >"$work/table" 2>&1
status=$?
check "a source the build did not record fails with the reason" \
  eval '[ $status -eq 2 ] && grep -q "sigmoid/kernel.cu: no resource-usage record" "$work/table"'

echo "$((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
