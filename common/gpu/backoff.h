// Back-off for spin-wait loops (look-back polls, grid barriers).
#pragma once

#include "gpu/vendor.h"

namespace kit {

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
// Back-off for spin-wait loops: a waiter polls often while its predecessor is about to publish,
// then leaves the issue slots (and the memory system) to the waves it waits for, with a short cap
// because a waiter's last sleep is added to the time after the value it waits for arrives, which
// is on the critical path where one block combines the others' results.
//  - NVIDIA: __nanosleep doubling from 32 ns to 128 ns. On the H100, prefix_sum's and softmax's
//    benches measured growing sleeps level with a fixed 100 ns sleep or 1-2 % faster; the LeetGPU
//    reduction's single poller was about 1 us slower with every growing sleep tried than with a
//    fixed 100 ns one (basics/reduction/README.md, "Design notes").
//  - AMD: rocPRIM's shape (rocprim/device/detail/lookback_scan_state.hpp): the first poll after a
//    miss does not sleep, later ones sleep one s_sleep unit (64 clocks) longer each, up to
//    kMaxUnits. A doubling to 32 units (about 1.4 us at gfx908's clock) could oversleep a flag by
//    that much at every barrier and look-back poll. Not measured on hardware.
class SpinBackoff {
public:
  __device__ __forceinline__ void wait() {
#if KIT_CUDA
    __nanosleep(units_ * 32u);
    if (units_ < kMaxUnits)
      units_ *= 2;
#else
    for (unsigned i = 0; i < units_; ++i)
      __builtin_amdgcn_s_sleep(1);
    if (units_ < kMaxUnits)
      units_ += 1;
#endif
  }

private:
#if KIT_CUDA
  static constexpr unsigned kMaxUnits = 4;
  unsigned units_ = 1;
#else
  static constexpr unsigned kMaxUnits = 4;
  unsigned units_ = 0;
#endif
};
#endif // device compilation

} // namespace kit
