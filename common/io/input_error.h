// Errors in a program's input, located by byte offset so that the message can name the line.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace kit::io {

// What was expected at `offset` and what was found there; what() is "expected X, found Y".
class InputError : public std::runtime_error {
public:
  InputError(std::size_t offset, const std::string &expected, const std::string &found)
      : std::runtime_error("expected " + expected + ", found " + found), offset_(offset) {}
  std::size_t offset() const { return offset_; }

private:
  std::size_t offset_;
};

// A file that cannot be used at all (missing, unreadable, empty); what() is the reason.
class FileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A failed write of the program's output.
class OutputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The token at [begin, end) for a message: quoted, cut to a few dozen characters, with
// unprintable bytes escaped; "end of file" for an empty range.
std::string describe_token(const char *begin, const char *end);

// "<path>:<line>:<column> (byte <offset>): <message>" for an error at `offset` of `text`.
std::string locate_message(const std::string &path, const char *text, std::size_t size,
                           std::size_t offset, const std::string &message);

} // namespace kit::io
