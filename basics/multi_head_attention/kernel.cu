// multi_head_attention (LeetGPU basics): for each head h, output's columns h d_k .. (h + 1) d_k - 1
// = softmax(Q_h K_h^T / sqrt(d_k)) V_h, with Q_h, K_h, V_h the same columns of Q, K, V (N x
// d_model, d_k = d_model / h), FP32, row-major, DEVICE pointers.
//
// The kit's flash attention (common/primitives/flash_attention.h) over h slices whose rows are
// d_model floats apart and whose heads start d_k floats apart: no head is copied or transposed.
// One pass over K and V per block of query rows and head with an online softmax, FP32 FMAs, the
// dots in cuBLAS's order (an FMA chain over d_k from 0: what torch's per-head product forms, which
// the 1e-5 tolerance at U(-10, 10) values requires) and torch's scaling. No host synchronisation.
#include "gpu/vendor.h"
#include "primitives/flash_attention.h"

extern "C" void solve(const float *Q, const float *K, const float *V, float *output, int N,
                      int d_model, int h) {
  namespace flash = kit::flash;
  const int d_k = d_model / h;
  const flash::Scores<> scores{flash::torch_scale(d_k), flash::Visibility::all()};
  flash::attention(flash::Shape{N, N, d_k, h}, flash::interleaved_heads(Q, K, V, output, h, h, d_k),
                   scores);
}
