#!/usr/bin/env bash
# Register use and spills of every prefix_sum scan kernel on AMD (default gfx908, MI100); exits 1
# if any kernel spills (scratch memory in a scan kernel would cost more bandwidth than the scan).
# bench.cu instantiates every benchmarked configuration; kernel.cu is what solve() runs.
#
#   prefix_sum/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scan='kit::decoupled_lookback_scan_kernel<kit::ScanConfig<([0-9]+), ([0-9]+), \(kit::LookbackOrder\)([01]), ([0-9]+), (true|false), ([0-9]+), \(kit::TileOrder\)([01])>, int, kit::(Plus|Max)>'
exec "$root/cmake/hip_resource_usage.sh" -a "${1:-gfx908}" \
  -n "s/$scan/scan \1x\2 order\3 pf\4 \5 min\6 tiles\7 \8/; s/ order0/ relaxed/; s/ order1/ rel\/acq/;
      s/ pf0 / /; s/ true/ lbw/; s/ false//; s/ min1//; s/ tiles1//; s/ tiles0/ ticket/;
      s/ Plus$//; s/ Max$/ (max)/; s/prefix_sum_check:://" \
  prefix_sum/kernel.cu prefix_sum/bench.cu
