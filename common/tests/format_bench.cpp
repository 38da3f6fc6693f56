// Single-thread cost of the output formatters, in ns per value (median of 7 runs over the same
// values): format_float_g6 (scaled-integer fast path), format_float_g6_exact (std::to_chars,
// what the programs used before) and snprintf("%g"), on softmax-like outputs (1e6 values whose
// magnitudes spread like a softmax of N = 1e6 inputs in [-50, 50]) and on uniform bit patterns.
//   format_bench [COUNT]
#include "io/text_format.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

template <class Format> double ns_per_value(const std::vector<float> &values, Format format) {
  std::vector<char> buffer(values.size() * (kit::io::kMaxFloatChars + 1));
  std::vector<double> runs;
  std::size_t bytes = 0;
  for (int run = 0; run < 7; ++run) {
    const auto start = std::chrono::steady_clock::now();
    char *out = buffer.data();
    for (float v : values) {
      out = format(out, v);
      *out++ = ' ';
    }
    const auto stop = std::chrono::steady_clock::now();
    bytes += static_cast<std::size_t>(out - buffer.data());
    runs.push_back(std::chrono::duration<double, std::nano>(stop - start).count() /
                   static_cast<double>(values.size()));
  }
  std::sort(runs.begin(), runs.end());
  if (bytes == 0) // keeps the formatting observable
    std::puts("");
  return runs[runs.size() / 2];
}

char *printf_g(char *out, float v) {
  return out + std::snprintf(out, 32, "%g", static_cast<double>(v));
}

} // namespace

int main(int argc, char **argv) {
  const std::size_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  std::mt19937 rng(42);
  std::vector<float> softmax_like(count), bit_patterns;
  std::uniform_real_distribution<float> input(-50.0f, 50.0f);
  double sum = 0;
  for (float &v : softmax_like) {
    v = input(rng);
    sum += std::exp(static_cast<double>(v) - 50.0);
  }
  for (float &v : softmax_like)
    v = static_cast<float>(std::exp(static_cast<double>(v) - 50.0) / sum);
  while (bit_patterns.size() < count) {
    std::uint32_t bits = rng();
    float v;
    std::memcpy(&v, &bits, sizeof v);
    if (std::isfinite(v))
      bit_patterns.push_back(v);
  }
  std::printf("%-22s %12s %14s %10s\n", "values", "fast (ns)", "to_chars (ns)", "printf (ns)");
  for (auto [name, values] :
       {std::pair<const char *, const std::vector<float> *>{"softmax-like", &softmax_like},
        {"uniform bit patterns", &bit_patterns}}) {
    std::printf(
        "%-22s %12.1f %14.1f %10.1f\n", name, ns_per_value(*values, kit::io::format_float_g6),
        ns_per_value(*values, kit::io::format_float_g6_exact), ns_per_value(*values, printf_g));
  }
  return 0;
}
