// top_k_selection: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// torch.topk(input, k, largest=True).values: the k largest, largest first (the judge's inputs
// hold no NaN). Ties are equal values, so which of them is taken does not show in the output.
void top_k_selection_reference(const float *input, float *output, int N, int k) {
  std::vector<float> values(input, input + N);
  std::partial_sort(values.begin(), values.begin() + k, values.end(), std::greater<float>());
  std::copy(values.begin(), values.begin() + k, output);
}

// A recipe's values from a function of (position, count, rng).
template <class ValueAt> FillFn values(ValueAt value_at) {
  return [value_at](Case &c, Rng &rng) {
    float *x = c.array<float>(0);
    const std::size_t n = c.count(0);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = value_at(i, n, rng);
  };
}

float uniform_value(Rng &rng, float lo, float hi) {
  float v;
  fill_uniform(&v, 1, lo, hi, rng);
  return v;
}

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kSpecial[] = {0.0f,
                          -0.0f,
                          kInf,
                          -kInf,
                          std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(),
                          std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::denorm_min(),
                          1.0f,
                          -1.0f};

} // namespace

const Problem &top_k_selection_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "top_k_selection";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32, count_of("k")), scalar("N", 1, 100000000),
                scalar("k", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, top_k_selection_reference);
    p.fill = fill_with(p, {uniform(-1e6, 1e6)});
    p.check = [](const Case &c) -> std::string {
      if (c["k"] > c["N"])
        return "k " + std::to_string(c["k"]) + " > N " + std::to_string(c["N"]);
      return "";
    };
    // Sizes around the select's 2048-element chunk and the final sort's 4096-key tile, with k of
    // 1, the judge's 100 (or N when smaller), N - 1 and N (the whole array, sorted descending).
    std::vector<std::vector<double>> sizes;
    for (long long n : awkward_sizes({2048, 4096})) {
      std::set<long long> ks = {1, std::min(n, 100LL), std::max(n - 1, 1LL), n};
      for (long long k : ks)
        sizes.push_back({static_cast<double>(n), static_cast<double>(k)});
    }
    add_tests(p, sizes);
    // Large: the judge's k, a k of several tiles (the multi-tile sort), k = N.
    add_tests(p, {{1000003, 100}, {1000003, 4097}, {1000003, 1000003}, {16777217, 1000}});
    // Edge values: every value equal (k of N ties), few distinct values (the cut inside a run of
    // ties), the special values mixed with random ones, a narrow range (every value in one top
    // digit: the candidate rounds do the work), presorted and reversed input, every value on one
    // side of zero.
    const std::vector<std::vector<double>> tie_sizes = {{33, 5}, {4097, 4096}, {1000003, 100}};
    add_tests(p, tie_sizes, values([](std::size_t, std::size_t, Rng &) { return 7.0f; }), ",all-7");
    add_tests(p, {{1025, 100}, {1000003, 100}, {1000003, 300000}},
              values([](std::size_t, std::size_t, Rng &rng) {
                return static_cast<float>(static_cast<int>(rng.next() % 16) - 8);
              }),
              ",16-values");
    add_tests(p, {{65, 10}, {100003, 100}}, values([](std::size_t, std::size_t, Rng &rng) {
                return rng.next() % 4 == 0
                           ? kSpecial[rng.next() % (sizeof kSpecial / sizeof *kSpecial)]
                           : uniform_value(rng, -1000.0f, 1000.0f);
              }),
              ",edge-values");
    add_tests(p, {{100003, 100}, {1000003, 5000}}, values([](std::size_t, std::size_t, Rng &rng) {
                return uniform_value(rng, 1.0f, 1.0001f);
              }),
              ",narrow-range");
    add_tests(p, {{1000003, 100}},
              values([](std::size_t i, std::size_t, Rng &) { return static_cast<float>(i); }),
              ",ascending");
    add_tests(p, {{1000003, 100}},
              values([](std::size_t i, std::size_t n, Rng &) { return static_cast<float>(n - i); }),
              ",descending");
    add_tests(p, {{100003, 100}}, values([](std::size_t, std::size_t, Rng &rng) {
                return -uniform_value(rng, 1.0f, 1000.0f);
              }),
              ",all-negative");
    // A sample that misleads the kernel's guess at the first digit: 20 large values exactly at the
    // evenly spaced positions it samples (element s * N / 4096), the rest in [0, 1), so the guess
    // lies above the 100th largest and round 1 must read the input again.
    add_tests(
        p, {{100003, 100}, {1000003, 100}},
        [](Case &c, Rng &rng) {
          float *x = c.array<float>(0);
          const std::size_t n = c.count(0);
          fill_uniform(x, n, 0.0f, 1.0f, rng);
          for (std::size_t s = 0; s < 20; ++s)
            x[s * n / 4096] = 1e6f + static_cast<float>(s);
        },
        ",guess-too-high");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/29_top_k_selection";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {5, 3}, {given({1, 5, 3, 2, 4})});
    add_judge_functional(p, {5, 3}, {given({1, 5, 3, 2, 4})});
    add_judge_functional(p, {6, 2}, {given({-2, -1, -3, -4, -5, -6})});
    add_judge_functional(p, {4, 3}, {given({7, 7, 7, 7})});
    add_judge_functional(p, {1, 1}, {given({42})});
    add_judge_functional(p, {5, 2}, {given({5, 4, 3, 2, 1})});
    add_judge_functional(p, {1000, 10}, {uniform(-1000, 1000)});
    j.performance = judge_case(p, "performance", {50000000, 100}, {uniform(-1e6, 1e6)});
    // The least traffic: the input read once and the k outputs written, which is what the select
    // reads from DRAM when its sampled guess holds (and twice that when it does not).
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["N"]) + 4.0 * static_cast<double>(c["k"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
