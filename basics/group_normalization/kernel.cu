// group_normalization: X is N x C x H x W; the C channels form G groups of C / G consecutive
// channels, and each (sample, group) is normalised by the mean and biased variance of its
// (C / G) x H x W values, then scaled and shifted per channel: Y = gamma[c] * (X - mean) /
// sqrt(var + eps) + beta[c] (LeetGPU signature, device pointers; tolerance 1e-4 absolute and
// relative).
//
// Memory-bound. A (sample, group) is one contiguous run of L = (C / G) * H * W floats, a "row" in
// the sense of primitives/rows.h, but far wider than registers hold (L = 65,536 at the judge's
// size, 256 KB): rows.h's slices stop at 4096 columns. So, as layer_normalization's wide kernel
// does, one block owns a group at a time and reads it twice:
//  - statistics: the values shifted by the group's first value (x - pivot), summed in float over
//    each thread's batch of loads and in double across batches, then two block reductions (the
//    normalising pass's first loads already in flight);
//  - per channel of the group, scale = gamma * inv_std and offset = beta + (centre - mean) *
//    scale in shared memory (centre: the mean rounded to float, whose rounding the offset
//    corrects exactly); then Y = fma(X - centre, scale, offset), walking the group from its end
//    back to its start, so that the lines the statistics read last, the likeliest still in L2,
//    are read first.
// One 1024-thread block per multiprocessor, looping over the groups: 4 16-byte loads in flight
// per thread keep a multiprocessor's share of the bandwidth busy, and only one group per
// multiprocessor is between its two reads (33 MB on a 132-multiprocessor GPU, inside the L2),
// where more blocks per multiprocessor would put every group in flight at once (64 MB at the
// judge's size) and the second read would come from DRAM.
// 16-byte loads and stores when H * W % 4 == 0 and X, Y are 16-byte aligned (every group and
// channel then starts on a 16-byte boundary and a vector lies in one channel); 4-byte ones
// otherwise.
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace {

// The largest block every target runs: 1024 threads (960 under the MI100 persona, whose 64-lane
// groups each take one of the 15 named barriers).
constexpr int kThreads = kit::kMaxBlockThreads < 1024 ? kit::kMaxBlockThreads : 1024;
constexpr int kUnroll = 4;            // loads in flight per thread
constexpr int kStagedChannels = 1024; // channels per group whose scale and offset are staged

struct Shape {
  long long groups;     // N * G
  int group_count;      // G
  int channels;         // C / G
  unsigned int spatial; // H * W (values per channel)
  unsigned int length;  // channels * spatial (values per group)
  float eps;
};

template <bool kVector> struct Access;
template <> struct Access<true> {
  using Item = float4;
  static constexpr int kWidth = 4;
  __device__ static float4 splat(float v) { return make_float4(v, v, v, v); }
  __device__ static float sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
  __device__ static float4 minus(float4 v, float p) {
    return make_float4(v.x - p, v.y - p, v.z - p, v.w - p);
  }
  __device__ static float squares(float4 d) {
    return (d.x * d.x + d.y * d.y) + (d.z * d.z + d.w * d.w);
  }
  __device__ static float4 affine(float4 v, float centre, float scale, float offset) {
    return make_float4(fmaf(v.x - centre, scale, offset), fmaf(v.y - centre, scale, offset),
                       fmaf(v.z - centre, scale, offset), fmaf(v.w - centre, scale, offset));
  }
};
template <> struct Access<false> {
  using Item = float;
  static constexpr int kWidth = 1;
  __device__ static float splat(float v) { return v; }
  __device__ static float sum(float v) { return v; }
  __device__ static float minus(float v, float p) { return v - p; }
  __device__ static float squares(float d) { return d * d; }
  __device__ static float affine(float v, float centre, float scale, float offset) {
    return fmaf(v - centre, scale, offset);
  }
};

template <bool kVector>
__global__ void __launch_bounds__(kThreads)
    group_norm(const float *__restrict__ X, const float *__restrict__ gamma,
               const float *__restrict__ beta, float *__restrict__ Y, Shape s) {
  using A = Access<kVector>;
  using Item = typename A::Item;
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  __shared__ float channel_scale[kStagedChannels], channel_offset[kStagedChannels];
  const unsigned int items = s.length / A::kWidth;          // items per group
  const unsigned int channel_items = s.spatial / A::kWidth; // items per channel
  const unsigned int batch = kUnroll * kThreads;
  const unsigned int batches = (items + batch - 1) / batch;
  const bool staged = s.channels <= kStagedChannels;

  for (long long group = blockIdx.x; group < s.groups; group += gridDim.x) {
    const std::size_t base = static_cast<std::size_t>(group) * s.length;
    const Item *in = reinterpret_cast<const Item *>(X + base);
    Item *out = reinterpret_cast<Item *>(Y + base);
    const float pivot = X[base];

    double sum = 0.0, squares = 0.0;
    for (unsigned int first = threadIdx.x; first < items; first += batch) {
      Item v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) { // past the group's end: the pivot, which adds 0
        const unsigned int i = first + u * kThreads;
        v[u] = i < items ? in[i] : A::splat(pivot);
      }
      float batch_sum = 0.0f, batch_squares = 0.0f;
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const Item d = A::minus(v[u], pivot);
        batch_sum += A::sum(d);
        batch_squares += A::squares(d);
      }
      sum += batch_sum;
      squares += batch_squares;
    }
    // The normalising pass's first batch (the group's last) is loaded before the reductions, so
    // the multiprocessor has loads in flight while the block reduces and stages.
    Item v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const unsigned int i = (batches - 1) * batch + threadIdx.x + u * kThreads;
      if (i < items)
        v[u] = in[i];
    }
    sum = kit::block_reduce<kThreads>(sum, kit::Plus(), 0.0, scratch);
    squares = kit::block_reduce<kThreads>(squares, kit::Plus(), 0.0, scratch);
    const double shift = sum / s.length; // mean - pivot
    const double variance = fmax(squares / s.length - shift * shift, 0.0);
    const double mean = static_cast<double>(pivot) + shift;
    const double inv_std = 1.0 / sqrt(variance + s.eps);
    const float centre = static_cast<float>(mean);
    const double correction = static_cast<double>(centre) - mean;
    const int first_channel = static_cast<int>(group % s.group_count) * s.channels;
    const auto scale_of = [&](int k) {
      return static_cast<double>(gamma[first_channel + k]) * inv_std;
    };
    const auto offset_of = [&](int k, double scale) {
      return static_cast<double>(beta[first_channel + k]) + correction * scale;
    };
    if (staged) {
      for (int k = threadIdx.x; k < s.channels; k += kThreads) {
        const double scale = scale_of(k);
        channel_scale[k] = static_cast<float>(scale);
        channel_offset[k] = static_cast<float>(offset_of(k, scale));
      }
      __syncthreads();
    }

    for (unsigned int b = batches; b-- > 0;) {
      if (b + 1 < batches) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
          const unsigned int i = b * batch + threadIdx.x + u * kThreads;
          if (i < items)
            v[u] = in[i];
        }
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const unsigned int i = b * batch + threadIdx.x + u * kThreads;
        if (i < items) {
          const int k = static_cast<int>(i / channel_items);
          float scale, offset;
          if (staged) {
            scale = channel_scale[k];
            offset = channel_offset[k];
          } else {
            const double exact = scale_of(k);
            scale = static_cast<float>(exact);
            offset = static_cast<float>(offset_of(k, exact));
          }
          out[i] = A::affine(v[u], centre, scale, offset);
        }
      }
    }
    __syncthreads(); // the next group's channels overwrite the staged ones
  }
}

} // namespace

extern "C" void solve(const float *X, const float *gamma, const float *beta, float *Y, int N, int C,
                      int H, int W, int G, float eps) {
  if (N <= 0 || C <= 0 || H <= 0 || W <= 0 || G <= 0 || C % G != 0)
    return;
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  const unsigned int spatial = static_cast<unsigned int>(H) * static_cast<unsigned int>(W);
  const Shape s{static_cast<long long>(N) * G,
                G,
                C / G,
                spatial,
                static_cast<unsigned int>(C / G) * spatial,
                eps};
  const int blocks = static_cast<int>(std::min<long long>(s.groups, multiprocessors));
  const bool vector = spatial % 4 == 0 && reinterpret_cast<std::uintptr_t>(X) % 16 == 0 &&
                      reinterpret_cast<std::uintptr_t>(Y) % 16 == 0;
  if (vector)
    group_norm<true><<<blocks, kThreads>>>(X, gamma, beta, Y, s);
  else
    group_norm<false><<<blocks, kThreads>>>(X, gamma, beta, Y, s);
  GPU_CHECK_LAUNCH("group_norm");
}
