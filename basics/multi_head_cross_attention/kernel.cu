// multi_head_cross_attention (LeetGPU basics): for each head h, output[:, h, :] =
// softmax(Q_h K_h^T / sqrt(D)) V_h, with Q M x H x D and K, V N x H x D ([sequence, head,
// dimension], row-major floats, DEVICE pointers); no mask.
//
// The kit's flash attention (common/primitives/flash_attention.h) over H slices whose rows are
// H D floats apart and whose heads start D floats apart: no tensor is transposed. One pass over K
// and V per block of query rows and head with an online softmax, FP32 FMAs, the dots in cuBLAS's
// order and torch's scaling. No host synchronisation.
#include "gpu/vendor.h"
#include "primitives/flash_attention.h"

extern "C" void solve(const float *Q, const float *K, const float *V, float *output, int M, int N,
                      int H, int D) {
  namespace flash = kit::flash;
  const flash::Scores<> scores{flash::torch_scale(D), flash::Visibility::all()};
  flash::attention(flash::Shape{M, N, D, H}, flash::interleaved_heads(Q, K, V, output, H, H, D),
                   scores);
}
