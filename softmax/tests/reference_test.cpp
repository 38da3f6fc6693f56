// softmax_reference against a serial double loop, and its independence of the thread count.
#include "reference.h"

#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace {

std::vector<float> serial_softmax(const std::vector<float> &in) {
  double max_value = in[0];
  for (float x : in)
    max_value = std::fmax(max_value, x);
  double sum = 0;
  for (float x : in)
    sum += std::exp(x - max_value);
  std::vector<float> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    out[i] = static_cast<float>(std::exp(in[i] - max_value) / sum);
  return out;
}

TEST(SoftmaxReference, CloseToSerialDoubleLoop) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-50.0f, 50.0f);
  for (std::size_t n : {1, 2, 31, 33, 1023, 1025, 65535, 65537, 300001}) {
    std::vector<float> in(n);
    for (auto &x : in)
      x = dist(rng);
    std::vector<float> got(n, std::nanf(""));
    softmax_reference(in.data(), got.data(), n);
    std::vector<float> want = serial_softmax(in);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_NEAR(got[i], want[i], 1e-7 * std::fabs(want[i]) + 1e-30)
          << "n = " << n << " i = " << i;
  }
}

TEST(SoftmaxReference, LargeMagnitudesDoNotOverflow) {
  std::vector<float> in = {1000.0f, 1000.0f, 999.0f, -1000.0f};
  std::vector<float> got(in.size());
  softmax_reference(in.data(), got.data(), in.size());
  const double e = std::exp(-1.0);
  EXPECT_FLOAT_EQ(got[0], static_cast<float>(1.0 / (2.0 + e)));
  EXPECT_FLOAT_EQ(got[2], static_cast<float>(e / (2.0 + e)));
  EXPECT_EQ(got[3], 0.0f);
}

} // namespace
