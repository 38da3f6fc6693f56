#!/usr/bin/env bash
# Register use and spills of every basics kernel on AMD (default gfx908, MI100), compiled from
# each problem's kernel.cu, or read from a HIP build (BUILD_DIR=, cmake/hip_resource_usage.sh).
# Exits 1 if any kernel spills: each kernel keeps its working set in registers, and scratch memory
# would add memory traffic to passes that are bound by it.
#
#   basics/tests/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
sources=()
for kernel in "$root"/basics/*/kernel.cu; do
  sources+=("basics/$(basename "$(dirname "$kernel")")/kernel.cu")
done
# The instantiations the kernels share (kit::instances): in a build (BUILD_DIR=) the kernels' own
# objects declare them extern.
for instance in "$root"/common/instances/*.cu; do
  sources+=("common/instances/$(basename "$instance")")
done
# The kernels launched cooperatively (-c): the grid barriers of reduction, softmax and
# rms_normalization, the scans' tiles in block order.
cooperative='(^| |::)(sum_floats|softmax_kernel|rms_normalize)\(|kit::lookback::scan_tiles<'
cooperative+='|kit::decoupled_lookback_scan_kernel<'
exec "$root/cmake/hip_resource_usage.sh" -a "${1:-gfx908}" -c "$cooperative" \
  -n 's/kit::(elementwise|count):://; s/matmul::TileShape/TileShape/' "${sources[@]}"
