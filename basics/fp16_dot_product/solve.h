// fp16_dot_product: the LeetGPU judge's entry point (DEVICE pointers), as its starter file declares
// it: the arrays are the vendor's 16-bit __half (the judge passes float16 tensors as uint16 storage
// through ctypes; a pointer is a pointer to the C ABI). kernel.cu defines it; the build
// force-includes this header into kernel.cu, so a definition that drifts from it does not compile.
// It is included before anything else, also where the kit is not on the include path (a kernel
// built from its exported file), so it includes the vendor's half header itself, chosen by the
// kit's one platform test (common/gpu/platform.h).
#pragma once

// By its path from this file, so that it is found without the kit on the include path.
#include "../../common/gpu/platform.h"

#if KIT_HIP
#include <hip/hip_fp16.h>
#else
#include <cuda_fp16.h>
#endif

extern "C" void solve(const __half *A, const __half *B, __half *result, int N);
