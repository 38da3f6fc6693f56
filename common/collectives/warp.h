// Warp collectives: shuffles of any value type, reduce and inclusive/exclusive scan over a warp,
// the maximum of a float, generic over the warp size (32 or 64 lanes). Layered as CUB's and
// rocPRIM's warp primitives: only the vendor layer underneath (gpu/vendor.h's shuffles, AMD's DPP
// lane moves of gpu/dpp_lane_moves.h).
//
// Every function is a collective: all lanes of the warp must call it.
#pragma once

#include "gpu/vendor.h"

#include "gpu/dpp_lane_moves.h" // after vendor.h: where KIT_DPP is 0, exports keep none of it

#include <cstring>
#include <type_traits>

namespace kit {

struct Plus {
  template <class T> __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a + b;
  }
};
struct Max {
  template <class T> __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};
struct Min {
  template <class T> __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

// ---------------------------------------------------------------------------------------------
// Shuffles of any trivially copyable type: arithmetic types as the vendor moves them (one
// instruction per 32 bits), other types (a scan state such as an affine map) word by word.
// ---------------------------------------------------------------------------------------------
// A struct whose last words are padding (a double and an int: 12 bytes of values in 16) says so
// with `static constexpr int kShuffledWords`, the words that hold values; only those move.
namespace detail {
template <class T, class = void> struct ShuffledWords {
  static constexpr int value = sizeof(T) / 4;
};
template <class T> struct ShuffledWords<T, std::void_t<decltype(T::kShuffledWords)>> {
  static constexpr int value = T::kShuffledWords;
};

template <class T, class Move> __device__ __forceinline__ T shuffle_words(const T &v, Move move) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 4 == 0,
                "shuffled types are trivially copyable and a whole number of 32-bit words");
  constexpr int kWords = sizeof(T) / 4;
  constexpr int kMoved = ShuffledWords<T>::value;
  static_assert(kMoved > 0 && kMoved <= kWords, "kShuffledWords counts words of the type");
  unsigned words[kWords];
  std::memcpy(words, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < kMoved; ++i)
    words[i] = move(words[i]);
  T result;
  std::memcpy(&result, words, sizeof(T));
  return result;
}
} // namespace detail

template <class T> __device__ __forceinline__ T shuffle(const T &v, int src_lane) {
  if constexpr (std::is_arithmetic_v<T>)
    return warp_shfl(v, src_lane);
  else
    return detail::shuffle_words(v, [&](unsigned w) { return warp_shfl(w, src_lane); });
}
template <class T> __device__ __forceinline__ T shuffle_up(const T &v, unsigned delta) {
  if constexpr (std::is_arithmetic_v<T>)
    return warp_shfl_up(v, delta);
  else
    return detail::shuffle_words(v, [&](unsigned w) { return warp_shfl_up(w, delta); });
}
template <class T> __device__ __forceinline__ T shuffle_xor(const T &v, int lane_mask) {
  if constexpr (std::is_arithmetic_v<T>)
    return warp_shfl_xor(v, lane_mask);
  else
    return detail::shuffle_words(v, [&](unsigned w) { return warp_shfl_xor(w, lane_mask); });
}

// ---------------------------------------------------------------------------------------------
// Warp level
// ---------------------------------------------------------------------------------------------

#if KIT_DPP
// ---------------------------------------------------------------------------------------------
// DPP scans (AMD wave64 and the MI100 persona): six lane moves inside VALU instructions, where the
// shuffle version below takes six ds_bpermute round trips through the LDS crossbar (rocPRIM's
// warp_scan_dpp). Each move's result is used only in the lanes it reaches.
// ---------------------------------------------------------------------------------------------
namespace detail {
template <int kMove, int kRowMask, class T> __device__ __forceinline__ T dpp_move_any(const T &v) {
  return shuffle_words(v, [](unsigned w) { return dpp_move<kMove, kRowMask>(w); });
}
} // namespace detail

// Inclusive scan over the warp: within rows of 16 lanes by row_shr 1, 2, 4, 8, then across rows
// by row_bcast:15 (row 0's total into row 1, row 2's into row 3) and row_bcast:31 (the first half's
// total into rows 2 and 3). op(earlier, later) keeps the lanes' order.
template <class T, class Op> __device__ __forceinline__ T warp_inclusive_scan(T v, Op op) {
  static_assert(KIT_WARP_SIZE == 64, "the DPP scan covers a 64-lane wavefront");
  const int lane = lane_id();
  const int row_lane = lane & 15;
  T t = detail::dpp_move_any<kDppRowShr1, 0xf>(v);
  if (row_lane >= 1)
    v = op(t, v);
  t = detail::dpp_move_any<kDppRowShr2, 0xf>(v);
  if (row_lane >= 2)
    v = op(t, v);
  t = detail::dpp_move_any<kDppRowShr4, 0xf>(v);
  if (row_lane >= 4)
    v = op(t, v);
  t = detail::dpp_move_any<kDppRowShr8, 0xf>(v);
  if (row_lane >= 8)
    v = op(t, v);
  t = detail::dpp_move_any<kDppRowBcast15, 0xa>(v);
  if (lane & 16)
    v = op(t, v);
  t = detail::dpp_move_any<kDppRowBcast31, 0xc>(v);
  if (lane >= 32)
    v = op(t, v);
  return v;
}

