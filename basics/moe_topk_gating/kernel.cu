// moe_topk_gating: for each of the M rows of E logits, the k largest (largest first, equal values
// by ascending column; NaN above everything, as torch.topk orders it) and the softmax of those k
// values (LeetGPU signature, device pointers).
//
// One warp per row (primitives/rows.h: the row held in registers, a row slice of 1 or 2 vectors
// per lane for E <= 256, 16-byte loads when every row is aligned; rows striding over a grid the
// device holds at once). Round j (0 .. k-1): every lane offers its best value not yet taken, a
// warp reduction picks the best of the offers (every lane receives it), the lane that held it
// marks it taken. The weights: e_j = exp(v_j - v_0) (v_0 the largest), their sum accumulated in
// every lane; lane j % warp writes index j and e_j, then divides its own e_j by the sum. No
// inter-block data.
#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/rows.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

namespace rows = kit::rows;

constexpr int kBlock = 256;
static_assert(kBlock % 64 == 0, "block sizes are multiples of 64 (AMD wave64)");

// A logit and its column; the better of two is the larger value (NaN above every number), equal
// values the lower column.
struct Offer {
  float value;
  int column;
};

__device__ __forceinline__ bool better(float v, int c, const Offer &than) {
  const bool nan = v != v, than_nan = than.value != than.value;
  if (nan != than_nan)
    return nan;
  if (!nan && v != than.value)
    return v > than.value;
  return c < than.column;
}

struct BetterOffer {
  __device__ Offer operator()(const Offer &a, const Offer &b) const {
    return better(a.value, a.column, b) ? a : b;
  }
};

template <bool kVector, int kVec>
__global__ void __launch_bounds__(kBlock)
    gate_rows(const float *__restrict__ logits, float *__restrict__ weights,
              int *__restrict__ indices, int M, int E, int k) {
  using Slice = rows::Slice<KIT_WARP_SIZE, kVec, kVector>;
  static_assert(4 * kVec <= 32, "a lane's taken values fit one 32-bit mask");
  constexpr int kRowsPerBlock = kBlock / KIT_WARP_SIZE;
  const int lane = kit::lane_id();
  for (long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + kit::warp_id(); row < M;
       row += static_cast<long long>(gridDim.x) * kRowsPerBlock) {
    Slice x;
    x.load(logits + row * E, E, lane);
    unsigned taken = 0; // bit s: the lane's value s (in for_each order) is taken
    float largest = 0.0f, sum = 0.0f;
    float *row_weights = weights + row * k;
    int *row_indices = indices + row * k;
    for (int j = 0; j < k; ++j) {
      Offer offer{-INFINITY, INT_MAX}; // loses to every real column
      int slot = -1, s = 0;
      x.for_each(lane, [&](float v, int c) {
        if (c < E && !(taken >> s & 1u) && better(v, c, offer)) {
          offer = {v, c};
          slot = s;
        }
        ++s;
      });
      const Offer best = kit::warp_reduce(offer, BetterOffer());
      if (slot >= 0 && best.column == offer.column)
        taken |= 1u << slot;
      if (j == 0)
        largest = best.value;
      const float e = expf(best.value - largest);
      sum += e;
      if (lane == j % KIT_WARP_SIZE) {
        row_weights[j] = e;
        row_indices[j] = best.column;
      }
    }
    // Each lane divides the e_j it wrote (its own earlier stores: no barrier needed).
    for (int j = lane; j < k; j += KIT_WARP_SIZE)
      row_weights[j] = row_weights[j] / sum;
  }
}

} // namespace

extern "C" void solve(const float *logits, float *topk_weights, int *topk_indices, int M, int E,
                      int k) {
  if (M <= 0 || E <= 0 || k <= 0)
    return;
  if (E > 256) { // the challenge's E <= 256: one or two vectors per lane
    std::fprintf(stderr, "moe_topk_gating: E = %d exceeds the kernel's 256 columns\n", E);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  static const int warp = kit::gpu::device_warp_size();
  const bool vector = E % 4 == 0 && rows::aligned16(logits);
  // A warp per row: E <= 256 fits 1 (64 lanes, or 32 lanes up to E = 128) or 2 vectors per lane.
  const auto launch = [&](auto warp_rows, auto vec) {
    constexpr int kVec = decltype(vec)::value;
    if constexpr (decltype(warp_rows)::value && kVec <= 2) {
      if (vector)
        rows::launch_rows<gate_rows<true, kVec>, kBlock, true>("gate_rows", M, warp, logits,
                                                               topk_weights, topk_indices, M, E, k);
      else
        rows::launch_rows<gate_rows<false, kVec>, kBlock, true>(
            "gate_rows", M, warp, logits, topk_weights, topk_indices, M, E, k);
    }
  };
  rows::launch_row_shape<kBlock, 4>(E, warp, launch);
}
