#include "random.h"

namespace kit::basics {

void fill_uniform(float *data, std::size_t n, float lo, float hi, Rng &rng) {
  for (std::size_t i = 0; i < n; ++i)
    data[i] = rng.uniform(lo, hi);
}

void fill_uniform(int *data, std::size_t n, long long lo, long long hi, Rng &rng) {
  for (std::size_t i = 0; i < n; ++i)
    data[i] = static_cast<int>(rng.uniform_int(lo, hi));
}

void fill_uniform(unsigned char *data, std::size_t n, Rng &rng) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t bits = rng.next();
    for (int b = 0; b < 8; ++b)
      data[i + b] = static_cast<unsigned char>(bits >> (8 * b));
  }
  for (std::uint64_t bits = rng.next(); i < n; ++i, bits >>= 8)
    data[i] = static_cast<unsigned char>(bits);
}

} // namespace kit::basics
