#!/usr/bin/env bash
# Register use and spills of every softmax kernel on AMD (default gfx908, MI100), compiled from
# kernel_engine.cu (all kernels of softmax_gpu::Engine). Exits 1 if any kernel spills: the
# resident and on-chip kernels exist to keep their data in registers, and scratch memory would
# turn that into extra memory traffic.
#
#   softmax/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec "$root/cmake/hip_resource_usage.sh" -a "${1:-gfx908}" \
  -n 's/softmax_gpu::detail:://;
      s/onchip_kernel<([0-9]+), ([0-9]+), true, false>/onchip_kernel \1x\2 (shared first)/;
      s/onchip_kernel<([0-9]+), ([0-9]+), false, false>/onchip_kernel \1x\2 (registers first)/;
      s/onchip_kernel<([0-9]+), ([0-9]+), true, true>/onchip_kernel \1x\2 (shared first, pass 2 shared first)/;
      s/onchip_kernel<([0-9]+), ([0-9]+), false, true>/onchip_kernel \1x\2 (registers first, pass 2 shared first)/;
      s/normalize_kernel<true>/normalize_kernel (backwards)/;
      s/normalize_kernel<false>/normalize_kernel (forward)/' \
  softmax/kernel_engine.cu
