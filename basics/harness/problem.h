// How the harness sees a LeetGPU problem: the judge's `solve` parameters in order, how large each
// array is, the CPU reference, the comparison tolerance, how inputs are generated and which cases
// the tests and the benchmark use. Each problem describes itself once, in its reference.cpp.
#pragma once

#include "random.h"
#include "signature.h"

#include <cfloat>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kit::basics {

struct Case;

using CountFn = std::function<std::size_t(const Case &)>;
using FillFn = std::function<void(Case &, Rng &)>;

struct Param {
  std::string name;
  Role role;
  Elem elem;      // arrays: element type; scalars: i32 (int) or f32 (float)
  CountFn count;  // arrays: number of elements, from the scalar arguments
  double min = 0; // scalars: accepted range (inclusive)
  double max = 0;
  // Outputs only: the judge hands this array over filled with zeros and its reference writes only
  // part of it, so the rest must read 0 after the call (see output_from_zeros).
  bool starts_zeroed = false;
};

// Array parameters: `count` gives the number of elements from the case's scalars.
Param input(const char *name, Elem elem, CountFn count);
Param output(const char *name, Elem elem, CountFn count);
Param inout(const char *name, Elem elem, CountFn count);
// An output whose meaningful length depends on the result (stream compaction writes the kept
// elements first): the judge allocates it with zeros and compares all of it, so the elements
// after the written ones must still be 0. The GPU checks pre-fill it like any output; an element
// left holding the pre-fill where the reference has 0 counts as the judge's 0
// (accept_untouched_zeros in compare.h).
Param output_from_zeros(const char *name, Elem elem, CountFn count);
// An `int` parameter accepted in [min, max].
Param scalar(const char *name, long long min, long long max);
// A `float` parameter accepted in [min, max] (finite by default; NaN is never accepted).
Param float_scalar(const char *name, float min = -FLT_MAX, float max = FLT_MAX);

// A scalar's value as the case format and labels write it: an int in decimal, a float in the
// shortest form that reads back to the same float ("-51.24").
std::string scalar_text(const Param &param, double value);
// Parses a scalar's value in that form (the whole text); false when it is not one.
bool parse_scalar(const Param &param, std::string_view text, double &value);

// One value per parameter, in the order of solve's arguments: scalars in `scalars` (a double holds
// an int or a float exactly; 0 at array positions), arrays as raw bytes (element type from the
// parameter).
struct Case {
  const std::vector<Param> *params = nullptr;
  std::vector<double> scalars;
  std::vector<std::vector<unsigned char>> arrays;

  // Value of the int scalar `name` (throws std::logic_error for an unknown name or a float).
  long long operator[](const char *name) const;
  // Value of the float scalar `name` (throws std::logic_error for an unknown name or an int).
  float real(const char *name) const;
  // Typed view of array parameter `index`.
  template <class T> T *array(std::size_t index) {
    return reinterpret_cast<T *>(arrays[index].data());
  }
  template <class T> const T *array(std::size_t index) const {
    return reinterpret_cast<const T *>(arrays[index].data());
  }
  std::size_t count(std::size_t index) const;
};

// |got - expected| <= atol + rtol * |expected|, computed in double; both zero means exact.
struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

// A named case: the scalar arguments (in the order of the scalar parameters) and, optionally, a
// value generator other than the problem's default.
struct Recipe {
  std::string label;
  std::vector<double> scalars;
  FillFn fill; // empty: the problem's default generator
  // Skipped at KIT_TEST_SCALE=small although within its element cap (spec.h:
  // run_only_at_full_scale).
  bool full_scale_only = false;
};

// The official LeetGPU challenge a problem mirrors, as facts in our own words: where its
// definition lives in the public repository AlphaGPU/leetgpu-challenges, the tolerance it states
// and its cases. Each case is a Recipe whose generator reproduces the challenge's values: the
// literal arrays it gives, or the same distributions (uniform ranges, integer ranges, constants)
// for its random ones. Labels start with "judge:" (spec.h builds them).
struct JudgeCases {
  std::string challenge;          // its folder, e.g. "challenges/easy/21_relu"
  Tolerance tolerance;            // atol and rtol as the challenge states them
  Recipe example;                 // "judge:example (...)"
  std::vector<Recipe> functional; // "judge:functional-1 (...)", ... in the challenge's order
  Recipe performance;             // "judge:performance (...)": the case the judge times

  // The example, the functional cases and the performance case, in that order.
  std::vector<const Recipe *> all() const;
};

// What bounds the problem's speed, for the benchmark's "fraction of the limit".
enum class Limit {
  memory,     // bytes moved, against device-to-device copy of the same traffic (a read of as
              // many bytes is reported beside it)
  fp32_fma,   // FP32 fused multiply-adds, against the measured FMA issue rate
  fnv_rounds, // FNV-1a rounds on 32-bit words, against the measured rate of that arithmetic
};

struct PerfModel {
  Limit limit = Limit::memory;
  std::function<double(const Case &)> bytes; // minimum DRAM traffic (reads + writes)
  std::function<double(const Case &)> ops;   // FMAs or FNV rounds (compute limits)
};

// An expected value for one output element: the sampled check of cases too large for the full
// CPU reference (matrix_multiplication at the judge's size). `slack` is added to the tolerance
// (matrix_multiplication: the rounding FP32 accumulation cannot avoid at that size).
struct SampledValue {
  std::size_t param;
  std::size_t index;
  double value;
  double slack = 0;
};
using SampledReference = std::function<std::vector<SampledValue>(const Case &, Rng &)>;

struct Problem {
  std::string name;
  std::vector<Param> params;
  Tolerance tolerance;
  Invoker reference;                              // host pointers, same signature as solve
  std::vector<Shape> reference_shape;             // solve's parameter types, as seen by bind()
  FillFn fill;                                    // default input generator for given scalars
  std::function<std::string(const Case &)> check; // cross-argument rules; "" when valid
  std::vector<Recipe> tests; // the kit's own GPU test cases (awkward sizes, edge values)
  JudgeCases judge;          // the official challenge's cases; judge.performance is benchmarked
  PerfModel model;
  // When set, cases with more than `full_reference_limit` multiply-adds are checked on a sample.
  SampledReference sampled_reference;
  double full_reference_limit = 0;
  std::function<double(const Case &)> reference_work; // multiply-adds of the full reference

  std::size_t index_of(const std::string &param_name) const; // throws std::logic_error
  // A case with the given scalars (in the order of the scalar parameters) and empty arrays. Float
  // scalars are rounded to float, as the judge's ctypes call does; an int scalar must be a whole
  // number (std::logic_error otherwise).
  Case make_case(const std::vector<double> &scalars) const;
  // Scalars in range, cross-argument rules; returns "" or what is wrong.
  std::string validate(const Case &c) const;
  // Allocates every array at its size; inputs get `fill` (or the default generator).
  void generate(Case &c, Rng &rng, const FillFn &fill = {}) const;
  // Runs the CPU reference on a copy of the inputs; returns the case with outputs filled in.
  Case solve_reference(const Case &inputs) const;
  bool needs_sampled_check(const Case &c) const;
};

// Throws std::logic_error when the reference's parameter types do not match `params`.
void check_signature(const Problem &problem, const std::vector<Shape> &solve_shape,
                     const char *what);

} // namespace kit::basics
