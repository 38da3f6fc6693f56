// Matrices stored densely with few non-zero entries, as the sparse-product problems receive them
// (sparse_matrix_vector_multiplication, sparse_matrix_dense_matrix_multiplication): the count of
// non-zeros is the case's `nnz` scalar.
#pragma once

#include "spec.h"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace kit::basics {

// Exactly nnz non-zero entries U(lo, hi) at distinct positions of the array, every set of nnz
// positions equally likely (selection sampling: the i-th of the T positions left is taken with
// probability needed / T), the rest 0. The same distribution as the judge's "values at the first
// nnz positions of a random permutation"; where the judge keeps each entry with a probability
// instead (a mask of torch.rand > threshold), its count varies around the nnz the kit passes.
inline ArrayValues sparse_uniform(double lo, double hi) {
  return {"nnz values U(" + std::to_string(static_cast<int>(lo)) + ", " +
              std::to_string(static_cast<int>(hi)) + ") at random positions",
          [lo, hi](Case &c, std::size_t param, Rng &rng) {
            float *a = c.array<float>(param);
            const std::size_t total = c.count(param);
            std::size_t needed = static_cast<std::size_t>(c["nnz"]);
            for (std::size_t i = 0; i < total; ++i) {
              const double left = static_cast<double>(total - i);
              if (needed > 0 && rng.unit() * left < static_cast<double>(needed)) {
                a[i] = rng.uniform(static_cast<float>(lo), static_cast<float>(hi));
                --needed;
              } else {
                a[i] = 0.0f;
              }
            }
          }};
}

// nnz for a rows x cols matrix with the given fraction of non-zero entries, rounded.
inline double nnz_at(double rows, double cols, double fraction) {
  return std::round(fraction * rows * cols);
}

} // namespace kit::basics
