// value_clipping: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cmath>
#include <limits>
#include <string>

namespace kit::basics {
namespace {

// torch.clamp(input, min=lo, max=hi): NaN propagates, everything else is min(max(x, lo), hi).
void value_clipping_reference(const float *input, float *output, float lo, float hi, int N) {
  for (int i = 0; i < N; ++i) {
    const float x = input[i];
    output[i] = std::isnan(x) ? x : std::fmin(std::fmax(x, lo), hi);
  }
}

// The bounds themselves and their neighbouring floats, signed zeros, subnormals, the largest
// finite floats and both infinities (clipped to hi and lo). Not NaN: its expected NaN cannot be
// compared.
void fill_edge_values(Case &c, Rng &rng) {
  const float lo = c.real("lo"), hi = c.real("hi");
  const float inf = std::numeric_limits<float>::infinity();
  const float special[] = {lo,
                           hi,
                           std::nextafter(lo, -inf),
                           std::nextafter(lo, inf),
                           std::nextafter(hi, -inf),
                           std::nextafter(hi, inf),
                           0.0f,
                           -0.0f,
                           1e-45f,
                           -1e-45f,
                           1e6f,
                           -1e6f,
                           3.4e38f,
                           -3.4e38f,
                           inf,
                           -inf};
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = special[rng.next() % (sizeof special / sizeof special[0])];
}

} // namespace

const Problem &value_clipping_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "value_clipping";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32, count_of("N")), float_scalar("lo"), float_scalar("hi"),
                scalar("N", 1, 100000)};
    p.check = [](const Case &c) -> std::string {
      if (c.real("lo") > c.real("hi"))
        return "lo " + scalar_text(c.params->at(2), c.real("lo")) + " > hi " +
               scalar_text(c.params->at(3), c.real("hi"));
      return "";
    };
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, value_clipping_reference);
    p.fill = fill_with(p, {uniform(-100, 100)});
    // The awkward sizes with the performance case's bounds; then bounds that clip everything,
    // nothing, or to one value.
    for (long long n : awkward_sizes({1024, 4096}))
      add_tests(p, {{-51.24, 39.51, static_cast<double>(n)}});
    add_tests(p, {{150, 200, 4099}, {-200, -150, 4099}, {-1000, 1000, 4099}, {7.5, 7.5, 4099}});
    add_tests(p, {{-51.24, 39.51, 4099}, {0, 0, 4097}, {-1e6, 1e6, 4098}}, fill_edge_values,
              ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/62_value_clipping";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {0, 3.5, 4}, {given({1.5, -2, 3, 4.5})});
    add_judge_functional(p, {-0.5, 2.5, 3}, {given({-1, 2, 5})});
    add_judge_functional(p, {-1, 1, 42}, {constant(0)});
    add_judge_functional(p, {-3, -1, 6}, {given({-1, -2, -3, -4, -5, -6})});
    add_judge_functional(p, {-1, 0.5, 4}, {given({-0.5, 0, -1.5, 1})});
    add_judge_functional(p, {-50.9, 50.1, 1024}, {uniform(-100, 100)});
    add_judge_functional(p, {-25.5, 25.05, 2048}, {uniform(-50, 50)});
    j.performance = judge_case(p, "performance", {-51.24, 39.51, 100000}, {uniform(-100, 100)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
