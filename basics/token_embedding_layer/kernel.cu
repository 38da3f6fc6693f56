// token_embedding_layer: for each of the B x T tokens, s = token_embeddings[token_ids[b][t]] +
// position_embeddings[position_ids[t]] (rows of D floats), then layer normalisation of s with
// its mean and biased variance: output[b][t] = gamma * (s - mean) / sqrt(var + eps) + beta
// (LeetGPU signature, device pointers; tolerance 1e-4 absolute and relative).
//
// Memory-bound: per output row, a gathered token row read (from DRAM: the judge's table is 92
// MB, its ids random) and the row written, 8 bytes per element; the position rows (at most T
// distinct), gamma and beta come from cache. The row pass is layer_normalization's on the row
// slices of primitives/rows.h, with a gather and an add in front:
//  - a row lives in registers from its loads to its store: up to 8 * 4 * warp columns (1024 on
//    NVIDIA, 2048 on AMD: the challenge's D <= 1024 always) a WARP owns a row, with no barrier
//    in its reductions; wider rows (outside the challenge's limits) belong to a 256-thread block
//    up to 4096 columns, past that to embed_layer_norm_wide (two passes over global memory);
//  - groups stride over the rows with at most the resident number of blocks; a group issues its
//    next row's loads before it reduces the current one, and reads the ids of the row after that
//    one iteration ahead, so a row's gather never waits for its ids;
//  - s is formed in float, as the judge forms it; its statistics take two passes over the
//    registers on the values shifted by the row's first value (layer_normalization's reasons:
//    two passes never cancel the way E[s^2] - mean^2 does, and the shift keeps the deviations
//    of rows far from zero exact);
//  - gamma and beta are read where the outputs are formed (from L1: 2 x 4 KB at most), not held
//    in registers beside three row slices;
//  - 16-byte loads and stores when D % 4 == 0 and the float pointers are 16-byte aligned (the
//    judge's D = 768), 4-byte ones otherwise, consecutive threads on consecutive addresses.
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/rows.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>

namespace {

namespace rows = kit::rows;

constexpr int kThreads = 256;

struct Args {
  const int *token_ids, *position_ids;
  const float *tokens, *positions, *gamma, *beta;
  float *out;
  long long rows; // B * T
  int T, D;
  float eps;
};

// The table rows of an output row r = b * T + t: token_ids is B x T row-major, so its element r
// is row r's token; the position is position_ids[t], t = r % T.
struct RowIds {
  int token = 0, position = 0;
};
__device__ __forceinline__ RowIds ids_of(const Args &a, long long r, int t) {
  return {a.token_ids[r], a.position_ids[t]};
}

// Resident blocks asked of the compiler. NVIDIA, the 16-byte layout at 6 vectors per lane
// (513..768 columns, the judge's 768): two blocks per multiprocessor, which caps the kernel at
// 128 registers (no spills on sm_90) where it would otherwise take more and leave room for one
// block of 8 warps. HIP reads the second __launch_bounds__ argument differently (waves per
// execution unit), so it gets none; nor do the other shapes (the 4-byte layout would spill).
template <int kVec, bool kVector> constexpr int min_blocks_per_sm() {
#if KIT_CUDA
  return kVec == 6 && kVector ? 2 : 1;
#else
  return 1;
#endif
}

template <bool kWarpRows, int kVec, bool kVector>
__global__ void __launch_bounds__(kThreads, (min_blocks_per_sm<kVec, kVector>()))
    embed_layer_norm(const Args a) {
  constexpr int kGroup = kWarpRows ? KIT_WARP_SIZE : kThreads;
  constexpr int kGroupsPerBlock = kThreads / kGroup;
  using Row = rows::Slice<kGroup, kVec, kVector>;
  __shared__ kit::BlockScratch<float, kThreads> scratch;
  const int t = static_cast<int>(threadIdx.x) % kGroup;
  const int D = a.D;
  const long long stride = static_cast<long long>(gridDim.x) * kGroupsPerBlock;
  long long row = static_cast<long long>(blockIdx.x) * kGroupsPerBlock + threadIdx.x / kGroup;
  const auto token_row = [&](RowIds ids) {
    return a.tokens + static_cast<std::size_t>(ids.token) * D;
  };
  const auto position_row = [&](RowIds ids) {
    return a.positions + static_cast<std::size_t>(ids.position) * D;
  };

  // The rows' positions advance by stride % T per step (wrapping at T): no division per row.
  const int position_step = static_cast<int>(stride % a.T);
  const auto advance = [&](int position) {
    position += position_step;
    return position >= a.T ? position - a.T : position;
  };

  Row tok, pos;
  float tok_first = 0.0f, pos_first = 0.0f; // column 0 of the loaded rows: the shift
  RowIds next_ids;                          // the ids of row + stride
  int next_position = 0;                    // (row + stride) % T
  if (row < a.rows) {
    const int position = static_cast<int>(row % a.T);
    const RowIds ids = ids_of(a, row, position);
    tok.load(token_row(ids), D, t);
    pos.load(position_row(ids), D, t);
    tok_first = *token_row(ids);
    pos_first = *position_row(ids);
    next_position = advance(position);
    if (row + stride < a.rows)
      next_ids = ids_of(a, row + stride, next_position);
  }
  for (; row < a.rows; row += stride) {
    Row x = tok; // s = token row + position row, in float; columns past D: 0 + 0
#pragma unroll
    for (int k = 0; k < kVec; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        Row::at(x.item[k], e) += Row::at(pos.item[k], e);
    const float pivot = tok_first + pos_first;
    if (row + stride < a.rows) { // in flight while this row is reduced
      tok.load(token_row(next_ids), D, t);
      pos.load(position_row(next_ids), D, t);
      tok_first = *token_row(next_ids);
      pos_first = *position_row(next_ids);
      next_position = advance(next_position);
      if (row + 2 * stride < a.rows)
        next_ids = ids_of(a, row + 2 * stride, next_position);
    }

    const rows::Moments m = rows::shifted_moments<kGroup, kThreads>(x, t, D, pivot, a.eps, scratch);
    // gamma and beta item by item (from L1): two more row slices held beside the three would
    // take as many registers again.
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      if constexpr (kVector) {
        const int c = Row::column(t, k, 0);
        const float4 g = c < D ? *reinterpret_cast<const float4 *>(a.gamma + c) : float4{};
        const float4 b = c < D ? *reinterpret_cast<const float4 *>(a.beta + c) : float4{};
#pragma unroll
        for (int e = 0; e < 4; ++e)
          Row::at(x.item[k], e) =
              Row::at(g, e) * ((Row::at(x.item[k], e) - m.mean) * m.inv_std) + Row::at(b, e);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int c = Row::column(t, k, e);
          if (c < D)
            Row::at(x.item[k], e) =
                a.gamma[c] * ((Row::at(x.item[k], e) - m.mean) * m.inv_std) + a.beta[c];
        }
      }
    }
    x.store(a.out + static_cast<std::size_t>(row) * D, D, t);
  }
}

