#include "io/text_scan.h"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace kit::io {

TokenStatus float_out_of_range_fallback(const char *begin, const char *end, float &value) {
  const std::string token(begin, end); // strtof needs a terminated string
  char *stop = nullptr;
  float parsed = std::strtof(token.c_str(), &stop);
  if (stop != token.c_str() + token.size())
    return TokenStatus::not_a_number;
  if (!std::isfinite(parsed))
    return TokenStatus::out_of_range;
  value = parsed;
  return TokenStatus::ok;
}

} // namespace kit::io
