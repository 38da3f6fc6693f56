// The vendor's 16-bit float: __half and its conversions (__half2float, __float2half_rn, ...), the
// same names in CUDA's cuda_fp16.h and HIP's hip/hip_fp16.h, on the host and the device. Apart
// from gpu/vendor.h so that only the code that uses half precision includes it.
#pragma once

#include "gpu/vendor.h"

#if KIT_HIP
#include <hip/hip_fp16.h>
#else
#include <cuda_fp16.h>
#endif
