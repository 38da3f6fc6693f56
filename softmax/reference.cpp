#include "reference.h"

#include "io/threads.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

// Fixed blocks (not one per thread) so that the double sum is added in the same order whatever
// the thread count: the output is then identical on every machine.
constexpr std::size_t kSoftmaxBlock = std::size_t{1} << 16;

} // namespace

void softmax_reference(const float *input, float *output, std::size_t n) {
  if (n == 0)
    return;
  const std::size_t blocks = (n + kSoftmaxBlock - 1) / kSoftmaxBlock;
  kit::ThreadPool &pool = kit::default_pool();
  auto block_range = [&](std::size_t b) {
    std::size_t first = b * kSoftmaxBlock;
    return std::make_pair(first, std::min(n, first + kSoftmaxBlock));
  };

  std::vector<float> block_max(blocks);
  pool.run(blocks, [&](std::size_t b) {
    auto [first, last] = block_range(b);
    float m = input[first];
    for (std::size_t i = first + 1; i < last; ++i)
      m = std::max(m, input[i]);
    block_max[b] = m;
  });
  const double max_value = *std::max_element(block_max.begin(), block_max.end());

  // exp(x - max) <= 1 never overflows; the largest term is exactly 1, so the sum is >= 1.
  std::vector<double> block_sum(blocks);
  pool.run(blocks, [&](std::size_t b) {
    auto [first, last] = block_range(b);
    double sum = 0.0;
    for (std::size_t i = first; i < last; ++i)
      sum += std::exp(static_cast<double>(input[i]) - max_value);
    block_sum[b] = sum;
  });
  double total = 0.0;
  for (double s : block_sum)
    total += s;

  pool.run(blocks, [&](std::size_t b) {
    auto [first, last] = block_range(b);
    for (std::size_t i = first; i < last; ++i)
      output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - max_value) / total);
  });
}
