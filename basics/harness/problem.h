// How the harness sees a LeetGPU problem: the judge's `solve` parameters in order, how large each
// array is, the CPU reference, the comparison tolerance, how inputs are generated and which cases
// the tests and the benchmark use. Each problem describes itself once, in its reference.cpp.
#pragma once

#include "signature.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kit::basics {

class Rng;
struct Case;

using CountFn = std::function<std::size_t(const Case &)>;
using FillFn = std::function<void(Case &, Rng &)>;

struct Param {
  std::string name;
  Role role;
  Elem elem;
  CountFn count;     // arrays: number of elements, from the scalar arguments
  long long min = 0; // scalars: accepted range (inclusive)
  long long max = 0;
};

// Array parameters: `count` gives the number of elements from the case's scalars.
Param input(const char *name, Elem elem, CountFn count);
Param output(const char *name, Elem elem, CountFn count);
Param inout(const char *name, Elem elem, CountFn count);
// An `int` parameter accepted in [min, max].
Param scalar(const char *name, long long min, long long max);

// One value per parameter, in the order of solve's arguments: scalars in `scalars`, arrays as
// raw bytes (element type from the parameter).
struct Case {
  const std::vector<Param> *params = nullptr;
  std::vector<long long> scalars;
  std::vector<std::vector<unsigned char>> arrays;

  // Value of the scalar parameter `name` (throws std::logic_error for an unknown name).
  long long operator[](const char *name) const;
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

// A named case: the scalar arguments (in parameter order) and, optionally, a value generator
// other than the problem's default.
struct Recipe {
  std::string label;
  std::vector<long long> scalars;
  FillFn fill; // empty: the problem's default generator
};

// What bounds the problem's speed, for the benchmark's "fraction of the limit".
enum class Limit {
  memory,     // bytes moved, against device-to-device copy of the same traffic
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
  std::vector<Recipe> tests;                      // the GPU test suite (awkward sizes, edge values)
  Recipe perf; // the judge's performance case, exact distribution
  PerfModel model;
  // When set, cases with more than `full_reference_limit` multiply-adds are checked on a sample.
  SampledReference sampled_reference;
  double full_reference_limit = 0;
  std::function<double(const Case &)> reference_work; // multiply-adds of the full reference

  std::size_t index_of(const std::string &param_name) const; // throws std::logic_error
  // A case with the given scalars (in parameter order) and empty arrays.
  Case make_case(const std::vector<long long> &scalars) const;
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
