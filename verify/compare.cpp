#include "compare.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace verify {
namespace {

bool is_space(int c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// `text` in quotes for a message, with every byte outside printable ASCII (and the quote and the
// backslash) written as \xNN, so that a message never sends raw control bytes to a terminal.
// `cut`: the text is the start of a longer token, marked by "...".
std::string quoted(const std::string &text, bool cut) {
  std::string out = "'";
  for (const char byte : text) {
    const unsigned char c = static_cast<unsigned char>(byte);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
      out += byte;
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  out += cut ? "...'" : "'";
  return out;
}

// Reading failure of either file: the comparison is unusable.
struct Unusable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Buffered bytes of a file, up to 1 MiB at a time; a regular file smaller than that gets a buffer
// of its own size (at least 4 KiB), so comparing small outputs does not map and fault in 1 MiB.
class ByteReader {
public:
  explicit ByteReader(const std::string &path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0)
      throw Unusable(path + ": cannot open: " + std::strerror(errno));
    struct stat status {};
    if (::fstat(fd_, &status) == 0 && S_ISREG(status.st_mode))
      capacity_ = std::clamp(static_cast<std::size_t>(status.st_size), kMinBuffer, kMaxBuffer);
    buffer_.reset(new char[capacity_]);
  }
  ~ByteReader() { ::close(fd_); }
  ByteReader(const ByteReader &) = delete;
  ByteReader &operator=(const ByteReader &) = delete;

  // Next byte, or -1 at the end of the file.
  int get() {
    if (pos_ == size_ && !refill())
      return -1;
    return static_cast<unsigned char>(buffer_[pos_++]);
  }
  int peek() {
    if (pos_ == size_ && !refill())
      return -1;
    return static_cast<unsigned char>(buffer_[pos_]);
  }
  const std::string &path() const { return path_; }

private:
  static constexpr std::size_t kMinBuffer = std::size_t{1} << 12;
  static constexpr std::size_t kMaxBuffer = std::size_t{1} << 20;
  bool refill() {
    for (;;) {
      ssize_t got = ::read(fd_, buffer_.get(), capacity_);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        throw Unusable(path_ + ": cannot read: " + std::strerror(errno));
      pos_ = 0;
      size_ = static_cast<std::size_t>(got);
      return got > 0;
    }
  }
  std::string path_;
  int fd_ = -1;
  std::size_t capacity_ = kMaxBuffer; // bytes of buffer_
  std::unique_ptr<char[]> buffer_;
  std::size_t pos_ = 0;
  std::size_t size_ = 0;
};

// Tokens and line ends of a file, blank lines skipped. Tokens longer than kMaxToken keep only
// their first kMaxToken characters (plus a count), which bounds memory on any input.
class TokenReader {
public:
  enum class Kind { token, line_end, end_of_file };
  static constexpr std::size_t kMaxToken = 64;

  explicit TokenReader(const std::string &path) : bytes_(path) {}

  // Advances to the next token or to the end of the current non-blank line.
  Kind next() {
    for (;;) {
      int c = bytes_.get();
      if (c < 0) {
        if (tokens_in_line_ > 0) {
          end_line();
          return Kind::line_end; // a last line without '\n' still ends
        }
        return Kind::end_of_file;
      }
      if (c == '\n') {
        ++physical_line_;
        if (tokens_in_line_ > 0) {
          line_of_last_token_ = physical_line_ - 1;
          end_line();
          return Kind::line_end;
        }
        continue;
      }
      if (is_space(c))
        continue;
      token_.clear();
      token_length_ = 0;
      append(c);
      while (bytes_.peek() >= 0 && !is_space(bytes_.peek()))
        append(bytes_.get());
      ++tokens_in_line_;
      line_of_last_token_ = physical_line_;
      return Kind::token;
    }
  }

  const std::string &token() const { return token_; }
  std::size_t token_length() const { return token_length_; }
  // 1-based line of the current token (or of the line that just ended) and token index in it.
  std::size_t line() const { return line_of_last_token_; }
  std::size_t token_index() const { return tokens_in_line_; }
  // After Kind::line_end: how many tokens the line that just ended held.
  std::size_t tokens_in_ended_line() const { return tokens_in_ended_line_; }
  std::string shown_token() const { return quoted(token_, token_length_ > token_.size()); }

private:
  void end_line() {
    tokens_in_ended_line_ = tokens_in_line_;
    tokens_in_line_ = 0;
  }
  void append(int c) {
    if (token_.size() < kMaxToken)
      token_ += static_cast<char>(c);
    ++token_length_;
  }
  ByteReader bytes_;
  std::string token_;
  std::size_t token_length_ = 0;
  std::size_t physical_line_ = 1;
  std::size_t line_of_last_token_ = 1;
  std::size_t tokens_in_line_ = 0;
  std::size_t tokens_in_ended_line_ = 0;
};

std::string where(const TokenReader &got, const TokenReader &expected) {
  std::string out = "line " + std::to_string(got.line());
  if (expected.line() != got.line())
    out += " (expected file line " + std::to_string(expected.line()) + ")";
  return out;
}

// "1 token", "3 tokens".
std::string count_of(std::size_t tokens) {
  return std::to_string(tokens) + (tokens == 1 ? " token" : " tokens");
}

// Describes a structural difference: one file's line ended, or its file ended, before the other.
Result structure_mismatch(TokenReader::Kind got_kind, const TokenReader &got,
                          TokenReader::Kind expected_kind, const TokenReader &expected,
                          std::size_t line_number) {
  using Kind = TokenReader::Kind;
  Result r{Outcome::mismatch, ""};
  const std::string line = "line " + std::to_string(line_number);
  if (got_kind == Kind::end_of_file)
    r.message = "missing line " + std::to_string(line_number) + ": the output ended";
  else if (expected_kind == Kind::end_of_file)
    r.message = "extra line " + std::to_string(line_number) + " after the expected end";
  else if (got_kind == Kind::line_end)
    r.message = line + ": the output line ends after " + count_of(got.tokens_in_ended_line()) +
                ", expected more (next expected token " + expected.shown_token() + ")";
  else
    r.message = line + ": extra token " + std::to_string(got.token_index()) + " " +
                got.shown_token() + " where the expected line ends";
  return r;
}

// Reads a token as a double the way a float() conversion would, or fails.
bool read_number(const std::string &token, double &value) {
  const char *begin = token.data();
  const char *end = begin + token.size();
  if (begin < end && *begin == '+')
    ++begin;
  auto [stop, ec] = std::from_chars(begin, end, value, std::chars_format::general);
  if (ec == std::errc::result_out_of_range && stop == end) {
    value = std::strtod(token.c_str(), nullptr); // under/overflow: the nearest double, or inf
    return true;
  }
  return ec == std::errc() && stop == end;
}

} // namespace

bool softmax_values_match(double got, double expected) {
  const double diff = std::fabs(got - expected);
  if (diff <= 1e-6)
    return true;
  return diff / std::fmax(std::fabs(expected), 1e-12) <= 1e-5;
}

Result compare_exact(const std::string &got_path, const std::string &expected_path) {
  try {
    TokenReader got(got_path), expected(expected_path);
    // Lines compare with all white space removed, so the tokens of a line are compared as one
    // character stream (as diff -w does, "1 23" equals "12 3"); each side keeps the unmatched
    // tail of its current token. The first differing token pair is reported.
    using Kind = TokenReader::Kind;
    std::string got_rest, expected_rest;
    auto advance = [](TokenReader &reader, std::string &rest) {
      Kind kind = reader.next();
      if (kind == Kind::token)
        rest += reader.token();
      return kind;
    };
    std::size_t line_number = 1;
    Kind gk = advance(got, got_rest), ek = advance(expected, expected_rest);
    for (;;) {
      if (ek == Kind::token && expected.token_length() > TokenReader::kMaxToken)
        return Result{Outcome::unusable, expected_path + ": line " +
                                             std::to_string(expected.line()) + ": token " +
                                             expected.shown_token() + " is too long"};
      const bool got_too_long = gk == Kind::token && got.token_length() > TokenReader::kMaxToken;
      if (gk == Kind::token && ek == Kind::token) {
        const std::size_t common = std::min(got_rest.size(), expected_rest.size());
        if (got_too_long || got_rest.compare(0, common, expected_rest, 0, common) != 0)
          return Result{Outcome::mismatch,
                        where(got, expected) + ": token " + std::to_string(got.token_index()) +
                            ": got " + got.shown_token() + ", expected " + expected.shown_token()};
        got_rest.erase(0, common);
        expected_rest.erase(0, common);
        if (got_rest.empty())
          gk = advance(got, got_rest);
        if (expected_rest.empty())
          ek = advance(expected, expected_rest);
        continue;
      }
      if (gk == Kind::line_end && ek == Kind::line_end) {
        ++line_number;
        gk = advance(got, got_rest);
        ek = advance(expected, expected_rest);
        continue;
      }
      if (gk == Kind::end_of_file && ek == Kind::end_of_file)
        return Result{};
      return structure_mismatch(gk, got, ek, expected, line_number);
    }
  } catch (const Unusable &e) {
    return Result{Outcome::unusable, e.what()};
  }
}

Result compare_softmax(const std::string &got_path, const std::string &expected_path) {
  try {
    TokenReader got(got_path), expected(expected_path);
    using Kind = TokenReader::Kind;
    std::size_t line_number = 1;
    for (;;) {
      Kind gk = got.next(), ek = expected.next();
      if (gk != ek)
        return structure_mismatch(gk, got, ek, expected, line_number);
      if (gk == Kind::end_of_file)
        return Result{};
      if (gk == Kind::line_end) {
        ++line_number;
        continue;
      }
      double e = 0, g = 0;
      if (expected.token_length() > TokenReader::kMaxToken || !read_number(expected.token(), e))
        return Result{Outcome::unusable, expected_path + ": line " +
                                             std::to_string(expected.line()) + ": token " +
                                             expected.shown_token() + " is not a number"};
      const std::string position =
          "line " + std::to_string(line_number) + ": token " + std::to_string(got.token_index());
      if (got.token_length() > TokenReader::kMaxToken || !read_number(got.token(), g))
        return Result{Outcome::mismatch, position + ": got " + got.shown_token() +
                                             " (not a number), expected " + expected.shown_token()};
      if (!softmax_values_match(g, e))
        return Result{Outcome::mismatch, position + ": got " + got.shown_token() + ", expected " +
                                             expected.shown_token() +
                                             " (outside 1e-6 absolute and 1e-5 relative)"};
    }
  } catch (const Unusable &e) {
    return Result{Outcome::unusable, e.what()};
  }
}

} // namespace verify
