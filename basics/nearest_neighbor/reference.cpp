// nearest_neighbor: the CPU reference and the harness description (arguments, tolerance, cases).
// points holds N three-dimensional points as x, y, z triples; indices[i] is the index j != i of
// the point nearest to point i by squared Euclidean distance, compared exactly (tolerance 0).
#include "harness/spec.h"

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// One float operation, correctly rounded: a sum, difference or product of two floats computed in
// double and rounded to float is the float operation's result (double has more than 2 * 24 + 2
// bits), and the rounding between operations keeps a compiler from fusing a multiply and an add.
float rounded(double v) { return static_cast<float>(v); }

// The judge's distance, operation for operation: the differences point i - point j, their squares
// as separate float products (torch materialises diff * diff), then torch.sum over the last
// dimension of 3, which CUDA's reduction splits over two lanes (block width last_pow2(3) = 2):
// one lane adds the x and z squares, the other holds y's, and the lanes combine as
// (x^2 + z^2) + y^2.
float judge_distance(const float *p, const float *q) {
  const float dx = rounded(static_cast<double>(p[0]) - q[0]);
  const float dy = rounded(static_cast<double>(p[1]) - q[1]);
  const float dz = rounded(static_cast<double>(p[2]) - q[2]);
  const float xx = rounded(static_cast<double>(dx) * dx);
  const float yy = rounded(static_cast<double>(dy) * dy);
  const float zz = rounded(static_cast<double>(dz) * dz);
  return rounded(static_cast<double>(rounded(static_cast<double>(xx) + zz)) + yy);
}

// argmin over j of distance(i, j) with the diagonal set to +inf: the first (lowest) j of the
// smallest distance. When every other distance is +inf (and for N = 1) the minimum +inf first
// occurs at j = 0, which may be i itself: that is torch.argmin's answer and so the judge's.
int nearest_of(const float *points, int N, int i) {
  const float *p = points + 3 * static_cast<std::size_t>(i);
  float best = 0;
  int best_j = -1;
  for (int j = 0; j < N; ++j) {
    if (j == i)
      continue;
    const float d = judge_distance(p, points + 3 * static_cast<std::size_t>(j));
    if (best_j < 0 || d < best) {
      best = d;
      best_j = j;
    }
  }
  return best_j < 0 || !(best < std::numeric_limits<float>::infinity()) ? 0 : best_j;
}

void nearest_neighbor_reference(const float *points, int *indices, int N) {
  for (int i = 0; i < N; ++i)
    indices[i] = nearest_of(points, N, i);
}

// Beyond the full reference's limit: the first and last point's answers and 254 random ones.
std::vector<SampledValue> sample_answers(const Case &c, Rng &rng) {
  const int N = static_cast<int>(c["N"]);
  const float *points = c.array<float>(0);
  std::vector<int> queries = {0, N - 1};
  for (int s = 0; s < 254; ++s)
    queries.push_back(static_cast<int>(rng.uniform_int(0, N - 1)));
  std::vector<SampledValue> expected;
  for (int i : queries)
    expected.push_back(
        {1, static_cast<std::size_t>(i), static_cast<double>(nearest_of(points, N, i))});
  return expected;
}

// Points on a small integer lattice: many exact ties in distance, which the kernel must break
// toward the lowest index as the judge's argmin does.
ArrayValues lattice(int side) {
  return {"integers 0.." + std::to_string(side - 1), [side](Case &c, std::size_t param, Rng &rng) {
            float *p = c.array<float>(param);
            for (std::size_t k = 0; k < c.count(param); ++k)
              p[k] = static_cast<float>(rng.uniform_int(0, side - 1));
          }};
}

} // namespace

const Problem &nearest_neighbor_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "nearest_neighbor";
    p.params = {input("points", Elem::f32,
                      [](const Case &c) { return 3 * static_cast<std::size_t>(c["N"]); }),
                output("indices", Elem::i32, count_of("N")), scalar("N", 1, 100000)};
    p.tolerance = {0, 0};
    set_reference(p, nearest_neighbor_reference);
    // The performance case's values: coordinates U(-1000, 1000).
    p.fill = fill_with(p, {uniform(-1000, 1000)});
    // Around the 256-thread block and its 512 queries, the candidate tiles of 256, the judge's
    // sizes and the challenge's largest N.
    add_tests(p, {{1},
                  {2},
                  {3},
                  {31},
                  {32},
                  {33},
                  {255},
                  {256},
                  {257},
                  {511},
                  {512},
                  {513},
                  {1000},
                  {1025},
                  {4097},
                  {10000},
                  {100000}});
    // Exact ties everywhere: duplicated points (distance 0 to several others) and lattice points
    // (many equal distances).
    add_tests(p, {{2}, {5}, {64}, {1000}}, fill_with(p, {constant(7)}), ",all equal");
    add_tests(p, {{100}, {513}, {4097}, {10000}}, fill_with(p, {lattice(4)}), ",lattice 4");
    add_tests(p, {{10000}}, fill_with(p, {lattice(40)}), ",lattice 40");
    // Small coordinates, where the squares and their sums round at other magnitudes.
    add_tests(p, {{5000}}, fill_with(p, {uniform(-0.001, 0.001)}), ",U(-0.001, 0.001)");
    // 10^10 distances per call; the same kernels run every size up to 10,000 at the small scale.
    run_only_at_full_scale(p, {"N=100000"});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/38_nearest_neighbor";
    j.tolerance = {0, 0};
    const ArrayValues three = given({0, 0, 0, 1, 0, 0, 5, 5, 5});
    j.example = judge_case(p, "example", {3}, {three});
    add_judge_functional(p, {3}, {three});
    add_judge_functional(p, {2}, {given({0, 0, 0, 3, 4, 0})});
    add_judge_functional(p, {4}, {given({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0})});
    add_judge_functional(p, {4}, {given({-1, -1, -1, 1, 1, 1, 0, 0, 0, 2, 2, 2})});
    add_judge_functional(p, {5}, {given({0, 0, 0, 10, 0, 0, 1, 0, 0, 11, 0, 0, 5, 0, 0})});
    add_judge_functional(p, {100}, {uniform(-100, 100)});
    add_judge_functional(p, {250}, {uniform(-1000, 1000)});
    j.performance = judge_case(p, "performance", {10000}, {uniform(-1000, 1000)});
    // N^2 distances of 11 instructions each (3 subtractions, 3 products, 2 additions, the compare
    // and two selects) against the FP32 rate: counted as FMA-rate operations.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) { return 16.0 * static_cast<double>(c["N"]); };
    p.model.ops = [](const Case &c) {
      return 11.0 * static_cast<double>(c["N"]) * static_cast<double>(c["N"]);
    };
    p.reference_work = [](const Case &c) {
      return static_cast<double>(c["N"]) * static_cast<double>(c["N"]);
    };
    p.full_reference_limit = 2e8;
    p.sampled_reference = sample_answers;
    return p;
  }();
  return problem;
}

} // namespace kit::basics
