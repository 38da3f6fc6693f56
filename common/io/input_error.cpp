#include "io/input_error.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace kit::io {

std::string describe_token(const char *begin, const char *end) {
  if (begin == end)
    return "end of file";
  constexpr std::size_t kShown = 40;
  std::string out = "'";
  const std::size_t length = static_cast<std::size_t>(end - begin);
  for (std::size_t i = 0; i < std::min(length, kShown); ++i) {
    unsigned char c = static_cast<unsigned char>(begin[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
      out += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  out += length > kShown ? "'..." : "'";
  return out;
}

std::string locate_message(const std::string &path, const char *text, std::size_t size,
                           std::size_t offset, const std::string &message) {
  offset = std::min(offset, size);
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (const char *p = text; p < text + offset;) {
    const void *hit = std::memchr(p, '\n', static_cast<std::size_t>(text + offset - p));
    if (!hit)
      break;
    p = static_cast<const char *>(hit) + 1;
    ++line;
    line_start = static_cast<std::size_t>(p - text);
  }
  return path + ":" + std::to_string(line) + ":" + std::to_string(offset - line_start + 1) +
         " (byte " + std::to_string(offset) + "): " + message;
}

} // namespace kit::io
