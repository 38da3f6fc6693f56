// Rejected: the bounds check is missing and the index is off by a large stride, so the kernel
// writes far outside C: the GPU reports an illegal address and the case fails with that message.
#include <cuda_runtime.h>

__global__ void add(const float *A, const float *B, float *C, int N) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  C[i + (1ll << 36)] = A[i % N] + B[i % N];
}

extern "C" void solve(const float *A, const float *B, float *C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
}
