// Ordered, parallel output: items are formatted in blocks on a thread pool into a ring of
// buffers, and the blocks are written in order with large write(2) calls while later blocks are
// still being formatted. Memory stays bounded (2 buffers per thread) whatever the output size.
#pragma once

#include "io/threads.h"

#include <cstddef>
#include <functional>

namespace kit::io {

// Formats items [first, last) into `out` (room for max_item_bytes per item) and returns the end.
using BlockFormatter = std::function<char *(std::size_t first, std::size_t last, char *out)>;

class OrderedWriter {
public:
  // Writes to file descriptor `fd` (not owned). Blocks hold about `block_bytes` of text.
  OrderedWriter(int fd, ThreadPool &pool, std::size_t block_bytes = std::size_t{1} << 20);

  // Formats and writes items [0, count); returns once all of it has been written. Throws
  // OutputError naming the failure if a write fails.
  void write_items(std::size_t count, std::size_t max_item_bytes, const BlockFormatter &format);
  // Writes `size` bytes as they are.
  void write_bytes(const char *data, std::size_t size);

private:
  int fd_;
  ThreadPool &pool_;
  std::size_t block_bytes_;
};

// write(2) all of [data, data + size) to fd, retrying short writes; throws OutputError.
void write_fully(int fd, const char *data, std::size_t size);

} // namespace kit::io
