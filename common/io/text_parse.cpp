#include "io/text_parse.h"

#include <algorithm>

namespace kit::io {

std::int64_t parse_header_integer(const char *text, const char *end, const char **cursor,
                                  const std::string &what, std::int64_t min, std::int64_t max) {
  const char *p = skip_space(*cursor, end);
  const char *stop = token_end(p, end);
  const std::string expected =
      what + " (an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "])";
  std::int64_t value = 0;
  TokenStatus status = parse_integer_token(p, stop, INT64_MAX, std::uint64_t{INT64_MAX}, value);
  if (status != TokenStatus::ok || value < min || value > max)
    throw InputError(static_cast<std::size_t>(p - text), expected, describe_token(p, stop));
  *cursor = stop;
  return value;
}

namespace {

// Tokens in [begin, end) when `begin` is at a token start or on white space: the number of
// bytes that start a token. Branch-free so that the compiler vectorises it.
std::size_t count_tokens(const char *begin, const char *end) {
  if (begin == end)
    return 0;
  std::size_t starts = is_space(*begin) ? 0 : 1;
  for (const char *p = begin + 1; p < end; ++p)
    starts += static_cast<std::size_t>(is_space(p[-1]) & !is_space(p[0]));
  return starts;
}

} // namespace

std::size_t default_chunk_count(std::size_t bytes, const ThreadPool &pool) {
  constexpr std::size_t kMinChunkBytes = std::size_t{1} << 16;
  std::size_t by_size = std::max<std::size_t>(1, bytes / kMinChunkBytes);
  std::size_t by_threads = pool.size() == 1 ? 1 : 4 * static_cast<std::size_t>(pool.size());
  return std::min(by_size, by_threads);
}

std::vector<TextChunk> split_into_chunks(const char *begin, const char *end, std::size_t parts,
                                         ThreadPool &pool) {
  parts = std::max<std::size_t>(1, parts);
  const std::size_t bytes = static_cast<std::size_t>(end - begin);
  std::vector<const char *> cuts{begin};
  for (std::size_t k = 1; k < parts; ++k) {
    // Move the naive cut forward to white space, so the token it lands in stays whole.
    const char *cut = std::max(begin + bytes / parts * k, cuts.back());
    cut = token_end(cut, end);
    if (cut > cuts.back() && cut < end)
      cuts.push_back(cut);
  }
  cuts.push_back(end);
  std::vector<TextChunk> chunks(cuts.size() - 1);
  pool.run(chunks.size(), [&](std::size_t c) {
    chunks[c] = TextChunk{cuts[c], cuts[c + 1], 0, count_tokens(cuts[c], cuts[c + 1])};
  });
  std::size_t first = 0;
  for (TextChunk &chunk : chunks) {
    chunk.first_token = first;
    first += chunk.tokens;
  }
  return chunks;
}

void throw_first_error(const std::vector<ChunkError> &errors) {
  auto first =
      std::min_element(errors.begin(), errors.end(), [](const ChunkError &a, const ChunkError &b) {
        return a.offset < b.offset;
      });
  if (first != errors.end() && first->offset != SIZE_MAX)
    throw InputError(first->offset, first->expected, first->found);
}

TrailingTokens check_token_count(const char *text, const char *end,
                                 const std::vector<TextChunk> &chunks, std::size_t count,
                                 const std::string &what) {
  const std::size_t total = chunks.empty() ? 0 : chunks.back().first_token + chunks.back().tokens;
  if (total < count)
    throw InputError(static_cast<std::size_t>(end - text), std::to_string(count) + " " + what + "s",
                     "only " + std::to_string(total) + " before the end of file");
  TrailingTokens trailing;
  if (total == count)
    return trailing;
  // Locate token number `count` (0-based): the first one after the announced values.
  for (const TextChunk &chunk : chunks) {
    if (count >= chunk.first_token + chunk.tokens)
      continue;
    const char *p = chunk.begin;
    for (std::size_t i = chunk.first_token;; ++i) {
      p = skip_space(p, chunk.end);
      if (i == count)
        break;
      p = token_end(p, chunk.end);
    }
    trailing.count = total - count;
    trailing.offset = static_cast<std::size_t>(p - text);
    trailing.first = describe_token(p, token_end(p, chunk.end));
    break;
  }
  return trailing;
}

} // namespace kit::io
