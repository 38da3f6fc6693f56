// The kit's matrix-core layer: one warp (wavefront) multiplies a 32 x kDepth tile of A by a
// kDepth x 32 tile of B into a 32 x 32 accumulator tile, on whatever matrix unit the target has,
// behind a logical interface that never shows the fragment layout.
//
// Interface (namespace kit::mma; every function is called by all lanes of a warp together):
//   Kind::F16  fp16 x fp16 -> fp32 sums; Element = std::uint16_t (fp16 bits), kDepth = 16
//   Kind::I8   int8 x int8 -> int32 sums; Element = std::int8_t, kDepth = 32
//   using Tile = kit::mma::WarpTile<Kind::F16>;  // Tile::Element, Tile::Accum, Tile::kDepth
//   Tile::Acc acc;  Tile::zero(acc);
//   Tile::A a;  Tile::load_a(a, tile_a, lda);    // A(r, k) = tile_a[r * lda + k]
//   Tile::B b;  Tile::load_b<BLayout::DepthByCols>(b, tile_b, ldb);  // B(k, c) = tile_b[k*ldb + c]
//          or   Tile::load_b<BLayout::ColsByDepth>(b, tile_b, ldb);  // B(k, c) = tile_b[c*ldb + k]
//   Tile::mma(acc, a, b);                        // acc += A B, 32 x 32
//   Tile::visit(acc, f);  // f(row, col, value) for each element this lane holds; row, col < 32
// The tiles lie in SHARED memory: the tile's start and every row start (ld * sizeof(Element) a
// multiple of 16 bytes) are 16-byte aligned, and they stay unchanged until the mma() that consumes
// the fragments (the FMA fallback's fragments refer to them). Lanes hold disjoint accumulator
// elements and together hold all 32 x 32; which lane holds which is the implementation's business.
// visit() hands a lane its kTileRows * kTileCols / KIT_WARP_SIZE elements in the same order on
// every call, so a caller may keep per-lane arrays indexed by that position (int4_matmul keeps its
// FP32 totals so).
//
// Implementations (chosen at compile time, the same interface and results up to the order of
// the fp32 sums):
// - NVIDIA sm_80 and later: mma.sync m16n8k16 (f16 -> f32) and m16n8k32 (s8 -> s32); A and B come
//   through ldmatrix (.trans for fp16 B stored depth x cols), int8 B stored depth x cols through
//   byte loads (ldmatrix has no 8-bit transpose). A warp tile is 2 x 4 instructions per k-step.
// - AMD gfx908 / gfx90a (wave64): v_mfma_f32_32x32x8f16 (2 per k-step of 16) and
//   v_mfma_i32_32x32x8i8 (4 per k-step of 32), through the compiler builtins. Lane layouts of the
//   single-block 32x32 MFMA as the AMD CDNA1 ISA documents them (section "Matrix fused
//   multiply-add"): A(i, k) in lane i + 32 * (k / 4), element k % 4 of its 4-wide operand; B(k, j)
//   in lane j + 32 * (k / 4), element k % 4; D(i, j) in lane j + 32 * ((i / 4) % 2), accumulator
//   register 4 * (i / 8) + i % 4.
// - anything else (NVIDIA before sm_80, AMD without MFMA): plain FMAs from the shared tiles, the
//   accumulator element e * KIT_WARP_SIZE + lane (row-major over 32 x 32) in register e; its fp32
//   sums are one fused multiply-add chain per element. The matrix units sum their products in an
//   order of their own (exact products, fp32 sums). int32 sums are exact (they wrap on overflow,
//   as the hardware's do).
//
// Under the MI100 persona (CUDA build, KIT_PERSONA_GFX908) the gfx908 code is compiled with each
// MFMA replaced by an emulation of that instruction over the 64-lane persona group (operands
// exchanged through the persona's per-lane shared-memory slots and its group barrier; fp32 sums as
// one fused multiply-add chain), so that the wave64 fragment logic above runs, and is tested, on
// the NVIDIA GPU.
#pragma once

#include "gpu/half.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace kit::mma {

// The element kinds.
enum class Kind {
  F16, // fp16 x fp16, fp32 accumulators
  I8,  // int8 x int8, int32 accumulators
};

// How B lies in shared memory (the names of primitives/gemm.h). A is always rows x depth,
// row-major.
enum class BLayout {
  DepthByCols, // B(k, c) at b[k * ldb + c] (C = A B)
  ColsByDepth, // B(k, c) at b[c * ldb + k] (C = A W^T)
};

