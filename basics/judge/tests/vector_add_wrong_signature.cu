// Rejected at compile time: N declared as size_t, where the judge's starter declares int N.
#include <cstddef>
#include <cuda_runtime.h>

__global__ void add(const float *A, const float *B, float *C, size_t N) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < N)
    C[i] = A[i] + B[i];
}

extern "C" void solve(const float *A, const float *B, float *C, size_t N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
}
