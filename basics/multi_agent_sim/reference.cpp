// multi_agent_sim: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <vector>

namespace kit::basics {
namespace {

// The judge's step. The neighbour test uses the float32 square of the distance, every operation
// rounded on its own (volatile: no fused multiply-add), against 25; an agent is never its own
// neighbour, while another agent at the same position is one. The neighbours' velocities are
// summed in double and their mean rounded once; the update then follows the judge's float32
// operations one by one.
void multi_agent_sim_reference(const float *agents, float *agents_next, int N) {
  for (int i = 0; i < N; ++i) {
    const float *me = agents + 4 * static_cast<std::size_t>(i);
    double sum_x = 0.0, sum_y = 0.0;
    long long count = 0;
    for (int j = 0; j < N; ++j) {
      if (j == i)
        continue;
      const float *other = agents + 4 * static_cast<std::size_t>(j);
      const volatile float dx = me[0] - other[0];
      const volatile float dy = me[1] - other[1];
      const volatile float dx2 = dx * dx;
      const volatile float dy2 = dy * dy;
      const float d = dx2 + dy2;
      if (d < 25.0f) {
        sum_x += other[2];
        sum_y += other[3];
        ++count;
      }
    }
    float mean_x = me[2], mean_y = me[3];
    if (count > 0) {
      mean_x = static_cast<float>(sum_x / static_cast<double>(count));
      mean_y = static_cast<float>(sum_y / static_cast<double>(count));
    }
    const volatile float step_x = 0.05f * (mean_x - me[2]);
    const volatile float step_y = 0.05f * (mean_y - me[3]);
    const volatile float vx = me[2] + step_x;
    const volatile float vy = me[3] + step_y;
    float *next = agents_next + 4 * static_cast<std::size_t>(i);
    next[0] = me[0] + vx;
    next[1] = me[1] + vy;
    next[2] = vx;
    next[3] = vy;
  }
}

// Positions on the integer grid 0..9 (squared distances are exact integers: 25, from the 3-4-5
// and 0-5 offsets, must not count; 0, from a shared position, must), velocities U(-10, 10).
void fill_grid_positions(Case &c, Rng &rng) {
  float *a = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); i += 4) {
    a[i] = static_cast<float>(rng.uniform_int(0, 9));
    a[i + 1] = static_cast<float>(rng.uniform_int(0, 9));
    a[i + 2] = rng.uniform(-10.0f, 10.0f);
    a[i + 3] = rng.uniform(-10.0f, 10.0f);
  }
}

// Every agent within a 3 x 3 box: all N - 1 others are neighbours (the longest sums).
void fill_crowd(Case &c, Rng &rng) {
  float *a = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); i += 4) {
    a[i] = rng.uniform(0.0f, 3.0f);
    a[i + 1] = rng.uniform(0.0f, 3.0f);
    a[i + 2] = rng.uniform(-100.0f, 100.0f);
    a[i + 3] = rng.uniform(-100.0f, 100.0f);
  }
}

CountFn four_per_agent() {
  return [](const Case &c) { return 4 * static_cast<std::size_t>(c["N"]); };
}

} // namespace

const Problem &multi_agent_sim_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "multi_agent_sim";
    p.params = {input("agents", Elem::f32, four_per_agent()),
                output("agents_next", Elem::f32, four_per_agent()), scalar("N", 1, 100000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, multi_agent_sim_reference);
    // The judge's random cases draw every float (positions and velocities) from one range; a
    // 200 x 200 area gives about two neighbours per agent at N = 1024.
    p.fill = fill_with(p, {uniform(-100, 100)});
    // A block owns 32 agents (64 on 64-lane targets) and splits the others into 8 (4) ranges,
    // staged 128 (256) at a time: sizes around those edges, the judge's N and larger.
    add_tests(p, {{1},    {2},    {7},    {31},   {32},    {33},   {63},  {64},
                  {65},   {127},  {128},  {129},  {255},   {256},  {257}, {1023},
                  {1024}, {1025}, {2047}, {2049}, {10000}, {20011}});
    add_tests(p, {{2}, {33}, {500}, {4097}}, fill_grid_positions, ",grid-positions");
    add_tests(p, {{65}, {1000}, {5000}}, fill_crowd, ",crowd");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/14_multi_agent_sim";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {2}, {given({0, 0, 1, 0, 5, 0, 0, 1})});
    add_judge_functional(p, {2}, {given({0, 0, 1, 0, 3, 4, 0, -1})});
    add_judge_functional(p, {1}, {given({10, 15, 1, -1})});
    add_judge_functional(p, {2}, {given({0, 0, 1, 0, 1, 1, 0, 1})});
    add_judge_functional(p, {4}, {given({0, 0, 1, 0, 2, 2, 0, 1, 4, 4, -1, 0, 6, 6, 0, -1})});
    add_judge_functional(p, {2}, {given({0, 0, 1, 1, 3, 4, -1, -1})});
    add_judge_functional(p, {1024}, {uniform(-100, 100)});
    j.performance = judge_case(p, "performance", {10000}, {uniform(-1000, 1000)});
    // The floor: the agents read once and written once (32 bytes per agent). The step is bound by
    // its N^2 pair tests (about ten instructions each), not by memory.
    p.model = memory_bound([](const Case &c) { return 32.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