// The logical warp tile: 32 x 32 outputs per warp, kDepth inner elements per mma().
inline constexpr int kTileRows = 32;
inline constexpr int kTileCols = 32;

template <Kind K> struct KindTraits;
template <> struct KindTraits<Kind::F16> {
  using Element = std::uint16_t; // fp16 bits (the vendor's __half has no trivial constructor)
  using Accum = float;
  static constexpr int kDepth = 16;
};
template <> struct KindTraits<Kind::I8> {
  using Element = std::int8_t;
  using Accum = std::int32_t;
  static constexpr int kDepth = 32;
};

// Bytes of one k-step of a row (both kinds: 32) and the alignment every row start must have.
inline constexpr int kRowBytes = 32;
inline constexpr int kRowAlignBytes = 16;

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

namespace detail {

__device__ __forceinline__ float half_bits_to_float(std::uint16_t bits) {
  return __half2float(__ushort_as_half(bits));
}

template <class T> __device__ __forceinline__ T load_shared(const void *p) {
  return *reinterpret_cast<const T *>(p);
}

} // namespace detail

// =============================================================================================
// NVIDIA: mma.sync and ldmatrix.
// =============================================================================================
// The implementation is chosen by the backend's own macros (so that an export for one compiler
// keeps only its branch): NVIDIA sm_80+, then MFMA (gfx908, gfx90a, the persona), then FMAs.
#if KIT_CUDA && !defined(KIT_PERSONA_GFX908) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

