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
  double max_error = 0;       // largest finite |got - expected| seen
  std::size_t not_finite = 0; // mismatches whose difference is NaN (a NaN, or inf against
                              // anything but the same inf)
  std::string first;          // the first mismatch, described
};

// Compares one array; the two byte buffers must have the same element type.
Comparison compare_array(const std::string &name, Elem elem, const std::vector<unsigned char> &got,
                         const std::vector<unsigned char> &expected, Tolerance tolerance);

// Compares every output and in-place array of two cases of `problem`.
Comparison compare_outputs(const Problem &problem, const Case &got, const Case &expected);

// Compares the sampled elements only.
Comparison compare_sampled(const Problem &problem, const Case &got,
                           const std::vector<SampledValue> &expected);

// For outputs declared with output_from_zeros: an element the solve left untouched (all its
// bytes still equal `fill`, the byte the outputs were pre-filled with) where the reference has 0
// takes the reference's value, because the judge's zero-filled buffer holds 0 there. Elements the
// solve wrote, and untouched ones where the reference has another value, are left to compare.
void accept_untouched_zeros(const Problem &problem, Case &got, const Case &expected,
                            unsigned char fill);

// Folds `part` into `total` (keeps the first mismatch found).
void merge(Comparison &total, const Comparison &part);

std::string describe(const Comparison &c);

} // namespace kit::basics
