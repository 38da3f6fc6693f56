// What the library baselines of basics/<name>/bench/library.cu share: one cuBLAS handle for the
// process (FP32 math only: CUBLAS_DEFAULT_MATH, no TF32, since the judge's tolerances are FP32's)
// and status checks that name the failing call and exit like GPU_CHECK.
#pragma once

#include <cublas_v2.h>
#include <cufft.h>

namespace kit::basics {

void check_cublas(cublasStatus_t status, const char *call);
void check_cufft(cufftResult status, const char *call);

// Created on first use, kept for the life of the process.
cublasHandle_t cublas_handle();

} // namespace kit::basics
