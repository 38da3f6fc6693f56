// Rejected: 16-byte loads for speed, but the N % 4 elements after the last whole vector are never
// written (the judge's N = 1, 2, 3 and 30 cases catch it).
#include <cuda_runtime.h>

__global__ void add4(const float4 *A, const float4 *B, float4 *C, int vectors) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < vectors) {
    const float4 a = A[i], b = B[i];
    C[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

extern "C" void solve(const float *A, const float *B, float *C, int N) {
  const int vectors = N / 4;
  if (vectors > 0)
    add4<<<(vectors + 255) / 256, 256>>>(reinterpret_cast<const float4 *>(A),
                                         reinterpret_cast<const float4 *>(B),
                                         reinterpret_cast<float4 *>(C), vectors);
}
