// ordinary_least_squares: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <cmath>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// The judge's method in double: the normal equations (X^T X) beta = X^T y, the Cholesky factor L
// of X^T X, then L z = X^T y and L^T beta = z by substitution; beta rounded once to float.
void ordinary_least_squares_reference(const float *X, const float *y, float *beta, int n_samples,
                                      int n_features) {
  const int n = n_features;
  std::vector<double> G(static_cast<std::size_t>(n) * n, 0.0), rhs(n, 0.0);
  for (int s = 0; s < n_samples; ++s) {
    const float *row = X + static_cast<std::size_t>(s) * n;
    for (int a = 0; a < n; ++a) {
      rhs[a] += static_cast<double>(row[a]) * y[s];
      for (int c = 0; c <= a; ++c)
        G[a * n + c] += static_cast<double>(row[a]) * row[c];
    }
  }
  std::vector<double> L(static_cast<std::size_t>(n) * n, 0.0);
  for (int j = 0; j < n; ++j) {
    double d = G[j * n + j];
    for (int k = 0; k < j; ++k)
      d -= L[j * n + k] * L[j * n + k];
    L[j * n + j] = std::sqrt(d);
    for (int i = j + 1; i < n; ++i) {
      double v = G[i * n + j];
      for (int k = 0; k < j; ++k)
        v -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = v / L[j * n + j];
    }
  }
  std::vector<double> z(n), x(n);
  for (int i = 0; i < n; ++i) {
    double v = rhs[i];
    for (int k = 0; k < i; ++k)
      v -= L[i * n + k] * z[k];
    z[i] = v / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    double v = z[i];
    for (int k = i + 1; k < n; ++k)
      v -= L[k * n + i] * x[k];
    x[i] = v / L[i * n + i];
  }
  for (int i = 0; i < n; ++i)
    beta[i] = static_cast<float>(x[i]);
}

std::string check_shape(const Case &c) {
  if (c["n_samples"] < c["n_features"])
    return "n_samples " + std::to_string(c["n_samples"]) + " < n_features " +
           std::to_string(c["n_features"]);
  return "";
}

// y = X beta_true + small noise with beta_true in [-5, 5]: the answer is near beta_true.
void fill_linear_model(Case &c, Rng &rng) {
  const std::size_t samples = static_cast<std::size_t>(c["n_samples"]);
  const std::size_t n = static_cast<std::size_t>(c["n_features"]);
  float *X = c.array<float>(0);
  float *y = c.array<float>(1);
  std::vector<double> truth(n);
  for (double &t : truth)
    t = rng.uniform(-5.0f, 5.0f);
  for (std::size_t s = 0; s < samples; ++s) {
    double v = 0;
    for (std::size_t a = 0; a < n; ++a) {
      X[s * n + a] = rng.uniform(-1.0f, 1.0f);
      v += truth[a] * X[s * n + a];
    }
    y[s] = static_cast<float>(v + 0.01 * rng.uniform(-1.0f, 1.0f));
  }
}

// The judge's performance input: X the identity (n_samples = n_features), y all ones.
ArrayValues identity() {
  return {"the identity", [](Case &c, std::size_t param, Rng &) {
            float *X = c.array<float>(param);
            const std::size_t n = static_cast<std::size_t>(c["n_features"]);
            for (std::size_t i = 0; i < c.count(param); ++i)
              X[i] = i / n == i % n ? 1.0f : 0.0f;
          }};
}

} // namespace

const Problem &ordinary_least_squares_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "ordinary_least_squares";
    p.params = {input("X", Elem::f32, count_of("n_samples", "n_features")),
                input("y", Elem::f32, count_of("n_samples")),
                output("beta", Elem::f32, count_of("n_features")), scalar("n_samples", 1, 100000),
                scalar("n_features", 1, 1000)};
    p.check = check_shape;
    p.tolerance = {1e-2, 1e-2};
    set_reference(p, ordinary_least_squares_reference);
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-10, 10)});
    // One block while n_features <= 77 (the system in 48 KB of shared memory) and
    // n_samples * n_features^2 <= 2^24; otherwise the grid forms the system and the largest block
    // solves it in global memory. Square systems (the least samples), warp edges, both sides of
    // each limit, many samples, the largest n_features.
    add_tests(p, {{1, 1},
                  {2, 1},
                  {2, 2},
                  {5, 3},
                  {31, 31},
                  {33, 32},
                  {64, 33},
                  {64, 64},
                  {65, 65},
                  {100, 77},
                  {100, 78},
                  {1000, 32},
                  {16384, 32},
                  {16385, 32},
                  {100000, 8},
                  {2000, 200},
                  {1500, 1000}});
    add_tests(p, {{8, 3}, {1000, 64}, {4000, 300}}, fill_linear_model, ",linear-model");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/33_ordinary_least_squares";
    j.tolerance = {1e-2, 1e-2};
    j.example = judge_case(p, "example", {5, 3},
                           {given({-0.23, -0.23, 1.52, 0.77, -0.47, 1.58, -0.14, 0.65, 0.5, -1.91,
                                   -1.72, 0.24, -0.46, -0.47, 0.54}),
                            given({83.01, 93.4, 47.33, -62.22, 13.06})});
    add_judge_functional(p, {5, 1},
                         {given({0.248, -0.069, 0.324, 0.762, -0.117}),
                          given({0.122, -0.019, 0.17, 0.376, -0.053})});
    add_judge_functional(p, {6, 2},
                         {given({0.129, -0.454, -0.189, -0.267, 0.429, -0.207, 0.249, 1.005, 0.631,
                                 -0.22, -0.173, 0.228}),
                          given({-0.407, -0.371, 0.013, 1.128, 0.115, 0.135})});
    add_judge_functional(p, {3, 3},
                         {given({0.125, 0.658, 0.623, -0.802, -0.234, -0.858, 0.929, 0.044, 0.474}),
                          given({1.661, -1.931, 1.217})});
    add_judge_functional(p, {8, 3},
                         {given({0.013,  0.13,  -0.198, -0.102, -0.636, -1.298, 0.145,  -0.437,
                                 0.197,  0.468, -0.008, 0.13,   -0.737, 0.401,  -0.875, -0.248,
                                 -0.504, 0.013, -0.061, -0.773, -0.303, -0.697, -0.314, 0.166}),
                          given({-0.175, -2.618, -0.074, 0.427, -1.258, -0.626, -1.264, -0.416})});
    add_judge_functional(
        p, {10, 5},
        {given({0.292,  0.616,  0.411,  -0.4,   0.206,  -0.088, -0.037, -0.283, -0.047, 0.429,
                -0.431, 0.008,  0.783,  -0.235, -0.196, 0.408,  0.038,  -0.05,  0.812,  -0.668,
                -0.068, -0.239, -0.797, -0.434, -0.016, -0.764, -0.062, -0.131, 0.498,  0.159,
                -0.019, -0.034, -0.221, -0.24,  0.026,  -0.487, -0.717, -0.18,  0.227,  -0.403,
                -1.347, 0.251,  -0.002, -0.196, -0.078, 0.225,  0.594,  -0.167, -0.058, 0.918}),
         given({1.101, 0.462, -0.007, 0.142, -2.397, 0.759, -0.797, -1.78, -1.003, 2.617})});
    j.performance = judge_case(p, "performance", {32, 32}, {identity(), constant(1)});
    // The floor: X and y read once. The call is bound by its 2 n_features dependent elimination
    // and substitution steps (a block barrier each), not by memory.
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["n_samples"]) * static_cast<double>(c["n_features"] + 1);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
