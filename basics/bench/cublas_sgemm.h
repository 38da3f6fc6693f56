// cuBLAS SGEMM with the judge's matrix_multiplication signature (device pointers, row-major,
// A is M x N, B is N x K): the matrix_multiplication benchmark baseline on CUDA. FP32 math only
// (CUBLAS_DEFAULT_MATH: no TF32), since the judge's tolerance is 1e-4.
#pragma once

namespace kit::basics {

void cublas_sgemm(const float *A, const float *B, float *C, int M, int N, int K);

} // namespace kit::basics