// Rows wider than a block's registers hold (more than 4096 columns: beyond the challenge's
// limit, kept so that any D is correct): one block per row, the sums and sums of squares of s in
// double over a first read, the outputs from a second read.
__global__ void __launch_bounds__(kThreads) embed_layer_norm_wide(const Args a) {
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  const int D = a.D;
  for (long long row = blockIdx.x; row < a.rows; row += gridDim.x) {
    const RowIds ids = ids_of(a, row, static_cast<int>(row % a.T));
    const float *tok = a.tokens + static_cast<std::size_t>(ids.token) * D;
    const float *pos = a.positions + static_cast<std::size_t>(ids.position) * D;
    float *y = a.out + static_cast<std::size_t>(row) * D;
    double sum = 0.0, squares = 0.0;
    for (int c = threadIdx.x; c < D; c += kThreads) {
      const double v = tok[c] + pos[c];
      sum += v;
      squares += v * v;
    }
    const double mean = kit::block_reduce<kThreads>(sum, kit::Plus(), 0.0, scratch) / D;
    const double mean_square = kit::block_reduce<kThreads>(squares, kit::Plus(), 0.0, scratch) / D;
    const float inv_std =
        static_cast<float>(1.0 / sqrt(fmax(mean_square - mean * mean, 0.0) + a.eps));
    for (int c = threadIdx.x; c < D; c += kThreads)
      y[c] = a.gamma[c] * (static_cast<float>((tok[c] + pos[c]) - mean) * inv_std) + a.beta[c];
  }
}

template <int kVec> using Vec = std::integral_constant<int, kVec>;

// The row shapes of rows.h with one more: a warp with 6 vectors per lane, which holds the
// judge's 768 columns exactly on NVIDIA (8 would leave a quarter of the registers empty). A warp
// owns a row up to 8 vectors per lane on NVIDIA (1024 columns), up to 6 on AMD (1536: the
// challenge's 1024 fit in 4; at 8 the kernel spills scalar registers on gfx908); a 256-thread
// block up to 4096 columns; the wide kernel past that.
template <bool kVector> void dispatch(const Args &a, int warp) {
  const auto launch = [&](auto warp_rows, auto vec) {
    constexpr bool kWarpRows = decltype(warp_rows)::value;
    rows::launch_rows<embed_layer_norm<kWarpRows, decltype(vec)::value, kVector>, kThreads,
                      kWarpRows>("embed_layer_norm", a.rows, warp, a);
  };
  using Warp = std::integral_constant<bool, true>;
  using Block = std::integral_constant<bool, false>;
  switch (rows::vec_for(a.D, warp,
#if KIT_CUDA
                        {1, 2, 4, 6, 8}
#else
                        {1, 2, 4, 6}
#endif
                        )) {
  case 1:
    return launch(Warp{}, Vec<1>{});
  case 2:
    return launch(Warp{}, Vec<2>{});
  case 4:
    return launch(Warp{}, Vec<4>{});
  case 6:
    return launch(Warp{}, Vec<6>{});
#if KIT_CUDA
  case 8:
    return launch(Warp{}, Vec<8>{});
#endif
  default:
    break;
  }
  switch (rows::vec_for(a.D, kThreads, {2, 4})) {
  case 2:
    return launch(Block{}, Vec<2>{});
  case 4:
    return launch(Block{}, Vec<4>{});
  default:
    return rows::launch_rows<embed_layer_norm_wide, kThreads, false>("embed_layer_norm_wide",
                                                                     a.rows, warp, a);
  }
}

} // namespace

extern "C" void solve(const int *token_ids, const int *position_ids, const float *token_embeddings,
                      const float *position_embeddings, const float *gamma, const float *beta,
                      float *output, int B, int T, int V, int P, int D, float eps) {
  (void)V; // the tables' row counts: every id is below them (the challenge's promise)
  (void)P;
  if (B <= 0 || T <= 0 || D <= 0)
    return;
  static const int warp = kit::gpu::device_warp_size();
  const Args a{token_ids,
               position_ids,
               token_embeddings,
               position_embeddings,
               gamma,
               beta,
               output,
               static_cast<long long>(B) * T,
               T,
               D,
               eps};
  if (D % 4 == 0 && rows::aligned16(token_embeddings) && rows::aligned16(position_embeddings) &&
      rows::aligned16(gamma) && rows::aligned16(beta) && rows::aligned16(output))
    dispatch<true>(a, warp);
  else
    dispatch<false>(a, warp);
}
