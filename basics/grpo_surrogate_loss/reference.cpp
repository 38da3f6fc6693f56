// grpo_surrogate_loss: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

// In double from the float inputs (the group statistics, the advantages and every token's term),
// the mean rounded to float once. (The judge's reference works in torch float32.)
void grpo_surrogate_loss_reference(const float *rewards, const float *log_pi,
                                   const float *log_pi_old, const float *log_ref, float *output,
                                   float clip_eps, float beta, int B, int G, int S) {
  const double lo = 1.0 - static_cast<double>(clip_eps);
  const double hi = 1.0 + static_cast<double>(clip_eps);
  double sum = 0.0;
  for (int b = 0; b < B; ++b) {
    const float *group = rewards + static_cast<std::size_t>(b) * G;
    double reward_sum = 0.0;
    for (int g = 0; g < G; ++g)
      reward_sum += group[g];
    const double mean = reward_sum / G;
    double squares = 0.0;
    for (int g = 0; g < G; ++g)
      squares += (group[g] - mean) * (group[g] - mean);
    const double denominator = std::sqrt(squares / G) + 1e-8; // population std
    for (int g = 0; g < G; ++g) {
      const double a = (group[g] - mean) / denominator;
      const std::size_t row = (static_cast<std::size_t>(b) * G + g) * S;
      for (int s = 0; s < S; ++s) {
        const std::size_t i = row + s;
        const double ratio = std::exp(static_cast<double>(log_pi[i]) - log_pi_old[i]);
        const double clipped = std::min(std::max(ratio, lo), hi);
        const double d = static_cast<double>(log_ref[i]) - log_pi[i];
        const double kl = std::exp(d) - d - 1.0;
        sum += std::min(ratio * a, clipped * a) - static_cast<double>(beta) * kl;
      }
    }
  }
  const double n = static_cast<double>(B) * G * S;
  output[0] = static_cast<float>(-(sum / n));
}

std::size_t tokens_of(const Case &c) {
  return static_cast<std::size_t>(c["B"]) * static_cast<std::size_t>(c["G"]) *
         static_cast<std::size_t>(c["S"]);
}

// The statement's extremes: log-ratios and reference differences of exactly -16 and 16 and
// ratios on both clipping bounds; groups whose rewards are all equal (advantage exactly 0),
// groups with one outlier, rewards of both signs far apart.
void fill_edge_values(Case &c, Rng &rng) {
  const float log_ratios[] = {-16.0f, 16.0f, 0.0f, 0.18232156f, -0.22314355f, 1e-7f};
  const float reward_values[] = {-1000.0f, 0.0f, 1.0f, 1000.0f, 0.1f};
  const std::size_t responses = c.count(0);
  const int G = static_cast<int>(c["G"]);
  float *rewards = c.array<float>(0);
  for (std::size_t r = 0; r < responses; r += G) {
    const int kind = static_cast<int>(rng.next() % 3);
    const float shared = reward_values[rng.next() % 5];
    for (int g = 0; g < G; ++g)
      rewards[r + g] = kind == 0   ? shared                            // all equal
                       : kind == 1 ? (g == 0 ? shared + 1.0f : shared) // one outlier
                                   : reward_values[rng.next() % 5];    // anything
  }
  float *pi = c.array<float>(1);
  float *old = c.array<float>(2);
  float *ref = c.array<float>(3);
  const std::size_t count = sizeof log_ratios / sizeof log_ratios[0];
  for (std::size_t i = 0; i < c.count(1); ++i) {
    pi[i] = static_cast<float>(static_cast<int>(rng.next() % 9) - 4) * 0.5f; // exact, in [-2, 2]
    old[i] = pi[i] - log_ratios[rng.next() % count];
    ref[i] = pi[i] + log_ratios[rng.next() % count];
  }
}

} // namespace

const Problem &grpo_surrogate_loss_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "grpo_surrogate_loss";
    p.params = {input("rewards", Elem::f32, count_of("B", "G")),
                input("log_pi", Elem::f32, tokens_of),
                input("log_pi_old", Elem::f32, tokens_of),
                input("log_ref", Elem::f32, tokens_of),
                output("output", Elem::f32, count_one()),
                float_scalar("clip_eps", 0.0f, 0.999f),
                float_scalar("beta", 0.0f, 1.0f),
                scalar("B", 1, 256),
                scalar("G", 2, 32),
                scalar("S", 1, 16384)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, grpo_surrogate_loss_reference);
    const std::vector<ArrayValues> random = {normal(), normal(), normal(), normal()};
    p.fill = fill_with(p, random);
    // One block covers 256 threads x 2 vectors x 4 floats = 2048 tokens per batch; with B = 1,
    // G = 2 the token counts 2 S sit around it. S = 1, 2, 3, 5 put several responses in one
    // 16-byte vector.
    for (double s : awkward_sizes({1024}))
      add_tests(p, {{0.2, 0.01, 1, 2, s}});
    add_tests(p, {{0.2, 0.01, 256, 32, 1},
                  {0.2, 0.01, 7, 3, 2},
                  {0.2, 0.01, 5, 7, 3},
                  {0.1, 0.05, 3, 5, 5},
                  {0.2, 0.01, 3, 5, 27},
                  {0.3, 0.5, 9, 31, 4097},
                  {0.2, 0.01, 256, 32, 1023},
                  {0, 0, 4, 8, 64},
                  {0.99, 1, 2, 2, 16384},
                  {0.2, 0.01, 64, 16, 4096}});
    add_tests(p, {{0.2, 0.01, 2, 4, 5}, {0.2, 0.01, 8, 8, 255}, {0.1, 1, 33, 17, 1001}},
              fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/109_grpo_surrogate_loss";
    j.tolerance = {1e-4, 1e-4};
    const std::vector<ArrayValues> example = {given({10, 0}), given({0.1, 0.2, -0.5, -0.4}),
                                              constant(0), constant(0)};
    j.example = judge_case(p, "example", {0.2, 0.01, 1, 2, 2}, example);
    add_judge_functional(p, {0.2, 0.01, 1, 2, 2}, example);
    add_judge_functional(p, {0.2, 0.01, 2, 2, 4}, random);
    add_judge_functional(p, {0.2, 0.01, 2, 4, 8},
                         {given({3, 3, 3, 3, -2, -2, -2, -2}), normal(), constant(0), normal()});
    add_judge_functional(p, {0.1, 0.01, 1, 5, 7},
                         {given({-4, -1, 0, 2, 5}), normal(), normal(), normal()});
    add_judge_functional(p, {0.2, 0.01, 2, 4, 16},
                         {normal(), constant(-0.2), normal(), constant(-0.2)});
    add_judge_functional(p, {0.1, 0.05, 4, 8, 64}, random);
    add_judge_functional(p, {0.2, 0.01, 3, 5, 27}, random);
    add_judge_functional(p, {0.2, 0.01, 2, 4, 8}, {normal(), constant(8), normal(), constant(-8)});
    add_judge_functional(p, {0.2, 0.02, 8, 8, 256}, random);
    j.performance = judge_case(p, "performance", {0.2, 0.01, 64, 16, 4096}, random);
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["B"]) * c["G"] + 12.0 * static_cast<double>(tokens_of(c));
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
