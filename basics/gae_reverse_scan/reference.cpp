// gae_reverse_scan: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"


namespace kit::basics {
namespace {

// Backwards along each row, in double, each advantage rounded once. (The judge's reference works
// in float32: deltas as one tensor expression, then the same backward loop.)
void gae_reverse_scan_reference(const float *rewards, const float *values, float *advantages,
                                float gamma, float lam, int B, int S) {
  const double decay = static_cast<double>(gamma) * static_cast<double>(lam);
  for (int b = 0; b < B; ++b) {
    const std::size_t row = static_cast<std::size_t>(b) * static_cast<std::size_t>(S);
    double advantage = 0.0;
    for (int t = S - 1; t >= 0; --t) {
      const double next = t + 1 < S ? values[row + t + 1] : 0.0; // no bootstrap after the end
      const double delta = static_cast<double>(rewards[row + t]) + gamma * next - values[row + t];
      advantage = delta + decay * advantage;
      advantages[row + t] = static_cast<float>(advantage);
    }
  }
}

} // namespace

const Problem &gae_reverse_scan_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "gae_reverse_scan";
    p.params = {input("rewards", Elem::f32, count_of("B", "S")),
                input("values", Elem::f32, count_of("B", "S")),
                output("advantages", Elem::f32, count_of("B", "S")),
                float_scalar("gamma", 0, 1),
                float_scalar("lam", 0, 1),
                scalar("B", 1, 256),
                scalar("S", 1, 65536)};
    p.tolerance = {1e-3, 1e-3};
    set_reference(p, gae_reverse_scan_reference);
    p.fill = fill_with(p, {normal(), normal()});
    // The judge's default gamma = 0.99, lam = 0.95. One row: awkward lengths around the
    // 4096-element tiles; several rows: row ends inside groups of four, inside tiles and on
    // tile boundaries, and B * S % 4 != 0 (the scalar path).
    add_tests(p, {{0.99, 0.95, 1, 1},     {0.99, 0.95, 1, 2},      {0.99, 0.95, 1, 31},
                  {0.99, 0.95, 1, 32},    {0.99, 0.95, 1, 33},     {0.99, 0.95, 1, 63},
                  {0.99, 0.95, 1, 64},    {0.99, 0.95, 1, 65},     {0.99, 0.95, 1, 1023},
                  {0.99, 0.95, 1, 1024},  {0.99, 0.95, 1, 1025},   {0.99, 0.95, 1, 4095},
                  {0.99, 0.95, 1, 4096},  {0.99, 0.95, 1, 4097},   {0.99, 0.95, 1, 8193},
                  {0.99, 0.95, 1, 65536}, {0.99, 0.95, 5, 3},      {0.99, 0.95, 7, 33},
                  {0.99, 0.95, 33, 31},   {0.99, 0.95, 2, 4095},   {0.99, 0.95, 3, 4097},
                  {0.99, 0.95, 256, 1},   {0.99, 0.95, 256, 65},   {0.99, 0.95, 64, 4096},
                  {0.99, 0.95, 63, 4099}, {0.99, 0.95, 256, 65536}});
    // gamma = lam = 1: suffix sums of up to 65,536 deltas, no tile absorbs (look-backs run to
    // the row's last tile); lam = 0 and gamma = 0: every step absorbs.
    add_tests(p, {{1, 1, 1, 65536}, {1, 1, 4, 65535}, {1, 0.999, 3, 20001}});
    add_tests(p, {{0.9, 0, 4, 5000}, {0, 0.95, 4, 5003}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Its random cases draw rewards
    // and values from torch.randn.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/110_gae_reverse_scan";
    j.tolerance = {1e-3, 1e-3};
    j.example =
        judge_case(p, "example", {0.9, 0.5, 1, 4}, {given({1, 2, 3, 4}), given({0.5, 1, 1.5, 2})});
    add_judge_functional(p, {0.99, 0.95, 1, 1}, {given({2}), given({0.5})});
    add_judge_functional(p, {0.99, 0.95, 1, 2}, {given({1, -1}), given({0, 0.5})});
    add_judge_functional(p, {0.99, 0.95, 2, 4}, {constant(0), constant(0)});
    add_judge_functional(p, {0, 0.95, 1, 4}, {given({1, -2, 3, -4}), given({0.5, 1, -1, 2})});
    add_judge_functional(p, {0.9, 0, 1, 4}, {given({1, 2, 3, 4}), given({0.5, 1, 1.5, 2})});
    add_judge_functional(p, {0.99, 0.95, 1, 4}, {given({-1, -2, 3, -4}), given({1, -1, 2, -2})});
    add_judge_functional(p, {0.99, 0.95, 4, 16}, {normal(), normal()});
    add_judge_functional(p, {1, 1, 8, 64}, {normal(), normal()});
    add_judge_functional(p, {0.99, 0.95, 2, 30}, {normal(), normal()});
    add_judge_functional(p, {0.9, 0.8, 4, 100}, {normal(), normal()});
    add_judge_functional(p, {0.99, 0.95, 2, 257}, {normal(), normal()});
    add_judge_functional(p, {0.99, 0.95, 16, 1024}, {normal(), normal()});
    add_judge_functional(p, {0.99, 0.95, 64, 4096}, {normal(), normal()});
    j.performance = judge_case(p, "performance", {0.99, 0.95, 64, 4096}, {normal(), normal()});
    p.model = memory_bound([](const Case &c) {
      return 12.0 * static_cast<double>(c["B"]) * static_cast<double>(c["S"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
