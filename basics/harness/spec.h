// Helpers for the problem descriptions in basics/<name>/reference.cpp.
#pragma once

#include "problem.h"
#include "random.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace kit::basics {

// Installs the CPU reference (same parameter list as solve, host pointers).
template <class... Ps> void set_reference(Problem &problem, void (*reference)(Ps...)) {
  problem.reference = bind(reference);
  problem.reference_shape = shape_of(reference);
}

// The sizes every 1-D problem is tested at: 1, 2, 31..33, 63..65, 1023..1025, and tile - 1,
// tile, tile + 1 for each tile size given (elements one block handles), sorted.
std::vector<long long> awkward_sizes(std::initializer_list<long long> tiles);

// Adds a recipe for each awkward size (awkward_sizes(tiles)) of a problem whose only scalar is
// its element count.
void add_awkward_size_tests(Problem &problem, std::initializer_list<long long> tiles);

// "N=31", "rows=31,cols=33" or "lo=-51.24,hi=39.51,N=100000" for the scalar values of a recipe.
std::string label_of(const std::vector<Param> &params, const std::vector<double> &scalars);

// Parses that form back: every scalar, in order, as "name=value" separated by commas. Returns the
// values, or throws std::invalid_argument saying what is wrong.
std::vector<double> parse_assignments(const Problem &problem, const std::string &text);

// Adds a recipe per scalar list, labelled by label_of.
void add_tests(Problem &problem, const std::vector<std::vector<double>> &scalar_lists,
               const FillFn &fill = {}, const std::string &suffix = "");

// Marks the kit cases with these labels full scale only: KIT_TEST_SCALE=small, the sanitizer's
// scale, skips them although they are within its element cap, because their work outgrows their
// size (all pairs of N points, a BFS level per step of a long path) beyond what racecheck and
// synccheck finish within a run's bound. Smaller cases of the same kernel paths stay at that
// scale. Throws std::logic_error for a label that no kit case of the problem has.
void run_only_at_full_scale(Problem &problem, const std::vector<std::string> &labels);

// Element count of an array parameter sized by one scalar, or by a product of two.
CountFn count_of(const char *scalar);
CountFn count_of(const char *a, const char *b);
CountFn count_one();

PerfModel memory_bound(std::function<double(const Case &)> bytes);

// ---- The judge's cases (Problem::judge) ----
//
// A judge case names its values per input array, in parameter order (the input and in-place
// arrays), so that its label says what the challenge feeds solve:
//
//   add_judge_functional(p, {1024}, {uniform(-10, 10)});
//   add_judge_functional(p, {4}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
//   p.judge.performance = judge_case(p, "performance", {5000000, 10}, {integers(0, 2147483647)});

// The values of one input array and how a label describes them.
struct ArrayValues {
  std::string description; // "U(-10, 10)", "integers 1..100000", "given values", "all 0"
  std::function<void(Case &, std::size_t param, Rng &)> fill;
};

// The challenge's literal values (matrices row-major); their number must equal the array's count.
// An f16 array stores each rounded to the nearest half.
ArrayValues given(std::vector<double> values);
// Floats uniform in [lo, hi) (torch's uniform_); f32 arrays, and f16 ones (each float draw rounded
// to the nearest half).
ArrayValues uniform(double lo, double hi);
// Standard normal floats (torch.randn's distribution, not its values), by Box-Muller from the
// kit's generator; f32 arrays, and f16 ones (rounded to the nearest half).
ArrayValues normal();
// Every integer in [lo, hi] equally likely (torch.randint(lo, hi + 1)); integer arrays only.
ArrayValues integers(double lo, double hi);
// Every element equal to `value` (zeros, ones, a repeated literal).
ArrayValues constant(double value);

// A generator that gives element i of the first two arrays (f32) a pair drawn from `pairs`: the
// edge values of binary element-wise problems, a and b chosen together.
FillFn fill_pairs_from(std::vector<std::pair<float, float>> pairs);

// A generator that fills the input and in-place arrays, in parameter order, one entry each (also
// usable as a problem's default generator: p.fill = fill_with(p, {uniform(-100, 100)})).
FillFn fill_with(const Problem &problem, const std::vector<ArrayValues> &values);

// A judge case labelled "judge:<kind> (<scalars>, <values>)", e.g. "judge:functional-3 (N=3,
// given values)". `values` has one entry per input and in-place array.
Recipe judge_case(const Problem &problem, const std::string &kind,
                  const std::vector<double> &scalars, const std::vector<ArrayValues> &values);
// Appends the next functional case ("functional-<k>").
void add_judge_functional(Problem &problem, const std::vector<double> &scalars,
                          const std::vector<ArrayValues> &values);

} // namespace kit::basics
