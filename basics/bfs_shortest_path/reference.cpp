// bfs_shortest_path: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// The judge's BFS: start == end is 0; the search starts at the start cell whatever its value and
// enters only free cells (value 0) through the four sides; -1 when the end is never reached.
void bfs_shortest_path_reference(const int *grid, int *result, int rows, int cols, int start_row,
                                 int start_col, int end_row, int end_col) {
  if (start_row == end_row && start_col == end_col) {
    result[0] = 0;
    return;
  }
  const std::size_t cells = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  std::vector<int> distance(cells, -1);
  std::deque<std::size_t> queue;
  const std::size_t start = static_cast<std::size_t>(start_row) * cols + start_col;
  const std::size_t end = static_cast<std::size_t>(end_row) * cols + end_col;
  distance[start] = 0;
  queue.push_back(start);
  while (!queue.empty()) {
    const std::size_t at = queue.front();
    queue.pop_front();
    if (at == end)
      break;
    const int row = static_cast<int>(at / cols), col = static_cast<int>(at % cols);
    const int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (const auto &step : steps) {
      const int r = row + step[0], c = col + step[1];
      if (r < 0 || r >= rows || c < 0 || c >= cols)
        continue;
      const std::size_t next = static_cast<std::size_t>(r) * cols + c;
      if (distance[next] < 0 && grid[next] == 0) {
        distance[next] = distance[at] + 1;
        queue.push_back(next);
      }
    }
  }
  result[0] = distance[end];
}

std::string check_cells(const Case &c) {
  for (const char *name : {"start_row", "end_row"})
    if (c[name] >= c["rows"])
      return std::string(name) + " " + std::to_string(c[name]) + " >= rows " +
             std::to_string(c["rows"]);
  for (const char *name : {"start_col", "end_col"})
    if (c[name] >= c["cols"])
      return std::string(name) + " " + std::to_string(c[name]) + " >= cols " +
             std::to_string(c["cols"]);
  return "";
}

std::size_t cell(const Case &c, const char *row, const char *col) {
  return static_cast<std::size_t>(c[row]) * static_cast<std::size_t>(c["cols"]) +
         static_cast<std::size_t>(c[col]);
}

// Obstacles with probability `percent` / 100; the start and end cells free (the challenge's
// promise) unless `block` names them.
FillFn obstacles(int percent, bool block_start = false, bool block_end = false) {
  return [=](Case &c, Rng &rng) {
    int *grid = c.array<int>(0);
    for (std::size_t i = 0; i < c.count(0); ++i)
      grid[i] = static_cast<int>(rng.next() % 100) < percent ? 1 : 0;
    grid[cell(c, "start_row", "start_col")] = block_start ? 1 : 0;
    grid[cell(c, "end_row", "end_col")] = block_end ? 1 : 0;
  };
}

// A serpentine: every other row is a wall with one gap, at the right end and the left end in
// turn, so the only path from the top-left corner runs through every corridor row.
void fill_serpentine(Case &c, Rng &) {
  int *grid = c.array<int>(0);
  const long long rows = c["rows"], cols = c["cols"];
  for (long long r = 0; r < rows; ++r)
    for (long long col = 0; col < cols; ++col) {
      const bool wall = r % 2 == 1 && col != ((r / 2) % 2 == 0 ? cols - 1 : 0);
      grid[r * cols + col] = wall ? 1 : 0;
    }
}

// A full wall down the middle column: the right half is unreachable from the left.
void fill_split(Case &c, Rng &rng) {
  obstacles(20)(c, rng);
  int *grid = c.array<int>(0);
  const long long rows = c["rows"], cols = c["cols"];
  for (long long r = 0; r < rows; ++r)
    grid[r * cols + cols / 2] = 1;
}

// The judge's performance grid: each cell an obstacle with probability 1/2, then the first and
// last cells and the first min(cols, 10) cells of every row cleared.
ArrayValues judge_grid() {
  return {"integers 0..1, first 10 cells of each row and both corners free",
          [](Case &c, std::size_t param, Rng &rng) {
            int *grid = c.array<int>(param);
            const std::size_t n = c.count(param);
            const std::size_t cols = static_cast<std::size_t>(c["cols"]);
            for (std::size_t i = 0; i < n; ++i)
              grid[i] = static_cast<int>(rng.next() & 1);
            grid[0] = 0;
            grid[n - 1] = 0;
            for (std::size_t row = 0; row < n; row += cols)
              std::fill(grid + row, grid + row + std::min<std::size_t>(cols, 10), 0);
          }};
}

} // namespace

