#!/usr/bin/env bash
# Register use and spills of every softmax kernel on AMD (default gfx908, MI100): the production
# kernels (kernel_engine.cu) and the variants that the benchmark and the GPU tests build
# (bench/variants.cu). Exits 1 if any kernel spills: the resident and on-chip kernels exist to
# keep their data in registers, and scratch memory would turn that into extra memory traffic.
#
#   softmax/tests/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cooperative='softmax::detail::(onchip|resident)_kernel<' # the cooperative launches (-c)
exec "$root/cmake/hip_resource_usage.sh" -a "${1:-gfx908}" -c "$cooperative" \
  -n 's/softmax::detail:://g; s/softmax:://g;
      s/onchip_kernel<OnChipShape<([0-9]+), ([0-9]+), ([0-9]+)>, \(CopyPath\)0>/onchip_kernel \1x\2 (production)/;
      s/onchip_kernel<OnChipShape<([0-9]+), ([0-9]+), ([0-9]+)>, \(CopyPath\)1>/onchip_kernel \1x\2 (per-thread copies)/;
      s/\(float const\*.*$//' \
  softmax/kernel_engine.cu softmax/bench/variants.cu