namespace detail {

// Four 8 x 8 matrices of 16-bit elements (8 rows of 16 bytes each): lanes 8j..8j+7 give the row
// addresses of matrix j; register j of lane t receives matrix j's row t / 4, 32-bit word t % 4
// (with .trans: the transposed matrix's). Both kinds use it on 16-byte rows.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void *row_address) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row_address));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void *row_address) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row_address));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

__device__ __forceinline__ void mma_16x8(float (&d)[4], const std::uint32_t (&a)[4],
                                         const std::uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma_16x8(std::int32_t (&d)[4], const std::uint32_t (&a)[4],
                                         const std::uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

} // namespace detail

// The warp tile as 2 x 4 instructions of 16 x 8. In 32-bit words both kinds have the same
// fragments (a word holds two fp16 or four int8 consecutive along k): with g = lane / 4 and
// c = lane % 4, A's registers 0..3 hold (row g, word c), (g + 8, c), (g, c + 4), (g + 8, c + 4) of
// the instruction's 16 x 32-byte A; B's registers 0..1 hold (column g, word c) and (g, c + 4); the
// accumulators 0..3 hold (row g, columns 2c and 2c + 1) and (row g + 8, the same columns).
template <Kind K> struct WarpTile {
  using Element = typename KindTraits<K>::Element;
  using Accum = typename KindTraits<K>::Accum;
  static constexpr int kDepth = KindTraits<K>::kDepth;

  struct A {
    std::uint32_t r[2][4]; // [row half of the tile][register]
  };
  struct B {
    std::uint32_t r[4][2]; // [8-column group][register]
  };
  struct Acc {
    Accum v[2][4][4]; // [row half][8-column group][register]
  };

  __device__ static void zero(Acc &acc) {
#pragma unroll
    for (int m = 0; m < 2; ++m)
#pragma unroll
      for (int n = 0; n < 4; ++n)
#pragma unroll
        for (int i = 0; i < 4; ++i)
          acc.v[m][n][i] = Accum(0);
  }

  // Matrices 0..3 of each ldmatrix: rows 0-7 bytes 0-15, rows 8-15 bytes 0-15, rows 0-7 bytes
  // 16-31, rows 8-15 bytes 16-31: exactly registers 0..3 of the instruction's A.
  __device__ static void load_a(A &a, const Element *tile, int ld) {
    const int lane = lane_id() % 32;
    const int row = lane % 8 + 8 * ((lane / 8) % 2);
    const int byte = 16 * (lane / 16);
    const char *base = reinterpret_cast<const char *>(tile);
#pragma unroll
    for (int m = 0; m < 2; ++m)
      detail::ldmatrix_x4(
          a.r[m], base + static_cast<std::size_t>(16 * m + row) * ld * sizeof(Element) + byte);
  }

  template <BLayout kLayout> __device__ static void load_b(B &b, const Element *tile, int ld) {
    const int lane = lane_id() % 32;
    const char *base = reinterpret_cast<const char *>(tile);
    if constexpr (kLayout == BLayout::ColsByDepth) {
      // Column-major B is row-major B^T: matrices (columns 0-7, bytes 0-15), (0-7, 16-31),
      // (8-15, 0-15), (8-15, 16-31) of a pair of 8-column groups.
      const int col = lane % 8 + 8 * (lane / 16);
      const int byte = 16 * ((lane / 8) % 2);
#pragma unroll
      for (int pair = 0; pair < 2; ++pair) {
        std::uint32_t r[4];
        detail::ldmatrix_x4(
            r, base + static_cast<std::size_t>(16 * pair + col) * ld * sizeof(Element) + byte);
        b.r[2 * pair][0] = r[0];
        b.r[2 * pair][1] = r[1];
        b.r[2 * pair + 1][0] = r[2];
        b.r[2 * pair + 1][1] = r[3];
      }
    } else if constexpr (K == Kind::F16) {
      // Rows are k: the transposing load gives lane t the depths 2(t % 4), 2(t % 4) + 1 of column
      // t / 4. Matrices (k 0-7, columns 0-7), (k 8-15, 0-7), (k 0-7, 8-15), (k 8-15, 8-15).
      const int k = lane % 8 + 8 * ((lane / 8) % 2);
      const int col = 8 * (lane / 16);
#pragma unroll
      for (int pair = 0; pair < 2; ++pair) {
        std::uint32_t r[4];
        detail::ldmatrix_x4_trans(r, tile + static_cast<std::size_t>(k) * ld + 16 * pair + col);
        b.r[2 * pair][0] = r[0];
        b.r[2 * pair][1] = r[1];
        b.r[2 * pair + 1][0] = r[2];
        b.r[2 * pair + 1][1] = r[3];
      }
    } else {
      // int8 depth x cols: four bytes per register, lowest depth in the lowest byte.
      const int g = lane / 4, c = lane % 4;
      const auto *bytes = reinterpret_cast<const std::uint8_t *>(tile);
#pragma unroll
      for (int n = 0; n < 4; ++n)
#pragma unroll
        for (int q = 0; q < 2; ++q) {
          std::uint32_t word = 0;
#pragma unroll
          for (int e = 0; e < 4; ++e)
            word |= static_cast<std::uint32_t>(
                        bytes[static_cast<std::size_t>(16 * q + 4 * c + e) * ld + 8 * n + g])
                    << (8 * e);
          b.r[n][q] = word;
        }
    }
  }

  __device__ static void mma(Acc &acc, const A &a, const B &b) {
#pragma unroll
    for (int m = 0; m < 2; ++m)
#pragma unroll
      for (int n = 0; n < 4; ++n)
        detail::mma_16x8(acc.v[m][n], a.r[m], b.r[n]);
  }

  template <class F> __device__ static void visit(const Acc &acc, F &&f) {
    const int lane = lane_id() % 32;
    const int g = lane / 4, c = lane % 4;
#pragma unroll
    for (int m = 0; m < 2; ++m)
#pragma unroll
      for (int n = 0; n < 4; ++n)
#pragma unroll
        for (int i = 0; i < 4; ++i)
          f(16 * m + g + 8 * (i / 2), 8 * n + 2 * c + i % 2, acc.v[m][n][i]);
  }
};

// =============================================================================================
// AMD MFMA (gfx908 / gfx90a), and its emulation under the MI100 persona.
// =============================================================================================
#elif (KIT_HIP && (defined(__gfx908__) || defined(__gfx90a__))) || defined(KIT_PERSONA_GFX908)

namespace detail {

#if defined(KIT_PERSONA_GFX908)
template <class Accum> struct MfmaAccumulators { Accum v[16]; };

// One 32x32x8 MFMA over the persona's 64-lane group, lane for lane as the ISA defines it. Each
// lane's operand (four fp16 in 64 bits, or four int8 in 32) is published in its exchange slot; a
// lane then reads, for its 16 accumulators (column j = lane % 32, rows 8(r / 4) + 4(lane / 32) +
// r % 4), the A operands of lanes i and i + 32 and the B operands of lanes j and j + 32.
template <class Accum, class Unpack>
__device__ void emulate_mfma_32x32x8(MfmaAccumulators<Accum> &acc, std::uint64_t a_operand,
                                     std::uint64_t b_operand, Unpack unpack) {
  unsigned long long *const slots = persona::exchange_slots() + persona::group() * 64;
  const int lane = persona::lane();
  const int col = lane % 32;
  Accum b_column[8];
  slots[lane] = b_operand;
  persona::group_barrier();
  unpack(slots[col], b_column);
  unpack(slots[col + 32], b_column + 4);
  persona::group_barrier();
  slots[lane] = a_operand;
  persona::group_barrier();
#pragma unroll
  for (int r = 0; r < 16; ++r) {
    const int row = 8 * (r / 4) + 4 * (lane / 32) + r % 4;
    Accum a_row[8];
    unpack(slots[row], a_row);
    unpack(slots[row + 32], a_row + 4);
    Accum sum = acc.v[r];
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      if constexpr (std::is_floating_point_v<Accum>)
        sum = fmaf(a_row[k], b_column[k], sum);
      else // int32: wrap-around arithmetic, as the hardware's
        sum = static_cast<Accum>(static_cast<std::uint32_t>(sum) +
                                 static_cast<std::uint32_t>(a_row[k] * b_column[k]));
    }
    acc.v[r] = sum;
  }
  persona::group_barrier(); // every lane has read before the slots are written again
}

__device__ __forceinline__ void mfma_f16(MfmaAccumulators<float> &acc, std::uint64_t a,
                                         std::uint64_t b) {
  emulate_mfma_32x32x8(acc, a, b, [](unsigned long long bits, float *out) {
#pragma unroll
    for (int e = 0; e < 4; ++e)
      out[e] = half_bits_to_float(static_cast<std::uint16_t>(bits >> (16 * e)));
  });
}
__device__ __forceinline__ void mfma_i8(MfmaAccumulators<std::int32_t> &acc, std::uint32_t a,
                                        std::uint32_t b) {
  emulate_mfma_32x32x8(acc, a, b, [](unsigned long long bits, std::int32_t *out) {
#pragma unroll
    for (int e = 0; e < 4; ++e)
      out[e] = static_cast<std::int8_t>(static_cast<std::uint8_t>(bits >> (8 * e)));
  });
}
#else
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef int i32x16 __attribute__((ext_vector_type(16)));
typedef _Float16 f16x4 __attribute__((ext_vector_type(4)));

template <class Accum> struct MfmaAccumulators;
template <> struct MfmaAccumulators<float> { f32x16 v; };
template <> struct MfmaAccumulators<std::int32_t> { i32x16 v; };

__device__ __forceinline__ void mfma_f16(MfmaAccumulators<float> &acc, std::uint64_t a,
                                         std::uint64_t b) {
  acc.v = __builtin_amdgcn_mfma_f32_32x32x8f16(__builtin_bit_cast(f16x4, a),
                                               __builtin_bit_cast(f16x4, b), acc.v, 0, 0, 0);
}
__device__ __forceinline__ void mfma_i8(MfmaAccumulators<std::int32_t> &acc, std::uint32_t a,
                                        std::uint32_t b) {
  acc.v =
      __builtin_amdgcn_mfma_i32_32x32x8i8(static_cast<int>(a), static_cast<int>(b), acc.v, 0, 0, 0);
}
#endif

} // namespace detail

// The warp tile as 32x32x8 MFMAs: kDepth / 8 per k-step. Operand i of a lane covers depths
// 8i + 4(lane / 32) .. + 3 of row (A) or column (B) lane % 32: 8 bytes of fp16 or 4 of int8.
template <Kind K> struct WarpTile {
  using Element = typename KindTraits<K>::Element;
  using Accum = typename KindTraits<K>::Accum;
  static constexpr int kDepth = KindTraits<K>::kDepth;
  static constexpr int kSteps = kDepth / 8; // MFMAs per k-step
  using Operand = std::conditional_t<K == Kind::F16, std::uint64_t, std::uint32_t>;

  struct A {
    Operand r[kSteps];
  };
  struct B {
    Operand r[kSteps];
  };
  struct Acc {
    detail::MfmaAccumulators<Accum> m;
  };

  __device__ static void zero(Acc &acc) {
#pragma unroll
    for (int i = 0; i < 16; ++i)
      acc.m.v[i] = Accum(0);
  }

  __device__ static void load_a(A &a, const Element *tile, int ld) {
    const int lane = lane_id();
    const Element *row = tile + static_cast<std::size_t>(lane % 32) * ld + 4 * (lane / 32);
#pragma unroll
    for (int i = 0; i < kSteps; ++i)
      a.r[i] = detail::load_shared<Operand>(row + 8 * i);
  }

  template <BLayout kLayout> __device__ static void load_b(B &b, const Element *tile, int ld) {
    const int lane = lane_id();
    const int col = lane % 32, k0 = 4 * (lane / 32);
#pragma unroll
    for (int i = 0; i < kSteps; ++i) {
      if constexpr (kLayout == BLayout::ColsByDepth) {
        b.r[i] =
            detail::load_shared<Operand>(tile + static_cast<std::size_t>(col) * ld + 8 * i + k0);
      } else {
        // Four elements down a column, lowest depth in the lowest bits.
        Operand word = 0;
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          using Unsigned = std::make_unsigned_t<Element>;
          const Unsigned bits =
              static_cast<Unsigned>(tile[static_cast<std::size_t>(8 * i + k0 + e) * ld + col]);
          word |= static_cast<Operand>(bits) << (8 * sizeof(Element) * e);
        }
        b.r[i] = word;
      }
    }
  }

