// A small symmetric positive definite linear system A x = b solved by one block, in double:
// ordinary_least_squares (the normal equations) and logistic_regression (each Newton step).
//
// Gaussian elimination without pivoting, then back substitution. For a symmetric positive
// definite matrix no pivoting is needed: the pivots are the squares of the Cholesky factor's
// diagonal (all positive) and the elimination is as stable as the Cholesky factorisation. Each
// elimination step k updates the rows below k (their columns right of k, and b) from row k and
// column k, which that step never writes, so one block barrier per step suffices; back
// substitution likewise takes one barrier per unknown: 2n barriers in all.
#pragma once

#include "gpu/vendor.h"

namespace kit::block_spd {

// Solves A x = b for the n x n symmetric positive definite matrix A (row-major, every element
// present: leading dimension n). Every thread of the block calls it with the same arguments;
// A, b and x lie in shared or global memory (visible to the whole block). A's elements right of
// the diagonal and b are overwritten (A's upper triangle becomes the eliminated factor U); x must
// not alias b. Begins and ends with a block barrier, so the caller may write A and b just before
// and read x just after.
template <int kThreads> __device__ void solve(double *A, double *b, double *x, int n) {
  const int thread = static_cast<int>(threadIdx.x);
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    const double pivot = A[k * n + k];
    const int rest = n - k - 1; // rows below k; columns right of k
    const int width = rest + 1; // those columns and b
    for (int e = thread; e < rest * width; e += kThreads) {
      const int i = k + 1 + e / width;
      const int c = e - (i - k - 1) * width;
      const double factor = A[i * n + k] / pivot;
      if (c < rest)
        A[i * n + k + 1 + c] -= factor * A[k * n + k + 1 + c];
      else
        b[i] -= factor * b[k];
    }
    __syncthreads();
  }
  // x_j = b_j / U_jj once the unknowns after j are taken out of b_j; then out of the rows above.
  for (int j = n - 1; j >= 0; --j) {
    const double xj = b[j] / A[j * n + j];
    if (thread == 0)
      x[j] = xj;
    for (int i = thread; i < j; i += kThreads)
      b[i] -= A[i * n + j] * xj;
    __syncthreads();
  }
}

} // namespace kit::block_spd
