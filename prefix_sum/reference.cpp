#include "reference.h"

#include "io/threads.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

// Large enough that a block's pass costs far more than handing it to a thread.
constexpr std::size_t kScanBlock = std::size_t{1} << 18;

// Unsigned arithmetic gives the two's complement wrap-around without signed-overflow UB.
std::uint32_t scan_block(const int *in, int *out, std::size_t n, std::uint32_t carry) {
  for (std::size_t i = 0; i < n; ++i) {
    carry += static_cast<std::uint32_t>(in[i]);
    out[i] = static_cast<int>(carry);
  }
  return carry;
}

std::uint32_t sum_block(const int *in, std::size_t n) {
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < n; ++i)
    sum += static_cast<std::uint32_t>(in[i]);
  return sum;
}

} // namespace

// Two passes over fixed blocks: block sums in parallel, a serial scan of the sums, then each block
// scanned from its carry. Addition mod 2^32 is associative, so the result equals the serial loop.
void prefix_sum_reference(const int *input, int *output, std::size_t n) {
  const std::size_t blocks = (n + kScanBlock - 1) / kScanBlock;
  kit::ThreadPool &pool = kit::default_pool();
  if (blocks <= 1 || pool.size() == 1) {
    scan_block(input, output, n, 0);
    return;
  }
  std::vector<std::uint32_t> carry(blocks);
  pool.run(blocks, [&](std::size_t b) {
    std::size_t first = b * kScanBlock;
    carry[b] = sum_block(input + first, std::min(kScanBlock, n - first));
  });
  std::uint32_t running = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint32_t block_sum = carry[b];
    carry[b] = running;
    running += block_sum;
  }
  pool.run(blocks, [&](std::size_t b) {
    std::size_t first = b * kScanBlock;
    scan_block(input + first, output + first, std::min(kScanBlock, n - first), carry[b]);
  });
}
