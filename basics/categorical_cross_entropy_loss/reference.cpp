// categorical_cross_entropy_loss: the CPU reference and the harness description (arguments,
// tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>

namespace kit::basics {
namespace {

// The stable form per row (the maximum subtracted first), in double; the mean rounded once. (The
// judge's reference works per row in float32 and adds the rows' losses in float64.)
void categorical_cross_entropy_loss_reference(const float *logits, const int *true_labels,
                                              float *loss, int N, int C) {
  double total = 0.0;
  for (int r = 0; r < N; ++r) {
    const float *z = logits + static_cast<std::size_t>(r) * C;
    const double m = *std::max_element(z, z + C);
    double sum = 0.0;
    for (int c = 0; c < C; ++c)
      sum += std::exp(z[c] - m);
    total += m + std::log(sum) - z[true_labels[r]];
  }
  loss[0] = static_cast<float>(total / N);
}

// Labels uniform over the row's C classes.
ArrayValues labels() {
  return {"labels 0..C-1", [](Case &c, std::size_t param, Rng &rng) {
            int *l = c.array<int>(param);
            for (std::size_t i = 0; i < c.count(param); ++i)
              l[i] = static_cast<int>(rng.uniform_int(0, c["C"] - 1));
          }};
}

// Each row's label has the largest logit by far (loss near 0), or the smallest (loss near 200).
void fill_confident(Case &c, Rng &rng, bool right) {
  const std::size_t n = static_cast<std::size_t>(c["N"]),
                    classes = static_cast<std::size_t>(c["C"]);
  float *z = c.array<float>(0);
  int *l = c.array<int>(1);
  for (std::size_t r = 0; r < n; ++r) {
    l[r] = static_cast<int>(rng.uniform_int(0, static_cast<long long>(classes) - 1));
    for (std::size_t k = 0; k < classes; ++k)
      z[r * classes + k] = (k == static_cast<std::size_t>(l[r])) == right ? 100.0f : -100.0f;
  }
}

} // namespace

const Problem &categorical_cross_entropy_loss_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "categorical_cross_entropy_loss";
    p.params = {input("logits", Elem::f32, count_of("N", "C")),
                input("true_labels", Elem::i32, count_of("N")),
                output("loss", Elem::f32, count_one()), scalar("N", 1, 10000),
                scalar("C", 1, 100000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, categorical_cross_entropy_loss_reference);
    p.fill = fill_with(p, {uniform(-10, 10), labels()});
    // Row widths around the slice capacities (a warp's slice holds 128/256/512/1024 logits on
    // NVIDIA, 256/512/1024/2048 on AMD; wider rows are taken in slices); odd widths take the
    // 4-byte path.
    add_tests(p, {{1, 1},        {1, 2},     {3, 3},     {7, 31},     {9, 32},    {11, 33},
                  {13, 63},      {15, 64},   {17, 65},   {19, 127},   {21, 128},  {23, 129},
                  {25, 255},     {27, 256},  {29, 257},  {31, 511},   {33, 512},  {35, 513},
                  {37, 1000},    {39, 1023}, {41, 1024}, {43, 1025},  {45, 2047}, {47, 2048},
                  {49, 2049},    {51, 4097}, {53, 8192}, {5, 100000}, {10000, 2}, {10000, 33},
                  {10000, 1000}, {9999, 999}});
    // Logits far outside [-10, 10]: without the maximum subtracted, exp overflows.
    add_tests(p, {{100, 1000}, {33, 3000}}, fill_with(p, {uniform(80, 1000), labels()}), ",large");
    add_tests(p, {{64, 1000}}, fill_with(p, {uniform(-1000, -900), labels()}), ",large-negative");
    add_tests(
        p, {{50, 1000}, {7, 5}}, [](Case &c, Rng &rng) { fill_confident(c, rng, true); },
        ",confident-right");
    add_tests(
        p, {{50, 1000}}, [](Case &c, Rng &rng) { fill_confident(c, rng, false); },
        ",confident-wrong");
    add_tests(p, {{100, 1000}}, fill_with(p, {constant(3.5), labels()}), ",all-equal");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/25_categorical_cross_entropy_loss";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {2, 3}, {given({1, 2, 0.5, 0.1, 3, 1.5}), given({1, 1})});
    add_judge_functional(p, {2, 3}, {given({1, 2, 0.5, 0.1, 3, 1.5}), given({1, 1})});
    add_judge_functional(p, {3, 4},
                         {given({-0.5, 1.5, 0, 1, 2, -1, 0.5, 0.5, 0, 0, 0, 0}), given({3, 0, 1})});
    add_judge_functional(p, {1, 5}, {given({0.1, 0.2, 0.3, 0.4, 0.5}), given({4})});
    add_judge_functional(p, {2, 5}, {constant(1), given({0, 0})});
    add_judge_functional(p, {2, 4}, {given({-5, -5, 10, -5, 10, -5, -5, -5}), given({2, 0})});
    add_judge_functional(p, {2, 3}, {given({10, -5, -5, -5, 10, -5}), given({1, 2})});
    add_judge_functional(p, {100, 5}, {uniform(-5, 5), integers(0, 4)});
    j.performance =
        judge_case(p, "performance", {10000, 1000}, {uniform(-10, 10), integers(0, 999)});
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["N"]) * static_cast<double>(c["C"]) +
             4.0 * static_cast<double>(c["N"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
