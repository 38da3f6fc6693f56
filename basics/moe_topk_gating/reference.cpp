// moe_topk_gating: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// Per row: the columns of the k largest logits, largest first, equal values by ascending column
// (the judge's torch.topk does not promise an order among ties; see README.md), and the softmax of
// those k values in double.
void moe_topk_gating_reference(const float *logits, float *topk_weights, int *topk_indices, int M,
                               int E, int k) {
  std::vector<int> columns(static_cast<std::size_t>(E));
  for (int r = 0; r < M; ++r) {
    const float *row = logits + static_cast<std::size_t>(r) * E;
    std::iota(columns.begin(), columns.end(), 0);
    std::stable_sort(columns.begin(), columns.end(), [&](int a, int b) {
      const bool nan_a = std::isnan(row[a]), nan_b = std::isnan(row[b]);
      if (nan_a != nan_b)
        return nan_a; // NaN above every number, as torch.topk orders it
      return !nan_a && row[a] > row[b];
    });
    const double largest = row[columns[0]];
    double sum = 0;
    std::vector<double> e(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) {
      e[j] = std::exp(static_cast<double>(row[columns[j]]) - largest);
      sum += e[j];
    }
    for (int j = 0; j < k; ++j) {
      topk_weights[static_cast<std::size_t>(r) * k + j] = static_cast<float>(e[j] / sum);
      topk_indices[static_cast<std::size_t>(r) * k + j] = columns[j];
    }
  }
}

// A recipe's logits from a function of (row, column, rng).
template <class ValueAt> FillFn logits_from(ValueAt value_at) {
  return [value_at](Case &c, Rng &rng) {
    float *x = c.array<float>(0);
    const long long E = c["E"];
    for (std::size_t i = 0; i < c.count(0); ++i)
      x[i] = value_at(static_cast<long long>(i) / E, static_cast<long long>(i) % E, rng);
  };
}

} // namespace

const Problem &moe_topk_gating_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "moe_topk_gating";
    p.params = {input("logits", Elem::f32, count_of("M", "E")),
                output("topk_weights", Elem::f32, count_of("M", "k")),
                output("topk_indices", Elem::i32, count_of("M", "k")),
                scalar("M", 1, 10000),
                scalar("E", 1, 256),
                scalar("k", 1, 256)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, moe_topk_gating_reference);
    p.fill = fill_with(p, {normal()});
    p.check = [](const Case &c) -> std::string {
      if (c["k"] > c["E"])
        return "k " + std::to_string(c["k"]) + " > E " + std::to_string(c["E"]);
      return "";
    };
    // Rows around the warp (one or two values per lane, the vector and the scalar layouts: E % 4),
    // k of 1, the judge's 2, more than a warp's lanes and E (every column, sorted).
    std::vector<std::vector<double>> shapes;
    for (int E : {1, 2, 3, 4, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256})
      for (int k : std::set<int>{1, 2, 33, E})
        if (k <= E)
          shapes.push_back({33, static_cast<double>(E), static_cast<double>(k)});
    add_tests(p, shapes);
    add_tests(p, {{1, 64, 2}, {2, 64, 2}, {1025, 64, 2}, {10000, 256, 8}, {10000, 64, 2}});
    // Edge values: few distinct logits (ties everywhere: equal values by ascending column), one
    // row of equal logits, -inf among them, large magnitudes (the softmax's shift keeps it finite),
    // every logit negative.
    add_tests(p, {{65, 64, 2}, {65, 64, 7}, {9, 256, 256}},
              logits_from([](long long, long long, Rng &rng) {
                return static_cast<float>(static_cast<int>(rng.next() % 4) - 2);
              }),
              ",ties");
    add_tests(p, {{5, 64, 2}, {5, 33, 33}},
              logits_from([](long long, long long, Rng &) { return 0.5f; }), ",all-equal");
    add_tests(p, {{65, 64, 4}, {3, 8, 8}}, logits_from([](long long, long long c, Rng &rng) {
                float v;
                fill_uniform(&v, 1, -5.0f, 5.0f, rng);
                return c % 3 == 0 ? -std::numeric_limits<float>::infinity() : v;
              }),
              ",minus-inf");
    add_tests(p, {{65, 64, 2}, {65, 16, 16}}, logits_from([](long long, long long, Rng &rng) {
                float v;
                fill_uniform(&v, 1, -1000.0f, 1000.0f, rng);
                return v;
              }),
              ",large");
    add_tests(p, {{65, 64, 2}}, logits_from([](long long, long long, Rng &rng) {
                float v;
                fill_uniform(&v, 1, -100.0f, -1.0f, rng);
                return v;
              }),
              ",negative");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Its random cases draw
    // torch.randn under fixed torch seeds; the kit draws the same distribution.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/67_moe_topk_gating";
    j.tolerance = {1e-5, 1e-5};
    const ArrayValues example = given({1, 2, 3, 4, 4, 3, 2, 1});
    j.example = judge_case(p, "example", {2, 4, 2}, {example});
    add_judge_functional(p, {2, 4, 2}, {example});
    add_judge_functional(p, {3, 3, 1}, {given({5, 1, 3, 2, 8, 4, 6, 2, 9})});
    add_judge_functional(p, {2, 3, 3}, {given({1, 2, 3, 3, 1, 2})});
    add_judge_functional(p, {4, 8, 2}, {normal()});
    add_judge_functional(p, {8, 64, 2}, {normal()});
    add_judge_functional(p, {2, 4, 2}, {given({-1, -2, -3, -4, -4, -1, -2, -3})});
    add_judge_functional(p, {100, 16, 4}, {normal()});
    j.performance = judge_case(p, "performance", {1024, 64, 2}, {normal()});
    // The logits read once, the weights and indices written once.
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["M"] * c["E"]) +
             8.0 * static_cast<double>(c["M"] * c["k"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
