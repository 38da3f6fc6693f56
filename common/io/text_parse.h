// Whole-file parsing of "count, then that many numbers" inputs, in parallel: the text after the
// header is cut into chunks at white space, a first pass counts each chunk's tokens (so every
// chunk knows the index of its first value), and a second pass parses each chunk straight into
// the caller's final buffer. Errors are reported for the earliest offending byte, whatever the
// thread count and split points, so messages are deterministic.
#pragma once

#include "io/input_error.h"
#include "io/text_scan.h"
#include "io/threads.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kit::io {

// Reads one integer token at `*cursor` (after white space) that must lie in [min, max]; advances
// the cursor past it. `what` names it in messages, e.g. "the value count N".
std::int64_t parse_header_integer(const char *text, const char *end, const char **cursor,
                                  const std::string &what, std::int64_t min, std::int64_t max);

// The most tokens [begin, end) can hold when `begin` is not inside a token (it follows a header
// token, so it is at white space or at the end): each token takes one byte of its own and at least
// one byte of white space before it. Readers size their buffers by the smaller of this and the
// announced count, so a header announcing more values than the file holds reserves no memory for
// them; parse_values then reports the shortfall.
inline std::size_t max_tokens_after(const char *begin, const char *end) {
  return static_cast<std::size_t>(end - begin) / 2;
}

struct TextChunk {
  const char *begin;
  const char *end;
  std::size_t first_token; // index of the chunk's first token in the whole range
  std::size_t tokens;
};

// Splits [begin, end) into about `parts` chunks whose boundaries fall on white space (a token is
// never cut) and counts the tokens of each, in parallel on `pool`.
std::vector<TextChunk> split_into_chunks(const char *begin, const char *end, std::size_t parts,
                                         ThreadPool &pool);

// Chunk count for `bytes` of text on `pool`: several per thread for balance, none tiny.
std::size_t default_chunk_count(std::size_t bytes, const ThreadPool &pool);

// How a value of each kind is parsed and named in messages: parse_fast reads the usual token in
// one pass (returning its end, or null), parse classifies any token exactly.
struct Int32Values {
  using value_type = int;
  static const char *parse_fast(const char *b, const char *e, int &v) {
    return parse_int32_token_fast(b, e, v);
  }
  static TokenStatus parse(const char *b, const char *e, int &v) {
    return parse_int32_token(b, e, v);
  }
  static const char *kind() { return "an int32 integer"; }
};
struct FloatValues {
  using value_type = float;
  static const char *parse_fast(const char *b, const char *e, float &v) {
    return parse_float_token_fast(b, e, v);
  }
  static TokenStatus parse(const char *b, const char *e, float &v) {
    return parse_float_token(b, e, v);
  }
  static const char *kind() { return "a finite float"; }
};

// A consumer receives value i through accept(i, v), which returns false to reject it; item(i)
// names token i in messages ("value 7 of 10") and expected(i) says what an accepted value looks
// like ("a vertex id in [0, 5)"). This one stores values into an array without further checks.
template <class T> struct StoreInto {
  T *out;
  std::size_t count;
  bool accept(std::size_t index, T value) const {
    out[index] = value;
    return true;
  }
  std::string item(std::size_t index) const {
    return "value " + std::to_string(index + 1) + " of " + std::to_string(count);
  }
  std::string expected(std::size_t) const { return ""; }
};

// Tokens after the announced count. The official skeleton stops reading once it has its values,
// so a file with more is still answered (a non-zero exit would cost a penalty); the programs
// report them as a warning on stderr (warn_trailing_tokens, contest_program.h).
struct TrailingTokens {
  std::size_t count = 0;  // how many tokens follow the announced ones (0: none)
  std::size_t offset = 0; // byte offset of the first of them in the file
  std::string first;      // that token, as describe_token shows it
};

// Parses `count` values of kind `Kind` from [begin, end) of `text` and hands each to the
// consumer. `what` names the tokens in count messages ("value", "edge number"). Throws
// InputError for the first bad byte of the file or when fewer than `count` tokens follow; tokens
// after the first `count` are not parsed (any text is accepted there) and are returned.
template <class Kind, class Consumer>
TrailingTokens parse_values(const char *text, const char *begin, const char *end, std::size_t count,
                            const std::string &what, Consumer &consumer, ThreadPool &pool,
                            std::size_t chunk_count = 0);

// --------------------------------------------------------------------------------------------
// Implementation.
// --------------------------------------------------------------------------------------------

// The first error of one chunk, by byte offset.
struct ChunkError {
  std::size_t offset = SIZE_MAX;
  std::string expected;
  std::string found;
};

// Throws for the earliest error among the chunks, if any.
void throw_first_error(const std::vector<ChunkError> &errors);
// Throws when the chunks hold fewer than `count` tokens; describes those beyond `count`.
TrailingTokens check_token_count(const char *text, const char *end,
                                 const std::vector<TextChunk> &chunks, std::size_t count,
                                 const std::string &what);

template <class Kind, class Consumer>
TrailingTokens parse_values(const char *text, const char *begin, const char *end, std::size_t count,
                            const std::string &what, Consumer &consumer, ThreadPool &pool,
                            std::size_t chunk_count) {
  if (chunk_count == 0)
    chunk_count = default_chunk_count(static_cast<std::size_t>(end - begin), pool);
  std::vector<TextChunk> chunks = split_into_chunks(begin, end, chunk_count, pool);
  std::vector<ChunkError> errors(chunks.size());
  pool.run(chunks.size(), [&](std::size_t c) {
    const TextChunk &chunk = chunks[c];
    if (chunk.first_token >= count)
      return; // trailing tokens: described by check_token_count
    std::size_t index = chunk.first_token;
    const std::size_t last = std::min(count, chunk.first_token + chunk.tokens);
    const char *p = chunk.begin;
    for (; index < last; ++index) {
      p = skip_space(p, chunk.end); // chunks end at white space: a token never crosses chunk.end
      typename Kind::value_type value{};
      const char *stop = Kind::parse_fast(p, chunk.end, value);
      TokenStatus status = TokenStatus::ok;
      if (!stop) {
        stop = token_end(p, chunk.end);
        status = Kind::parse(p, stop, value);
      }
      if (status == TokenStatus::ok && consumer.accept(index, value)) {
        p = stop;
        continue;
      }
      ChunkError &error = errors[c];
      error.offset = static_cast<std::size_t>(p - text);
      std::string expectation = status == TokenStatus::ok ? consumer.expected(index) : "";
      if (expectation.empty())
        expectation = Kind::kind();
      error.expected = consumer.item(index) + " to be " + expectation;
      error.found = describe_token(p, stop);
      if (status == TokenStatus::out_of_range)
        error.found += " (out of range)";
      return;
    }
  });
  throw_first_error(errors);
  return check_token_count(text, end, chunks, count, what);
}

} // namespace kit::io
