// Deterministic random inputs: the same seed gives the same case on every compiler and standard
// library (std::*_distribution are not portable), and a 1e8-element array takes well under a
// second to generate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kit::basics {

// SplitMix64: small state, full 64-bit output, passes BigCrush; plenty for test inputs.
class Rng {
public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi) with 24 random bits, like torch.rand scaled.
  float uniform(float lo, float hi) {
    const float unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
    const float v = lo + (hi - lo) * unit;
    return v < hi ? v : lo; // rounding can land on hi
  }
  // Uniform integer in [lo, hi] (inclusive); the modulo bias is below 2^-32 for our ranges.
  long long uniform_int(long long lo, long long hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<long long>(next() % span);
  }

private:
  std::uint64_t state_;
};

// A seed derived from a base seed and a label (problem and case), so that every case of a run
// gets its own stream and a failure names the one seed that reproduces it.
std::uint64_t derive_seed(std::uint64_t base, const std::string &label);

void fill_uniform(float *data, std::size_t n, float lo, float hi, Rng &rng);
void fill_uniform(int *data, std::size_t n, long long lo, long long hi, Rng &rng);
void fill_uniform(unsigned char *data, std::size_t n, Rng &rng);

} // namespace kit::basics
