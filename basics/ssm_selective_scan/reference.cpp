// ssm_selective_scan: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace kit::basics {
namespace {

// Time step by time step, every state in double, each y rounded to float once. (The judge's
// reference runs the same loop in float32 on the device: exp(delta * A), delta * B * u, the state
// update, then C . h + skip * u.)
void ssm_selective_scan_reference(const float *u, const float *delta, const float *A,
                                  const float *B, const float *C, const float *skip, float *y,
                                  int batch, int seq_len, int d_model, int d_state) {
  const std::size_t states = static_cast<std::size_t>(d_model) * static_cast<std::size_t>(d_state);
  std::vector<double> h(states);
  for (int b = 0; b < batch; ++b) {
    std::fill(h.begin(), h.end(), 0.0);
    for (int t = 0; t < seq_len; ++t) {
      const std::size_t row = static_cast<std::size_t>(b) * seq_len + t;
      const float *b_row = B + row * d_state;
      const float *c_row = C + row * d_state;
      for (int d = 0; d < d_model; ++d) {
        const double dt = delta[row * d_model + d];
        const double input = u[row * d_model + d];
        double sum = 0.0;
        for (int n = 0; n < d_state; ++n) {
          double &state = h[static_cast<std::size_t>(d) * d_state + n];
          state = std::exp(dt * A[static_cast<std::size_t>(d) * d_state + n]) * state +
                  dt * b_row[n] * input;
          sum += static_cast<double>(c_row[n]) * state;
        }
        y[row * d_model + d] = static_cast<float>(sum + static_cast<double>(skip[d]) * input);
      }
    }
  }
}

std::size_t sequence_elements(const Case &c, const char *width) {
  return static_cast<std::size_t>(c["batch"]) * static_cast<std::size_t>(c["seq_len"]) *
         static_cast<std::size_t>(c[width]);
}
std::size_t channel_elements(const Case &c) { return sequence_elements(c, "d_model"); }
std::size_t state_elements(const Case &c) { return sequence_elements(c, "d_state"); }

// The judge's distributions, in parameter order (u, delta, A, B, C, skip): u, B and C standard
// normal, delta = torch.rand + 0.01, A = -torch.rand - 0.01, skip = torch.rand.
std::vector<ArrayValues> judge_values(ArrayValues u, ArrayValues delta) {
  return {std::move(u), std::move(delta), uniform(-1.01, -0.01), normal(), normal(), uniform(0, 1)};
}

} // namespace

const Problem &ssm_selective_scan_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "ssm_selective_scan";
    p.params = {input("u", Elem::f32, channel_elements),
                input("delta", Elem::f32, channel_elements),
                input("A", Elem::f32, count_of("d_model", "d_state")),
                input("B", Elem::f32, state_elements),
                input("C", Elem::f32, state_elements),
                input("skip", Elem::f32, count_of("d_model")),
                output("y", Elem::f32, channel_elements),
                scalar("batch", 1, 64),
                scalar("seq_len", 1, 65536),
                scalar("d_model", 1, 4096),
                scalar("d_state", 1, 64)};
    p.tolerance = {1e-3, 1e-3};
    set_reference(p, ssm_selective_scan_reference);
    p.fill = fill_with(p, judge_values(normal(), uniform(0.01, 1.01)));
    // The kernel's geometry: rounds of 32 steps (two chunks of 16), 16 channels per block, 16
    // states per launch. seq_len 1, 2, 15..17, 31..33, 63..65, 95..97 (an odd number of rounds,
    // for the two-round unrolled loop), 4095..4097; d_model around 16 and 32; d_state 1, 2, 15,
    // 16, 17 and 33 (the second and third launches add their states to y).
    add_tests(p, {{1, 1, 1, 1},      {1, 2, 1, 16},     {1, 15, 3, 2},     {1, 16, 16, 16},
                  {2, 17, 17, 16},   {1, 31, 16, 16},   {1, 32, 15, 16},   {2, 33, 17, 15},
                  {1, 63, 1, 1},     {1, 64, 33, 16},   {3, 65, 31, 16},   {1, 95, 16, 16},
                  {2, 96, 16, 4},    {1, 97, 48, 16},   {1, 4095, 16, 16}, {2, 4096, 32, 16},
                  {1, 4097, 17, 16}, {2, 100, 24, 17},  {1, 70, 20, 33},   {1, 33, 5, 64},
                  {2, 1000, 64, 16}, {1, 20000, 32, 16}});
    // delta = 0: a = 1 and no input, so y = skip * u; large negative A: every step forgets the
    // past (a = 0 or below float's range); A near 0 with small delta: long memory, the carried
    // state spans the whole sequence; larger steps.
    add_tests(p, {{2, 65, 17, 16}}, fill_with(p, judge_values(normal(), constant(0))), ",delta=0");
    add_tests(p, {{2, 97, 33, 16}},
              fill_with(p, {normal(), uniform(0.01, 1.01), uniform(-1000, -100), normal(), normal(),
                            uniform(0, 1)}),
              ",A=U(-1000,-100)");
    add_tests(p, {{1, 8193, 16, 16}},
              fill_with(p, {normal(), uniform(0, 0.01), uniform(-0.01, 0), normal(), normal(),
                            uniform(0, 1)}),
              ",delta=U(0,0.01),A=U(-0.01,0)");
    add_tests(p, {{2, 129, 16, 8}},
              fill_with(p, {normal(), uniform(0, 10), uniform(-1.01, -0.01), normal(), normal(),
                            uniform(-1, 1)}),
              ",delta=U(0,10)");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/94_ssm_selective_scan";
    j.tolerance = {1e-3, 1e-3};
    j.example = judge_case(p, "example", {1, 4, 2, 2},
                           {given({1, 0, 0, 1, 1, 1, 0, 0}), given({1, 1, 1, 1, 1, 1, 1, 1}),
                            given({-0.5, -1, -0.5, -1}), given({1, 0, 0, 1, 1, 1, 0.5, 0.5}),
                            given({1, 0, 0, 1, 1, 1, 0.5, 0.5}), given({0, 0})});
    const std::vector<ArrayValues> random = judge_values(normal(), uniform(0.01, 1.01));
    add_judge_functional(p, {1, 1, 1, 4}, random);
    add_judge_functional(p, {1, 2, 2, 2}, random);
    add_judge_functional(p, {1, 4, 4, 4}, judge_values(constant(0), uniform(0.01, 1.01)));
    add_judge_functional(p, {2, 4, 4, 4}, judge_values(normal(), constant(0)));
    add_judge_functional(p, {2, 16, 8, 4}, random);
    add_judge_functional(p, {2, 64, 16, 8}, random);
    add_judge_functional(p, {2, 30, 12, 4}, random);
    add_judge_functional(p, {3, 100, 24, 8}, random);
    add_judge_functional(p, {2, 128, 32, 16}, random);
    add_judge_functional(p, {4, 256, 64, 16}, random);
    j.performance = judge_case(p, "performance", {4, 4096, 512, 16}, random);
    // u and delta read, y written (12 bytes per (b, t, d)); B and C read (8 bytes per (b, t, n));
    // A and skip.
    p.model = memory_bound([](const Case &c) {
      return 12.0 * static_cast<double>(channel_elements(c)) +
             8.0 * static_cast<double>(state_elements(c)) +
             4.0 * static_cast<double>(c["d_model"]) * static_cast<double>(c["d_state"] + 1);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
