// grouped_query_attention: the CPU reference and the harness description (arguments, tolerance,
// cases). Q and output are num_q_heads x seq_len x head_dim, K and V num_kv_heads x seq_len x
// head_dim, row-major floats; query head h attends to key and value head h / (num_q_heads /
// num_kv_heads) (each key and value head shared by that many consecutive query heads):
// output[h] = softmax(Q[h] K[g]^T / sqrt(head_dim)) V[g], the softmax over all seq_len keys (no
// mask).
//
// The judge's reference is torch's FP32 expression: a batched product of Q with the repeated keys
// (cuBLAS, one FMA chain per score over ascending k), times the float 1 / sqrt(head_dim), softmax,
// and a batched product with the repeated values. The reference here forms each score exactly as
// those FP32 steps round it and takes the softmax and the weighted sum of V in double, rounding
// once. The judge's performance case (2 x 4.3 billion multiply-adds) is checked on eight whole
// sampled rows.
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// Row `row` of query head `head`, in double.
void attention_row(const float *Q, const float *K, const float *V, int head, int row,
                   int num_q_heads, int num_kv_heads, int seq_len, int head_dim,
                   std::vector<double> &out) {
  const int group = num_q_heads / num_kv_heads;
  const int kv_head = head / group;
  const std::size_t head_size = static_cast<std::size_t>(seq_len) * head_dim;
  const float *q_row = Q + head * head_size + static_cast<std::size_t>(row) * head_dim;
  const float *keys = K + kv_head * head_size;
  const float *values = V + kv_head * head_size;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(head_dim)));
  std::vector<double> weight(static_cast<std::size_t>(seq_len));
  double top = -INFINITY;
  for (int j = 0; j < seq_len; ++j) {
    const float *k_row = keys + static_cast<std::size_t>(j) * head_dim;
    float dot = 0.0f;
    for (int k = 0; k < head_dim; ++k)
      dot = std::fma(q_row[k], k_row[k], dot);
    weight[j] = dot * scale;
    top = std::max(top, weight[j]);
  }
  double total = 0.0;
  for (int j = 0; j < seq_len; ++j) {
    weight[j] = std::exp(weight[j] - top);
    total += weight[j];
  }
  out.assign(static_cast<std::size_t>(head_dim), 0.0);
  for (int j = 0; j < seq_len; ++j) {
    const double w = weight[j] / total;
    const float *v_row = values + static_cast<std::size_t>(j) * head_dim;
    for (int k = 0; k < head_dim; ++k)
      out[k] += w * v_row[k];
  }
}

void grouped_query_attention_reference(const float *Q, const float *K, const float *V,
                                       float *output, int num_q_heads, int num_kv_heads,
                                       int seq_len, int head_dim) {
  std::vector<double> row;
  for (int h = 0; h < num_q_heads; ++h)
    for (int i = 0; i < seq_len; ++i) {
      attention_row(Q, K, V, h, i, num_q_heads, num_kv_heads, seq_len, head_dim, row);
      float *out = output + (static_cast<std::size_t>(h) * seq_len + i) * head_dim;
      for (int k = 0; k < head_dim; ++k)
        out[k] = static_cast<float>(row[k]);
    }
}

// Whole rows of the output: the first row of the first head, the last row of the last head and
// 6 random (head, row) pairs.
std::vector<SampledValue> sample_rows(const Case &c, Rng &rng) {
  const int heads = static_cast<int>(c["num_q_heads"]),
            kv_heads = static_cast<int>(c["num_kv_heads"]),
            seq_len = static_cast<int>(c["seq_len"]), head_dim = static_cast<int>(c["head_dim"]);
  std::vector<std::pair<int, int>> rows = {{0, 0}, {heads - 1, seq_len - 1}};
  for (int s = 0; s < 6; ++s)
    rows.push_back({static_cast<int>(rng.uniform_int(0, heads - 1)),
                    static_cast<int>(rng.uniform_int(0, seq_len - 1))});
  std::vector<SampledValue> expected;
  std::vector<double> row;
  for (const auto &[h, i] : rows) {
    attention_row(c.array<float>(0), c.array<float>(1), c.array<float>(2), h, i, heads, kv_heads,
                  seq_len, head_dim, row);
    for (int k = 0; k < head_dim; ++k)
      expected.push_back({3, (static_cast<std::size_t>(h) * seq_len + i) * head_dim + k, row[k]});
  }
  return expected;
}

CountFn count_of_three(const char *x, const char *y, const char *z) {
  return [x, y, z](const Case &c) {
    return static_cast<std::size_t>(c[x]) * static_cast<std::size_t>(c[y]) *
           static_cast<std::size_t>(c[z]);
  };
}

