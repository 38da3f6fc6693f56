// Activation functions computed the way PyTorch's CUDA kernels compute them for float tensors, so
// that the kernels reproduce their challenges' references operation for operation, not merely
// within tolerance. Shared by sigmoid, silu and swiglu.
//
// The exporter inlines this header into each submission file (basics/<name>/kernel.cu includes
// it as "primitives/activations.h").
#pragma once

#include "gpu/vendor.h"

namespace kit::activations {

// torch.sigmoid on a float tensor: 1 / (1 + exp(-x)) in float, with the accurate expf and an IEEE
// division (neither the __expf nor the __fdividef shortcut). Large magnitudes saturate without a
// NaN: below about -88.7 exp(-x) overflows to inf and 1 / inf = 0; above about 16.6 the sum
// rounds to 1; -inf gives 0, +inf gives 1; NaN stays NaN.
__device__ __forceinline__ float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

// x * torch.sigmoid(x), as the silu and swiglu references spell it: the sigmoid is rounded to
// float before the product. Large negative x give -0 (x * 0); -inf gives NaN (-inf * 0), as in
// the reference.
__device__ __forceinline__ float silu(float x) { return x * sigmoid(x); }

} // namespace kit::activations
