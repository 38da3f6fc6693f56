// all_pairs_shortest_paths: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <algorithm>
#include <limits>
#include <string>

namespace kit::basics {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// The judge's Floyd-Warshall in float: for k in order, d[i][j] = min(d[i][j], d[i][k] + d[k][j]).
// The judge updates the whole matrix from the previous k's; in place is the same, since row k and
// column k do not change in step k (d[k][k] stays 0 without negative cycles).
void all_pairs_shortest_paths_reference(const float *dist, float *output, int N) {
  const std::size_t n = static_cast<std::size_t>(N);
  std::copy(dist, dist + n * n, output);
  for (std::size_t k = 0; k < n; ++k) {
    const float *row_k = output + k * n;
    for (std::size_t i = 0; i < n; ++i) {
      float *row_i = output + i * n;
      const float d_ik = row_i[k];
      if (d_ik == kInf)
        continue; // inf + anything is inf: nothing to relax
      for (std::size_t j = 0; j < n; ++j)
        row_i[j] = std::min(row_i[j], d_ik + row_k[j]);
    }
  }
}

// A random digraph like the judge's: each arc i -> j (i != j) present with probability
// `density`, weight U(0.1, 10.1), inf otherwise, 0 on the diagonal. `cycle` adds the arcs
// i -> i + 1 (mod N) with such weights, so that every distance is finite.
void fill_graph(Case &c, std::size_t param, Rng &rng, double density, bool cycle) {
  float *d = c.array<float>(param);
  const std::size_t n = static_cast<std::size_t>(c["N"]);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const bool arc = i != j && rng.unit() < density;
      d[i * n + j] = i == j ? 0.0f : arc ? rng.uniform(0.1f, 10.1f) : kInf;
    }
  if (cycle && n > 1)
    for (std::size_t i = 0; i < n; ++i)
      d[i * n + (i + 1) % n] = rng.uniform(0.1f, 10.1f);
}

ArrayValues judge_graph(double density) {
  return {"random digraph, arcs with probability " + std::to_string(density).substr(0, 3) +
              ", weights U(0.1, 10.1), else inf",
          [density](Case &c, std::size_t param, Rng &rng) {
            fill_graph(c, param, rng, density, false);
          }};
}

// Strongly connected random graphs: every distance finite.
FillFn connected(double density) {
  return [density](Case &c, Rng &rng) { fill_graph(c, 0, rng, density, true); };
}

// Sparse graphs without the cycle: many pairs without a path, whose distance must stay +inf.
void fill_unreachable(Case &c, Rng &rng) { fill_graph(c, 0, rng, 0.01, false); }

// Negative arcs without negative cycles: a connected graph reweighted by random vertex
// potentials h, w'(i, j) = w(i, j) + h(i) - h(j); every cycle keeps its (positive) length, and
// about a third of the arcs turn negative.
void fill_negative_arcs(Case &c, Rng &rng) {
  connected(0.3)(c, rng);
  float *d = c.array<float>(0);
  const std::size_t n = static_cast<std::size_t>(c["N"]);
  std::vector<float> h(n);
  for (float &x : h)
    x = rng.uniform(0.0f, 20.0f);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j && d[i * n + j] != kInf)
        d[i * n + j] += h[i] - h[j];
}

// Only the cycle 0 -> 1 -> ... -> N-1 -> 0 with integer weights: paths of up to N - 1 arcs,
// distances exact in float.
void fill_cycle_only(Case &c, Rng &rng) {
  float *d = c.array<float>(0);
  const std::size_t n = static_cast<std::size_t>(c["N"]);
  std::fill(d, d + n * n, kInf);
  for (std::size_t i = 0; i < n; ++i) {
    d[i * n + i] = 0.0f;
    if (n > 1)
      d[i * n + (i + 1) % n] = static_cast<float>(rng.uniform_int(1, 9));
  }
}

// Every arc of weight 0 (the judge's special case at other sizes): every distance 0.
void fill_zero_arcs(Case &c, Rng &) {
  std::fill(c.array<float>(0), c.array<float>(0) + c.count(0), 0.0f);
}

