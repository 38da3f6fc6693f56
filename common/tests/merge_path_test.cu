// The merge path on its own (primitives/merge_path.h): the warp-cooperative split at every tile
// boundary against a host search, and the block merge against std::merge, on unsigned keys whose
// low bit says which run an element came from and is ignored by the order. Equal keys therefore
// differ in their bits, so a merge that is not stable (B's element before A's on a tie) fails.
// Block sizes 64, 128 and 256 (whole 64-lane groups under the MI100 persona), 1, 7 and 15 outputs
// per thread; sizes 0 to 2, 31 to 65, tile edges and large runs; one side empty; all keys equal,
// few distinct keys, interleaved and disjoint runs; inputs 16-byte aligned (vector staging) and
// one element off (element by element); outputs poisoned before every run.
#include "gpu/check.h"
#include "gpu/device.h"
#include "primitives/merge_path.h"
#include "testing/test_support.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

namespace mp = kit::merge_path;

// Orders by key (value >> 1); the low bit is the source tag (0 for A, 1 for B).
struct KeyLess {
  __host__ __device__ bool operator()(unsigned x, unsigned y) const { return (x >> 1) < (y >> 1); }
};

template <int kThreads, int kItems>
__global__ void __launch_bounds__(kThreads)
    merge_kernel(const unsigned *a, long long m, const unsigned *b, long long n, unsigned *c,
                 const int *splits, bool vector_ok) {
  __shared__ mp::BlockStorage<unsigned, kThreads * kItems> storage;
  mp::merge_block<kThreads, kItems>(a, m, b, n, c, splits, blockIdx.x, vector_ok, storage,
                                    KeyLess());
}

enum class Keys { wide, few, all_equal, interleaved, a_below_b, b_below_a };

const char *name_of(Keys keys) {
  switch (keys) {
  case Keys::wide:
    return "wide";
  case Keys::few:
    return "few";
  case Keys::all_equal:
    return "all-equal";
  case Keys::interleaved:
    return "interleaved";
  case Keys::a_below_b:
    return "A-below-B";
  case Keys::b_below_a:
    return "B-below-A";
  }
  return "?";
}

// A sorted run of `size` keys of the given shape, tagged with `source`.
std::vector<unsigned> make_run(std::mt19937 &rng, std::size_t size, Keys keys, unsigned source) {
  std::vector<unsigned> run(size);
  for (std::size_t i = 0; i < size; ++i) {
    unsigned key = 0;
    switch (keys) {
    case Keys::wide:
      key = rng() % (1u << 20);
      break;
    case Keys::few:
      key = rng() % 4;
      break;
    case Keys::all_equal:
      key = 7;
      break;
    case Keys::interleaved:
      key = static_cast<unsigned>(2 * i + source);
      break;
    case Keys::a_below_b:
      key = static_cast<unsigned>(i + (source == 0 ? 0 : 1u << 28));
      break;
    case Keys::b_below_a:
      key = static_cast<unsigned>(i + (source == 1 ? 0 : 1u << 28));
      break;
    }
    run[i] = key << 1 | source;
  }
  std::sort(run.begin(), run.end());
  return run;
}

// Device copy of `host` starting `shift` elements into its buffer (shift 1: not 16-byte aligned).
struct ShiftedInput {
  kit::test::DeviceBuffer<unsigned> buffer;
  unsigned *data;
  ShiftedInput(const std::vector<unsigned> &host, int shift)
      : buffer(host.size() + 4), data(buffer.get() + shift) {
    if (!host.empty())
      GPU_CHECK(
          cudaMemcpy(data, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  }
};

template <int kThreads, int kItems>
void check_merge(kit::test::Checker &check, std::mt19937 &rng, int warp, std::size_t m,
                 std::size_t n, Keys keys, int shift) {
  constexpr long long kTile = kThreads * kItems;
  const std::vector<unsigned> a = make_run(rng, m, keys, 0), b = make_run(rng, n, keys, 1);
  std::vector<unsigned> want(m + n);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), KeyLess());
  const std::string what = std::to_string(kThreads) + " threads x " + std::to_string(kItems) +
                           ", m=" + std::to_string(m) + ", n=" + std::to_string(n) + ", " +
                           name_of(keys) + (shift ? ", misaligned" : "");

