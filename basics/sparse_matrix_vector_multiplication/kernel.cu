// sparse_matrix_vector_multiplication (LeetGPU 18): y = A x, A an M x N row-major float matrix
// stored densely with about 35% of its entries non-zero (DEVICE pointers; tolerance 1e-3 absolute
// and relative).
//
// Stored densely, A costs its full 4 * M * N bytes to read whatever its zeros: at the judge's
// 1000 x 10,000 that is 40 MB, against 40 KB for x, so the kernel is a read of A at memory speed
// (skipping the zeros would save no DRAM sector: a 32-byte sector of 8 entries at 35% density
// holds a non-zero with probability 0.97).
//  - A 256-thread block owns a row (blocks stride over the rows of a grid of at most the resident
//    blocks: 1000 blocks, one wave, at the judge's size). Its threads read the row in 16-byte
//    vectors, consecutive threads on consecutive addresses, four vectors of A and the four of x
//    beside them issued before any is used; x (40 KB) is read through L1 and L2, shared by the
//    blocks resident on a multiprocessor.
//  - Each thread sums its products by fused multiply-adds in four float chains (one per vector
//    lane, about 40 products per thread at N = 10,000), then the block adds the threads' sums in
//    double (kit::block_reduce) and one thread stores y[row]. y is written whole on every call.
//  - 16-byte loads need N % 4 == 0 and A and x 16-byte aligned (the judge's tensors at N = 10,000);
//    otherwise the same pass reads single floats.
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4; // vectors of A (and of x) in flight per thread
// Resident blocks asked of the compiler. NVIDIA: eight per multiprocessor (2,048 threads, at most
// 32 registers), so the judge's 1,000 rows are one wave of blocks on a 132-multiprocessor GPU
// (40 registers would allow six: 792 blocks, and 208 rows in a second round). HIP reads the
// second __launch_bounds__ argument differently (waves per execution unit): none asked there.
#if KIT_CUDA
constexpr int kMinBlocksPerSm = 8;
#else
constexpr int kMinBlocksPerSm = 1;
#endif

__device__ __forceinline__ void multiply_add(const float4 &a, const float4 &x, float4 &sum) {
  sum.x = fmaf(a.x, x.x, sum.x);
  sum.y = fmaf(a.y, x.y, sum.y);
  sum.z = fmaf(a.z, x.z, sum.z);
  sum.w = fmaf(a.w, x.w, sum.w);
}

// One row's products of this thread: columns 4 * (t + k * kThreads) .. + 3 (kVector) or
// t + k * kThreads (scalar), in four float chains.
template <bool kVector>
__device__ __forceinline__ float4 thread_products(const float *__restrict__ row,
                                                  const float *__restrict__ x, int N, int t) {
  float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
  if constexpr (kVector) {
    const float4 *a4 = reinterpret_cast<const float4 *>(row);
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    const int vectors = N / 4;
    int v = t;
    // Not unrolled further: kUnroll vectors in flight fit the 32 registers without spills.
#pragma unroll 1
    for (; v + (kUnroll - 1) * kThreads < vectors; v += kUnroll * kThreads) {
      float4 a[kUnroll], b[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        a[u] = a4[v + u * kThreads];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        b[u] = x4[v + u * kThreads];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        multiply_add(a[u], b[u], sum);
    }
#pragma unroll 1
    for (; v < vectors; v += kThreads)
      multiply_add(a4[v], x4[v], sum);
  } else {
    int c = t;
#pragma unroll 1
    for (; c + (4 * kUnroll - 1) * kThreads < N; c += 4 * kUnroll * kThreads) {
      float a[4 * kUnroll], b[4 * kUnroll];
#pragma unroll
      for (int u = 0; u < 4 * kUnroll; ++u)
        a[u] = row[c + u * kThreads];
#pragma unroll
      for (int u = 0; u < 4 * kUnroll; ++u)
        b[u] = x[c + u * kThreads];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        multiply_add(make_float4(a[4 * u], a[4 * u + 1], a[4 * u + 2], a[4 * u + 3]),
                     make_float4(b[4 * u], b[4 * u + 1], b[4 * u + 2], b[4 * u + 3]), sum);
    }
#pragma unroll 1
    for (; c < N; c += kThreads)
      sum.x = fmaf(row[c], x[c], sum.x);
  }
  return sum;
}

template <bool kVector>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    multiply_rows(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y,
                  int M, int N) {
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  const int t = static_cast<int>(threadIdx.x);
  for (int row = static_cast<int>(blockIdx.x); row < M; row += static_cast<int>(gridDim.x)) {
    const float4 s = thread_products<kVector>(A + static_cast<std::size_t>(row) * N, x, N, t);
    const double mine = (static_cast<double>(s.x) + static_cast<double>(s.y)) +
                        (static_cast<double>(s.z) + static_cast<double>(s.w));
    // Ends with a barrier, so the scratch is free again for the next row.
    const double total = kit::block_reduce<kThreads>(mine, kit::Plus(), 0.0, scratch);
    if (t == 0)
      y[row] = static_cast<float>(total);
  }
}

bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <bool kVector> void launch(const float *A, const float *x, float *y, int M, int N) {
  static const int resident = kit::gpu::resident_blocks(multiply_rows<kVector>, kThreads);
  const int blocks = std::min(M, resident);
  multiply_rows<kVector><<<blocks, kThreads>>>(A, x, y, M, N);
  GPU_CHECK_LAUNCH("multiply_rows");
}

} // namespace

// A is M x N, x has N elements, y has M; nnz (A's non-zero count) is not needed.
extern "C" void solve(const float *A, const float *x, float *y, int M, int N, int nnz) {
  (void)nnz;
  if (M <= 0 || N <= 0)
    return;
  if (N % 4 == 0 && aligned16(A) && aligned16(x))
    launch<true>(A, x, y, M, N);
  else
    launch<false>(A, x, y, M, N);
}
