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
// ties and denormals included. About 3x slower than format_float_g6 below, which falls back to it.
inline char *format_float_g6_exact(char *out, float value) {
  return std::to_chars(out, out + kMaxFloatChars + 1, static_cast<double>(value),
                       std::chars_format::general, 6)
      .ptr;
}

namespace detail {

// 10^k as the nearest double, k in [kPow10Min, kPow10Max]: the decade bounds 10^(e+1) of every
// finite float (1.4e-45 to 3.4e38) and the factors 10^(5-e) that scale it to six integer digits.
constexpr int kPow10Min = -46;
constexpr int kPow10Max = 51;
constexpr double kPow10[] = {
    1e-46, 1e-45, 1e-44, 1e-43, 1e-42, 1e-41, 1e-40, 1e-39, 1e-38, 1e-37, 1e-36, 1e-35, 1e-34,
    1e-33, 1e-32, 1e-31, 1e-30, 1e-29, 1e-28, 1e-27, 1e-26, 1e-25, 1e-24, 1e-23, 1e-22, 1e-21,
    1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9,  1e-8,
    1e-7,  1e-6,  1e-5,  1e-4,  1e-3,  1e-2,  1e-1,  1e0,   1e1,   1e2,   1e3,   1e4,   1e5,
    1e6,   1e7,   1e8,   1e9,   1e10,  1e11,  1e12,  1e13,  1e14,  1e15,  1e16,  1e17,  1e18,
    1e19,  1e20,  1e21,  1e22,  1e23,  1e24,  1e25,  1e26,  1e27,  1e28,  1e29,  1e30,  1e31,
    1e32,  1e33,  1e34,  1e35,  1e36,  1e37,  1e38,  1e39,  1e40,  1e41,  1e42,  1e43,  1e44,
    1e45,  1e46,  1e47,  1e48,  1e49,  1e50,  1e51};
static_assert(sizeof(kPow10) / sizeof(kPow10[0]) == kPow10Max - kPow10Min + 1);

inline double pow10(int k) { return kPow10[k - kPow10Min]; }

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

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
// Like format_float_g6_exact it needs room for kMaxFloatChars bytes at `out`: it writes some
// digits in fixed-size blocks and lets the rest of the text overwrite them.
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
  // floor(log10(magnitude)): magnitude lies in [2^b, 2^(b+1)), which holds at most one power of
  // ten, so it is floor(b log10 2) (78913 / 2^18, exact for |b| < 1650; the right shift of a
  // negative product rounds toward minus infinity) or one more.
  int exponent = (binary_exponent * 78913) >> 18;
  exponent += magnitude >= detail::pow10(exponent + 1) ? 1 : 0;
  const double scaled = magnitude * detail::pow10(5 - exponent);
  auto digits = static_cast<std::uint32_t>(scaled);
  const double fraction = scaled - static_cast<double>(digits);
  // Near a tie, and for the exact powers of ten 1e6..1e10 whose scaled value may land just below
  // 1e5, the exact formatter decides.
  if ((fraction > 0.5 - detail::kTieMargin && fraction < 0.5 + detail::kTieMargin) ||
      digits < 100000)
    return format_float_g6_exact(out, value);
  digits += fraction > 0.5 ? 1 : 0;
  if (digits == 1000000) { // 999999.5 and up rounds into the next decade
    digits = 100000;
    ++exponent;
  }
  // The six significant digits as three pairs, and how many remain once trailing zeros go.
  const std::uint32_t high = digits / 10000;
  const std::uint32_t middle = digits / 100 % 100;
  const std::uint32_t low = digits % 100;
  char text[6];
  std::memcpy(text, detail::kDigitPairs + 2 * high, 2);
  std::memcpy(text + 2, detail::kDigitPairs + 2 * middle, 2);
  std::memcpy(text + 4, detail::kDigitPairs + 2 * low, 2);
  int count = 6;
  if (low == 0) {
    count = middle == 0 ? (high % 10 == 0 ? 1 : 2) : (middle % 10 == 0 ? 3 : 4);
  } else if (low % 10 == 0) {
    count = 5;
  }

  if (negative)
    *out++ = '-';
  if (exponent < -4 || exponent > 5) { // d.ddddde+XX
    out[0] = text[0];
    out[1] = '.';
    std::memcpy(out + 2, text + 1, 5);
    out += count > 1 ? count + 1 : 1;
    const int shown = exponent < 0 ? -exponent : exponent; // at most 45: two digits
    out[0] = 'e';
    out[1] = exponent < 0 ? '-' : '+';
    std::memcpy(out + 2, detail::kDigitPairs + 2 * shown, 2);
    return out + 4;
  }
  if (exponent < 0) { // 0.000ddd
    std::memcpy(out, "0.0000", 6);
    std::memcpy(out + 1 - exponent, text, 6);
    return out + 1 - exponent + count;
  }
  // ddd.ddd
  const int integer_digits = exponent + 1;
  std::memcpy(out, text, 6);
  if (count <= integer_digits)
    return out + integer_digits;
  out[integer_digits] = '.';
  std::memcpy(out + integer_digits + 1, text + integer_digits, 5);
  return out + count + 1;
}

} // namespace kit::io
