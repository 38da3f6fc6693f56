// categorical_cross_entropy_loss: loss[0] = the mean over N rows of logsumexp(logits[r]) -
// logits[r][true_labels[r]], logits N x C row-major (LeetGPU signature, device pointers;
// tolerance 1e-5 absolute and relative).
//
// Memory-bound: 4 bytes read per logit (and one label per row); one float written. One launch:
//  - a WARP owns a row: its logits are loaded into registers as one row slice of
//    primitives/rows.h (16-byte loads when C % 4 == 0 and the pointer is aligned, up to 8 * 4 *
//    warp columns per slice: the judge's C = 1000 is one slice of 32 values per lane), rows
//    wider than a slice are taken in slices;
//  - numerically stable: each slice's maximum (kit::warp_max) raises the warp's running maximum
//    m, the lanes' running sums of exp(x - m) are rescaled by exp(m_old - m), and the row's loss
//    is m + log(sum) - x[label], so no exp overflows whatever the logits. The exponentials use
//    the hardware exp2 (kit::gpu_exp2_flush: 2 ulp; terms below 2^-126 of the largest are
//    dropped, which no float sum of them could see);
//  - the logit at the label is picked from the registers by the lane that holds it;
//  - warps stride over the rows of a grid of at most the resident blocks; each warp adds its
//    rows' losses in double, each block its warps', and the last block to finish adds the block
//    sums in block order (kit::grid_reduce_last_block, deterministic) and writes the mean. There
//    is one launch and nothing to clear: the loss is written, never accumulated into.
#include "collectives/warp.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/math.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"
#include "primitives/rows.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace {

namespace rows = kit::rows;

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;
constexpr float kLog2e = 1.4426950408889634f;

__device__ double g_block_sums[kMaxBlocks];
__device__ unsigned int g_arrivals;

template <int kVec, bool kVector>
__global__ void __launch_bounds__(kThreads)
    cross_entropy(const float *__restrict__ logits, const int *__restrict__ labels,
                  float *__restrict__ loss, int N, int C) {
  constexpr int kWarpsPerBlock = kThreads / KIT_WARP_SIZE;
  using Slice = rows::Slice<KIT_WARP_SIZE, kVec, kVector>;
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  const int lane = kit::lane_id();
  const long long stride = static_cast<long long>(gridDim.x) * kWarpsPerBlock;

  double warp_loss = 0.0; // the same in every lane of the warp
  for (long long row = static_cast<long long>(blockIdx.x) * kWarpsPerBlock + kit::warp_id();
       row < N; row += stride) {
    const float *z = logits + static_cast<std::size_t>(row) * C;
    const int label = labels[row];
    float m = -INFINITY; // running maximum, uniform across the warp
    float sum = 0.0f;    // this lane's sum of exp(x - m)
    float target = 0.0f; // the logit at the label, in the lane that holds it
    for (int begin = 0; begin < C; begin += Slice::kCapacity) {
      Slice x;
      x.load(z + begin, C - begin, lane, -INFINITY);
      float slice_max = -INFINITY;
      x.for_each(lane, [&](float v, int) { slice_max = fmaxf(slice_max, v); });
      const float new_m = fmaxf(m, kit::warp_max(slice_max));
      // Differences first, then the scale: the terms that matter (x near the maximum) keep their
      // accuracy even for logits in the thousands.
      sum *= kit::gpu_exp2_flush((m - new_m) * kLog2e); // 0 on the first slice (m = -inf)
      x.for_each(lane, [&](float v, int c) {
        sum += kit::gpu_exp2_flush((v - new_m) * kLog2e); // -inf past C: adds 0
        target = begin + c == label ? v : target;
      });
      m = new_m;
    }
    const float total = kit::warp_reduce(sum, kit::Plus());
    const float picked = kit::warp_reduce(target, kit::Plus()); // one lane holds it, the rest 0
    warp_loss += static_cast<double>(m) + static_cast<double>(logf(total)) - picked;
  }
  // Lane 0 of each warp contributes its warp's sum once.
  const double block_loss =
      kit::block_reduce<kThreads>(lane == 0 ? warp_loss : 0.0, kit::Plus(), 0.0, scratch);
  double total;
  if (kit::grid_reduce_last_block<kThreads>(block_loss, kit::Plus(), 0.0, g_block_sums, &g_arrivals,
                                            total, scratch) &&
      threadIdx.x == 0)
    *loss = static_cast<float>(total / N);
}

template <int kVec, bool kVector>
void launch(const float *logits, const int *labels, float *loss, int N, int C, int warp) {
  const auto kernel = cross_entropy<kVec, kVector>;
  static const int resident = kit::gpu::resident_blocks(kernel, kThreads);
  const int rows_per_block = kThreads / warp;
  const int blocks = std::min({(N + rows_per_block - 1) / rows_per_block, resident, kMaxBlocks});
  kernel<<<blocks, kThreads>>>(logits, labels, loss, N, C);
  GPU_CHECK_LAUNCH("cross_entropy");
}

template <bool kVector>
void dispatch(const float *logits, const int *labels, float *loss, int N, int C, int warp) {
  switch (rows::vec_for(C, warp, {1, 2, 4})) {
  case 1:
    return launch<1, kVector>(logits, labels, loss, N, C, warp);
  case 2:
    return launch<2, kVector>(logits, labels, loss, N, C, warp);
  case 4:
    return launch<4, kVector>(logits, labels, loss, N, C, warp);
  default: // 8 * 4 * warp columns per slice, as many slices as the row needs
    return launch<8, kVector>(logits, labels, loss, N, C, warp);
  }
}

} // namespace

extern "C" void solve(const float *logits, const int *true_labels, float *loss, int N, int C) {
  if (N <= 0 || C <= 0)
    return;
  static const int warp = kit::gpu::device_warp_size();
  if (C % 4 == 0 && rows::aligned16(logits))
    dispatch<true>(logits, true_labels, loss, N, C, warp);
  else
    dispatch<false>(logits, true_labels, loss, N, C, warp);
}
