// Token-level text scanning shared by every reader: white space, token bounds, and exact parsing
// of one integer or float token. Tokens are maximal runs of non-white-space bytes, so "12abc" is
// one (bad) token rather than 12 followed by garbage.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <system_error>

namespace kit::io {

// The white space of C's isspace in the "C" locale; every other byte belongs to a token.
inline bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline const char *skip_space(const char *p, const char *end) {
  while (p < end && is_space(*p))
    ++p;
  return p;
}

inline const char *token_end(const char *p, const char *end) {
  while (p < end && !is_space(*p))
    ++p;
  return p;
}

enum class TokenStatus { ok, not_a_number, out_of_range };

// A decimal integer in [-limit_negative, limit_positive]: optional sign ('+' too, as istream
// accepts it), digits only. The magnitude saturates instead of overflowing, so any digit string
// is classified correctly.
inline TokenStatus parse_integer_token(const char *p, const char *end, std::uint64_t limit_positive,
                                       std::uint64_t limit_negative, std::int64_t &value) {
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+'))
    negative = *p++ == '-';
  if (p == end)
    return TokenStatus::not_a_number;
  constexpr std::uint64_t kSaturated = std::uint64_t{1} << 62;
  std::uint64_t magnitude = 0;
  for (; p < end; ++p) {
    unsigned digit = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (digit > 9)
      return TokenStatus::not_a_number;
    magnitude = magnitude < kSaturated / 16 ? magnitude * 10 + digit : kSaturated;
  }
  if (magnitude > (negative ? limit_negative : limit_positive))
    return TokenStatus::out_of_range;
  value = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  return TokenStatus::ok;
}

inline TokenStatus parse_int32_token(const char *p, const char *end, int &value) {
  std::int64_t wide = 0;
  TokenStatus status = parse_integer_token(p, end, 2147483647u, 2147483648u, wide);
  value = static_cast<int>(wide);
  return status;
}

// The common case in one pass: a token of sign and at most 18 digits, in int32 range, ending at
// `end` or at white space. Returns the end of the token, or null when the token is anything else
// (then parse_int32_token classifies it). Accepts exactly what parse_int32_token accepts with
// the same value, so the two may be mixed freely.
inline const char *parse_int32_token_fast(const char *p, const char *end, int &value) {
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+'))
    negative = *p++ == '-';
  const char *digits = p;
  std::uint64_t magnitude = 0;
  for (unsigned digit;
       p < end && (digit = static_cast<unsigned char>(*p) - unsigned{'0'}) < 10 && p - digits < 18;
       ++p)
    magnitude = magnitude * 10 + digit;
  if (p == digits || (p < end && !is_space(*p)) ||
      magnitude > (negative ? 2147483648u : 2147483647u))
    return nullptr;
  value = static_cast<int>(negative ? -static_cast<std::int64_t>(magnitude)
                                    : static_cast<std::int64_t>(magnitude));
  return p;
}

// from_chars reports underflow and overflow alike; strtof (what istream uses) gives the nearest
// float for an underflow (a denormal or zero), which we accept, and infinity for an overflow,
// which we reject.
TokenStatus float_out_of_range_fallback(const char *begin, const char *end, float &value);

// A finite float, rounded to nearest like strtof (and so like `istream >> float`): decimal or
// exponent notation with an optional sign. "inf", "nan", hex floats and values beyond the float
// range are rejected; values that round to zero (below the denormals) read as +-0 like strtof.
inline TokenStatus parse_float_token(const char *p, const char *end, float &value) {
  const char *digits = p;
  if (digits < end && *digits == '+') { // from_chars refuses '+', istream accepts it
    ++digits;
    if (digits == end || *digits == '+' || *digits == '-')
      return TokenStatus::not_a_number;
  }
  auto [stop, error] = std::from_chars(digits, end, value, std::chars_format::general);
  if (error == std::errc::result_out_of_range && stop == end)
    return float_out_of_range_fallback(digits, end, value);
  if (error != std::errc() || stop != end || !std::isfinite(value))
    return TokenStatus::not_a_number; // also "inf" and "nan"
  return TokenStatus::ok;
}

// The common case in one pass: a finite float in range without a '+' sign, ending at `end` or at
// white space. Returns the end of the token, or null when the token is anything else (then
// parse_float_token classifies it). Accepts exactly what parse_float_token accepts with the same
// value, so the two may be mixed freely.
inline const char *parse_float_token_fast(const char *p, const char *end, float &value) {
  auto [stop, error] = std::from_chars(p, end, value, std::chars_format::general);
  if (error != std::errc() || stop == p || (stop < end && !is_space(*stop)) ||
      !std::isfinite(value))
    return nullptr;
  return stop;
}

} // namespace kit::io