// Reduction over the warp; every lane receives the result. rocPRIM's warp_reduce_dpp: the moves
// need no lane conditions (a condition per step costs scalar registers, which kernels near gfx908's
// 102 SGPRs cannot spare) because only the last lane's value is used, and every move reaches it
// from the lanes before it in order: quad swaps (lane 63 combines 62, then 60-61), row_shr 4 and 8
// (its row), row_bcast 15 and 31 (rows 2 and then 0-1 before it). One permute broadcasts it.
template <class T, class Op> __device__ __forceinline__ T warp_reduce(T v, Op op) {
  static_assert(KIT_WARP_SIZE == 64, "the DPP reduction covers a 64-lane wavefront");
  v = op(detail::dpp_move_any<kDppQuadSwap1, 0xf>(v), v);
  v = op(detail::dpp_move_any<kDppQuadSwap2, 0xf>(v), v);
  v = op(detail::dpp_move_any<kDppRowShr4, 0xf>(v), v);
  v = op(detail::dpp_move_any<kDppRowShr8, 0xf>(v), v);
  v = op(detail::dpp_move_any<kDppRowBcast15, 0xa>(v), v);
  v = op(detail::dpp_move_any<kDppRowBcast31, 0xc>(v), v);
  return shuffle(v, KIT_WARP_SIZE - 1);
}

// Exclusive scan over the warp; lane 0 receives `identity`. `warp_total` gets the inclusive
// result of the last lane.
template <class T, class Op>
__device__ __forceinline__ T warp_exclusive_scan(T v, Op op, T identity, T &warp_total) {
  const T inclusive = warp_inclusive_scan(v, op);
  warp_total = shuffle(inclusive, KIT_WARP_SIZE - 1);
  const T exclusive = detail::dpp_move_any<kDppWaveShr1, 0xf>(inclusive);
  return lane_id() == 0 ? identity : exclusive;
}

#else // shuffles

// Reduction over the warp; every lane receives the result (butterfly exchange: `op` must be
// commutative, as every reduction of the kit's is).
template <class T, class Op> __device__ __forceinline__ T warp_reduce(T v, Op op) {
#pragma unroll
  for (int offset = KIT_WARP_SIZE / 2; offset > 0; offset /= 2)
    v = op(v, shuffle_xor(v, offset));
  return v;
}

// Inclusive scan over the warp (Hillis-Steele with shfl_up: log2(warp) steps).
template <class T, class Op> __device__ __forceinline__ T warp_inclusive_scan(T v, Op op) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < KIT_WARP_SIZE; offset *= 2) {
    T other = shuffle_up(v, offset);
    if (lane >= offset)
      v = op(other, v);
  }
  return v;
}

// Exclusive scan over the warp; lane 0 receives `identity`. `warp_total` gets the inclusive
// result of the last lane.
template <class T, class Op>
__device__ __forceinline__ T warp_exclusive_scan(T v, Op op, T identity, T &warp_total) {
  T inclusive = warp_inclusive_scan(v, op);
  warp_total = shuffle(inclusive, KIT_WARP_SIZE - 1);
  T exclusive = shuffle_up(inclusive, 1);
  return lane_id() == 0 ? identity : exclusive;
}

#endif // KIT_DPP

// Maximum of a float over the warp, for values that are not NaN; every lane receives it. Where the
// vendor layer has a one-instruction warp reduction (KIT_WARP_REDUX: NVIDIA sm_80 and later) it
// runs on an order-preserving integer image of the float (negative values have their magnitude
// bits flipped), elsewhere a butterfly of shuffles.
__device__ __forceinline__ float warp_max(float x) {
#if KIT_WARP_REDUX
  const auto ordered = [](int bits) { return bits ^ ((bits >> 31) & 0x7fffffff); };
  return __int_as_float(ordered(warp_redux_max(ordered(__float_as_int(x)))));
#else
#pragma unroll
  for (int offset = KIT_WARP_SIZE / 2; offset > 0; offset /= 2)
    x = fmaxf(x, warp_shfl_xor(x, offset));
  return x;
#endif
}

#endif // device compilation

} // namespace kit
