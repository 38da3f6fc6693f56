#include "io/text_writer.h"

#include "io/input_error.h"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

namespace kit::io {

void write_fully(int fd, const char *data, std::size_t size) {
  while (size > 0) {
    // Linux moves at most about 2 GiB per call; stay well below.
    ssize_t wrote = ::write(fd, data, std::min<std::size_t>(size, std::size_t{1} << 30));
    if (wrote < 0) {
      if (errno == EINTR)
        continue;
      throw OutputError(std::string("writing the output failed: ") + std::strerror(errno));
    }
    data += wrote;
    size -= static_cast<std::size_t>(wrote);
  }
}

OrderedWriter::OrderedWriter(int fd, ThreadPool &pool, std::size_t block_bytes)
    : fd_(fd), pool_(pool), block_bytes_(block_bytes) {}

void OrderedWriter::write_bytes(const char *data, std::size_t size) {
  write_fully(fd_, data, size);
}

void OrderedWriter::write_items(std::size_t count, std::size_t max_item_bytes,
                                const BlockFormatter &format) {
  if (count == 0)
    return;
  const std::size_t items_per_block = std::max<std::size_t>(1, block_bytes_ / max_item_bytes);
  const std::size_t blocks = (count + items_per_block - 1) / items_per_block;
  const std::size_t slots = std::min(blocks, 2 * static_cast<std::size_t>(pool_.size()));
  const std::size_t slot_bytes = std::min(items_per_block, count) * max_item_bytes;
  std::vector<std::unique_ptr<char[]>> buffers(slots);
  std::vector<std::size_t> length(slots, 0);

  // Shared state, under `mutex`: which blocks are formatted, which one is written next, whether
  // some thread is currently the writer, and the first write failure.
  std::mutex mutex;
  std::condition_variable slot_freed;
  std::vector<char> formatted(blocks, 0);
  std::size_t next_to_write = 0;
  bool writer_busy = false;
  std::string failure;

  pool_.run(blocks, [&](std::size_t block) {
    const std::size_t slot = block % slots;
    {
      std::unique_lock<std::mutex> lock(mutex);
      slot_freed.wait(lock, [&] { return block < next_to_write + slots || !failure.empty(); });
      if (!failure.empty())
        return;
    }
    if (!buffers[slot])
      buffers[slot].reset(new char[slot_bytes]);
    const std::size_t first = block * items_per_block;
    const std::size_t last = std::min(count, first + items_per_block);
    length[slot] =
        static_cast<std::size_t>(format(first, last, buffers[slot].get()) - buffers[slot].get());
    std::unique_lock<std::mutex> lock(mutex);
    formatted[block] = 1;
    if (writer_busy)
      return; // the active writer will pick this block up
    writer_busy = true;
    // Become the writer: write every block that is ready, in order, without holding the lock.
    while (next_to_write < blocks && formatted[next_to_write] && failure.empty()) {
      const std::size_t writing = next_to_write;
      lock.unlock();
      try {
        write_fully(fd_, buffers[writing % slots].get(), length[writing % slots]);
      } catch (const OutputError &error) {
        lock.lock();
        failure = error.what();
        break;
      }
      lock.lock();
      ++next_to_write;
      slot_freed.notify_all();
    }
    writer_busy = false;
    slot_freed.notify_all();
  });
  if (!failure.empty())
    throw OutputError(failure);
}

} // namespace kit::io
