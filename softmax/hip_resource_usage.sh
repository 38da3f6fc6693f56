#!/usr/bin/env bash
# Register use and spills of every softmax kernel on AMD (default gfx908, MI100), from the
# compiler's resource-usage remarks on kernel_engine.cu (all kernels of softmax_gpu::Engine).
# Exits 1 if any kernel spills: the resident and on-chip kernels exist to keep their data in
# registers, and scratch memory would turn that into extra memory traffic.
#
#   softmax/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
arch="${1:-gfx908}"
hipcc="${HIPCC:-hipcc}"
root="$(cd "$(dirname "$0")/.." && pwd)"
remarks="$(mktemp)"
trap 'rm -f "$remarks"' EXIT

"$hipcc" -std=c++17 -O3 --offload-arch="$arch" -x hip -I "$root/common" -I "$root/softmax" \
  -c "$root/softmax/kernel_engine.cu" -o /dev/null -Rpass-analysis=kernel-resource-usage \
  2>>"$remarks"

awk -v arch="$arch" '
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
    printf "%s resource usage (per kernel)\n", arch
    printf "%-6s %-6s %-6s %-10s %-9s %-9s %-14s %s\n", "VGPRs", "AGPRs", "SGPRs", "waves/SIMD",
           "VGPRspill", "SGPRspill", "scratch B/lane", "kernel"
    spills = 0
    for (i = 1; i <= count; ++i) {
      k = order[i]
      if (k in seen) continue
      seen[k] = 1
      short = k
      if (match(k, /[0-9]+[a-z_]+_kernel/)) short = substr(k, RSTART, RLENGTH)
      sub(/^[0-9]+/, "", short)
      tag[1] = k ~ /onchip/ ? " (shared first)" : " (backwards)"
      tag[0] = k ~ /onchip/ ? " (registers first)" : " (forward)"
      if (k ~ /ILb1E/) short = short tag[1]
      if (k ~ /ILb0E/) short = short tag[0]
      printf "%-6s %-6s %-6s %-10s %-9s %-9s %-14s %s\n", vgpr[k], agpr[k] == "" ? "-" : agpr[k],
             sgpr[k], occ[k], vspill[k], sspill[k], scratch[k], short
      spills += vspill[k] + sspill[k] + scratch[k]
    }
    if (count == 0) { print "FAIL: no resource-usage remarks (compile failed?)"; exit 1 }
    if (spills > 0) { print "FAIL: register spills or scratch use"; exit 1 }
    print "no spills"
  }' "$remarks"
