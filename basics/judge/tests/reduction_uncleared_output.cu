// Rejected: each block adds its sum into *output with atomicAdd, but *output is never cleared: the
// judge hands outputs over uninitialised, so the result is garbage plus the sum.
#include <cuda_runtime.h>

__global__ void block_sums(const float *input, float *output, int N) {
  __shared__ float partial[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < N ? input[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(output, partial[0]);
}

extern "C" void solve(const float *input, float *output, int N) {
  block_sums<<<(N + 255) / 256, 256>>>(input, output, N);
}