// The challenge's generated cases: standard normal Q, K and V, or zeros.
std::vector<ArrayValues> challenge_values(bool zeros = false) {
  if (zeros)
    return {constant(0), constant(0), constant(0)};
  return {normal(), normal(), normal()};
}

} // namespace

const Problem &grouped_query_attention_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "grouped_query_attention";
    p.params = {input("Q", Elem::f32, count_of_three("num_q_heads", "seq_len", "head_dim")),
                input("K", Elem::f32, count_of_three("num_kv_heads", "seq_len", "head_dim")),
                input("V", Elem::f32, count_of_three("num_kv_heads", "seq_len", "head_dim")),
                output("output", Elem::f32, count_of_three("num_q_heads", "seq_len", "head_dim")),
                scalar("num_q_heads", 1, 128),
                scalar("num_kv_heads", 1, 128),
                scalar("seq_len", 1, 8192),
                scalar("head_dim", 1, 256)};
    // The challenge divides the query heads into equal groups, one per key and value head.
    p.check = [](const Case &c) -> std::string {
      if (c["num_q_heads"] % c["num_kv_heads"] != 0)
        return "num_q_heads " + std::to_string(c["num_q_heads"]) +
               " is not a multiple of num_kv_heads " + std::to_string(c["num_kv_heads"]);
      return "";
    };
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, grouped_query_attention_reference);
    // The challenge's values: standard normal (scores of order 1).
    p.fill = fill_with(p, {normal(), normal(), normal()});
    // (num_q_heads, num_kv_heads, seq_len, head_dim): one query head and one key head; groups of
    // 1, 2, 3, 4, 8 and 32 (one key head for every query head); seq_len 1, 2, 31..33, 63..65,
    // 127..129 and 255 around the query and key tiles; head_dim across the tiers (1, 4, 8, 31..33,
    // 48, 63..65, 96, 127..129, 200, 256), including sizes that are not multiples of 8 or 4.
    add_tests(p, {{1, 1, 1, 1},     {1, 1, 2, 8},     {4, 1, 1, 8},     {2, 1, 2, 4},
                  {3, 3, 31, 32},   {4, 2, 33, 33},   {6, 3, 32, 31},   {8, 2, 63, 64},
                  {8, 4, 65, 63},   {4, 4, 64, 65},   {8, 1, 127, 48},  {6, 2, 128, 96},
                  {2, 2, 129, 127}, {4, 1, 100, 128}, {3, 1, 255, 129}, {2, 1, 70, 200},
                  {4, 2, 65, 256},  {32, 1, 40, 16},  {2, 2, 300, 5},   {16, 4, 257, 128}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/80_grouped_query_attention";
    j.tolerance = {1e-4, 1e-4};
    j.example = judge_case(
        p, "example", {4, 2, 3, 4},
        {given({1,   0, 0,  1, 0, 1,   1, 0,  1,   1, 0,   0,  0, 1,  0,   1,
                1,   0, 1,  0, 0, 0,   1, 1,  -1,  0, 0.5, 0,  0, -1, 0,   0.5,
                0.5, 0, -1, 0, 0, 0.5, 0, -1, 0.5, 0, 0,   -1, 0, 0,  0.5, 0.5}),
         given({1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, -1, -1, 0, 1, 0, 0, -1, 0, 1}),
         given({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, -1, -2, -3, -4, 2, 3, 4, 5, 6, 7, 8, 9})});
    add_judge_functional(p, {4, 1, 1, 8}, challenge_values());
    add_judge_functional(p, {2, 1, 2, 4}, challenge_values());
    add_judge_functional(p, {4, 2, 4, 8}, challenge_values(true));
    add_judge_functional(p, {8, 2, 16, 32}, challenge_values());
    add_judge_functional(p, {4, 2, 32, 64}, challenge_values());
    add_judge_functional(p, {4, 2, 30, 32}, challenge_values());
    add_judge_functional(p, {6, 3, 100, 32}, challenge_values());
    add_judge_functional(p, {8, 1, 255, 64}, challenge_values());
    add_judge_functional(p, {8, 8, 64, 32}, challenge_values());
    add_judge_functional(p, {8, 2, 128, 64}, challenge_values());
    j.performance = judge_case(p, "performance", {32, 8, 1024, 128}, challenge_values());
    // Two products of seq_len x seq_len x head_dim multiply-adds per query head.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * c["seq_len"] * c["head_dim"] *
             (2.0 * c["num_q_heads"] + 2.0 * c["num_kv_heads"]);
    };
    p.model.ops = [](const Case &c) {
      return 2.0 * c["num_q_heads"] * c["seq_len"] * c["seq_len"] * c["head_dim"];
    };
    p.reference_work = p.model.ops;
    p.full_reference_limit = 2e9;
    p.sampled_reference = sample_rows;
    return p;
  }();
  return problem;
}

} // namespace kit::basics
