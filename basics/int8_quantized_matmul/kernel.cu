// int8_quantized_matmul (LeetGPU basics): C = requantise(A B) for int8 A (M x K), B (K x N) and
// C (M x N), row-major, DEVICE pointers. Exact: the judge's tolerance is 0.
//
// Each element's sum acc = sum_k (A[m][k] - zero_point_A) (B[k][n] - zero_point_B) is formed
// exactly in int32 (|acc| <= 256^2 * 8192 < 2^31), and requantised by requantize.h, torch's
// sequence of FP32 operations, so every byte is the judge's. The judge's own sum is an FP32
// matrix product rounded to an integer, the exact integer for every case it draws (README.md).
//
// The product is the kit's matrix-core GEMM (primitives/mma_gemm.h, int8 -> int32: mma.sync
// m16n8k32 on NVIDIA, MFMA 32x32x8 i8 on gfx908) with the requantisation as its epilogue. The
// matrix unit multiplies the raw bytes; the zero points are folded in afterwards, exactly in
// int32 (wrap-around arithmetic, exact because the true sum fits):
//   sum (a - za)(b - zb) = sum ab - zb rowsum_A[m] - za colsum_B[n] + K za zb,
// the row sums of A and column sums of B computed by a small pass only when a zero point is not 0.
// The warp tiles read B by columns (a column's k as whole words). Where the GEMM has its cp.async
// ring (NVIDIA) and the shape allows (N % 4 == 0, K % 16 == 0, B 4-byte aligned: the judge's
// tensors), B is transposed once into an N x K scratch copy (transpose_b, 16 MB of traffic at the
// judge's size) and staged by the ring; otherwise it is transposed while it is staged (the GEMM's
// TransposingLoader, on the register path), or staged as it lies where N % 4 != 0. The requantised
// bytes leave in 16-byte vectors (the epilogue's runs of 16 columns, through shared memory). Tile:
// the GEMM's tuning table (mma_gemm_tuning.h), the largest that gives every multiprocessor a block.
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/mma.h"
#include "primitives/mma_gemm.h"
#include "primitives/mma_gemm_tuning.h"
#include "requantize.h"

#include <cstddef>
#include <cstdint>

namespace {

namespace mma = kit::mma;
using kit::int8_quantized_matmul::Requantize;
constexpr mma::Kind kInt8 = mma::Kind::I8;

// The GEMM's epilogue: the zero points' correction, the requantisation, the store.
struct RequantizeEpilogue {
  std::int8_t *C;
  int N, K;
  const std::int32_t *row_sums_A; // sum_k A[m][k], or null when zero_point_B == 0
  const std::int32_t *col_sums_B; // sum_k B[k][n], or null when zero_point_A == 0
  int zero_point_A, zero_point_B;
  Requantize requantize;

  bool vectors; // C 16-byte aligned and N a multiple of 16: a run of 16 is one 16-byte store

  __device__ std::int8_t value(int m, int n, std::int32_t raw) const {
    std::uint32_t acc = static_cast<std::uint32_t>(raw);
    if (row_sums_A)
      acc -= static_cast<std::uint32_t>(zero_point_B) * static_cast<std::uint32_t>(row_sums_A[m]);
    if (col_sums_B)
      acc -= static_cast<std::uint32_t>(zero_point_A) * static_cast<std::uint32_t>(col_sums_B[n]);
    acc += static_cast<std::uint32_t>(K) * static_cast<std::uint32_t>(zero_point_A) *
           static_cast<std::uint32_t>(zero_point_B);
    return requantize(static_cast<std::int32_t>(acc));
  }
  __device__ void operator()(int, int m, int n, std::int32_t raw) const {
    C[static_cast<std::size_t>(m) * N + n] = value(m, n, raw);
  }
  static constexpr int kVectorColumns = 16;
  __device__ void store_vector(int batch, int m, int n, const std::int32_t (&raw)[16]) const {
    if (!vectors) {
      for (int e = 0; e < 16; ++e)
        (*this)(batch, m, n + e, raw[e]);
      return;
    }
    std::uint32_t words[4] = {};
#pragma unroll
    for (int e = 0; e < 16; ++e) // four bytes a word, the lower column in the low bits
      words[e / 4] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(value(m, n + e, raw[e])))
                      << (8 * (e % 4));
    *reinterpret_cast<uint4 *>(C + static_cast<std::size_t>(m) * N + n) =
        make_uint4(words[0], words[1], words[2], words[3]);
  }
};

