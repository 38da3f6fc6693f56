// grouped_query_attention's library baseline and the judge's reference on CUDA: torch's
// expression step by step (basics/bench/torch_attention_steps.h) per key and value head: the
// group's query heads (consecutive, so one matrix of group x seq_len rows) times K[g]^T by cuBLAS,
// times the float 1 / sqrt(head_dim), torch's softmax, times V[g] by cuBLAS. K and V are read in
// place where torch repeats them; each score is the same chain over head_dim either way.
#include "bench/torch_attention_steps.h"
#include "device/library.h"
#include "harness/signature.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

struct ScaledLogit {
  float scale;
  __device__ float operator()(float dot, int, int) const { return __fmul_rn(dot, scale); }
};

void torch_steps(const float *Q, const float *K, const float *V, float *output, int num_q_heads,
                 int num_kv_heads, int seq_len, int head_dim) {
  const int group = num_q_heads / num_kv_heads;
  const std::size_t head = static_cast<std::size_t>(seq_len) * head_dim;
  const ScaledLogit logit{static_cast<float>(1.0 / std::sqrt(static_cast<double>(head_dim)))};
  for (int g = 0; g < num_kv_heads; ++g)
    torch_attention::attention(Q + g * group * head, K + g * head, V + g * head,
                               output + g * group * head, group * seq_len, seq_len, head_dim, logit,
                               seq_len);
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + softmax rows + SGEMM per K/V head (torch's steps, FP32)",
                 torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + softmax rows + SGEMM (torch's steps)", torch_steps);
}

} // namespace kit::basics
