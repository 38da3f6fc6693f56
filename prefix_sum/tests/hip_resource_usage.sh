#!/usr/bin/env bash
# Register use and spills of every prefix_sum scan kernel on AMD (default gfx908, MI100); exits 1
# if any kernel spills (scratch memory in a scan kernel would cost more bandwidth than the scan).
# solve_gpu.cu instantiates what solve() runs (the gfx908 tuning); bench/bench.cu every
# configuration of bench/scan_configs.h. Shortened names: "scan <data threads>x<items> <tile order> [min<hint>]".
#
#   prefix_sum/tests/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
scan='kit::decoupled_lookback_scan_kernel<kit::ScanConfig<([0-9]+), ([0-9]+), ([0-9]+), \(kit::TileOrder\)([01])>, int, kit::(Plus|Max)>'
cooperative='kit::decoupled_lookback_scan_kernel<' # the cooperative launches (-c)
exec "$root/cmake/hip_resource_usage.sh" -a "${1:-gfx908}" -c "$cooperative" \
  -n "s/$scan/scan \1x\2 order\4 min\3 \5/; s/ order0/ ticket/; s/ order1/ coop/; s/ min1 / /;
      s/ Plus$//; s/ Max$/ (max)/; s/prefix_sum:://" \
  prefix_sum/solve_gpu.cu prefix_sum/bench/bench.cu
