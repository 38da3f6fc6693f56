// Every warp and block collective against a CPU model, for block sizes 64..1024 (960 under the
// MI100 persona), several element types and operators, and a ragged tail (threads past N
// contribute the identity); the scans also with an operator that does not commute, in every lane,
// so that op(earlier, later) is the order they apply. Where the DPP lane moves exist (HIP wave64,
// the MI100 persona), each move and row mask the collectives use, in every lane, against the
// lanes GFX9's DPP_CTRL encodings name (decoded here from the encoding, not from
// gpu/dpp_lane_moves.h).
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/dpp_lane_moves.h"
#include "testing/test_support.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>

namespace {

enum Output {
  kWarpReduce,
  kWarpInclusive,
  kWarpExclusive,
  kBlockReduce,
  kBlockInclusive,
  kBlockExclusive,
  kInclusiveTotal, // block_total reported by block_inclusive_scan
  kExclusiveTotal, // block_total reported by block_exclusive_scan
  kOutputs
};
const char *const kOutputNames[kOutputs] = {
    "warp_reduce",          "warp_inclusive_scan",  "warp_exclusive_scan",  "block_reduce",
    "block_inclusive_scan", "block_exclusive_scan", "inclusive scan total", "exclusive scan total"};

template <int kBlock, class T, class Op>
__global__ void collectives_kernel(const T *in, size_t n, T identity, T *out) {
  __shared__ kit::BlockScratch<T, kBlock> scratch;
  const size_t i = static_cast<size_t>(blockIdx.x) * kBlock + threadIdx.x;
  const size_t total = static_cast<size_t>(gridDim.x) * kBlock;
  const Op op;
  T v = i < n ? in[i] : identity;
  T warp_total;
  out[kWarpReduce * total + i] = kit::warp_reduce(v, op);
  out[kWarpInclusive * total + i] = kit::warp_inclusive_scan(v, op);
  out[kWarpExclusive * total + i] = kit::warp_exclusive_scan(v, op, identity, warp_total);
  out[kBlockReduce * total + i] = kit::block_reduce<kBlock>(v, op, identity, scratch);
  T block_total;
  out[kBlockInclusive * total + i] =
      kit::block_inclusive_scan<kBlock>(v, op, identity, block_total, scratch);
  out[kInclusiveTotal * total + i] = block_total;
  out[kBlockExclusive * total + i] =
      kit::block_exclusive_scan<kBlock>(v, op, identity, block_total, scratch);
  out[kExclusiveTotal * total + i] = block_total;
}

// x -> a x + b over 32-bit words (a in the low half, b in the high half of a 64-bit word):
// op(earlier, later) applies `earlier` first, so op(f, g) = g o f; associative, not commutative.
struct AffineThen {
  __host__ __device__ std::uint64_t operator()(std::uint64_t earlier, std::uint64_t later) const {
    const std::uint32_t a1 = static_cast<std::uint32_t>(earlier), b1 = earlier >> 32;
    const std::uint32_t a2 = static_cast<std::uint32_t>(later), b2 = later >> 32;
    return static_cast<std::uint64_t>(a2 * a1) | static_cast<std::uint64_t>(a2 * b1 + b2) << 32;
  }
};

// CPU model: segments of `segment` threads, scanned in thread order.
template <class T, class Op>
void model_segments(const std::vector<T> &v, size_t segment, T identity, T *reduce, T *inclusive,
                    T *exclusive) {
  const Op op;
  for (size_t start = 0; start < v.size(); start += segment) {
    T acc = identity;
    for (size_t j = start; j < start + segment; ++j) {
      exclusive[j] = acc;
      acc = op(acc, v[j]);
      inclusive[j] = acc;
    }
    for (size_t j = start; j < start + segment; ++j)
      reduce[j] = acc;
  }
}

// `commutative` false: only the scans are compared (the reductions combine lanes in a tree whose
// order only a commutative operator may ignore).
template <int kBlock, class T, class Op>
void check_case(kit::test::Checker &check, std::mt19937_64 &rng, int warp, size_t n, T identity,
                T lo, T hi, const char *type_name, bool commutative = true) {
  const unsigned blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  const size_t total = static_cast<size_t>(blocks) * kBlock;
  std::vector<T> input(n);
  for (auto &x : input) {
    if constexpr (std::is_floating_point_v<T>)
      x = std::uniform_real_distribution<T>(lo, hi)(rng);
    else
      x = std::uniform_int_distribution<T>(lo, hi)(rng);
  }
  kit::test::DeviceBuffer<T> d_in(n), d_out(kOutputs * total);
  d_in.upload(input);
  collectives_kernel<kBlock, T, Op><<<blocks, kBlock>>>(d_in.get(), n, identity, d_out.get());
  GPU_CHECK_LAUNCH("collectives_kernel");
  std::vector<T> got = d_out.download();

  std::vector<T> padded(input);
  padded.resize(total, identity);
  std::vector<T> want(kOutputs * total);
  model_segments<T, Op>(padded, warp, identity, &want[kWarpReduce * total],
                        &want[kWarpInclusive * total], &want[kWarpExclusive * total]);
  model_segments<T, Op>(padded, kBlock, identity, &want[kBlockReduce * total],
                        &want[kBlockInclusive * total], &want[kBlockExclusive * total]);
  std::copy(&want[kBlockReduce * total], &want[kBlockReduce * total] + total,
            &want[kInclusiveTotal * total]);
  std::copy(&want[kBlockReduce * total], &want[kBlockReduce * total] + total,
            &want[kExclusiveTotal * total]);
  for (int o = 0; o < kOutputs; ++o) {
    if (!commutative && (o == kWarpReduce || o == kBlockReduce))
      continue;
    std::vector<T> g(got.begin() + o * total, got.begin() + (o + 1) * total);
    std::vector<T> w(want.begin() + o * total, want.begin() + (o + 1) * total);
    char what[160];
    std::snprintf(what, sizeof what, "%s<%s> block=%d n=%zu", kOutputNames[o], type_name, kBlock,
                  n);
    check.expect_equal(g, w, what);
  }
}

template <int kBlock>
void check_block_size(kit::test::Checker &check, std::mt19937_64 &rng, int warp) {
  // Ragged sizes: a lone element, part of a warp, one warp +- 1, full blocks minus one, several
  // blocks with a tail.
  const size_t sizes[] = {
      1,      static_cast<size_t>(warp) - 1,       static_cast<size_t>(warp) + 1, kBlock - 1,
      kBlock, 7 * static_cast<size_t>(kBlock) + 13};
  for (size_t n : sizes) {
    check_case<kBlock, int, kit::Plus>(check, rng, warp, n, 0, -1000, 1000, "int,plus");
    check_case<kBlock, std::uint64_t, kit::Plus>(check, rng, warp, n, 0, 0, ~0ull >> 8, "u64,plus");
    check_case<kBlock, int, kit::Min>(check, rng, warp, n, std::numeric_limits<int>::max(),
                                      -1000000, 1000000, "int,min");
    check_case<kBlock, float, kit::Max>(
        check, rng, warp, n, -std::numeric_limits<float>::infinity(), -50.f, 50.f, "float,max");
    check_case<kBlock, double, kit::Max>(
        check, rng, warp, n, -std::numeric_limits<double>::infinity(), -1e300, 1e300, "double,max");
    check_case<kBlock, std::uint64_t, AffineThen>(check, rng, warp, n, 1, 0, ~0ull, "affine,then",
                                                  false);
  }
}

#if KIT_DPP
// The lane whose value DPP_CTRL `encoding` brings to `lane` of a 64-lane wavefront, or -1 where
// it brings none (CDNA1 ISA, "DPP_CTRL Enumeration"): 0x00-0xff quad_perm (two bits per lane of
// the quad), 0x111-0x11f row_shr:1-15 within rows of 16, 0x138 wave_shr:1, 0x142 row_bcast:15
// (lane 15 of each row to the next row), 0x143 row_bcast:31 (lane 31 to rows 2 and 3).
int isa_dpp_source(int encoding, int lane) {
  const int row = lane / 16, in_row = lane % 16;
  if (encoding <= 0xff)
    return (lane & ~3) | ((encoding >> (2 * (lane & 3))) & 3);
  if (encoding > 0x110 && encoding <= 0x11f)
    return in_row >= encoding - 0x110 ? lane - (encoding - 0x110) : -1;
  if (encoding == 0x138)
    return lane == 0 ? -1 : lane - 1;
  if (encoding == 0x142)
    return row == 0 ? -1 : 16 * row - 1;
  if (encoding == 0x143)
    return row < 2 ? -1 : 31;
  return -2; // not an encoding the kit uses
}

template <int kMove, int kRowMask> __global__ void dpp_kernel(unsigned *out) {
  const unsigned v = 1000u + threadIdx.x; // never 0, the value of a lane the move leaves out
  out[blockIdx.x * blockDim.x + threadIdx.x] = kit::dpp_move<kMove, kRowMask>(v);
}

// One move with one row mask, two wavefronts of a 128-thread block: the source lane's value where
// the move reaches and the mask enables the row, `old` (0) elsewhere, with bound_ctrl off.
template <int kMove, int kRowMask> void check_dpp(kit::test::Checker &check) {
  constexpr int kThreads = 128;
  kit::test::DeviceBuffer<unsigned> d_out(kThreads);
  dpp_kernel<kMove, kRowMask><<<1, kThreads>>>(d_out.get());
  GPU_CHECK_LAUNCH("dpp_kernel");
  const std::vector<unsigned> got = d_out.download();
  std::vector<unsigned> want(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    const int lane = t % 64, source = isa_dpp_source(kMove, lane);
    const bool row_on = (kRowMask >> (lane / 16)) & 1;
    want[t] = row_on && source >= 0 ? 1000u + static_cast<unsigned>(t - lane + source) : 0u;
  }
  char what[80];
  std::snprintf(what, sizeof what, "dpp_move<0x%x, row_mask 0x%x>", kMove, kRowMask);
  check.expect(isa_dpp_source(kMove, 0) != -2, what);
  check.expect_equal(got, want, what);
}

template <int kMove> void check_dpp_masks(kit::test::Checker &check) {
  check_dpp<kMove, 0xf>(check);
  check_dpp<kMove, 0xa>(check);
  check_dpp<kMove, 0xc>(check);
  check_dpp<kMove, 0x5>(check);
  check_dpp<kMove, 0x1>(check);
}

void check_dpp_moves(kit::test::Checker &check) {
  check_dpp_masks<kit::kDppQuadSwap1>(check);
  check_dpp_masks<kit::kDppQuadSwap2>(check);
  check_dpp_masks<kit::kDppRowShr1>(check);
  check_dpp_masks<kit::kDppRowShr2>(check);
  check_dpp_masks<kit::kDppRowShr4>(check);
  check_dpp_masks<kit::kDppRowShr8>(check);
  check_dpp_masks<kit::kDppWaveShr1>(check);
  check_dpp_masks<kit::kDppRowBcast15>(check);
  check_dpp_masks<kit::kDppRowBcast31>(check);
}
#endif

} // namespace

int main() {
  kit::test::begin_gpu_test("collectives_test");
  const int warp = kit::gpu::device_warp_size();
  std::printf("device warp size %d\n", warp);
  kit::test::Checker check;
  std::mt19937_64 rng(20261121);
  check_block_size<64>(check, rng, warp);
  check_block_size<128>(check, rng, warp);
  check_block_size<192>(check, rng, warp);
  check_block_size<256>(check, rng, warp);
  check_block_size<320>(check, rng, warp);
  check_block_size<512>(check, rng, warp);
  check_block_size<kit::test::kLargestBlock>(check, rng, warp);
#if KIT_DPP
  check_dpp_moves(check);
#else
  std::printf("DPP lane moves: not compiled here (HIP wave64 and the MI100 persona have them)\n");
#endif
  return check.finish("collectives_test");
}
