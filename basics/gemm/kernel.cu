// gemm (LeetGPU basics): C = alpha * (A B) + beta * C for row-major fp16 matrices (A is M x K, B
// is K x N, C is M x N, read and overwritten), DEVICE pointers.
//
// The kit's matrix-core GEMM (common/primitives/mma_gemm.h): fp16 products summed in fp32 on the
// tensor cores (mma.sync on NVIDIA, MFMA on gfx908), one launch, the tile mma_gemm_tuning.h picks
// for the size (64 x 64 blocks at the judge's 1024 x 1024 x 1024: 256 blocks). The epilogue forms
// each element as the judge's float32 expression does, alpha * product and beta * C each rounded
// to float, then their sum, then the one rounding to fp16 (round to nearest even); the block's
// results reach it through shared memory, eight consecutive columns at a time, so that C is read
// and written in 16-byte vectors.
#include "gpu/device.h"
#include "gpu/half.h"
#include "gpu/vendor.h"
#include "primitives/mma_gemm.h"
#include "primitives/mma_gemm_tuning.h"

#include <cstddef>
#include <cstdint>

namespace {

struct ScaleAddHalf {
  std::uint16_t *c;
  std::size_t ldc;
  float alpha;
  float beta;
  bool vectors; // C 16-byte aligned and ldc a multiple of 8: a run of 8 is one 16-byte access

  __device__ std::uint16_t value(float product, std::uint16_t old) const {
    const float scaled_old = __fmul_rn(beta, __half2float(__ushort_as_half(old)));
    return __half_as_ushort(__float2half_rn(__fadd_rn(__fmul_rn(alpha, product), scaled_old)));
  }
  __device__ void operator()(int, int row, int col, float product) const {
    std::uint16_t *const out = c + static_cast<std::size_t>(row) * ldc + col;
    *out = value(product, *out);
  }
  static constexpr int kVectorColumns = 8;
  __device__ void store_vector(int batch, int row, int col, const float (&products)[8]) const {
    if (!vectors) {
      for (int e = 0; e < 8; ++e)
        (*this)(batch, row, col + e, products[e]);
      return;
    }
    uint4 *const out = reinterpret_cast<uint4 *>(c + static_cast<std::size_t>(row) * ldc + col);
    const uint4 old = *out;
    const std::uint32_t old_words[4] = {old.x, old.y, old.z, old.w};
    std::uint32_t words[4];
#pragma unroll
    for (int w = 0; w < 4; ++w) // two halves a word, the lower column in the low bits
      words[w] = value(products[2 * w], static_cast<std::uint16_t>(old_words[w])) |
                 static_cast<std::uint32_t>(
                     value(products[2 * w + 1], static_cast<std::uint16_t>(old_words[w] >> 16)))
                     << 16;
    *out = make_uint4(words[0], words[1], words[2], words[3]);
  }
};

} // namespace

extern "C" void solve(const __half *A, const __half *B, __half *C, int M, int N, int K, float alpha,
                      float beta) {
  using kit::mma::Kind;
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  kit::mma::Problem problem;
  problem.rows = M;
  problem.cols = N;
  problem.depth = K;
  const kit::mma::Matrix<Kind::F16> a{reinterpret_cast<const std::uint16_t *>(A),
                                      static_cast<std::size_t>(K), 0};
  const kit::mma::Matrix<Kind::F16> b{reinterpret_cast<const std::uint16_t *>(B),
                                      static_cast<std::size_t>(N), 0};
  const bool vectors = reinterpret_cast<std::uintptr_t>(C) % 16 == 0 && N % 8 == 0;
  const ScaleAddHalf epilogue{reinterpret_cast<std::uint16_t *>(C), static_cast<std::size_t>(N),
                              alpha, beta, vectors};
  kit::mma::launch_auto<Kind::F16, kit::mma::BLayout::DepthByCols>(problem, a, b, epilogue,
                                                                   multiprocessors, nullptr);
}
