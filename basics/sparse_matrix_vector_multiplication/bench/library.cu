// sparse_matrix_vector_multiplication's library counterpart: cuBLAS SGEMV on the dense matrix in
// FP32, the benchmark's baseline and the judge's reference (torch.matmul of a matrix and a vector
// is torch's mv, cuBLAS's SGEMV).
#include "bench/vendor_libraries.h"
#include "device/library.h"

namespace kit::basics {
namespace {

// Row-major A (M x N) is column-major A^T (N x M, leading dimension N): y = A x is
// op(A^T) x with op the transpose.
void cublas_sgemv(const float *A, const float *x, float *y, int M, int N, int) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemv(cublas_handle(), CUBLAS_OP_T, N, M, &one, A, N, x, 1, &zero, y, 1),
               "cublasSgemv");
}

} // namespace

std::vector<Solver> library_baselines() { return {solver("cuBLAS SGEMV (FP32)", cublas_sgemv)}; }

Solver library_judge_reference() { return solver("cuBLAS SGEMV (FP32)", cublas_sgemv); }

} // namespace kit::basics
