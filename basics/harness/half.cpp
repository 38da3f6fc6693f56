#include "half.h"

#include <cstring>

namespace kit::basics {

float half_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
  const std::uint32_t mantissa = bits & 0x3FFu;
  float value;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float (at most 10 significant bits).
    value = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -value : value;
  }
  std::uint32_t word;
  if (exponent == 0x1F) // infinity (mantissa 0) or NaN (the payload moves to the top bits)
    word = sign | 0x7F800000u | (mantissa << 13);
  else // normal: rebias the exponent from 15 to 127, widen the mantissa
    word = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  std::memcpy(&value, &word, sizeof value);
  return value;
}

std::uint16_t half_from_double(double value) {
  std::uint64_t word;
  std::memcpy(&word, &value, sizeof word);
  const auto sign = static_cast<std::uint16_t>((word >> 48) & 0x8000u);
  const int biased = static_cast<int>((word >> 52) & 0x7FFu);
  const std::uint64_t fraction = word & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7FF) // infinity, or NaN: quiet, with the top of its payload
    return static_cast<std::uint16_t>(sign | 0x7C00u | (fraction ? 0x200u | (fraction >> 42) : 0u));
  const int exponent = biased - 1023; // value = significand * 2^(exponent - 52)
  if (exponent > 15)                  // 2^16 and above: beyond the largest half, 65504
    return static_cast<std::uint16_t>(sign | 0x7C00u);
  if (exponent < -25) // below 2^-25, half the smallest subnormal: zero (double subnormals too)
    return sign;
  const std::uint64_t significand = fraction | (std::uint64_t{1} << 52);
  // The half's quantum is 2^(exponent - 10) for a normal result and 2^-24 for a subnormal one:
  // the significand's low `dropped` bits fall below it.
  const int dropped = exponent >= -14 ? 42 : 28 - exponent; // 42..53
  std::uint64_t kept = significand >> dropped;
  const std::uint64_t rest = significand & ((std::uint64_t{1} << dropped) - 1);
  const std::uint64_t halfway = std::uint64_t{1} << (dropped - 1);
  if (rest > halfway || (rest == halfway && (kept & 1u)))
    ++kept;
  // Subnormal: `kept` multiples of 2^-24 are the bits themselves (1024 rounds up to the smallest
  // normal, whose bits are 0x0400). Normal: kept in [1024, 2048]; adding it to the exponent field
  // carries a rounded-up 2048 into the next binade, and from 65504 up into infinity (0x7C00).
  const std::uint64_t magnitude =
      exponent >= -14 ? (static_cast<std::uint64_t>(exponent + 14) << 10) + kept : kept;
  return static_cast<std::uint16_t>(sign | magnitude);
}

} // namespace kit::basics