// Large weights U(1e30, 1e31): sums stay finite (N * 1e31 < 3.4e38).
void fill_large_weights(Case &c, Rng &rng) {
  connected(0.3)(c, rng);
  float *d = c.array<float>(0);
  const std::size_t n = static_cast<std::size_t>(c["N"]);
  for (std::size_t i = 0; i < n * n; ++i)
    if (d[i] != kInf && d[i] != 0.0f)
      d[i] = rng.uniform(1e30f, 1e31f);
}

// Beyond the challenge's promise of a zero diagonal: positive self-loops. Floyd-Warshall then
// gives d[i][i] = min(its loop, the shortest cycle through i); the kernel's invariant (d[k][k] >= 0
// in step k) still holds.
void fill_positive_diagonal(Case &c, Rng &rng) {
  connected(0.3)(c, rng);
  float *d = c.array<float>(0);
  const std::size_t n = static_cast<std::size_t>(c["N"]);
  for (std::size_t i = 0; i < n; ++i)
    d[i * n + i] = rng.uniform(0.1f, 40.0f);
}

} // namespace

const Problem &all_pairs_shortest_paths_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "all_pairs_shortest_paths";
    p.params = {input("dist", Elem::f32, count_of("N", "N")),
                output("output", Elem::f32, count_of("N", "N")), scalar("N", 1, 4096)};
    p.tolerance = {1e-2, 1e-2};
    set_reference(p, all_pairs_shortest_paths_reference);
    p.fill = connected(0.4);
    // The 64-vertex tile: N = 1, 2, 31..33, 63..65, 127..129, 317, 1023..1025 (padded, or in
    // place when N % 64 == 0; the misaligned repeats of N % 64 == 0 take the padded path too),
    // the judge's 2048 and the challenge's largest N.
    add_awkward_size_tests(p, {64});
    add_tests(p, {{127}, {128}, {2048}, {4096}});
    add_tests(p, {{3}, {64}, {65}, {200}, {1000}}, connected(0.02), ",sparse");
    add_tests(p, {{2}, {33}, {64}, {129}, {500}}, fill_unreachable, ",unreachable");
    add_tests(p, {{4}, {63}, {64}, {129}, {1000}}, fill_negative_arcs, ",negative-arcs");
    add_tests(p, {{2}, {65}, {129}, {1000}}, fill_cycle_only, ",cycle-only");
    add_tests(p, {{1}, {65}, {128}}, fill_zero_arcs, ",zero-arcs");
    add_tests(p, {{65}, {300}}, fill_large_weights, ",large-weights");
    add_tests(p, {{65}, {200}}, fill_positive_diagonal, ",positive-diagonal");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Several expected outputs
    // hold inf (pairs without a path).
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/73_all_pairs_shortest_paths";
    j.tolerance = {1e-2, 1e-2};
    const double inf = std::numeric_limits<double>::infinity();
    const ArrayValues example =
        given({0, 5, inf, 10, inf, 0, 3, inf, inf, inf, 0, 1, inf, inf, inf, 0});
    j.example = judge_case(p, "example", {4}, {example});
    add_judge_functional(p, {1}, {given({0})});
    add_judge_functional(p, {2}, {given({0, inf, inf, 0})});
    add_judge_functional(p, {2}, {given({0, 3, 7, 0})});
    add_judge_functional(p, {3}, {given({0, 2, inf, inf, 0, 3, inf, inf, 0})});
    add_judge_functional(p, {4}, {example});
    add_judge_functional(
        p, {4}, {given({0, -1, inf, 10, inf, 0, 2, inf, inf, inf, 0, -3, inf, inf, inf, 0})});
    for (double n : {16, 32, 64, 128})
      add_judge_functional(p, {n}, {judge_graph(0.5)});
    for (double n : {30, 100, 255})
      add_judge_functional(p, {n}, {judge_graph(0.4)});
    add_judge_functional(p, {512}, {judge_graph(0.3)});
    add_judge_functional(p, {8}, {constant(0)});
    j.performance = judge_case(p, "performance", {2048}, {judge_graph(0.3)});
    // N^3 relaxations, each an FP32 add and an FP32 min: two operations at the FP32 rate (the
    // min issues no faster than an FMA). Reads and writes the matrix once (and copies it once).
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 8.0 * static_cast<double>(c["N"]) * static_cast<double>(c["N"]);
    };
    p.model.ops = [](const Case &c) {
      const double n = static_cast<double>(c["N"]);
      return 2.0 * n * n * n;
    };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
