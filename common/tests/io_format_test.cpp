// The output formatters against the C library, byte for byte: format_float_g6 must print what
// `std::cout << float` prints (printf "%g" of the promoted double) for every kind of float.
#include "text_format.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <sstream>
#include <string>

namespace {

std::string kit_text(float v) {
  char buffer[32];
  return std::string(buffer, kit::io::format_float_g6(buffer, v));
}

std::string printf_text(float v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%g", static_cast<double>(v));
  return buffer;
}

TEST(FormatFloat, MatchesOstreamOnSamples) {
  for (float v :
       {0.0318259f, 4.9801e-05f, 1.0f, 0.0f, -0.0f, 0.5f, 1e-5f, 1e-4f, 123456.5f, 1234567.0f,
        0.0009765625f, std::numeric_limits<float>::min(), std::numeric_limits<float>::denorm_min(),
        std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()}) {
    std::ostringstream os;
    os << v;
    EXPECT_EQ(kit_text(v), os.str()) << v;
  }
}

TEST(FormatFloat, MatchesPrintfOnRandomBitPatterns) {
  std::mt19937 rng(2024);
  for (int i = 0; i < 2000000; ++i) {
    std::uint32_t bits = rng();
    float v;
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v))
      continue;
    ASSERT_EQ(kit_text(v), printf_text(v)) << "bits " << bits;
  }
}

TEST(FormatFloat, MatchesPrintfOnSoftmaxLikeValues) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> exponent(-45.0, 0.0);
  for (int i = 0; i < 1000000; ++i) {
    float v = static_cast<float>(std::pow(10.0, exponent(rng)));
    ASSERT_EQ(kit_text(v), printf_text(v));
  }
}

TEST(FormatInt, AllEdges) {
  char buffer[16];
  for (int v : {0, 1, -1, 9, 10, 1073741823, 2147483647, -2147483647 - 1}) {
    EXPECT_EQ(std::string(buffer, kit::io::format_int32(buffer, v)), std::to_string(v));
  }
}

} // namespace
