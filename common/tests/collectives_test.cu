// Every warp and block collective against a CPU model, for block sizes 64..1024 (960 under the
// MI100 persona), several element types and operators, and a ragged tail (threads past N
// contribute the identity).
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "testing/test_support.h"

#include <algorithm>
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

template <int kBlock, class T, class Op>
void check_case(kit::test::Checker &check, std::mt19937_64 &rng, int warp, size_t n, T identity,
                T lo, T hi, const char *type_name) {
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
  }
}

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
  return check.finish("collectives_test");
}
