// Number formatting for program output, byte-identical to what the official skeleton's
// `std::cout << value` prints.
#pragma once

#include <charconv>

namespace kit::io {

// Longest text of one formatted value (sign, digits, exponent), without the separator.
constexpr int kMaxInt32Chars = 11;
constexpr int kMaxFloatChars = 13; // "-1.17549e-38"

inline char *format_int32(char *out, int value) {
  return std::to_chars(out, out + kMaxInt32Chars, value).ptr;
}

// `std::ostream << float` with the default format: the float promoted to double and printed
// like printf("%g") with 6 significant digits (0.0318259, 4.9801e-05, 1). std::to_chars with an
// explicit precision is specified to match printf exactly, ties and denormals included.
inline char *format_float_g6(char *out, float value) {
  return std::to_chars(out, out + kMaxFloatChars + 1, static_cast<double>(value),
                       std::chars_format::general, 6)
      .ptr;
}

} // namespace kit::io
