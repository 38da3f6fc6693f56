// ppo_clipped_surrogate_loss: the CPU reference and the harness description (arguments,
// tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace kit::basics {
namespace {

// In double from the float inputs, the mean rounded to float once. (The judge's reference works
// in torch float32: every token's term in float, then a float32 mean.)
void ppo_clipped_surrogate_loss_reference(const float *advantages, const float *log_pi,
                                          const float *log_pi_old, float *output, float clip_eps,
                                          int B, int S) {
  const double lo = 1.0 - static_cast<double>(clip_eps);
  const double hi = 1.0 + static_cast<double>(clip_eps);
  const std::size_t n = static_cast<std::size_t>(B) * static_cast<std::size_t>(S);
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = advantages[i];
    const double ratio = std::exp(static_cast<double>(log_pi[i]) - log_pi_old[i]);
    const double clipped = std::min(std::max(ratio, lo), hi);
    sum += std::min(ratio * a, clipped * a);
  }
  output[0] = static_cast<float>(-(sum / static_cast<double>(n)));
}

// The statement's extremes: log-ratios of exactly -16, 0 and 16 (exp(16) = 8.9e6) and ratios on
// and next to both clipping bounds, with advantages of both signs and zero.
void fill_edge_values(Case &c, Rng &rng) {
  const float log_ratios[] = {-16.0f,      16.0f,        0.0f,  0.18232156f, -0.22314355f,
                              0.18232155f, -0.22314356f, 1e-7f, -1e-7f};
  const float advantages[] = {-5.0f, -1.0f, -0.0f, 0.0f, 1e-30f, 1.0f, 5.0f};
  float *a = c.array<float>(0);
  float *pi = c.array<float>(1);
  float *old = c.array<float>(2);
  for (std::size_t i = 0; i < c.count(0); ++i) {
    a[i] = advantages[rng.next() % (sizeof advantages / sizeof advantages[0])];
    old[i] = static_cast<float>(static_cast<int>(rng.next() % 9) - 4) * 0.5f; // exact, in [-2, 2]
    pi[i] = old[i] + log_ratios[rng.next() % (sizeof log_ratios / sizeof log_ratios[0])];
  }
}

} // namespace

const Problem &ppo_clipped_surrogate_loss_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "ppo_clipped_surrogate_loss";
    p.params = {input("advantages", Elem::f32, count_of("B", "S")),
                input("log_pi", Elem::f32, count_of("B", "S")),
                input("log_pi_old", Elem::f32, count_of("B", "S")),
                output("output", Elem::f32, count_one()),
                float_scalar("clip_eps", 0.0f, 0.999f),
                scalar("B", 1, 256),
                scalar("S", 1, 16384)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, ppo_clipped_surrogate_loss_reference);
    p.fill = fill_with(p, {normal(), normal(), normal()});
    // One block covers 256 threads x 2 vectors x 4 floats = 2048 tokens per batch; the B x S
    // tokens are one contiguous run, so the awkward sizes are those of B * S.
    for (double s : awkward_sizes({2048}))
      add_tests(p, {{0.2, 1, s}});
    add_tests(p, {{0.2, 3, 4097},
                  {0.1, 7, 9999},
                  {0.3, 64, 1000},
                  {0, 5, 333},
                  {0.99, 2, 5000},
                  {0.2, 255, 16383},
                  {0.2, 256, 16384}});
    add_tests(p, {{0.2, 1, 5}, {0.2, 3, 1027}, {0.1, 17, 4096}}, fill_edge_values, ",edge-values");
    add_tests(p, {{0.2, 2, 777}}, fill_with(p, {constant(0), normal(), normal()}),
              ",zero-advantages");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/107_ppo_clipped_surrogate_loss";
    j.tolerance = {1e-4, 1e-4};
    const std::vector<ArrayValues> example = {
        given({1, -2, 3, -4}), given({0.262364, -0.356675, 0.0953102, -0.223144}), constant(0)};
    j.example = judge_case(p, "example", {0.2, 1, 4}, example);
    add_judge_functional(p, {0.2, 1, 4}, example);
    add_judge_functional(p, {0.2, 1, 1}, {given({2.5}), constant(0), constant(0)});
    add_judge_functional(p, {0.2, 2, 4}, {constant(0), constant(0), constant(0)});
    add_judge_functional(p, {0.2, 1, 4},
                         {given({1, -1, 2, -2}),
                          given({0.1823215567939546, -0.2231435513142097, 0, 0}), constant(0)});
    add_judge_functional(p, {0.2, 4, 16}, {normal(), normal(), normal()});
    add_judge_functional(p, {0.1, 8, 64}, {normal(), normal(), normal()});
    add_judge_functional(p, {0.2, 3, 30}, {normal(), normal(), normal()});
    add_judge_functional(p, {0.3, 5, 100}, {normal(), normal(), normal()});
    add_judge_functional(p, {0.2, 16, 512}, {normal(), normal(), normal()});
    j.performance = judge_case(p, "performance", {0.2, 256, 16384}, {normal(), normal(), normal()});
    p.model =
        memory_bound([](const Case &c) { return 12.0 * static_cast<double>(c["B"]) * c["S"]; });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
