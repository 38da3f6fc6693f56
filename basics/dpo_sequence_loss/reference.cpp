// dpo_sequence_loss: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace kit::basics {
namespace {

// In double from the float inputs, the mean rounded to float once: -log sigmoid(z) as
// max(-z, 0) + log1p(exp(-|z|)). (The judge's reference works in torch float32.)
void dpo_sequence_loss_reference(const float *chosen_logps, const float *rejected_logps,
                                 const float *chosen_ref_logps, const float *rejected_ref_logps,
                                 float *output, float beta, int B) {
  double sum = 0.0;
  for (int i = 0; i < B; ++i) {
    const double chosen_margin = static_cast<double>(chosen_logps[i]) - rejected_logps[i];
    const double reference_margin =
        static_cast<double>(chosen_ref_logps[i]) - rejected_ref_logps[i];
    const double z = static_cast<double>(beta) * (chosen_margin - reference_margin);
    sum += std::max(-z, 0.0) + std::log1p(std::exp(-std::abs(z)));
  }
  output[0] = static_cast<float>(sum / B);
}

// base + N(0, 1) floats: sequence log-probabilities are sums over tokens, so the challenge also
// feeds large negative values around a common base.
ArrayValues shifted_normal(double base) {
  const ArrayValues standard = normal();
  return {std::to_string(static_cast<int>(base)) + " + N(0, 1)",
          [standard, base](Case &c, std::size_t param, Rng &rng) {
            standard.fill(c, param, rng);
            float *v = c.array<float>(param);
            for (std::size_t i = 0; i < c.count(param); ++i)
              v[i] = static_cast<float>(base + v[i]);
          }};
}

// Logits at the extremes: margins of +-2000 (z = -+200 at beta = 0.1, where exp(-|z|) is below
// the smallest float), margins that cancel exactly against the reference (z = 0, log 2), and
// small margins between large log-probabilities.
void fill_edge_values(Case &c, Rng &rng) {
  const float values[] = {0.0f, -0.0f, 1000.0f, -1000.0f, -450.25f, -450.5f, -2033.0f, 1e-30f};
  float *x[4];
  for (int k = 0; k < 4; ++k)
    x[k] = c.array<float>(static_cast<std::size_t>(k));
  const std::size_t count = sizeof values / sizeof values[0];
  for (std::size_t i = 0; i < c.count(0); ++i)
    for (int k = 0; k < 4; ++k)
      x[k][i] = values[rng.next() % count];
}

} // namespace

const Problem &dpo_sequence_loss_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "dpo_sequence_loss";
    p.params = {input("chosen_logps", Elem::f32, count_of("B")),
                input("rejected_logps", Elem::f32, count_of("B")),
                input("chosen_ref_logps", Elem::f32, count_of("B")),
                input("rejected_ref_logps", Elem::f32, count_of("B")),
                output("output", Elem::f32, count_one()),
                float_scalar("beta", 0.0f, 10.0f),
                scalar("B", 1, 16777216)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, dpo_sequence_loss_reference);
    p.fill = fill_with(p, {normal(), normal(), normal(), normal()});
    // One block covers 256 threads x 2 vectors x 4 floats = 2048 pairs per batch.
    for (double n : awkward_sizes({2048}))
      add_tests(p, {{0.1, n}});
    add_tests(p, {{0.1, 65537}, {0.5, 1000003}, {0, 4099}, {10, 999}});
    add_tests(p, {{0.1, 5}, {0.1, 2049}, {1, 100001}}, fill_edge_values, ",edge-values");
    const std::vector<ArrayValues> around_base = {shifted_normal(-450), shifted_normal(-450),
                                                  shifted_normal(-450), shifted_normal(-450)};
    add_tests(p, {{0.1, 33}, {0.1, 65536}}, fill_with(p, around_base), ",base=-450");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/108_dpo_sequence_loss";
    j.tolerance = {1e-4, 1e-4};
    const std::vector<ArrayValues> example = {given({0, 1, -1, 2}), constant(0), constant(0),
                                              constant(0)};
    const std::vector<ArrayValues> random = {normal(), normal(), normal(), normal()};
    j.example = judge_case(p, "example", {0.1, 4}, example);
    add_judge_functional(p, {0.1, 4}, example);
    add_judge_functional(p, {0.1, 1}, {given({-2}), given({-2}), given({-1}), given({-1})});
    add_judge_functional(p, {0.7, 2},
                         {given({2, -1}), given({0, 1}), given({0.5, -0.5}), given({-0.5, 0.5})});
    add_judge_functional(p, {0.1, 4},
                         {given({1000, -1000, 500, -500}), constant(0), constant(0), constant(0)});
    add_judge_functional(p, {0, 16}, random);
    add_judge_functional(p, {0.05, 127}, random);
    add_judge_functional(p, {0.1, 32}, around_base);
    add_judge_functional(p, {0.1, 6},
                         {given({-812.5, -1190.25, -415.75, -2033.0, -655.5, -978.25}),
                          given({-820.0, -1183.5, -422.25, -2025.5, -661.0, -985.0}),
                          given({-812.0, -1191.0, -415.0, -2034.0, -655.0, -979.0}),
                          given({-819.5, -1184.0, -423.0, -2026.0, -660.5, -984.5})});
    add_judge_functional(
        p, {0.1, 4},
        {given({-118.0, -95.5, -140.25, -102.0}), given({-870.5, -1204.0, -655.75, -988.25}),
         given({-120.0, -97.0, -138.5, -104.0}), given({-865.0, -1210.5, -660.0, -983.0})});
    add_judge_functional(p, {0.2, 4096}, random);
    j.performance = judge_case(p, "performance", {0.1, 65536}, random);
    p.model = memory_bound([](const Case &c) { return 16.0 * static_cast<double>(c["B"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
