#!/usr/bin/env bash
# Register use and spills of every kernel in some HIP sources, from the compiler's resource-usage
# remarks (hipcc -O3 -Rpass-analysis=kernel-resource-usage), one row per kernel. Exits 1 if any
# kernel spills registers or uses scratch memory: in the kit's kernels, which keep their working
# set in registers on purpose, scratch traffic would cost more than the work itself.
#
#   cmake/hip_resource_usage.sh [-a ARCH] [-n SED_SCRIPT] [-c REGEX] SOURCE...
#
# -c REGEX names the kernels that are launched cooperatively (a grid barrier or a wait on other
# blocks, sized by kit::gpu::resident_blocks): the check also fails one whose SGPRs, with the 16
# the trap handler adds, leave fewer waves per SIMD than its VGPRs do. resident_blocks() cannot see
# SGPRs at run time (gpu/amd_occupancy.h), so such a kernel's grid could hold blocks that never
# start. The arithmetic is gfx908's: 8 waves per SIMD as the runtime fills them, 256 VGPRs per
# lane in granules of 4, 800 SGPRs per SIMD in granules of 16 (REGEX matches the demangled name).
#
# SOURCE paths are relative to the repository root and compiled with -I common, -I their own
# folder and -I its parent (a problem's bench/ sources include the problem's headers). ARCH
# defaults to gfx908 (MI100); HIPCC=<compiler> picks another hipcc. Kernel names are
# demangled, then passed through SED_SCRIPT (sed -E) to shorten them. Each problem's
# hip_resource_usage.sh names its sources and its shortening.
#
# BUILD_DIR=<HIP build>: nothing is compiled; the remarks are those the build's own compiles wrote
# (configured with -DKIT_HIP_RESOURCE_USAGE=ON, cmake/hip_resource_remarks.sh), with the build's
# flags and architectures (-a is then ignored). Every SOURCE must have been compiled there.
set -euo pipefail
arch=gfx908
shorten=''
cooperative=''
while getopts "a:n:c:" option; do
  case $option in
  a) arch=$OPTARG ;;
  n) shorten=$OPTARG ;;
  c) cooperative=$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [[ $# -eq 0 ]]; then
  echo "usage: $0 [-a ARCH] [-n SED_SCRIPT] [-c REGEX] SOURCE..." >&2
  exit 2
fi
hipcc="${HIPCC:-hipcc}"
root="$(cd "$(dirname "$0")/.." && pwd)"
remarks="$(mktemp)"
table="$(mktemp)"
trap 'rm -f "$remarks" "$table"' EXIT

if [ -n "${BUILD_DIR:-}" ]; then
  if [ ! -d "$BUILD_DIR" ]; then
    echo "hip_resource_usage: BUILD_DIR=$BUILD_DIR: no such folder" >&2
    exit 2
  fi
  arch=$(sed -n 's/^GPU_ARCH:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")
  # "<source> <record>" for every record the build wrote (CMake names sources by absolute path).
  index=$(find "$BUILD_DIR" -name '*.resource-usage' \
    -exec awk 'FNR == 1 { print substr($0, 9), FILENAME }' {} +)
  root_real=$(realpath "$root")
  for source in "$@"; do
    records=$(awk -v a="$root/$source" -v b="$root_real/$source" '$1 == a || $1 == b { print $2 }' \
      <<<"$index")
    if [ -z "$records" ]; then
      echo "hip_resource_usage: $source: no resource-usage record in $BUILD_DIR (configure it" \
        "with -DKIT_HIP_RESOURCE_USAGE=ON and build it)" >&2
      exit 2
    fi
    while IFS= read -r record; do tail -n +2 "$record" >>"$remarks"; done <<<"$records"
  done
else
  for source in "$@"; do
    # A source in a problem's bench/ or tests/ folder includes the problem's own headers too.
    folder=$(dirname "$source")
    if ! "$hipcc" -std=c++17 -O3 --offload-arch="$arch" -x hip -I "$root/common" \
      -I "$root/$folder" -I "$root/$(dirname "$folder")" -c "$root/$source" -o /dev/null \
      -Rpass-analysis=kernel-resource-usage 2>>"$remarks"; then
      grep -E "error" "$remarks" | head -n 20 >&2
      echo "hip_resource_usage: $source does not compile for $arch" >&2
      exit 2
    fi
  done
fi

# One line per kernel (first occurrence): VGPRs AGPRs SGPRs waves VGPR-spill SGPR-spill scratch
# LDS mangled-name. The exit status says whether any kernel spills.
awk '
  /remark: Function Name:/ { name = $NF == "[-Rpass-analysis=kernel-resource-usage]" ? $(NF-1) : $NF }
  /remark: +VGPRs: /       { vgpr[name] = $(NF-1) }
  /remark: +AGPRs: /       { agpr[name] = $(NF-1) }
  /remark: +SGPRs: /       { sgpr[name] = $(NF-1) }
  /remark: +Occupancy/     { occ[name] = $(NF-1) }
  /remark: +VGPRs Spill:/  { vspill[name] = $(NF-1) }
  /remark: +SGPRs Spill:/  { sspill[name] = $(NF-1) }
  /remark: +LDS Size/      { lds[name] = $(NF-1) }
  /remark: +ScratchSize/   { scratch[name] = $(NF-1); order[++count] = name }
  END {
    spills = 0
    for (i = 1; i <= count; ++i) {
      k = order[i]
      if (k in seen) continue
      seen[k] = 1
      printf "%s %s %s %s %s %s %s %s %s\n", vgpr[k], agpr[k] == "" ? "-" : agpr[k], sgpr[k],
             occ[k], vspill[k], sspill[k], scratch[k], lds[k], k
      spills += vspill[k] + sspill[k] + scratch[k]
    }
    if (count == 0) exit 2
    exit spills > 0
  }' "$remarks" >"$table" && status=0 || status=$?
if [[ $status -eq 2 ]]; then
  echo "FAIL: no resource-usage remarks (did the compile fail?)"
  exit 1
fi

echo "$arch resource usage (LDS: static shared memory only; dynamic shared memory comes on top)"
format='%-6s %-6s %-6s %-10s %-9s %-9s %-8s %-6s %s\n'
printf "$format" VGPRs AGPRs SGPRs waves/SIMD VGPRspill SGPRspill scratch LDS kernel
sgpr_bound=()
cooperative_count=0
while read -r vgpr agpr sgpr waves vspill sspill scratch lds name; do
  demangled="$(echo "$name" | c++filt)"
  short="$(echo "$demangled" | sed -E 's/\(anonymous namespace\):://g; s/^void //;
    s/\([^()]*\)$//' | sed -E "$shorten")"
  printf "$format" "$vgpr" "$agpr" "$sgpr" "$waves" "$vspill" "$sspill" "$scratch" "$lds" "$short"
  if [[ -n $cooperative ]] && grep -qE "$cooperative" <<<"$demangled"; then
    cooperative_count=$((cooperative_count + 1))
    by_vgprs=$((vgpr > 0 ? 256 / ((vgpr + 3) / 4 * 4) : 8))
    by_sgprs=$((800 / ((sgpr + 16 + 15) / 16 * 16)))
    ((by_vgprs > 8)) && by_vgprs=8
    if ((by_sgprs < by_vgprs)); then
      why="$sgpr SGPRs + 16 for the trap handler leave $by_sgprs waves per SIMD"
      sgpr_bound+=("$short: $why, its $vgpr VGPRs $by_vgprs")
    fi
  fi
done <"$table"
if [[ $status -ne 0 ]]; then
  echo "FAIL: register spills or scratch use"
  exit 1
fi
echo "no spills"
if [[ ${#sgpr_bound[@]} -gt 0 ]]; then
  echo "FAIL: cooperative kernels whose SGPRs bound their residency below what resident_blocks()" \
    "assumes:"
  printf '  %s\n' "${sgpr_bound[@]}"
  exit 1
fi
if [[ -n $cooperative ]]; then
  if [[ $cooperative_count -eq 0 ]]; then
    echo "FAIL: -c '$cooperative' names none of these kernels (renamed?)"
    exit 1
  fi
  echo "$cooperative_count cooperative kernels, none bound by its SGPRs"
fi
