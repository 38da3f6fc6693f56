// IEEE 754 binary16 ("half") on the host, where C++17 has no such type: a half is held as its 16
// bits in a std::uint16_t (the judge's ctypes view of a float16 tensor). The conversions are exact
// where a value is representable and round to nearest, ties to even, elsewhere; subnormals,
// signed zeros, infinities and NaN are kept.
#pragma once

#include <cstdint>

namespace kit::basics {

// The half's value as a float (every half is a float exactly; NaN stays NaN with its payload).
float half_to_float(std::uint16_t bits);

// The half nearest to `value` (ties to even): magnitudes from 65520 up become infinity, those up
// to 2^-25 become a signed zero; NaN becomes a quiet NaN of the same sign.
std::uint16_t half_from_double(double value);
inline std::uint16_t half_from_float(float value) {
  return half_from_double(static_cast<double>(value)); // widening is exact: one rounding
}

} // namespace kit::basics