const Problem &bfs_shortest_path_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "bfs_shortest_path";
    p.params = {input("grid", Elem::i32, count_of("rows", "cols")),
                output("result", Elem::i32, count_one()),
                scalar("rows", 1, 1000),
                scalar("cols", 1, 1000),
                scalar("start_row", 0, 999),
                scalar("start_col", 0, 999),
                scalar("end_row", 0, 999),
                scalar("end_col", 0, 999)};
    p.check = check_cells;
    p.tolerance = {0, 0};
    set_reference(p, bfs_shortest_path_reference);
    p.fill = obstacles(30);
    // Shapes: one cell, one row or column (words of one bit, rows of one word), 31..33 and
    // 63..65 columns (a row's last word partly used; rows of 1 and 2 words), corners to corners
    // and inner cells; 256 x 1000 (8192 words: the most the shared-memory search holds on NVIDIA)
    // and 257 x 1000 (the search in global memory), 1000 x 1000.
    add_tests(p, {{1, 1, 0, 0, 0, 0},
                  {1, 2, 0, 0, 0, 1},
                  {2, 1, 1, 0, 0, 0},
                  {1, 1000, 0, 0, 0, 999},
                  {1000, 1, 999, 0, 0, 0},
                  {31, 33, 0, 0, 30, 32},
                  {33, 31, 32, 30, 0, 0},
                  {32, 32, 5, 7, 26, 31},
                  {63, 65, 0, 64, 62, 0},
                  {65, 63, 31, 31, 64, 62},
                  {64, 64, 10, 10, 10, 11},
                  {500, 500, 0, 0, 499, 499},
                  {500, 500, 250, 250, 3, 497},
                  {256, 1000, 0, 0, 255, 999},
                  {257, 1000, 0, 0, 256, 999},
                  {1000, 1000, 0, 0, 999, 999},
                  {1000, 1000, 999, 0, 0, 999}});
    // No obstacles (the widest layers), 35% obstacles (just above the percolation threshold of the
    // free cells: long winding paths, often none), mostly blocked.
    add_tests(p,
              {{1, 1000, 0, 0, 0, 999},
               {1000, 1, 999, 0, 0, 0},
               {65, 63, 0, 0, 64, 62},
               {500, 500, 0, 0, 499, 499},
               {1000, 1000, 17, 3, 998, 996}},
              obstacles(0), ",open");
    add_tests(p, {{100, 100, 0, 0, 99, 99}, {500, 500, 0, 0, 499, 499}, {300, 700, 5, 5, 290, 690}},
              obstacles(35), ",35%-obstacles");
    add_tests(p, {{100, 100, 0, 0, 99, 99}, {500, 500, 1, 1, 2, 2}}, obstacles(60),
              ",60%-obstacles");
    // The only path visits every corridor: about rows * cols / 2 levels.
    add_tests(p, {{9, 40, 0, 0, 8, 39}, {101, 101, 0, 0, 100, 100}, {201, 301, 0, 0, 200, 0}},
              fill_serpentine, ",serpentine");
    add_tests(p, {{64, 64, 0, 0, 63, 63}, {500, 500, 250, 0, 250, 499}}, fill_split, ",split");
    // The judge's semantics at the edges: a blocked start still starts the search; a blocked end
    // is never reached; start == end is 0 even when blocked; neighbours.
    add_tests(p, {{31, 33, 0, 0, 30, 32}, {31, 33, 4, 4, 4, 5}, {500, 500, 7, 9, 400, 300}},
              obstacles(20, true), ",start-blocked");
    add_tests(p, {{31, 33, 0, 0, 30, 32}, {500, 500, 7, 9, 400, 300}}, obstacles(20, false, true),
              ",end-blocked");
    add_tests(p, {{31, 33, 4, 4, 4, 4}}, obstacles(20, true, true), ",start-is-end-blocked");
    add_tests(p, {{31, 33, 4, 4, 4, 5}, {31, 33, 4, 4, 5, 4}, {500, 500, 499, 498, 499, 499}},
              obstacles(30), ",neighbours");
    add_tests(p, {{200, 300, 0, 0, 199, 299}, {1000, 1000, 0, 0, 999, 999}},
              fill_with(p, {judge_grid()}), ",judge-like");
    // About 1,000 and 30,000 levels of a block sweeping its bitmaps in shared memory, every access
    // followed by racecheck; the same mode runs on the other 500 x 500 grids and the 101 x 101
    // serpentine at the small scale.
    run_only_at_full_scale(
        p, {"rows=500,cols=500,start_row=0,start_col=0,end_row=499,end_col=499,open",
            "rows=201,cols=301,start_row=0,start_col=0,end_row=200,end_col=0,serpentine"});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/46_bfs_shortest_path";
    j.tolerance = {0, 0};
    j.example = judge_case(p, "example", {4, 4, 0, 0, 3, 3},
                           {given({0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0})});
    add_judge_functional(p, {2, 3, 0, 0, 1, 2}, {given({0, 0, 1, 0, 0, 0})});
    add_judge_functional(p, {1, 5, 0, 0, 0, 4}, {given({0, 1, 0, 1, 0})});
    add_judge_functional(p, {2, 2, 0, 0, 0, 0}, {given({0, 1, 0, 0})});
    add_judge_functional(p, {1, 1, 0, 0, 0, 0}, {given({0})});
    add_judge_functional(p, {5, 5, 0, 0, 4, 4}, {given({0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0,
                                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})});
    add_judge_functional(p, {5, 5, 0, 0, 4, 4}, {given({0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0,
                                                        1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0})});
    j.performance = judge_case(p, "performance", {500, 500, 0, 0, 499, 499}, {judge_grid()});
    // The floor: reading the grid once (4 bytes per cell). The search itself is bound by its
    // levels (two block barriers each), not by memory.
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["rows"]) * static_cast<double>(c["cols"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
