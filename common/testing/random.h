// Deterministic random numbers for tests, case generators and benchmarks: the same seed gives the
// same data with every compiler and standard library (std::*_distribution are not portable), and
// a 1e9-element array takes a few seconds to fill.
#pragma once

#include <cstdint>
#include <string>

// mix() also runs in kernels (a counter-based fill of device memory).
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
#define KIT_RNG_HOST_DEVICE __host__ __device__
#else
#define KIT_RNG_HOST_DEVICE
#endif

namespace kit {

// SplitMix64 (Steele, Lea and Flood, 2014): small state, full 64-bit output, passes BigCrush;
// plenty for test data.
class Rng {
public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  // The generator's output function on its own: a counter-based stream, so that item i of a large
  // array can be made from (seed, i) by any thread in any order.
  KIT_RNG_HOST_DEVICE static std::uint64_t mix(std::uint64_t x) {
    std::uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::uint64_t next() {
    const std::uint64_t x = state_;
    state_ += 0x9E3779B97F4A7C15ull;
    return mix(x);
  }
  // Uniform in [lo, hi) with 24 random bits, like torch.rand scaled.
  float uniform(float lo, float hi) {
    const float unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
    const float v = lo + (hi - lo) * unit;
    return v < hi ? v : lo; // rounding can land on hi
  }
  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  // Uniform integer in [lo, hi] (inclusive); the modulo bias is below 2^-32 for spans under 2^32.
  long long uniform_int(long long lo, long long hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<long long>(span == 0 ? next() : next() % span);
  }

private:
  std::uint64_t state_;
};

// A seed derived from a base seed and a label (say a problem and a case), so that every case of a
// run gets its own stream and a failure names the one seed that reproduces it.
inline std::uint64_t derive_seed(std::uint64_t base, const std::string &label) {
  std::uint64_t h = 1469598103934665603ull; // FNV-1a over the label
  for (unsigned char c : label)
    h = (h ^ c) * 1099511628211ull;
  return Rng::mix(base ^ h);
}

} // namespace kit
