// Arithmetic and load intrinsics with a portable fallback: one instruction where the target has
// it (NVIDIA's DPX and MUFU, AMD's v_min3), the plain expression elsewhere.
#pragma once

#include "gpu/vendor.h"

namespace kit {

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

// min(a + b, c). On sm_90+ this is one DPX instruction (VIADDMNMX); older NVIDIA GPUs get the
// intrinsic's emulation, AMD the two-instruction form.
__device__ __forceinline__ int gpu_add_min(int a, int b, int c) {
#if KIT_CUDA
  return __viaddmin_s32(a, b, c);
#else
  return min(a + b, c);
#endif
}

// min(a, b, c). NVIDIA sm_90 has a DPX 3-way min; on AMD the compiler folds the nested min into
// v_min3_i32 (checked in the gfx908 ISA), which lets two k steps share one instruction.
__device__ __forceinline__ int gpu_min3(int a, int b, int c) {
#if KIT_CUDA
  return __vimin3_s32(a, b, c);
#else
  return min(min(a, b), c);
#endif
}

// 2^x where results below the smallest normal float (2^-126) may be 0. On NVIDIA the bare
// special-function instruction (ex2.approx.ftz: MUFU.EX2, the 2 ulp of exp2f), without exp2f's
// fix-up for denormal results (a compare and two predicated multiplies per call): with 8-16 warps
// per SM the on-chip softmax waits on exactly these instructions (softmax/README.md). On AMD,
// exp2f (this hipcc has no bare v_exp_f32 builtin). Host code gets exp2f.
__host__ __device__ __forceinline__ float gpu_exp2_flush(float x) {
#if KIT_CUDA && defined(__CUDA_ARCH__)
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
#else
  return exp2f(x);
#endif
}

// A 16-byte load of data the kernel reads once. On NVIDIA cache-streaming (ld.global.cs, evict
// first): an ordinary coherent load that tells L1 and L2 not to keep the line, so that a kernel
// holding many such loads in flight does not evict data it will use again (the on-chip softmax's
// pass 1). On AMD a plain load.
__device__ __forceinline__ float4 gpu_load_once(const float4 *p) {
#if KIT_CUDA
  return __ldcs(p);
#else
  return *p;
#endif
}
#endif // device compilation

} // namespace kit
