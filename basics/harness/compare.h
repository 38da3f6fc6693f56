// Comparison with the judge's rule: |got - expected| <= atol + rtol * |expected| for floats
// (NaN never passes), exact equality for integer outputs.
#pragma once

#include "problem.h"

#include <string>

namespace kit::basics {

struct Comparison {
  bool ok = true;
  std::size_t checked = 0;
  std::size_t mismatches = 0;
  double max_error = 0; // largest |got - expected| seen
  std::string first;    // the first mismatch, described
};

// Compares one array; the two byte buffers must have the same element type.
Comparison compare_array(const std::string &name, Elem elem, const std::vector<unsigned char> &got,
                         const std::vector<unsigned char> &expected, Tolerance tolerance);

// Compares every output and in-place array of two cases of `problem`.
Comparison compare_outputs(const Problem &problem, const Case &got, const Case &expected);

// Compares the sampled elements only.
Comparison compare_sampled(const Problem &problem, const Case &got,
                           const std::vector<SampledValue> &expected);

// Folds `part` into `total` (keeps the first mismatch found).
void merge(Comparison &total, const Comparison &part);

std::string describe(const Comparison &c);

} // namespace kit::basics
