// parallel_merge: C = the M + N floats of the sorted arrays A and B, merged in ascending order
// (LeetGPU signature, device pointers).
//
// Memory-bound: every input read once, every output written once (8 bytes per output). Two
// launches on the merge path of primitives/merge_path.h:
// 1. merge_path::partition: one warp per tile boundary finds how many of the tile's first outputs
//    come from A (a KIT_WARP_SIZE-way search, about 5 dependent loads per lane at the judge's
//    size); the splits (one int per tile) stay in device scratch from call to call.
// 2. merge_tiles: one block per tile of kTile outputs stages its run of A and its run of B in
//    shared memory (16-byte loads when A, B and C are 16-byte aligned, which judge tensors are),
//    each thread finds its kItems outputs' start in shared memory and merges them in registers,
//    and the block stores the tile through shared memory as 16-byte vectors.
// Equal keys: A's first (a stable merge), which is what sorting the concatenation gives; only
// -0.0 against +0.0 can be ordered differently from torch's sort, and they compare equal.
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/merge_path.h"

#include <cstddef>
#include <cstdint>

namespace {

namespace mp = kit::merge_path;

constexpr int kThreads = 256;
// Outputs per thread: odd, so the threads' stores of their outputs into shared memory (stride
// kItems) fall in distinct banks. 256 x 15 = 3840 outputs, 15 KB of shared memory per block.
constexpr int kItems = 15;
constexpr int kTile = kThreads * kItems;

__global__ void __launch_bounds__(kThreads)
    merge_tiles(const float *__restrict__ A, long long m, const float *__restrict__ B, long long n,
                float *__restrict__ C, const int *__restrict__ splits, bool vector_ok) {
  __shared__ mp::BlockStorage<float, kTile> storage;
  mp::merge_block<kThreads, kItems>(A, m, B, n, C, splits, blockIdx.x, vector_ok, storage,
                                    mp::FloatLess());
}

bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N) {
  const long long m = M > 0 ? M : 0, n = N > 0 ? N : 0;
  const long long total = m + n;
  if (total == 0)
    return;
  const long long tiles = (total + kTile - 1) / kTile;
  static kit::gpu::DeviceScratch scratch;
  static const int warp = kit::gpu::device_warp_size();
  int *splits =
      static_cast<int *>(scratch.reserve(static_cast<std::size_t>(tiles + 1) * sizeof(int)));
  mp::partition(A, m, B, n, kTile, tiles, splits, warp, mp::FloatLess());
  GPU_CHECK_LAUNCH("merge_path::partition_kernel");
  const bool vector_ok = aligned16(A) && aligned16(B) && aligned16(C);
  merge_tiles<<<static_cast<unsigned>(tiles), kThreads>>>(A, m, B, n, C, splits, vector_ok);
  GPU_CHECK_LAUNCH("merge_tiles");
}
