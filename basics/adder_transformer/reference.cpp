// adder_transformer: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include "model.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace kit::basics {
namespace {

using namespace adder_model;

// Float operations rounded on their own: the volatile result keeps a compiler from fusing a
// product into a following sum.
float mul(float a, float b) {
  const volatile float r = a * b;
  return r;
}
float add(float a, float b) {
  const volatile float r = a + b;
  return r;
}
float sub(float a, float b) {
  const volatile float r = a - b;
  return r;
}
float div(float a, float b) {
  const volatile float r = a / b;
  return r;
}

void unit_rms_norm(float &a, float &b) {
  const float r = 1.0f / std::sqrt(add(mul(add(mul(a, a), mul(b, b)), 0.5f), kNormEpsilon));
  a = mul(a, r);
  b = mul(b, r);
}

float silu(float x) { return div(x, add(1.0f, std::exp(-x))); }

// The judge's model, step by step in float32 as its tensor expression rounds it; only the last
// position's logits are formed (the others never reach the output). The one difference from the
// judge's arithmetic: sums of the attention (a float32 matrix product there) are taken in
// position order here.
void adder_transformer_reference(const int *prompts, float *output, const float *weights,
                                 int batch_size) {
  const float omega = rope_omega(), scale = attention_scale();
  const float *w = weights;
  float embed0[kVocabulary], embed1[kVocabulary], query0[kVocabulary], query1[kVocabulary],
      key0[kVocabulary], value0[kVocabulary];
  for (int d = 0; d < kVocabulary; ++d) {
    const float digit = static_cast<float>(d);
    embed0[d] = sub(w[kEmbed], mul(mul(w[kEmbed + 1], digit), digit));
    embed1[d] = -digit;
    float h0 = embed0[d], h1 = embed1[d];
    unit_rms_norm(h0, h1);
    float q0 = mul(h0, w[kQuery]), q1 = mul(h0, w[kQuery + 1]);
    unit_rms_norm(q0, q1);
    query0[d] = q0;
    query1[d] = q1;
    float k0 = h0, k1 = 0.0f;
    unit_rms_norm(k0, k1);
    key0[d] = k0;
    value0[d] = mul(h1, w[kValue]);
  }
  float cosine[kLongestInput], sine[kLongestInput];
  for (int j = 0; j < kLongestInput; ++j) {
    const float angle = mul(static_cast<float>(j), omega);
    cosine[j] = std::cos(angle);
    sine[j] = std::sin(angle);
  }
  const float gate_a = w[kGate], gate_c = w[kGate + 1];
  const float gate_a1 = sub(gate_a, div(gate_c, kEmbedConstant));
  std::vector<int> tokens(kPromptLength + kOutputDigits);
  std::vector<float> scores(kLongestInput);
  for (int b = 0; b < batch_size; ++b) {
    for (int i = 0; i < kPromptLength; ++i)
      tokens[i] = prompts[static_cast<std::size_t>(b) * kPromptLength + i];
    float *out = output + static_cast<std::size_t>(b) * kOutputDigits * kVocabulary;
    for (int step = 0; step < kOutputDigits; ++step) {
      const int last = kPromptLength + step - 1;
      const int token = tokens[last];
      const float c = cosine[last], s = sine[last];
      const float rq0 = sub(mul(query0[token], c), mul(query1[token], s));
      const float rq1 = add(mul(query0[token], s), mul(query1[token], c));
      float top = 0.0f;
      for (int j = 0; j <= last; ++j) {
        const float k = key0[tokens[j]];
        scores[j] = mul(add(mul(rq0, mul(k, cosine[j])), mul(rq1, mul(k, sine[j]))), scale);
        top = j == 0 ? scores[j] : std::fmax(top, scores[j]);
      }
      float sum = 0.0f;
      for (int j = 0; j <= last; ++j) {
        scores[j] = std::exp(sub(scores[j], top));
        sum = add(sum, scores[j]);
      }
      float attention = 0.0f;
      for (int j = 0; j <= last; ++j)
        attention = add(attention, mul(div(scores[j], sum), value0[tokens[j]]));
      const float h0 = embed0[token];
      float h1 = add(embed1[token], attention);
      float n0 = h0, n1 = h1;
      unit_rms_norm(n0, n1);
      const float g0 = add(mul(n0, gate_a), mul(n1, gate_c));
      const float g1 = add(mul(n0, gate_a1), mul(n1, gate_c));
      h1 = add(h1, mul(w[kCarry], sub(mul(silu(g1), n0), mul(silu(g0), n0))));
      const float root = std::sqrt(add(mul(add(mul(h0, h0), mul(h1, h1)), 0.5f), kNormEpsilon));
      const float f0 = mul(div(h0, root), w[kFinalNorm]);
      const float f1 = mul(div(h1, root), w[kFinalNorm + 1]);
      int best = 0;
      for (int d = 0; d < kVocabulary; ++d) {
        out[step * kVocabulary + d] = add(mul(f0, embed0[d]), mul(f1, embed1[d]));
        if (out[step * kVocabulary + d] > out[step * kVocabulary + best])
          best = d;
      }
      tokens[last + 1] = best;
    }
  }
}

// The judge's hand-set weights (its formulas in double, each rounded to float).
std::vector<double> judge_weights() {
  const double norm = std::sqrt(2.0), digit_scale = 1000.0 / norm;
  const double omega = 2.0 * 3.14159265358979323846 / 19.0, phi = omega * (10.0 + 0.3);
  const double carry_alpha = 256.0 / norm;
  return {1000.0,
          1e-3,
          std::cos(phi),
          -std::sin(phi),
          -22.0 * digit_scale,
          carry_alpha * (-94.0) / norm,
          carry_alpha * digit_scale,
          (100.0 / carry_alpha) * (1.0 / norm),
          (0.1 / 1e-3) / norm,
          -(digit_scale / 50.0)};
}

// The prompt of a + b: 0, a's ten digits from the least significant, nine 0s, b's ten digits, 0.
void encode(int *prompt, unsigned long long a, unsigned long long b) {
  for (int i = 0; i < kPromptLength; ++i)
    prompt[i] = 0;
  for (int i = 0; i < 10; ++i, a /= 10, b /= 10) {
    prompt[1 + i] = static_cast<int>(a % 10);
    prompt[20 + i] = static_cast<int>(b % 10);
  }
}

// Prompts of the given pairs, repeated to fill the batch.
ArrayValues pairs(std::vector<std::pair<unsigned long long, unsigned long long>> list) {
  return {"given pairs", [list](Case &c, std::size_t param, Rng &) {
            int *prompts = c.array<int>(param);
            for (std::size_t p = 0; p < c.count(param) / kPromptLength; ++p)
              encode(prompts + p * kPromptLength, list[p % list.size()].first,
                     list[p % list.size()].second);
          }};
}

// Prompts of pairs with both numbers uniform in [0, 10^10) (the judge's randint(0, 10**10)).
ArrayValues random_pairs() {
  return {"random 10-digit pairs", [](Case &c, std::size_t param, Rng &rng) {
            int *prompts = c.array<int>(param);
            const unsigned long long limit = 10000000000ULL;
            for (std::size_t p = 0; p < c.count(param) / kPromptLength; ++p) {
              const unsigned long long a = rng.next() % limit, b = rng.next() % limit;
              encode(prompts + p * kPromptLength, a, b);
            }
          }};
}

// Pairs whose sum carries through every digit: 10^k - 1 + 1 and all nines.
ArrayValues carry_pairs() {
  return pairs({{9999999999ULL, 1},
                {9999999999ULL, 9999999999ULL},
                {999999999ULL, 1},
                {5000000000ULL, 5000000000ULL},
                {1, 9999999999ULL},
                {4999999999ULL, 5000000001ULL},
                {0, 9999999999ULL}});
}

} // namespace

