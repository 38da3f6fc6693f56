// The basics benchmark at the judge's performance size: solve's time (events, median, L2
// flushed before each run), the fraction of the problem's limit measured in the same run, and the
// ratio to the problem's baselines. Prints a readable report and one `RESULT|...` line.
#pragma once

#include "entry.h"
#include "harness/problem.h"

#include <cstdint>

namespace kit::basics {

struct BenchOptions {
  int runs = 0; // 0: 50, or 10 for cases above 1e11 operations
  std::uint64_t seed = 1;
};

int run_bench(const Problem &problem, const SolveEntry &entry, const BenchOptions &options);

} // namespace kit::basics