  __device__ static void mma(Acc &acc, const A &a, const B &b) {
#pragma unroll
    for (int i = 0; i < kSteps; ++i) {
      if constexpr (K == Kind::F16)
        detail::mfma_f16(acc.m, a.r[i], b.r[i]);
      else
        detail::mfma_i8(acc.m, a.r[i], b.r[i]);
    }
  }

  template <class F> __device__ static void visit(const Acc &acc, F &&f) {
    const int lane = lane_id();
#pragma unroll
    for (int r = 0; r < 16; ++r)
      f(8 * (r / 4) + 4 * (lane / 32) + r % 4, lane % 32, static_cast<Accum>(acc.m.v[r]));
  }
};

// =============================================================================================
// SIMT fallback: FMAs straight from the shared tiles.
// =============================================================================================
#else

template <Kind K> struct WarpTile {
  using Element = typename KindTraits<K>::Element;
  using Accum = typename KindTraits<K>::Accum;
  static constexpr int kDepth = KindTraits<K>::kDepth;
  static constexpr int kPerLane = kTileRows * kTileCols / KIT_WARP_SIZE;

  // The fragments are views of the shared tiles: element (row or column i, depth k) at
  // base[i * outer + k * inner].
  struct A {
    const Element *base;
    int ld;
  };
  struct B {
    const Element *base;
    int col_stride;
    int depth_stride;
  };
  struct Acc {
    Accum v[kPerLane];
  };

  __device__ static float value(std::uint16_t bits) { return detail::half_bits_to_float(bits); }
  __device__ static std::int32_t value(std::int8_t x) { return x; }

  __device__ static void zero(Acc &acc) {
#pragma unroll
    for (int e = 0; e < kPerLane; ++e)
      acc.v[e] = Accum(0);
  }
  __device__ static void load_a(A &a, const Element *tile, int ld) { a = A{tile, ld}; }
  template <BLayout kLayout> __device__ static void load_b(B &b, const Element *tile, int ld) {
    b = kLayout == BLayout::DepthByCols ? B{tile, 1, ld} : B{tile, ld, 1};
  }
  __device__ static void mma(Acc &acc, const A &a, const B &b) {
    const int lane = lane_id();
#pragma unroll
    for (int e = 0; e < kPerLane; ++e) {
      const int index = e * KIT_WARP_SIZE + lane;
      const int row = index / kTileCols, col = index % kTileCols;
      Accum sum = acc.v[e];
      for (int k = 0; k < kDepth; ++k) {
        const Accum x = value(a.base[row * a.ld + k]);
        const Accum y = value(b.base[col * b.col_stride + k * b.depth_stride]);
        if constexpr (K == Kind::F16)
          sum = fmaf(x, y, sum);
        else
          sum = static_cast<Accum>(static_cast<std::uint32_t>(sum) +
                                   static_cast<std::uint32_t>(x * y));
      }
      acc.v[e] = sum;
    }
  }
  template <class F> __device__ static void visit(const Acc &acc, F &&f) {
    const int lane = lane_id();
#pragma unroll
    for (int e = 0; e < kPerLane; ++e) {
      const int index = e * KIT_WARP_SIZE + lane;
      f(index / kTileCols, index % kTileCols, acc.v[e]);
    }
  }
};

#endif

#endif // device compilation

} // namespace kit::mma
