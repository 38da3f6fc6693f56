// kmeans_clustering: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <string>
#include <vector>

namespace kit::basics {
namespace {

// The judge's loop: max_iterations rounds, no convergence test. A round labels each point with
// the first centroid at the smallest float32 distance (dx * dx + dy * dy, every operation rounded
// to float on its own, as the judge's tensor expression rounds it), then moves every centroid
// that received points to their mean (here a double sum divided by the count, rounded once; the
// judge's is a float32 mean); a centroid with no points stays where it is.
void kmeans_clustering_reference(const float *data_x, const float *data_y, int *labels,
                                 const float *initial_centroid_x, const float *initial_centroid_y,
                                 float *final_centroid_x, float *final_centroid_y, int sample_size,
                                 int k, int max_iterations) {
  std::vector<float> cx(initial_centroid_x, initial_centroid_x + k);
  std::vector<float> cy(initial_centroid_y, initial_centroid_y + k);
  std::vector<double> sum_x(k), sum_y(k);
  std::vector<long long> count(k);
  for (int round = 0; round < max_iterations; ++round) {
    std::fill(sum_x.begin(), sum_x.end(), 0.0);
    std::fill(sum_y.begin(), sum_y.end(), 0.0);
    std::fill(count.begin(), count.end(), 0);
    for (int i = 0; i < sample_size; ++i) {
      int best = 0;
      float best_distance = 0;
      for (int c = 0; c < k; ++c) {
        const volatile float dx = data_x[i] - cx[c];
        const volatile float dy = data_y[i] - cy[c];
        const volatile float dx2 = dx * dx; // volatile: no contraction into a fused multiply-add
        const volatile float dy2 = dy * dy;
        const float d = dx2 + dy2;
        if (c == 0 || d < best_distance) {
          best_distance = d;
          best = c;
        }
      }
      labels[i] = best;
      sum_x[best] += data_x[i];
      sum_y[best] += data_y[i];
      ++count[best];
    }
    for (int c = 0; c < k; ++c)
      if (count[c] > 0) {
        cx[c] = static_cast<float>(sum_x[c] / static_cast<double>(count[c]));
        cy[c] = static_cast<float>(sum_y[c] / static_cast<double>(count[c]));
      }
  }
  std::copy(cx.begin(), cx.end(), final_centroid_x);
  std::copy(cy.begin(), cy.end(), final_centroid_y);
}

// Points and centroids on the integer grid 0..8: every distance is a small integer, so exact
// ties between centroids are frequent in the first round (the first centroid must win), and two
// initial centroids are equal (the second never wins a point and must stay where it is).
void fill_ties(Case &c, Rng &rng) {
  for (std::size_t a : {0, 1, 3, 4}) {
    float *v = c.array<float>(a);
    for (std::size_t i = 0; i < c.count(a); ++i)
      v[i] = static_cast<float>(rng.uniform_int(0, 8));
  }
  if (c.count(3) >= 2) {
    c.array<float>(3)[1] = c.array<float>(3)[0];
    c.array<float>(4)[1] = c.array<float>(4)[0];
  }
}

// Points in [0, 100) and centroids of which only the first few lie among them; the others start
// far away (at 1e4 + c) and never receive a point: empty clusters every round.
void fill_far_centroids(Case &c, Rng &rng) {
  for (std::size_t a : {0, 1}) {
    float *v = c.array<float>(a);
    for (std::size_t i = 0; i < c.count(a); ++i)
      v[i] = rng.uniform(0.0f, 100.0f);
  }
  for (std::size_t i = 0; i < c.count(3); ++i) {
    c.array<float>(3)[i] = i < 3 ? rng.uniform(0.0f, 100.0f) : 1e4f + static_cast<float>(i);
    c.array<float>(4)[i] = i < 3 ? rng.uniform(0.0f, 100.0f) : 1e4f + static_cast<float>(i);
  }
}

} // namespace

const Problem &kmeans_clustering_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "kmeans_clustering";
    p.params = {input("data_x", Elem::f32, count_of("sample_size")),
                input("data_y", Elem::f32, count_of("sample_size")),
                output("labels", Elem::i32, count_of("sample_size")),
                input("initial_centroid_x", Elem::f32, count_of("k")),
                input("initial_centroid_y", Elem::f32, count_of("k")),
                output("final_centroid_x", Elem::f32, count_of("k")),
                output("final_centroid_y", Elem::f32, count_of("k")),
                scalar("sample_size", 1, 1000000),
                scalar("k", 1, 1000),
                scalar("max_iterations", 1, 1000)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, kmeans_clustering_reference);
    p.fill = fill_with(p, {uniform(0, 1000), uniform(0, 1000), uniform(0, 1000), uniform(0, 1000)});
    // One block runs the loop while sample_size * k <= 2^18; clusters are summed in chunks of 8
    // (k = 8, 9, 16, 17 cross chunk edges). Sizes around a 1024-thread block's pass (1023..1025,
    // 2047..2049); 52,428 x 5 is the last one-block case, 52,429 x 5 the first grid one; the
    // grid shape with several chunks, with k = 1000, and at the challenge's largest size.
    add_tests(p, {{1, 1, 1},         {2, 1, 3},       {1, 3, 2},       {2, 2, 5},
                  {31, 3, 4},        {32, 5, 7},      {33, 7, 10},     {63, 8, 6},
                  {64, 9, 6},        {65, 16, 5},     {100, 17, 5},    {1023, 5, 30},
                  {1024, 5, 30},     {1025, 5, 30},   {2047, 4, 12},   {2049, 6, 12},
                  {10000, 5, 30},    {10000, 9, 30},  {5000, 33, 10},  {300, 1000, 3},
                  {52428, 5, 30},    {52429, 5, 30},  {200000, 5, 30}, {100000, 20, 10},
                  {100003, 1000, 2}, {1000000, 5, 30}});
    add_tests(p, {{17, 4, 1}, {1025, 6, 3}, {10000, 5, 30}, {60000, 7, 5}}, fill_ties, ",ties");
    add_tests(p, {{10, 5, 3}, {10000, 12, 10}, {100000, 6, 5}}, fill_far_centroids,
              ",empty-clusters");
    // 2 x 10^8 distances per call; the grid path with k = 1000 runs at 300 samples as well.
    run_only_at_full_scale(p, {"sample_size=100003,k=1000,max_iterations=2"});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/20_kmeans_clustering";
    j.tolerance = {1e-4, 1e-4};
    j.example =
        judge_case(p, "example", {4, 2, 10},
                   {given({1, 2, 8, 9}), given({1, 2, 8, 9}), given({1, 8}), given({1, 8})});
    const std::vector<double> three_groups = {1.0, 1.5, 1.2,  1.3,  1.1,  5.0,  5.2, 5.1,
                                              5.3, 5.4, 10.1, 10.2, 10.0, 10.3, 10.5};
    add_judge_functional(
        p, {15, 3, 20},
        {given(three_groups), given(three_groups), given({3.4, 7.1, 8.5}), given({3.4, 7.1, 8.5})});
    const std::vector<double> one_group = {1.0, 1.2, 1.1, 1.3, 1.5, 1.4, 1.6, 1.2, 1.3, 1.1};
    add_judge_functional(
        p, {10, 3, 10},
        {given(one_group), given(one_group), given({1.0, 5.0, 10.0}), given({1.0, 5.0, 10.0})});
    const std::vector<double> two_groups = {1.0,  1.5,  1.2,  1.3,  1.1,  1.4,  1.6,
                                            1.2,  1.7,  1.3,  10.0, 10.5, 10.2, 10.3,
                                            10.1, 10.4, 10.6, 10.2, 10.7, 10.3};
    add_judge_functional(
        p, {20, 3, 15},
        {given(two_groups), given(two_groups), given({1.5, 5.0, 10.5}), given({1.5, 5.0, 10.5})});
    add_judge_functional(
        p, {15, 3, 5},
        {given(three_groups), given(three_groups), given({3.4, 7.1, 8.5}), given({3.4, 7.1, 8.5})});
    add_judge_functional(p, {100, 5, 30},
                         {uniform(0, 100), uniform(0, 100), given({20, 40, 60, 80, 10}),
                          given({20, 40, 60, 80, 50})});
    j.performance =
        judge_case(p, "performance", {10000, 5, 30},
                   {uniform(0, 1000), uniform(0, 1000), given({100, 200, 300, 400, 500}),
                    given({100, 200, 300, 400, 500})});
    // The floor: the points read once and the labels written once (12 bytes per point). The call
    // is bound by its max_iterations dependent rounds, not by memory.
    p.model =
        memory_bound([](const Case &c) { return 12.0 * static_cast<double>(c["sample_size"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
