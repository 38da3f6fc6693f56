#include "gated_halves.h"

#include <string>
#include <utility>

namespace kit::basics {

void describe_gated_halves(Problem &p, long long max_n) {
  p.params = {input("input", Elem::f32, count_of("N")),
              output("output", Elem::f32,
                     [](const Case &c) { return static_cast<std::size_t>(c["N"] / 2); }),
              scalar("N", 2, max_n)};
  p.check = [](const Case &c) -> std::string {
    if (c["N"] % 2 != 0)
      return "N " + std::to_string(c["N"]) + " is odd (the input is two halves)";
    return "";
  };
  p.fill = fill_with(p, {uniform(-100, 100)});
  for (long long half : awkward_sizes({1024, 4096}))
    add_tests(p, {{2.0 * static_cast<double>(half)}});
  add_tests(p, {{static_cast<double>(max_n - 2)}});
}

FillFn fill_halves_from(std::vector<float> x1, std::vector<float> x2) {
  return [x1 = std::move(x1), x2 = std::move(x2)](Case &c, Rng &rng) {
    float *x = c.array<float>(0);
    const std::size_t half = c.count(0) / 2;
    for (std::size_t i = 0; i < half; ++i) {
      x[i] = x1[rng.next() % x1.size()];
      x[half + i] = x2[rng.next() % x2.size()];
    }
  };
}

} // namespace kit::basics
