#!/usr/bin/env bash
# Register use and spills of every prefix_sum scan kernel on AMD (default gfx908, MI100), from the
# compiler's resource-usage remarks. Exits 1 if any kernel spills (scratch memory in a scan kernel
# would cost more bandwidth than the scan itself).
#
#   prefix_sum/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
arch="${1:-gfx908}"
hipcc="${HIPCC:-hipcc}"
root="$(cd "$(dirname "$0")/.." && pwd)"
remarks="$(mktemp)"
trap 'rm -f "$remarks"' EXIT

# bench.cu instantiates every benchmarked configuration; kernel.cu is what solve() runs.
for source in prefix_sum/kernel.cu prefix_sum/bench.cu; do
  "$hipcc" -std=c++17 -O3 --offload-arch="$arch" -x hip -I "$root/common" -I "$root/prefix_sum" \
    -c "$root/$source" -o /dev/null -Rpass-analysis=kernel-resource-usage 2>>"$remarks"
done

awk -v arch="$arch" '
  /remark: Function Name:/ { name = $NF == "[-Rpass-analysis=kernel-resource-usage]" ? $(NF-1) : $NF }
  /remark: +VGPRs: /       { vgpr[name] = $(NF-1) }
  /remark: +SGPRs: /       { sgpr[name] = $(NF-1) }
  /remark: +Occupancy/     { occ[name] = $(NF-1) }
  /remark: +VGPRs Spill:/  { vspill[name] = $(NF-1) }
  /remark: +SGPRs Spill:/  { sspill[name] = $(NF-1) }
  /remark: +ScratchSize/   { scratch[name] = $(NF-1); order[++count] = name }
  END {
    printf "%s resource usage (per kernel, deduplicated)\n", arch
    printf "%-6s %-6s %-9s %-8s %-8s %-12s %s\n", "VGPRs", "SGPRs", "waves/SIMD", "VGPRspill", "SGPRspill", "scratch B/lane", "kernel"
    spills = 0
    for (i = 1; i <= count; ++i) {
      k = order[i]
      if (k in seen) continue
      seen[k] = 1
      short = k
      if (match(k, /ScanConfigILi[0-9]+ELi[0-9]+ELNS_13LookbackOrderE[01]ELi[0-9]+ELb[01]ELi[0-9]+E/)) {
        split(substr(k, RSTART, RLENGTH), f, /ILi|ELi|ELNS_13LookbackOrderE|ELb|E$/)
        short = sprintf("scan %sx%s %s%s%s%s", f[2], f[3], f[4] == "0" ? "relaxed" : "rel/acq",
                        f[5] == "0" ? "" : " pf" f[5], f[6] == "1" ? " lbw" : "",
                        f[7] == "1" ? "" : " min" f[7])
        if (k ~ /NS_3MaxE/) short = short " (max)"
      }
      printf "%-6s %-6s %-9s %-8s %-8s %-12s %s\n", vgpr[k], sgpr[k], occ[k], vspill[k], sspill[k], scratch[k], short
      spills += vspill[k] + sspill[k] + scratch[k]
    }
    if (spills > 0) { print "FAIL: register spills or scratch use"; exit 1 }
    print "no spills"
  }' "$remarks"
