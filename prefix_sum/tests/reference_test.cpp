// prefix_sum_reference against a plain serial loop (the definition), on awkward sizes around the
// parallel block size, with values that make the running sum wrap.
#include "reference.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace {

std::vector<int> serial_scan(const std::vector<int> &in) {
  std::vector<int> out(in.size());
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i)
    out[i] = static_cast<int>(sum += static_cast<std::uint32_t>(in[i]));
  return out;
}

TEST(PrefixSumReference, MatchesSerialLoopOnAwkwardSizes) {
  std::mt19937 rng(12345);
  const std::size_t block = std::size_t{1} << 18;
  for (std::size_t n :
       {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{32}, std::size_t{33},
        std::size_t{1023}, std::size_t{1025}, block - 1, block, block + 1, 3 * block + 17}) {
    std::vector<int> in(n);
    for (auto &x : in)
      x = static_cast<int>(rng()); // full int32 range: wraps constantly
    std::vector<int> got(n, 0x5a5a5a5a);
    prefix_sum_reference(in.data(), got.data(), n);
    EXPECT_EQ(got, serial_scan(in)) << "n = " << n;
  }
}

} // namespace
