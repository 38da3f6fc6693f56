// Number formatting for program output, byte-identical to what the official skeleton's
// `std::cout << value` prints.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>

namespace kit::io {

// Longest text of one formatted value (sign, digits, exponent), without the separator.
constexpr int kMaxInt32Chars = 11;
constexpr int kMaxFloatChars = 13; // "-1.17549e-38"

inline char *format_int32(char *out, int value) {
  return std::to_chars(out, out + kMaxInt32Chars, value).ptr;
}

// The reference formatting of a float: `std::ostream << float` with the default format is the
// float promoted to double and printed like printf("%g") with 6 significant digits (0.0318259,
// 4.9801e-05, 1). std::to_chars with an explicit precision is specified to match printf exactly,
// ties and denormals included. About 5x slower than format_float_g6 below, which falls back to it.
inline char *format_float_g6_exact(char *out, float value) {
  return std::to_chars(out, out + kMaxFloatChars + 1, static_cast<double>(value),
                       std::chars_format::general, 6)
      .ptr;
}

namespace detail {

// 10^k as the nearest double, k in [kPow10Min, kPow10Max]: enough to scale every finite float
// (1.4e-45 to 3.4e38) to six integer digits, with one step of slack on each side.
constexpr int kPow10Min = -34;
constexpr int kPow10Max = 51;
constexpr double kPow10[] = {
    1e-34, 1e-33, 1e-32, 1e-31, 1e-30, 1e-29, 1e-28, 1e-27, 1e-26, 1e-25, 1e-24, 1e-23, 1e-22,
    1e-21, 1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9,
    1e-8,  1e-7,  1e-6,  1e-5,  1e-4,  1e-3,  1e-2,  1e-1,  1e0,   1e1,   1e2,   1e3,   1e4,
    1e5,   1e6,   1e7,   1e8,   1e9,   1e10,  1e11,  1e12,  1e13,  1e14,  1e15,  1e16,  1e17,
    1e18,  1e19,  1e20,  1e21,  1e22,  1e23,  1e24,  1e25,  1e26,  1e27,  1e28,  1e29,  1e30,
    1e31,  1e32,  1e33,  1e34,  1e35,  1e36,  1e37,  1e38,  1e39,  1e40,  1e41,  1e42,  1e43,
    1e44,  1e45,  1e46,  1e47,  1e48,  1e49,  1e50,  1e51};
static_assert(sizeof(kPow10) / sizeof(kPow10[0]) == kPow10Max - kPow10Min + 1);

inline double pow10(int k) { return kPow10[k - kPow10Min]; }

// How far the scaled value may be from an exact .5 before the rounding direction is in doubt. The
// scaled value is below 1e6 and carries two roundings (the table entry and the product), an
// absolute error under 3e-10, so 1e-7 leaves a wide margin; values closer to a tie than this
// (about 2 in 10^7) take the exact path.
constexpr double kTieMargin = 1e-7;

} // namespace detail

// `std::ostream << float` (printf "%g" of the promoted double, 6 significant digits), fast: the
// value is scaled by a power of ten to six integer digits and rounded there, and the text is
// laid out from those digits by %g's rules (fixed notation for decimal exponents -4..5, else
// d.ddddde+XX; trailing zeros removed). When the scaled value is too close to a rounding tie for
// double arithmetic to decide, and for non-finite values, format_float_g6_exact answers.
// Byte-identical to it for every float (common/tests/float_format_check.cpp checks all 2^32).
inline char *format_float_g6(char *out, float value) {
  double magnitude = static_cast<double>(value);
  std::uint64_t bits;
  std::memcpy(&bits, &magnitude, sizeof bits);
  const bool negative = (bits >> 63) != 0;
  const int binary_exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  if (binary_exponent == 1024) // inf or nan
    return format_float_g6_exact(out, value);
  if (negative)
    magnitude = -magnitude;
  if (magnitude == 0) { // the double of a float is never denormal: only zeros have exponent -1023
    if (negative)
      *out++ = '-';
    *out++ = '0';
    return out;
  }
  // floor(log10(magnitude)) is this estimate or one more: 78913 / 2^18 ~ log10(2), and the
  // right shift of a negative product rounds toward minus infinity (arithmetic shift).
  int exponent = (binary_exponent * 78913) >> 18;
  double scaled = magnitude * detail::pow10(5 - exponent);
  if (scaled >= 1e6) {
    ++exponent;
    scaled = magnitude * detail::pow10(5 - exponent);
  } else if (scaled < 1e5) {
    --exponent;
    scaled = magnitude * detail::pow10(5 - exponent);
  }
  auto digits = static_cast<std::uint32_t>(scaled);
  const double fraction = scaled - static_cast<double>(digits);
  if (fraction > 0.5 - detail::kTieMargin && fraction < 0.5 + detail::kTieMargin)
    return format_float_g6_exact(out, value);
  digits += fraction > 0.5 ? 1 : 0;
  if (digits >= 1000000) { // 999999.5 and up rounds into the next decade
    digits /= 10;
    ++exponent;
  }
  // The six significant digits, and how many remain once trailing zeros are dropped.
  char text[6];
  for (int i = 5; i >= 0; --i) {
    text[i] = static_cast<char>('0' + digits % 10);
    digits /= 10;
  }
  int count = 6;
  while (count > 1 && text[count - 1] == '0')
    --count;

  if (negative)
    *out++ = '-';
  if (exponent >= 0 && exponent <= 5) { // ddd.ddd
    int i = 0;
    for (; i <= exponent; ++i)
      *out++ = text[i];
    if (count > i) {
      *out++ = '.';
      for (; i < count; ++i)
        *out++ = text[i];
    }
    return out;
  }
  if (exponent >= -4 && exponent < 0) { // 0.000ddd
    *out++ = '0';
    *out++ = '.';
    for (int i = -1; i > exponent; --i)
      *out++ = '0';
    for (int i = 0; i < count; ++i)
      *out++ = text[i];
    return out;
  }
  *out++ = text[0]; // d.ddddde+XX
  if (count > 1) {
    *out++ = '.';
    for (int i = 1; i < count; ++i)
      *out++ = text[i];
  }
  *out++ = 'e';
  *out++ = exponent < 0 ? '-' : '+';
  const int shown = exponent < 0 ? -exponent : exponent; // at most 45: two digits
  *out++ = static_cast<char>('0' + shown / 10);
  *out++ = static_cast<char>('0' + shown % 10);
  return out;
}

} // namespace kit::io
