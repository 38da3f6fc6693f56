// Fixture stand-in for the kit's vendor header: includes a nested project header and a system one,
// and picks the backend as the kit's does, with the conditions the exporter's backend pass must
// resolve (plain, compound, #elif, a header included only under the persona).
#pragma once

// KIT_BACKEND_HIP comes from the build; the compiler macros cover hipcc compiles.
#if defined(KIT_BACKEND_HIP) || defined(__HIPCC__) || defined(__HIP__) ||                          \
    defined(__HIP_PLATFORM_AMD__)
#define KIT_HIP 1
#else
#define KIT_CUDA 1
#endif

#include "detail/vendor.h"
#include <cstdio>

// Lanes per warp.
//
// On HIP, the wavefront of CDNA.
#if KIT_HIP
inline constexpr int kFixtureWarp = 64;
#elif defined(KIT_PERSONA_GFX908)
#include "detail/persona.h"
#else
inline constexpr int kFixtureWarp = 32;
#endif

// AMD's wavefront sleep, in units of 64 clocks.
#if KIT_HIP
inline constexpr int kFixtureSleepUnit = 64;
#endif

// Doubles on devices of compute capability 8.0 and later, adds one elsewhere.
inline int fixture_arch_step(int v) {
#if KIT_CUDA && !defined(KIT_PERSONA_GFX908) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return 2 * v;
#else
  return v + 1;
#endif
}

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
inline constexpr bool kFixtureDeviceCompile = true;
#else
inline constexpr bool kFixtureDeviceCompile = false;
#endif

inline int fixture_vendor_twice(int v) { return 2 * fixture_vendor_value(v); } // same on HIP
