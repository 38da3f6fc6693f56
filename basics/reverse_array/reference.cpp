// reverse_array: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>

namespace kit::basics {
namespace {

void reverse_array_reference(float *input, int N) { std::reverse(input, input + N); }

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
}

} // namespace

const Problem &reverse_array_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "reverse_array";
    p.params = {inout("input", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, reverse_array_reference);
    p.fill = fill_values;
    // A block swaps 512 vector pairs (4096 elements); N % 8 == 4 leaves a middle vector, other
    // remainders take the scalar kernel.
    add_awkward_size_tests(p, {4096});
    add_tests(p, {{3}, {4}, {5}, {7}, {8}, {12}, {4100}, {4104}, {1000004}, {1000006}});
    p.perf = {"N=25000000", {25000000}, {}};
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