const Problem &adder_transformer_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "adder_transformer";
    p.params = {
        input("prompts", Elem::i32,
              [](const Case &c) { return static_cast<std::size_t>(c["batch_size"]) * 31; }),
        output("output", Elem::f32,
               [](const Case &c) { return static_cast<std::size_t>(c["batch_size"]) * 110; }),
        input("weights", Elem::f32, [](const Case &) { return std::size_t{10}; }),
        scalar("batch_size", 1, 1000000)};
    p.tolerance = {1e-2, 1e-2};
    set_reference(p, adder_transformer_reference);
    const ArrayValues weights = given(judge_weights());
    p.fill = fill_with(p, {random_pairs(), weights});
    // A block holds 64 prompts: batches around one and two blocks, the judge's sizes, larger.
    add_tests(p, {{1}, {2}, {31}, {63}, {64}, {65}, {127}, {129}, {1000}, {100000}, {250001}});
    add_tests(p, {{7}, {65}}, fill_with(p, {carry_pairs(), weights}), ",carries");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order (the random ones from the same distribution) and
    // the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/76_adder_transformer";
    j.tolerance = {1e-2, 1e-2};
    j.example = judge_case(p, "example", {2}, {pairs({{3, 5}, {99, 1}}), weights});
    add_judge_functional(p, {1}, {pairs({{0, 0}}), weights});
    add_judge_functional(p, {1}, {pairs({{9999999999ULL, 1}}), weights});
    add_judge_functional(p, {2}, {pairs({{1, 2}, {3, 4}}), weights});
    for (const int batch : {16, 64, 30, 100, 1000})
      add_judge_functional(p, {static_cast<double>(batch)}, {random_pairs(), weights});
    add_judge_functional(p, {8}, {pairs({{0, 0}}), weights});
    add_judge_functional(p, {4}, {pairs({{9999999999ULL, 9999999999ULL}}), weights});
    j.performance = judge_case(p, "performance", {100000}, {random_pairs(), weights});
    // The floor: the prompts read (124 bytes each) and the logits written (440 bytes each). The
    // call does about 400 attention terms per prompt (11 steps over 31..41 positions).
    p.model =
        memory_bound([](const Case &c) { return 564.0 * static_cast<double>(c["batch_size"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
