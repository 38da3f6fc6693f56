#include "spec.h"

#include <algorithm>

namespace kit::basics {

std::vector<long long> awkward_sizes(std::initializer_list<long long> tiles) {
  std::vector<long long> sizes = {1, 2, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025};
  for (long long tile : tiles)
    for (long long n : {tile - 1, tile, tile + 1, 2 * tile + 1, 5 * tile - 3})
      if (n >= 1)
        sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::string label_of(const std::vector<Param> &params, const std::vector<long long> &scalars) {
  std::string text;
  std::size_t k = 0;
  for (const Param &p : params) {
    if (p.role != Role::scalar)
      continue;
    if (!text.empty())
      text += ",";
    text += p.name + "=" + std::to_string(scalars.at(k++));
  }
  return text;
}

void add_tests(Problem &problem, const std::vector<std::vector<long long>> &scalar_lists,
               const FillFn &fill, const std::string &suffix) {
  for (const auto &scalars : scalar_lists)
    problem.tests.push_back({label_of(problem.params, scalars) + suffix, scalars, fill});
}

void add_awkward_size_tests(Problem &problem, std::initializer_list<long long> tiles) {
  for (long long n : awkward_sizes(tiles))
    add_tests(problem, {{n}});
}

CountFn count_of(const char *scalar) {
  return [scalar](const Case &c) { return static_cast<std::size_t>(c[scalar]); };
}

CountFn count_of(const char *a, const char *b) {
  return [a, b](const Case &c) {
    return static_cast<std::size_t>(c[a]) * static_cast<std::size_t>(c[b]);
  };
}

CountFn count_one() {
  return [](const Case &) { return std::size_t{1}; };
}

PerfModel memory_bound(std::function<double(const Case &)> bytes) {
  PerfModel model;
  model.limit = Limit::memory;
  model.bytes = std::move(bytes);
  return model;
}

} // namespace kit::basics
