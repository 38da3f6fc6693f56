// libFuzzer target for the input parser: any bytes must either parse or raise InputError (never
// crash, hang or read out of bounds), and the result must not depend on the chunking. The buffer is
// sized like the contest programs size theirs (values_program.h): by the smaller of N and what the
// file can hold, so AddressSanitizer checks that bound, and N may be absurdly large.
#include "io/input_error.h"
#include "io/text_parse.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

template <class Kind>
std::string parse(const std::string &text, kit::ThreadPool &pool, std::size_t chunks) {
  using T = typename Kind::value_type;
  try {
    const char *cursor = text.data();
    const char *end = text.data() + text.size();
    const auto n = static_cast<std::size_t>(
        kit::io::parse_header_integer(text.data(), end, &cursor, "N", 1, 1000000000));
    std::vector<T> out(std::min(n, kit::io::max_tokens_after(cursor, end)));
    kit::io::StoreInto<T> store{out.data(), n};
    const kit::io::TrailingTokens trailing =
        kit::io::parse_values<Kind>(text.data(), cursor, end, n, "value", store, pool, chunks);
    if (out.size() != n)
      std::abort(); // a successful parse found N values, so the file could hold them
    return std::string(reinterpret_cast<const char *>(out.data()), out.size() * sizeof(T)) +
           " trailing " + std::to_string(trailing.count) + " at " +
           std::to_string(trailing.offset) + " " + trailing.first;
  } catch (const kit::io::InputError &e) {
    return "error at " + std::to_string(e.offset()) + ": " + e.what();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static kit::ThreadPool pool(3);
  const std::string text(reinterpret_cast<const char *>(data), size);
  const std::size_t chunks = size % 13 + 2;
  if (parse<kit::io::Int32Values>(text, pool, 1) != parse<kit::io::Int32Values>(text, pool, chunks))
    std::abort();
  if (parse<kit::io::FloatValues>(text, pool, 1) != parse<kit::io::FloatValues>(text, pool, chunks))
    std::abort();
  return 0;
}
