// Rejected: a block waits for a flag that no block ever sets (a grid barrier gone wrong), so solve
// never returns: the judge stops the case at its time limit.
#include <cuda_runtime.h>

__global__ void add(const float *A, const float *B, float *C, int N, volatile int *flag) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    C[i] = A[i] + B[i];
  while (*flag == 0) {
  }
}

extern "C" void solve(const float *A, const float *B, float *C, int N) {
  static int *flag = nullptr;
  if (!flag) {
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N, flag);
}
