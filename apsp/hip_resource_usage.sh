#!/usr/bin/env bash
# Register use and spills of every apsp kernel on AMD (default gfx908, MI100), from the compiler's
# resource-usage remarks. Exits 1 if any kernel spills: scratch traffic in the min-plus inner loop
# would cost more than the arithmetic.
#
#   apsp/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
arch="${1:-gfx908}"
hipcc="${HIPCC:-hipcc}"
root="$(cd "$(dirname "$0")/.." && pwd)"
remarks="$(mktemp)"
trap 'rm -f "$remarks"' EXIT

for source in apsp/kernel_dense.cu apsp/kernel_sparse.cu apsp/bench.cu; do
  "$hipcc" -std=c++17 -O3 --offload-arch="$arch" -x hip -I "$root/common" -I "$root/apsp" \
    -c "$root/$source" -o /dev/null -Rpass-analysis=kernel-resource-usage 2>>"$remarks"
done

awk '
  /remark: Function Name:/ { name = $NF == "[-Rpass-analysis=kernel-resource-usage]" ? $(NF-1) : $NF }
  /remark: +VGPRs: /       { vgpr[name] = $(NF-1) }
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
      printf "%s %s %s %s %s %s %s %s\n", vgpr[k], sgpr[k], occ[k], vspill[k], sspill[k], scratch[k], lds[k], k
      spills += vspill[k] + sspill[k] + scratch[k]
    }
    exit spills > 0
  }' "$remarks" >"$remarks.table" && rc=0 || rc=$?

echo "$arch resource usage (static LDS only; dynamic shared memory comes on top)"
printf '%-6s %-6s %-10s %-9s %-9s %-8s %-6s %s\n' VGPRs SGPRs waves/SIMD VGPRspill SGPRspill scratch LDS \
  kernel
while read -r v s o vs ss sc l name; do
  short="$(echo "$name" | c++filt | sed -E 's/\(anonymous namespace\):://g; s/apsp:://g; s/^void //;
    s/\([^()]*\)$//; s/\(MinPlusForm\)0/add_min/; s/\(MinPlusForm\)1/paired_min3/;
    s/\(MinPlusForm\)2/separate/')"
  printf '%-6s %-6s %-10s %-9s %-9s %-8s %-6s %s\n' "$v" "$s" "$o" "$vs" "$ss" "$sc" "$l" "$short"
done <"$remarks.table"
rm -f "$remarks.table"
if [ "$rc" -ne 0 ]; then
  echo "FAIL: register spills or scratch use"
  exit 1
fi
echo "no spills"
