// rope_embedding: per row of M x D, output = Q * cos + rotate_half(Q) * sin, where
// rotate_half(Q) is the row's second half negated followed by its first half (LeetGPU signature,
// device pointers; tolerance 1e-4 absolute and relative).
//
// Memory-bound: 16 bytes per element (Q, cos and sin read, output written). Output column d of
// the first half needs Q[d + D/2], column d + D/2 needs Q[d]: a thread owns such a PAIR of
// columns, so each Q value is read once and used twice, and no value crosses threads:
//  - vector path (D % 8 == 0: each half row is whole 16-byte vectors; every pointer 16-byte
//    aligned, always true for the judge's tensors): a thread takes four columns of the first
//    half and the same four of the second, six 16-byte loads (Q, cos, sin of both) issued before
//    its two 16-byte stores. Consecutive threads take consecutive vectors of a half row, so a
//    warp reads and writes whole 256-byte runs. The grid shape is the element-wise pass's
//    (primitives/elementwise.h): one pair of vectors per thread on NVIDIA, four on gfx908 (one
//    where four would leave a multiprocessor idle);
//  - scalar path (any other D, misaligned pointers): one output per thread, its partner Q read
//    as well (from cache: the partner's own thread reads it too). An odd D, outside the
//    challenge's limits, splits as torch does: the second part is the longer one.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/elementwise.h"

#include <cstddef>

namespace {

namespace elementwise = kit::elementwise;
constexpr int kThreads = elementwise::kThreads;

// q * c + r * s within about one ulp of the output (Kahan's sum of products): r * s is rounded
// once and that rounding's error recovered exactly by an fma, so an output that cancels to far
// less than its products keeps its relative accuracy. Plain float arithmetic loses up to half
// an ulp of the larger product: 5e-4 for products near 1e4, five times the tolerance when the
// output is near 0. Two more fmas per output cost nothing in a memory-bound pass.
__device__ __forceinline__ float sum_of_products(float q, float c, float r, float s) {
  const float rs = r * s;
  const float rs_error = fmaf(r, s, -rs); // r * s - rs, exactly
  return fmaf(q, c, rs) + rs_error;
}

__device__ __forceinline__ float4 rotate_first(float4 q, float4 c, float4 partner, float4 s) {
  return make_float4(
      sum_of_products(q.x, c.x, -partner.x, s.x), sum_of_products(q.y, c.y, -partner.y, s.y),
      sum_of_products(q.z, c.z, -partner.z, s.z), sum_of_products(q.w, c.w, -partner.w, s.w));
}
__device__ __forceinline__ float4 rotate_second(float4 q, float4 c, float4 partner, float4 s) {
  return make_float4(
      sum_of_products(q.x, c.x, partner.x, s.x), sum_of_products(q.y, c.y, partner.y, s.y),
      sum_of_products(q.z, c.z, partner.z, s.z), sum_of_products(q.w, c.w, partner.w, s.w));
}

// `pairs` = M * half_vectors, half_vectors = D / 8 (vectors per half row). Pair p is row
// p / half_vectors, columns 4 * (p % half_vectors) .. + 3 of the first half and the same of the
// second. Index is the pair counter's type: 32 bits whenever the pairs fit (a 64-bit division
// is a long software sequence; a 32-bit one a few instructions), 64 otherwise.
template <int kVectors, class Index>
__global__ void __launch_bounds__(kThreads)
    rope_pairs(const float *__restrict__ q, const float *__restrict__ cosine,
               const float *__restrict__ sine, float *__restrict__ out, Index pairs,
               Index half_vectors, int D) {
  const Index first = static_cast<Index>(blockIdx.x) * kThreads * kVectors + threadIdx.x;
  const std::size_t half = static_cast<std::size_t>(D) / 2;
  std::size_t lo[kVectors];
  float4 q_lo[kVectors], q_hi[kVectors], c_lo[kVectors], c_hi[kVectors], s_lo[kVectors],
      s_hi[kVectors];
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    const Index p = first + static_cast<Index>(k) * kThreads;
    if (p < pairs) {
      const Index row = p / half_vectors;
      const Index column = 4 * (p - row * half_vectors);
      lo[k] = static_cast<std::size_t>(row) * D + column;
      q_lo[k] = *reinterpret_cast<const float4 *>(q + lo[k]);
      q_hi[k] = *reinterpret_cast<const float4 *>(q + lo[k] + half);
      c_lo[k] = *reinterpret_cast<const float4 *>(cosine + lo[k]);
      c_hi[k] = *reinterpret_cast<const float4 *>(cosine + lo[k] + half);
      s_lo[k] = *reinterpret_cast<const float4 *>(sine + lo[k]);
      s_hi[k] = *reinterpret_cast<const float4 *>(sine + lo[k] + half);
    }
  }
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    if (first + static_cast<Index>(k) * kThreads < pairs) {
      *reinterpret_cast<float4 *>(out + lo[k]) = rotate_first(q_lo[k], c_lo[k], q_hi[k], s_lo[k]);
      *reinterpret_cast<float4 *>(out + lo[k] + half) =
          rotate_second(q_hi[k], c_hi[k], q_lo[k], s_hi[k]);
    }
  }
}

// One output per thread, n = M * D. The first part of a row is columns [0, D / 2), the second
// [D / 2, D); rotate_half(Q)[d] = -Q[D / 2 + d] for d < D - D / 2, Q[d - (D - D / 2)] after.
__global__ void __launch_bounds__(kThreads)
    rope_scalar(const float *q, const float *cosine, const float *sine, float *out, std::size_t n,
                int D) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= n)
    return;
  const std::size_t row_start = i / D * D;
  const int d = static_cast<int>(i - row_start);
  const int first = D / 2, second = D - first;
  const float rotated = d < second ? -q[row_start + first + d] : q[row_start + d - second];
  out[i] = sum_of_products(q[i], cosine[i], rotated, sine[i]);
}

} // namespace

extern "C" void solve(const float *Q, const float *cos, const float *sin, float *output, int M,
                      int D) {
  if (M <= 0 || D <= 0)
    return;
  const std::size_t n = static_cast<std::size_t>(M) * D;
  if (D % 8 == 0 && elementwise::aligned16(Q) && elementwise::aligned16(cos) &&
      elementwise::aligned16(sin) && elementwise::aligned16(output)) {
    const int half_vectors = D / 8;
    const std::size_t pairs = static_cast<std::size_t>(M) * half_vectors;
    // The element-wise pass's shape for `pairs` items (it counts items as n / 4). The 32-bit
    // counter must also hold the last block's overshoot (at most 4 * kThreads - 1 past pairs).
    const bool narrow = pairs + 4 * kThreads <= 0xffffffffu;
    elementwise::with_vector_shape(4 * pairs, [&](auto vectors, unsigned blocks) {
      constexpr int kVectors = decltype(vectors)::value;
      if (narrow)
        rope_pairs<kVectors, unsigned>
            <<<blocks, kThreads>>>(Q, cos, sin, output, static_cast<unsigned>(pairs),
                                   static_cast<unsigned>(half_vectors), D);
      else
        rope_pairs<kVectors, std::size_t><<<blocks, kThreads>>>(
            Q, cos, sin, output, pairs, static_cast<std::size_t>(half_vectors), D);
    });
    GPU_CHECK_LAUNCH("rope_pairs");
  } else {
    rope_scalar<<<elementwise::blocks_for(n, 1), kThreads>>>(Q, cos, sin, output, n, D);
    GPU_CHECK_LAUNCH("rope_scalar");
  }
}
