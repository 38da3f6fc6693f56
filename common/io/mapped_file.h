// The whole input file in memory, read-only: mapped when it is a regular file (no copy, pages
// fault in on whichever thread parses them), read in large blocks otherwise (pipes).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kit::io {

class MappedFile {
public:
  // Throws FileError naming the path and the reason (missing, unreadable, a directory, ...).
  explicit MappedFile(const std::string &path);
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;
  ~MappedFile();

  const std::string &path() const { return path_; }
  const char *data() const { return data_; }
  std::size_t size() const { return size_; }
  const char *end() const { return data_ + size_; }

  // Gives the text back (unmaps it) once it has been parsed, so that a program's peak memory
  // holds the text and the parsed values, or the values and the results, but never all three.
  // Afterwards data() is null and size() 0.
  void release();

private:
  std::string path_;
  const char *data_ = nullptr;
  std::size_t size_ = 0;
  void *mapping_ = nullptr;
  std::vector<char> copy_; // used when the file cannot be mapped
};

} // namespace kit::io
