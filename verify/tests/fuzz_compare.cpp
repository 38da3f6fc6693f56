// libFuzzer target for verify's comparison rules. The input is split into an output file and an
// expected file (the first byte chooses where). Any pair must compare without crashing or
// hanging; every message must be printable ASCII (tokens are escaped); and `exact` must agree with
// a direct model of `diff -qBw` (each line with all white space removed, blank lines dropped)
// whenever no token is longer than the reader keeps (longer ones are reported, not compared).
#include "compare.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace {

// The reader keeps this many bytes of a token (TokenReader::kMaxToken in compare.cpp).
constexpr std::size_t kKeptTokenBytes = 64;

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// diff -qBw's view of a file: its non-blank lines without white space.
std::vector<std::string> diff_bw_lines(const std::string &text) {
  std::vector<std::string> lines;
  std::string line;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n') {
      if (!line.empty())
        lines.push_back(line);
      line.clear();
    } else if (!is_space(text[i])) {
      line += text[i];
    }
  }
  return lines;
}

bool has_long_token(const std::string &text) {
  std::size_t run = 0;
  for (const char c : text) {
    run = is_space(c) ? 0 : run + 1;
    if (run > kKeptTokenBytes)
      return true;
  }
  return false;
}

bool printable(const std::string &message) {
  for (const char c : message)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
      return false;
  return true;
}

// A file in memory (memfd) that the comparer opens by path like any other; it disappears with
// the process, so nothing is left behind when libFuzzer stops.
class MemoryFile {
public:
  explicit MemoryFile(const char *name) : fd_(::memfd_create(name, 0)) {
    if (fd_ < 0)
      std::abort();
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  const std::string &path() const { return path_; }
  void assign(const std::string &content) const {
    if (::ftruncate(fd_, 0) != 0 ||
        ::pwrite(fd_, content.data(), content.size(), 0) != static_cast<ssize_t>(content.size()))
      std::abort();
  }

private:
  int fd_;
  std::string path_;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::size_t split = data[0] * (size - 1) / 256;
  const std::string got(reinterpret_cast<const char *>(data) + 1, split);
  const std::string expected(reinterpret_cast<const char *>(data) + 1 + split, size - 1 - split);
  static const MemoryFile got_file("got"), expected_file("expected");
  got_file.assign(got);
  expected_file.assign(expected);

  const verify::Result exact = verify::compare_exact(got_file.path(), expected_file.path());
  const verify::Result softmax = verify::compare_softmax(got_file.path(), expected_file.path());
  if (!printable(exact.message) || !printable(softmax.message))
    std::abort();
  if ((exact.outcome == verify::Outcome::pass) != exact.message.empty() ||
      (softmax.outcome == verify::Outcome::pass) != softmax.message.empty())
    std::abort(); // a difference always comes with its description, a pass with none
  if (!has_long_token(got) && !has_long_token(expected)) {
    const bool same = diff_bw_lines(got) == diff_bw_lines(expected);
    if (exact.outcome != (same ? verify::Outcome::pass : verify::Outcome::mismatch))
      std::abort();
  }
  return 0;
}