// B (K x N) transposed into Bt (N x K), so that the GEMM stages it by columns with 16-byte
// asynchronous copies (the cp.async ring) instead of through registers. A block moves a tile of
// 32 k x 128 n bytes through shared memory: 4-byte loads along n (N % 4 == 0 and B 4-byte
// aligned), 4-byte stores along k (K % 4 == 0 and Bt 4-byte aligned); the last tiles are cut at
// the edges, a word wholly inside or outside.
constexpr int kTransposeDepth = 32, kTransposeCols = 128, kTransposeThreads = 256;
__global__ void __launch_bounds__(kTransposeThreads)
    transpose_b(const std::int8_t *__restrict__ B, std::int8_t *__restrict__ Bt, int K, int N) {
  // One word of padding per row: the column reads below touch 8 rows 33 words apart.
  __shared__ std::uint32_t tile[kTransposeDepth][kTransposeCols / 4 + 1];
  const int t = static_cast<int>(threadIdx.x);
  const int k0 = static_cast<int>(blockIdx.y) * kTransposeDepth;
  const int n0 = static_cast<int>(blockIdx.x) * kTransposeCols;
  constexpr int kWordsPerRow = kTransposeCols / 4;
  for (int i = t; i < kTransposeDepth * kWordsPerRow; i += kTransposeThreads) {
    const int r = i / kWordsPerRow, w = i % kWordsPerRow, k = k0 + r, n = n0 + 4 * w;
    tile[r][w] =
        k < K && n < N
            ? *reinterpret_cast<const std::uint32_t *>(B + static_cast<std::size_t>(k) * N + n)
            : 0u;
  }
  __syncthreads();
  constexpr int kQuads = kTransposeDepth / 4; // words of one output row
  for (int i = t; i < kTransposeCols * kQuads; i += kTransposeThreads) {
    const int c = i / kQuads, q = i % kQuads, n = n0 + c, k = k0 + 4 * q;
    if (n >= N || k >= K)
      continue;
    std::uint32_t word = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) // byte j: k + j
      word |= ((tile[4 * q + j][c / 4] >> (8 * (c % 4))) & 0xFFu) << (8 * j);
    *reinterpret_cast<std::uint32_t *>(Bt + static_cast<std::size_t>(n) * K + k) = word;
  }
}

// The zero points' sums: one thread per row of A (sum over K) or per column of B (coalesced).
__global__ void operand_sums(const std::int8_t *__restrict__ A, const std::int8_t *__restrict__ B,
                             std::int32_t *row_sums_A, std::int32_t *col_sums_B, int M, int N,
                             int K) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (row_sums_A && i < M) {
    std::int32_t sum = 0;
    for (int k = 0; k < K; ++k)
      sum += A[static_cast<std::size_t>(i) * K + k];
    row_sums_A[i] = sum;
  }
  if (col_sums_B && i < N) {
    std::int32_t sum = 0;
    for (int k = 0; k < K; ++k)
      sum += B[static_cast<std::size_t>(k) * N + i];
    col_sums_B[i] = sum;
  }
}

} // namespace

extern "C" void solve(const std::int8_t *A, const std::int8_t *B, std::int8_t *C, int M, int N,
                      int K, float scale_A, float scale_B, float scale_C, int zero_point_A,
                      int zero_point_B, int zero_point_C) {
  if (M <= 0 || N <= 0 || K <= 0)
    return;
  std::int32_t *row_sums = nullptr, *col_sums = nullptr;
  if (zero_point_A != 0 || zero_point_B != 0) {
    static kit::gpu::DeviceScratch sums; // M + N int32, kept from one call to the next
    auto *scratch = static_cast<std::int32_t *>(
        sums.reserve(sizeof(std::int32_t) * (static_cast<std::size_t>(M) + N)));
    row_sums = zero_point_B != 0 ? scratch : nullptr;
    col_sums = zero_point_A != 0 ? scratch + M : nullptr;
    const int larger = M > N ? M : N;
    operand_sums<<<(larger + 255) / 256, 256>>>(A, B, row_sums, col_sums, M, N, K);
    GPU_CHECK_LAUNCH("operand_sums");
  }
  RequantizeEpilogue epilogue;
  epilogue.C = C;
  epilogue.N = N;
  epilogue.K = K;
  epilogue.row_sums_A = row_sums;
  epilogue.col_sums_B = col_sums;
  epilogue.zero_point_A = zero_point_A;
  epilogue.zero_point_B = zero_point_B;
  epilogue.vectors = reinterpret_cast<std::uintptr_t>(C) % 16 == 0 && N % 16 == 0;
  epilogue.requantize = Requantize{
      scale_A, scale_B, kit::int8_quantized_matmul::reciprocal_of(scale_C), zero_point_C};
  const mma::Problem p{M, N, K, 1};
  const mma::Matrix<kInt8> a{A, static_cast<std::size_t>(K), 0};
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  if constexpr (mma::kRingAvailable) { // (no ColsByDepth kernels compiled where it is not)
    const bool aligned = reinterpret_cast<std::uintptr_t>(B) % 4 == 0;
    if (aligned && N % 4 == 0 && K % 16 == 0) {
      // B transposed once (N x K), then staged by the ring: K % 16 == 0 makes its rows whole
      // 16-byte vectors.
      static kit::gpu::DeviceScratch transposed;
      auto *Bt = static_cast<std::int8_t *>(transposed.reserve(static_cast<std::size_t>(N) * K));
      const dim3 grid(static_cast<unsigned>((N + kTransposeCols - 1) / kTransposeCols),
                      static_cast<unsigned>((K + kTransposeDepth - 1) / kTransposeDepth));
      transpose_b<<<grid, kTransposeThreads>>>(B, Bt, K, N);
      GPU_CHECK_LAUNCH("transpose_b");
      const mma::Matrix<kInt8> bt{Bt, static_cast<std::size_t>(K), 0};
      mma::launch_auto<kInt8, mma::BLayout::ColsByDepth>(p, a, bt, epilogue, multiprocessors,
                                                         nullptr);
      return;
    }
  }
  const mma::Matrix<kInt8> b{B, static_cast<std::size_t>(N), 0};
  mma::launch_auto<kInt8, mma::BLayout::DepthByCols>(p, a, b, epilogue, multiprocessors, nullptr);
}
