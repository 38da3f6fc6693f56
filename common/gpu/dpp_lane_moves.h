// The vendor layer's DPP lane moves (AMD GCN/CDNA wave64, and emulated under the MI100 persona):
// KIT_DPP, the moves' encodings, dpp_source and dpp_move, which the warp collectives' scans are
// built from (collectives/warp.h). Declared in device compilations only.
#pragma once

#include "gpu/platform.h"
#include "gpu/vendor.h"

#if defined(KIT_PERSONA_GFX908)
#include "gpu/persona.h" // the lane exchange that emulates the moves
#endif

namespace kit {

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

// DPP lane moves (AMD GCN/CDNA wave64): the data-parallel-primitive modifiers that move a value
// between lanes inside one VALU instruction, without the LDS round trip of ds_bpermute. The warp
// collectives build their scans from the moves rocPRIM's warp_scan_dpp uses
// (rocprim/warp/detail/warp_scan_dpp.hpp): row_shr:k within rows of 16 lanes, row_bcast:15 (lane
// 15 of each row to the next row, rows 1 and 3 written), row_bcast:31 (lane 31 to rows 2 and 3),
// wave_shr:1, and for reductions quad_perm swaps within groups of four lanes. dpp_move<kMove,
// kRowMask>(v) returns, in each lane the move reaches (dpp_source) whose row kRowMask enables, the
// value of its source lane, and 0 in every other lane (the instruction's `old`, bound_ctrl off);
// callers use it only where the move reaches (the lane conditions of each move are in
// collectives/warp.h). The encodings are GFX9's DPP_CTRL (AMD CDNA1 ISA,
// "DPP_CTRL Enumeration"). KIT_DPP is 1 where they exist: HIP on wave64, and the MI100 persona,
// which emulates each move through its lane exchange so that the lane logic built on them is
// executed (not only compiled) on NVIDIA.
#if (KIT_HIP && KIT_WARP_SIZE == 64) || defined(KIT_PERSONA_GFX908)
#define KIT_DPP 1
#else
#define KIT_DPP 0
#endif

#if KIT_DPP
enum DppMove : int {
  kDppQuadSwap1 = 0xb1, // quad_perm:[1,0,3,2]: lane ^ 1
  kDppQuadSwap2 = 0x4e, // quad_perm:[2,3,0,1]: lane ^ 2
  kDppRowShr1 = 0x111,
  kDppRowShr2 = 0x112,
  kDppRowShr4 = 0x114,
  kDppRowShr8 = 0x118,
  kDppWaveShr1 = 0x138,
  kDppRowBcast15 = 0x142,
  kDppRowBcast31 = 0x143,
};

// The lane whose value move `move` brings to `lane` (0-63), or -1 where it brings none and the
// lane keeps the instruction's `old` operand (bound_ctrl off): row_shr:k in the first k lanes of
// each row, wave_shr:1 in lane 0, row_bcast:15 in row 0, row_bcast:31 in rows 0 and 1.
__host__ __device__ constexpr int dpp_source(int move, int lane) {
  if (move == kDppQuadSwap1)
    return lane ^ 1;
  if (move == kDppQuadSwap2)
    return lane ^ 2;
  if (move >= kDppRowShr1 && move <= kDppRowShr1 + 14) {
    const int shift = move - kDppRowShr1 + 1;
    return lane % 16 >= shift ? lane - shift : -1;
  }
  if (move == kDppWaveShr1)
    return lane >= 1 ? lane - 1 : -1;
  if (move == kDppRowBcast15)
    return lane >= 16 ? (lane & ~15) - 1 : -1;
  if (move == kDppRowBcast31)
    return lane >= 32 ? 31 : -1;
  return -1;
}

template <int kMove, int kRowMask = 0xf> __device__ __forceinline__ unsigned dpp_move(unsigned v) {
#if KIT_HIP
  return static_cast<unsigned>(
      __builtin_amdgcn_update_dpp(0, static_cast<int>(v), kMove, kRowMask, 0xf, false));
#else
  // The persona, lane for lane as the hardware: the source lane's value where the move reaches
  // and kRowMask enables the lane's row (of 16), `old` (0) everywhere else (where the exchange,
  // given no source, reads the lane's own value).
  const int lane = persona::lane();
  const unsigned moved = persona::exchange(v, [](int l) { return dpp_source(kMove, l); });
  return ((kRowMask >> (lane / 16)) & 1) && dpp_source(kMove, lane) >= 0 ? moved : 0u;
#endif
}

#endif // KIT_DPP

#endif // device compilation

} // namespace kit
