// The judge's HIP build of a CUDA-spelled solution file (judge.py): `#include <cuda_runtime.h>`
// lands here and gets HIP's runtime with the kit's CUDA names mapped to it (common/gpu/vendor.h).
// Only what the vendor layer maps compiles; a CUDA name it does not map is a compile error.
#pragma once

#include "gpu/vendor.h"