  const long long total = static_cast<long long>(m + n);
  const long long tiles = (total + kTile - 1) / kTile;
  ShiftedInput d_a(a, shift), d_b(b, shift);
  kit::test::DeviceBuffer<unsigned> d_c(m + n + 4);
  kit::test::DeviceBuffer<int> d_splits(static_cast<std::size_t>(tiles) + 1);
  unsigned *c = d_c.get() + shift;

  mp::partition(d_a.data, static_cast<long long>(m), d_b.data, static_cast<long long>(n), kTile,
                tiles, d_splits.get(), warp, KeyLess());
  GPU_CHECK_LAUNCH("merge_path::partition_kernel");
  std::vector<int> want_splits(static_cast<std::size_t>(tiles) + 1);
  for (long long t = 0; t <= tiles; ++t)
    want_splits[static_cast<std::size_t>(t)] = static_cast<int>(
        mp::split(a.data(), static_cast<long long>(m), b.data(), static_cast<long long>(n),
                  std::min(t * kTile, total), KeyLess()));
  check.expect_equal(d_splits.download(), want_splits, ("splits: " + what).c_str());

  if (tiles > 0) {
    const bool vector_ok = shift == 0;
    merge_kernel<kThreads, kItems><<<static_cast<unsigned>(tiles), kThreads>>>(
        d_a.data, static_cast<long long>(m), d_b.data, static_cast<long long>(n), c, d_splits.get(),
        vector_ok);
    GPU_CHECK_LAUNCH("merge_kernel");
  }
  std::vector<unsigned> got = d_c.download();
  const unsigned poison = 0xA5A5A5A5u;
  bool guards_intact = true;
  for (int k = 0; k < shift; ++k)
    guards_intact = guards_intact && got[static_cast<std::size_t>(k)] == poison;
  for (std::size_t k = static_cast<std::size_t>(shift) + m + n; k < got.size(); ++k)
    guards_intact = guards_intact && got[k] == poison;
  check.expect(guards_intact, ("nothing written outside C: " + what).c_str());
  got.erase(got.begin(), got.begin() + shift);
  got.resize(m + n);
  check.expect_equal(got, want, ("merge: " + what).c_str());
}

template <int kThreads, int kItems>
void check_shape(kit::test::Checker &check, std::mt19937 &rng, int warp) {
  constexpr std::size_t kTile = kThreads * kItems;
  const std::size_t large = kit::test::small_scale() ? 3 * kTile + 5 : 200 * kTile + 5;
  std::vector<std::pair<std::size_t, std::size_t>> sizes = {
      {0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}, {2, 0}, {1, 2}, {2, 1}, {2, 2}, {0, 65}, {65, 0}};
  for (std::size_t m = 31; m <= 65; m += 2)
    sizes.push_back({m, 96 - m});
  sizes.push_back({kTile - 1, 1});
  sizes.push_back({kTile, kTile});
  sizes.push_back({kTile + 1, kTile - 1});
  sizes.push_back({kTile / 2, kTile / 2 + 1});
  sizes.push_back({0, 3 * kTile + 1});
  sizes.push_back({3 * kTile + 1, 0});
  sizes.push_back({large, large / 3});
  sizes.push_back({7, large});
  for (const auto &[m, n] : sizes)
    for (Keys keys : {Keys::wide, Keys::few, Keys::all_equal, Keys::interleaved, Keys::a_below_b,
                      Keys::b_below_a})
      for (int shift : {0, 1})
        check_merge<kThreads, kItems>(check, rng, warp, m, n, keys, shift);
}

} // namespace

int main() {
  kit::test::begin_gpu_test("merge_path_test");
  const int warp = kit::gpu::device_warp_size();
  kit::test::Checker check;
  std::mt19937 rng(71); // any fixed value: the runs repeat exactly
  check_shape<64, 1>(check, rng, warp);
  check_shape<64, 7>(check, rng, warp);
  check_shape<128, 15>(check, rng, warp);
  check_shape<256, 15>(check, rng, warp);
  check_shape<256, 4>(check, rng, warp);
  return check.finish("merge_path_test");
}
