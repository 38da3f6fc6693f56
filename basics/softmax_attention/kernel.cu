// softmax_attention (LeetGPU basics): output = softmax(Q K^T / sqrt(d)) V, FP32, row-major,
// DEVICE pointers. Q is M x d, K and V are N x d, output is M x d.
//
// One head of the kit's flash attention (common/primitives/flash_attention.h): one pass over K and
// V per block of query rows with an online softmax, FP32 FMAs, the dots in cuBLAS's order (an FMA
// chain over d from 0) and torch's scaling (the product with the float reciprocal of sqrt(d)).
// Head dimensions up to 256 run fused (tiers 64, 128, 256); larger ones take the primitive's
// unfused SGEMM path. No host synchronisation.
#include "gpu/vendor.h"
#include "primitives/flash_attention.h"

extern "C" void solve(const float *Q, const float *K, const float *V, float *output, int M, int N,
                      int d) {
  namespace flash = kit::flash;
  const flash::Scores<> scores{flash::torch_scale(d), flash::Visibility::all()};
  flash::attention(flash::Shape{M, N, d, 1}, flash::single_head(Q, K, V, output, d), scores);
}
