// Entry points of the per-problem GPU executables. basics/harness/program_main.cpp and
// test_main.cpp are compiled once per problem with KIT_BASICS_PROBLEM set to its name and its
// solve.h on the include path; everything else is shared.
#pragma once

#include "gpu/half.h"
#include "gpu/vendor.h"
#include "harness/problem.h"
#include "harness/signature.h"

#include <cstdint>
#include <vector>

namespace kit::basics {

// A GPU solve names f16 arrays by the vendor's half type (the judge's starter files declare
// `__half*`); the harness holds their bits as std::uint16_t.
template <> struct is_half_storage<__half> : std::true_type {};

struct SolveEntry {
  const char *problem;
  Solver solve;
  std::vector<Solver> extra_baselines; // e.g. cuBLAS for matrix_multiplication
  // What the judge compares with, where the kit can compute it on the device: the judge's
  // reference is torch's operation in FP32, not an exact result, so an answer closer to the exact
  // one than torch's can still fail it. cuBLAS SGEMM for matrix_multiplication; empty elsewhere.
  Solver judge_reference;
};

// `<name> CASE.in` prints the outputs in the case format; `<name> --bench [--runs R] [--seed S]`
// times solve at the judge's performance size against the problem's limit and baselines.
int program_main(int argc, char **argv, const SolveEntry &entry);

// The GPU test: the kit's test cases and the judge's cases (example, functional, performance)
// against the CPU reference, the judge's cases also against entry.judge_reference when it has one;
// prints `JUDGE|<problem>|<passed>/<total>` last.
int gpu_test_main(int argc, char **argv, const SolveEntry &entry);

// One case of that test, on inputs generated from `seed`: prints one PASS, FAIL (the first wrong
// element, or what else went wrong) or SKIP line; returns 1 when it failed, else 0.
// `also_misaligned` repeats a small case at an address one element off; with `judge_reference`,
// solve's outputs are also compared with that reference's, as the judge compares them.
int run_gpu_test_case(const Problem &problem, const SolveEntry &entry, const Recipe &recipe,
                      std::uint64_t seed, bool also_misaligned, const Solver *judge_reference);

} // namespace kit::basics
