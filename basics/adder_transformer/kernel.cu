// adder_transformer: greedy decoding of the judge's one-layer, 10-weight transformer that adds
// two 10-digit numbers (LeetGPU signature, device pointers). Each of the batch_size prompts is 31
// tokens; 11 times, the model runs on the sequence so far, the logits of its last position (10
// floats) go to output[b][step], and their argmax (the first on a tie) is appended.
//
// Only the last position's logits are used, and the model has one layer, so a step needs the
// attention of the last position over every position and then that position's MLP and output:
//  - per token (10 digits): the embedding (w0 - w1 d^2, -d), its unit RMS norm (h0, h1), the
//    query (h0 q0, h0 q1) and the key (h0, 0) each unit-RMS-normed, the value h1 v;
//  - per position j: cos and sin of j omega (the rotary angle);
//  - per step: the rotated query of the last token; for every j the score (q . k_j rotated) times
//    the scale, their softmax, the attention output (sum of p_j v_j) added to the last token's
//    second embedding component, the unit RMS norm, the gated SiLU MLP's carry term, the final
//    RMS norm with its weights and the 10 logits (h . e(d)).
// Every float operation is the judge's float32 tensor operation, rounded on its own (no fused
// multiply-add; rsqrtf, sqrtf, expf, cosf, sinf as torch's CUDA kernels call them): the argmax
// must agree with the judge's, and the logits' top two are as close as 4e-7 of their size.
//
// One thread per prompt, 64 per block. The block stages its prompts through shared memory (one
// coalesced read), keeps each sequence there as bytes, and stages its whole output (64 x 110
// floats, contiguous in `output`) in shared memory, written out coalesced at the end: a thread's
// own 10 logits per step are 40 bytes 440 bytes apart from the next thread's, which written
// directly would cost a 32-byte L2 transaction per 4 bytes. The token and position tables are
// built once per block. The softmax takes three passes over the positions (maximum, sum,
// weighted values), recomputing each score rather than keeping them, to leave shared memory to
// the output.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "model.h"

#include <cstddef>

