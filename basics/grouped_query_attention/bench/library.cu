// grouped_query_attention's library baseline and the judge's reference on CUDA: torch's
// expression step by step (basics/bench/cublas_attention.h) per key and value head: the
// group's query heads (consecutive, so one matrix of group x seq_len rows) times K[g]^T by cuBLAS,
// times the float 1 / sqrt(head_dim), torch's softmax, times V[g] by cuBLAS. K and V are read in
// place where torch repeats them; each score is the same chain over head_dim either way.
#include "bench/cublas_attention.h"
#include "device/library.h"
#include "harness/signature.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

// The query heads that share a K/V head are consecutive M x d blocks of Q, so each group's scores
// are one product of (group * seq_len) query rows with its K/V head.
void torch_steps(const float *Q, const float *K, const float *V, float *output, int num_q_heads,
                 int num_kv_heads, int seq_len, int head_dim) {
  const int group = num_q_heads / num_kv_heads;
  kit::flash::Scores<> scores{};
  scores.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(head_dim)));
  cublas_attention(kit::flash::Shape{group * seq_len, seq_len, head_dim, num_kv_heads},
                   kit::flash::head_major(Q, K, V, output, num_kv_heads, num_kv_heads,
                                          group * seq_len, seq_len, head_dim),
                   scores);
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
