// Which vendor's toolchain compiles this unit: KIT_HIP is 1 on AMD (HIP), KIT_CUDA is 1 otherwise
// (NVIDIA, and the MI100 persona, which is a CUDA build). Exactly one of them is defined, and code
// tests them with #if. The one place this test is written: gpu/vendor.h and every other header
// that picks a vendor's header or intrinsic include this one. It includes nothing, so a LeetGPU
// problem's solve.h, which is force-included before anything else and also where the kit is not
// on the include path, can include it by its relative path.
#pragma once

// KIT_BACKEND_HIP comes from the build (kit::backend) so that plain C++ host files compiled by
// g++ also pick HIP; the other macros cover hipcc/clang compiles such as the exported folders.
#if defined(KIT_BACKEND_HIP) || defined(__HIPCC__) || defined(__HIP__) ||                          \
    defined(__HIP_PLATFORM_AMD__)
#define KIT_HIP 1
#else
#define KIT_CUDA 1
#endif