namespace {

using namespace adder_model;

constexpr int kThreads = 64;
constexpr int kOutputFloats = kOutputDigits * kVocabulary; // 110 per prompt
constexpr int kSequenceBytes = 44; // >= 41 tokens; 11 words apart: no bank conflicts

static_assert(kThreads % 64 == 0, "block sizes are multiples of 64 (AMD wave64)");

struct Constants {
  float omega;
  float scale;
};

// x * rsqrt(mean(x^2) + eps) over the pair (torch's mean of two floats: their sum halved).
__device__ __forceinline__ void unit_rms_norm(float &a, float &b) {
  const float mean = __fmul_rn(__fadd_rn(__fmul_rn(a, a), __fmul_rn(b, b)), 0.5f);
  const float r = rsqrtf(__fadd_rn(mean, kNormEpsilon));
  a = __fmul_rn(a, r);
  b = __fmul_rn(b, r);
}

__device__ __forceinline__ float silu(float x) { return __fdiv_rn(x, __fadd_rn(1.0f, expf(-x))); }

__global__ void __launch_bounds__(kThreads)
    add_by_transformer(const int *__restrict__ prompts, float *__restrict__ output,
                       const float *__restrict__ weights, int batch, Constants constants) {
  __shared__ float w[kWeights];
  __shared__ float embed0[kVocabulary], embed1[kVocabulary]; // e(d)
  __shared__ float query0[kVocabulary], query1[kVocabulary]; // normed query per token
  __shared__ float key0[kVocabulary];                        // normed key (its second part is 0)
  __shared__ float value0[kVocabulary];                      // value (its second part is 0)
  __shared__ float cosine[kLongestInput], sine[kLongestInput];
  __shared__ unsigned char sequence[kThreads][kSequenceBytes];
  __shared__ float staged[kThreads * kOutputFloats];

  const int thread = static_cast<int>(threadIdx.x);
  const long long first = static_cast<long long>(blockIdx.x) * kThreads;
  const int prompts_here = static_cast<int>(min(static_cast<long long>(kThreads), batch - first));

  if (thread < kWeights)
    w[thread] = weights[thread];
  // The block's prompts are contiguous: read them coalesced, keep them as bytes.
  const int *block_prompts = prompts + first * kPromptLength;
  for (int e = thread; e < prompts_here * kPromptLength; e += kThreads)
    sequence[e / kPromptLength][e % kPromptLength] = static_cast<unsigned char>(block_prompts[e]);
  __syncthreads();
  if (thread < kVocabulary) {
    const float d = static_cast<float>(thread);
    const float e0 = __fsub_rn(w[kEmbed], __fmul_rn(__fmul_rn(w[kEmbed + 1], d), d));
    const float e1 = -d;
    embed0[thread] = e0;
    embed1[thread] = e1;
    float h0 = e0, h1 = e1;
    unit_rms_norm(h0, h1);
    float q0 = __fmul_rn(h0, w[kQuery]), q1 = __fmul_rn(h0, w[kQuery + 1]);
    unit_rms_norm(q0, q1);
    query0[thread] = q0;
    query1[thread] = q1;
    float k0 = h0, k1 = 0.0f;
    unit_rms_norm(k0, k1);
    key0[thread] = k0;
    value0[thread] = __fmul_rn(h1, w[kValue]);
  }
  for (int j = thread; j < kLongestInput; j += kThreads) {
    const float angle = __fmul_rn(static_cast<float>(j), constants.omega);
    cosine[j] = cosf(angle);
    sine[j] = sinf(angle);
  }
  __syncthreads();

  if (thread < prompts_here) {
    unsigned char *tokens = sequence[thread];
    float *out = staged + thread * kOutputFloats;
    const float gate_a = w[kGate], gate_c = w[kGate + 1];
    const float gate_a1 = __fsub_rn(gate_a, __fdiv_rn(gate_c, kEmbedConstant));
    for (int step = 0; step < kOutputDigits; ++step) {
      const int last = kPromptLength + step - 1; // the position whose logits are wanted
      const int token = tokens[last];
      // The rotated query of the last position.
      const float c = cosine[last], s = sine[last];
      const float q0 = query0[token], q1 = query1[token];
      const float rq0 = __fsub_rn(__fmul_rn(q0, c), __fmul_rn(q1, s));
      const float rq1 = __fadd_rn(__fmul_rn(q0, s), __fmul_rn(q1, c));
      // Score of position j: (rq . (k cos_j, k sin_j)) * scale (k's second part is 0, so the
      // rotated key is exactly (k cos, k sin)).
      const auto score = [&](int j) {
        const float k = key0[tokens[j]];
        const float dot = __fadd_rn(__fmul_rn(rq0, __fmul_rn(k, cosine[j])),
                                    __fmul_rn(rq1, __fmul_rn(k, sine[j])));
        return __fmul_rn(dot, constants.scale);
      };
      float top = score(0);
      for (int j = 1; j <= last; ++j)
        top = fmaxf(top, score(j));
      float sum = 0.0f;
      for (int j = 0; j <= last; ++j)
        sum = __fadd_rn(sum, expf(__fsub_rn(score(j), top)));
      float attention = 0.0f;
      for (int j = 0; j <= last; ++j) {
        const float p = __fdiv_rn(expf(__fsub_rn(score(j), top)), sum);
        attention = __fadd_rn(attention, __fmul_rn(p, value0[tokens[j]]));
      }
      // Residual, then the gated MLP's carry term on the second component.
      const float h0 = embed0[token];
      float h1 = __fadd_rn(embed1[token], attention);
      float n0 = h0, n1 = h1;
      unit_rms_norm(n0, n1);
      const float g0 = __fadd_rn(__fmul_rn(n0, gate_a), __fmul_rn(n1, gate_c));
      const float g1 = __fadd_rn(__fmul_rn(n0, gate_a1), __fmul_rn(n1, gate_c));
      const float mix0 = __fmul_rn(silu(g0), n0);
      const float mix1 = __fmul_rn(silu(g1), n0);
      h1 = __fadd_rn(h1, __fmul_rn(w[kCarry], __fsub_rn(mix1, mix0)));
      // Final RMS norm (divided by the root, then the weights) and the tied output projection.
      const float root = sqrtf(__fadd_rn(
          __fmul_rn(__fadd_rn(__fmul_rn(h0, h0), __fmul_rn(h1, h1)), 0.5f), kNormEpsilon));
      const float f0 = __fmul_rn(__fdiv_rn(h0, root), w[kFinalNorm]);
      const float f1 = __fmul_rn(__fdiv_rn(h1, root), w[kFinalNorm + 1]);
      int best = 0;
      float best_logit = 0.0f;
      for (int d = 0; d < kVocabulary; ++d) {
        const float logit = __fadd_rn(__fmul_rn(f0, embed0[d]), __fmul_rn(f1, embed1[d]));
        out[step * kVocabulary + d] = logit;
        if (d == 0 || logit > best_logit) {
          best_logit = logit;
          best = d;
        }
      }
      if (step + 1 < kOutputDigits)
        tokens[last + 1] = static_cast<unsigned char>(best);
    }
  }
  __syncthreads();
  // The block's outputs are contiguous: write them coalesced.
  float *block_output = output + first * kOutputFloats;
  for (int e = thread; e < prompts_here * kOutputFloats; e += kThreads)
    block_output[e] = staged[e];
}

} // namespace

extern "C" void solve(const int *prompts, float *output, const float *weights, int batch_size) {
  if (batch_size <= 0)
    return;
  static const Constants constants{rope_omega(), attention_scale()};
  const unsigned blocks = static_cast<unsigned>((batch_size + kThreads - 1) / kThreads);
  add_by_transformer<<<blocks, kThreads>>>(prompts, output, weights, batch_size, constants);
  GPU_CHECK_LAUNCH("add_by_transformer");
}
