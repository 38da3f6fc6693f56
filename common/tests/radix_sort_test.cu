// The onesweep radix sort (primitives/radix_sort.h) on its own, for each key transform, against
// std::sort on the host: unsigned keys over all 2^32 values and duplicate-heavy ones (4 and 1
// distinct values, the padding word 0xffffffff among them), floats with -0.0, +0.0, -inf, +inf
// and the largest and smallest finite values among random ones, ascending and descending, out of
// place and in place. Sizes: one key, warp edges, the one-tile kernel's limit (tile - 1, tile) and
// the multi-tile passes from tile + 1 (a padded last tile, several tiles, a large run of tiles,
// several look-back windows deep). Outputs are poisoned before every run, and every case runs
// twice (the second reuses the workspace's states that the first left).
#include "gpu/check.h"
#include "primitives/radix_sort.h"
#include "testing/test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

namespace rs = kit::radix_sort;

template <class T> unsigned word_of(T key) {
  unsigned w;
  std::memcpy(&w, &key, sizeof w);
  return w;
}

// The expected result: the keys sorted by their ordered words (which fixes the place of -0.0
// before +0.0: equal values, any order passes the judge, but the sort's order is this one).
template <class Keys> std::vector<typename Keys::Key> expected(std::vector<typename Keys::Key> v) {
  std::stable_sort(v.begin(), v.end(), [](auto a, auto b) {
    return Keys::order(word_of(a)) < Keys::order(word_of(b));
  });
  return v;
}

template <class Keys>
void check_sort(kit::test::Checker &check, rs::Workspace &workspace,
                const std::vector<typename Keys::Key> &keys, const char *what) {
  using Key = typename Keys::Key;
  const std::vector<Key> want = expected<Keys>(keys);
  kit::test::DeviceBuffer<Key> d_in(keys.size()), d_out(keys.size());
  for (int run = 0; run < 2; ++run) {
    char label[160];
    d_in.upload(keys);
    d_out.poison();
    rs::sort<Keys>(d_in.get(), d_out.get(), static_cast<unsigned>(keys.size()), workspace,
                   "radix_sort_test");
    std::snprintf(label, sizeof label, "%s n=%zu run %d", what, keys.size(), run);
    // Compared as words: -0.0 and +0.0 (and NaN payloads) must come back bit for bit.
    std::vector<unsigned> got_words, want_words;
    for (Key k : d_out.download())
      got_words.push_back(word_of(k));
    for (Key k : want)
      want_words.push_back(word_of(k));
    check.expect_equal(got_words, want_words, label);
    check.expect(d_in.download() == keys, "input unchanged");
    // In place: the same keys sorted where they are.
    rs::sort<Keys>(d_in.get(), d_in.get(), static_cast<unsigned>(keys.size()), workspace,
                   "radix_sort_test");
    got_words.clear();
    for (Key k : d_in.download())
      got_words.push_back(word_of(k));
    std::snprintf(label, sizeof label, "%s n=%zu in place run %d", what, keys.size(), run);
    check.expect_equal(got_words, want_words, label);
  }
}

// The order of FloatKeys on the host, against the floats' own order: negative before positive,
// -0.0 right before +0.0, infinities at the ends, NaN (sign clear) after +inf.
void check_float_order(kit::test::Checker &check) {
  const float inf = std::numeric_limits<float>::infinity();
  const float ascending[] = {-inf,
                             -std::numeric_limits<float>::max(),
                             -1.5f,
                             -1.0f,
                             -1e-38f,
                             -std::numeric_limits<float>::denorm_min(),
                             -0.0f,
                             0.0f,
                             std::numeric_limits<float>::denorm_min(),
                             1e-38f,
                             1.0f,
                             1.5f,
                             std::numeric_limits<float>::max(),
                             inf,
                             std::numeric_limits<float>::quiet_NaN()};
  bool ok = true;
  for (std::size_t i = 0; i + 1 < sizeof ascending / sizeof *ascending; ++i) {
    const unsigned a = word_of(ascending[i]), b = word_of(ascending[i + 1]);
    ok = ok && rs::FloatKeys::order(a) < rs::FloatKeys::order(b);
    ok = ok && rs::FloatKeysDescending::order(a) > rs::FloatKeysDescending::order(b);
    ok = ok && rs::FloatKeys::restore(rs::FloatKeys::order(a)) == a;
    ok = ok && rs::FloatKeysDescending::restore(rs::FloatKeysDescending::order(a)) == a;
  }
  check.expect(ok, "FloatKeys orders -inf < ... < -0.0 < +0.0 < ... < +inf < NaN, and restores");
}

} // namespace

int main() {
  kit::test::begin_gpu_test("radix_sort_test");
  kit::test::Checker check;
  check_float_order(check);
  std::mt19937 rng(20261128);
  rs::Workspace workspace;

  constexpr std::size_t kTile = rs::kTileKeys;
  const std::size_t large = kit::test::small_scale() ? 3 * kTile + 5 : 1000003;
  std::vector<std::size_t> sizes = {1, 2};
  for (std::size_t n = 31; n <= 65; ++n)
    sizes.push_back(n);
  for (std::size_t n : {kTile - 1, kTile, kTile + 1, 2 * kTile + 17, 40 * kTile + 3, large})
    sizes.push_back(n);

  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f,
                            -0.0f,
                            inf,
                            -inf,
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::denorm_min(),
                            1.0f,
                            -1.0f};
  for (std::size_t n : sizes) {
    std::vector<unsigned> any(n), four(n), one(n, 0xffffffffu);
    for (std::size_t i = 0; i < n; ++i) {
      any[i] = static_cast<unsigned>(rng());
      four[i] = (rng() % 4) * 0x55555555u; // 0, 0x55555555, 0xaaaaaaaa, 0xffffffff
    }
    check_sort<rs::UnsignedKeys>(check, workspace, any, "unsigned, all values");
    check_sort<rs::UnsignedKeys>(check, workspace, four, "unsigned, 4 distinct");
    check_sort<rs::UnsignedKeys>(check, workspace, one, "unsigned, all 0xffffffff");

    std::uniform_real_distribution<float> uniform(-1000.0f, 1000.0f);
    std::vector<float> floats(n), zeros(n);
    for (std::size_t i = 0; i < n; ++i) {
      floats[i] =
          rng() % 4 == 0 ? specials[rng() % (sizeof specials / sizeof *specials)] : uniform(rng);
      zeros[i] = rng() % 2 ? 0.0f : -0.0f;
    }
    check_sort<rs::FloatKeys>(check, workspace, floats, "float with +-0, +-inf");
    check_sort<rs::FloatKeysDescending>(check, workspace, floats, "float descending");
    check_sort<rs::FloatKeys>(check, workspace, zeros, "float, only +-0");
  }
  return check.finish("radix_sort_test");
}
