#!/usr/bin/env bash
# Register use and spills of every apsp kernel on AMD (default gfx908, MI100): the production
# kernels (kernel_dense.cu, kernel_sparse.cu) and every tile variant the benchmark instantiates
# (int and float distances). Exits 1 if any kernel spills: scratch traffic in the min-plus inner
# loop would cost more than the arithmetic.
#
#   apsp/tests/hip_resource_usage.sh [gfx-arch]          (HIPCC=<compiler> to pick another hipcc)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
exec "$root/cmake/hip_resource_usage.sh" -a "${1:-gfx908}" \
  -n 's/(apsp|kit::min_plus)::(floyd_warshall_detail::)?//g; s/\(MinPlusForm\)0/add_min/; s/\(MinPlusForm\)1/paired_min3/' \
  apsp/kernel_dense.cu apsp/kernel_sparse.cu apsp/bench/bench.cu
