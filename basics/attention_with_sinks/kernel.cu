// attention_with_sinks (LeetGPU basics): causal attention with sinks and a sliding window in FP32,
// row-major, DEVICE pointers. Q, K, V and output are M x d; query i sees the keys j <= i that are
// sinks (j < num_sinks) or in its causal window (j >= i - window_size + 1):
// output_i = softmax_j(Q_i . K_j / sqrt(d)) V_j over those keys.
//
// The kit's FP32 attention (common/primitives/flash_attention.h) with a single-head layout and a
// score policy of its own, since a sink here is visible only from the queries at or after it
// (the causal rule applies to sinks too, unlike the primitive's Visibility): the visibility rule,
// the key range a run of queries can see ([0, last row] with sinks, else the union of the rows'
// windows) and the per-tile test that skips every key tile between the sinks and the window. At
// the judge's size (M = 5000, d = 128, 4 sinks, window 1024) a block of 32 query rows visits the
// sink tile and the 17 tiles of 64 keys its windows cover, out of up to 79. The scale is torch's
// (the float reciprocal of sqrt(d)). No host synchronisation.
#include "gpu/vendor.h"
#include "primitives/flash_attention.h"

namespace attention_with_sinks {

// Key j is visible from query i when j <= i and (j < sinks or j >= i - (window - 1)).
struct SinksAndCausalWindow {
  float scale = 1.0f;
  int sinks = 0;
  int window = 1; // >= 1: key i is always visible from query i

  __device__ float logit(float dot, int, int) const { return __fmul_rn(dot, scale); }
  __host__ __device__ bool visible(int i, int j) const {
    return j <= i &&
           (j < sinks || static_cast<long long>(j) >= static_cast<long long>(i) - window + 1);
  }
  // The keys [begin, end) that queries first..last (ascending) may see, within [0, keys).
  __host__ __device__ void key_range(int first, int last, int keys, int &begin, int &end) const {
    const long long lo = sinks > 0 ? 0 : static_cast<long long>(first) - window + 1;
    begin = static_cast<int>(lo < 0 ? 0 : lo);
    end = last + 1 < keys ? last + 1 : keys;
    if (end < begin)
      end = begin;
  }
  // Whether any query of first..last sees any key of key_first..key_last: a key at or before the
  // last query that is a sink or lies in the union of the windows, [first - window + 1, last].
  __host__ __device__ bool tile_visible(int first, int last, int key_first, int key_last) const {
    return key_first <= last &&
           (key_first < sinks ||
            static_cast<long long>(key_last) >= static_cast<long long>(first) - window + 1);
  }
};

} // namespace attention_with_sinks

// Q, K, V and output are M x d; all device pointers, row-major.
extern "C" void solve(const float *Q, const float *K, const float *V, float *output, int M, int d,
                      int num_sinks, int window_size) {
  attention_with_sinks::SinksAndCausalWindow scores;
  scores.scale = kit::flash::torch_scale(d);
  scores.sinks = num_sinks;
  scores.window = window_size;
  kit::flash::Shape shape;
  shape.queries = M;
  shape.keys = M;
  shape.dim = d;
  shape.slices = 1;
  kit::flash::attention(shape, kit::flash::single_head(Q, K, V, output, d), scores);
}
