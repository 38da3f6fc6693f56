// The output formatters against the C library, byte for byte: format_float_g6 must print what
// `std::cout << float` prints (printf "%g" of the promoted double) for every kind of float.
#include "io/text_format.h"

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

// Every positive denormal with a stride, and the same with the sign flipped.
TEST(FormatFloat, MatchesPrintfOnDenormals) {
  for (std::uint32_t bits = 1; bits < (1u << 23); bits += 7) {
    for (std::uint32_t sign : {0u, 0x80000000u}) {
      const std::uint32_t pattern = bits | sign;
      float v;
      std::memcpy(&v, &pattern, sizeof v);
      ASSERT_EQ(kit_text(v), printf_text(v)) << "bits " << pattern;
    }
  }
}

// Floats whose exact decimal value has seven significant digits ending in 5: exact ties at six
// digits, which printf breaks to even and the fast path must hand to the exact formatter. They are
// n / 2^j with 10^(6-j) <= n / 2^j < 10^(7-j): for j = 0 the integers ending in 5, for j >= 1 the
// odd n (exactly j fraction bits, so j decimals, the last one 5), from 1234565 down to 1.234375.
TEST(FormatFloat, MatchesPrintfOnExactTies) {
  EXPECT_EQ(kit_text(1.234375f), "1.23438");
  EXPECT_EQ(kit_text(1234565.0f), "1.23456e+06");
  for (int j = 0; j <= 6; ++j) {
    const double scale = std::ldexp(1.0, -j);
    const auto first = static_cast<std::uint32_t>(std::pow(10.0, 6 - j) / scale);
    const auto last = static_cast<std::uint32_t>(std::pow(10.0, 7 - j) / scale);
    const std::uint32_t start = j == 0 ? first + 5 : first + 1;
    const std::uint32_t step = j == 0 ? 10 : 2;
    for (std::uint32_t n = start; n < last; n += step) {
      const float v = static_cast<float>(n * scale);
      ASSERT_EQ(static_cast<double>(v), n * scale); // exactly representable
      ASSERT_EQ(kit_text(v), printf_text(v)) << n << " / 2^" << j;
      ASSERT_EQ(kit_text(-v), printf_text(-v)) << n << " / 2^" << j;
    }
  }
}

// Around every power of ten, where rounding moves a value into the next decade (9.999995e-05
// prints as 0.0001) and %g switches between fixed and exponent notation.
TEST(FormatFloat, MatchesPrintfAroundPowersOfTen) {
  for (int e = -45; e <= 38; ++e) {
    const float center = static_cast<float>(std::pow(10.0, e));
    float v = center;
    for (int step = 0; step < 2000 && std::isfinite(v); ++step)
      v = std::nextafter(v, 0.0f);
    for (int step = 0; step < 4000 && std::isfinite(v); ++step) {
      ASSERT_EQ(kit_text(v), printf_text(v)) << "near 1e" << e;
      v = std::nextafter(v, std::numeric_limits<float>::infinity());
    }
    const float decade_edge = static_cast<float>(9.999995 * std::pow(10.0, e - 1));
    v = decade_edge;
    for (int step = 0; step < 2000; ++step)
      v = std::nextafter(v, 0.0f);
    for (int step = 0; step < 4000 && std::isfinite(v); ++step) {
      ASSERT_EQ(kit_text(v), printf_text(v)) << "near 9.999995e" << e - 1;
      v = std::nextafter(v, std::numeric_limits<float>::infinity());
    }
  }
}

TEST(FormatFloat, FastPathAgreesWithExactFormatter) {
  std::mt19937 rng(77);
  char fast[32], exact[32];
  for (int i = 0; i < 3000000; ++i) {
    std::uint32_t bits = rng();
    float v;
    std::memcpy(&v, &bits, sizeof v);
    const std::string a(fast, kit::io::format_float_g6(fast, v));
    const std::string b(exact, kit::io::format_float_g6_exact(exact, v));
    ASSERT_EQ(a, b) << "bits " << bits; // inf and nan included: both defer to to_chars
  }
}

TEST(FormatInt, AllEdges) {
  char buffer[16];
  for (int v : {0, 1, -1, 9, 10, 1073741823, 2147483647, -2147483647 - 1}) {
    EXPECT_EQ(std::string(buffer, kit::io::format_int32(buffer, v)), std::to_string(v));
  }
}

} // namespace
