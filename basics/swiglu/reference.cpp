// swiglu: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/gated_halves.h"

#include <cmath>
#include <string>

namespace kit::basics {
namespace {

// torch's `x1, x2 = input.chunk(2)` and `(x1 * sigmoid(x1)) * x2` on float tensors: each step
// rounded to float, the sigmoid as 1 / (1 + exp(-x)).
void swiglu_reference(const float *input, float *output, int N) {
  const int half = N / 2;
  for (int i = 0; i < half; ++i) {
    const float x1 = input[i];
    const float sigmoid = 1.0f / (1.0f + std::exp(-x1));
    const float silu = x1 * sigmoid;
    output[i] = silu * input[half + i];
  }
}

// Each x1 and x2 drawn from its own list: signed zeros, subnormals, where the sigmoid rounds to 1
// or exp(-x1) overflows (silu is -0 there), large magnitudes, -3.4e38 (silu -0). Every pair has a
// finite product: an infinite or NaN expected value cannot be compared (so no infinities, and no
// +3.4e38 as x1).
FillFn fill_edge_values() {
  return fill_halves_from(
      {0.0f,   -0.0f, 1e-45f, -1e-45f, 1e-38f,  -1e-38f, 1.0f,  -1.0f, 17.0f, -17.0f,  88.0f,
       -88.0f, 89.0f, -89.0f, 100.0f,  -100.0f, 1e4f,    -1e4f, 1e6f,  -1e6f, -3.4e38f},
      {0.0f, -0.0f, 1e-45f, -1e-45f, 1.0f, -1.0f, 100.0f, -100.0f, 1e4f, -1e4f, 1e6f, -1e6f});
}

} // namespace

const Problem &swiglu_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "swiglu";
    describe_gated_halves(p, 100000);
    p.tolerance = {1e-4, 1e-5};
    set_reference(p, swiglu_reference);
    add_tests(p, {{8198}}, fill_edge_values(), ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/54_swiglu";
    j.tolerance = {1e-4, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {2}, {given({0.5, 1})});
    add_judge_functional(p, {42}, {constant(0)});
    add_judge_functional(p, {6}, {given({-1, -2, -3, -4, -5, -6})});
    add_judge_functional(p, {4}, {given({-0.5, 0, -1.5, 1})});
    add_judge_functional(p, {1024}, {uniform(-100, 100)});
    add_judge_functional(p, {2048}, {uniform(-50, 50)});
    j.performance = judge_case(p, "performance", {100000}, {uniform(-100, 100)});
    // Reads N floats, writes N / 2.
    p.model = memory_bound([](const Case &c) { return 6.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
