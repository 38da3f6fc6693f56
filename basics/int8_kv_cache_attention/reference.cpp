// int8_kv_cache_attention: the CPU reference and the harness description (arguments, tolerance,
// cases). One query per head attends to a cache of int8 keys and values with a float scale per
// cached position: K(h, s, d) = K_int8(h, s, d) * k_scale(h, s) (V likewise), scores
// q . K(h, s) / sqrt(head_dim), softmax over s, output(h, d) = sum over s of weight(s) V(h, s, d).
//
// The reference works in double and rounds once. The judge's is torch's FP32 (the dequantised
// cache rounded per element, two bmm calls and a softmax); at its sizes (q ~ N(0, 1), int8 values
// uniform, scales in [0.01, 0.11)) the scores are of order 10 and the outputs of order 1, so
// FP32's roundings stay near 1e-6, far inside the 1e-3 tolerance.
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kit::basics {
namespace {

void int8_kv_cache_attention_reference(const float *Q, const std::int8_t *K_int8,
                                       const std::int8_t *V_int8, const float *k_scale,
                                       const float *v_scale, float *output, int num_heads,
                                       int seq_len, int head_dim) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  std::vector<double> scores(static_cast<std::size_t>(seq_len));
  std::vector<double> out(static_cast<std::size_t>(head_dim));
  for (int h = 0; h < num_heads; ++h) {
    const float *q = Q + static_cast<std::size_t>(h) * head_dim;
    const std::size_t head = static_cast<std::size_t>(h) * seq_len;
    double top = -INFINITY;
    for (int s = 0; s < seq_len; ++s) {
      const std::int8_t *k = K_int8 + (head + s) * head_dim;
      const double ks = k_scale[head + s];
      double dot = 0.0;
      for (int d = 0; d < head_dim; ++d)
        dot += static_cast<double>(q[d]) * (k[d] * ks);
      scores[s] = dot * scale;
      top = std::max(top, scores[s]);
    }
    double total = 0.0;
    for (int s = 0; s < seq_len; ++s) {
      scores[s] = std::exp(scores[s] - top);
      total += scores[s];
    }
    std::fill(out.begin(), out.end(), 0.0);
    for (int s = 0; s < seq_len; ++s) {
      const std::int8_t *v = V_int8 + (head + s) * head_dim;
      const double weight = scores[s] / total * v_scale[head + s];
      for (int d = 0; d < head_dim; ++d)
        out[d] += weight * v[d];
    }
    for (int d = 0; d < head_dim; ++d)
      output[static_cast<std::size_t>(h) * head_dim + d] = static_cast<float>(out[d]);
  }
}

CountFn count_of_three(const char *a, const char *b, const char *c) {
  return [a, b, c](const Case &k) {
    return static_cast<std::size_t>(k[a]) * static_cast<std::size_t>(k[b]) *
           static_cast<std::size_t>(k[c]);
  };
}

// The challenge's generated cases: q ~ N(0, 1) (or zeros), cache values uniform over all 256 int8
// values (torch.randint(-128, 128)), scales U(0.01, 0.11) (rand * 0.1 + 0.01).
std::vector<ArrayValues> challenge_values(bool zero_q = false) {
  return {zero_q ? constant(0) : normal(), integers(-128, 127), integers(-128, 127),
          uniform(0.01, 0.11), uniform(0.01, 0.11)};
}

} // namespace

const Problem &int8_kv_cache_attention_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "int8_kv_cache_attention";
    p.params = {input("Q", Elem::f32, count_of("num_heads", "head_dim")),
                input("K_int8", Elem::i8, count_of_three("num_heads", "seq_len", "head_dim")),
                input("V_int8", Elem::i8, count_of_three("num_heads", "seq_len", "head_dim")),
                input("k_scale", Elem::f32, count_of("num_heads", "seq_len")),
                input("v_scale", Elem::f32, count_of("num_heads", "seq_len")),
                output("output", Elem::f32, count_of("num_heads", "head_dim")),
                scalar("num_heads", 1, 1024),
                scalar("seq_len", 1, 131072),
                scalar("head_dim", 1, 512)};
    p.tolerance = {1e-3, 1e-3};
    set_reference(p, int8_kv_cache_attention_reference);
    p.fill = fill_with(p, challenge_values());
    p.check = [](const Case &c) -> std::string {
      const double cache = static_cast<double>(c["num_heads"]) * c["seq_len"] * c["head_dim"];
      return cache <= 1.0 * (1u << 30) ? "" : "num_heads * seq_len * head_dim must be at most 2^30";
    };
    // head_dim: the 16-byte path's widths (16 to 512: 1 to 32 lanes per cached row) and the byte
    // path's (not a multiple of 16, or 48: 3 lanes); seq_len: 1, 2, 31..33, 63..65 and the tile's
    // 128 rows (head_dim 128) +- 1, several tiles, a partial last tile; heads 1 to 40.
    add_tests(p, {{1, 1, 1},      {1, 1, 16},    {1, 2, 3},      {2, 31, 16},   {3, 32, 32},
                  {1, 33, 64},    {2, 63, 128},  {1, 64, 128},   {2, 65, 128},  {1, 127, 128},
                  {3, 128, 128},  {2, 129, 128}, {4, 1000, 128}, {1, 777, 48},  {2, 300, 33},
                  {1, 257, 512},  {5, 513, 256}, {2, 100, 8},    {7, 4097, 64}, {40, 2048, 128},
                  {32, 8192, 128}});
    // Peaked softmax: scales up to 2 give scores of order 1e3, so every weight but the largest
    // underflows unless the maximum is subtracted first.
    add_tests(p, {{4, 1000, 128}, {2, 333, 64}},
              fill_with(p, {normal(), integers(-128, 127), integers(-128, 127), uniform(1, 2),
                            uniform(0.01, 0.11)}),
              ",peaked");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/96_int8_kv_cache_attention";
    j.tolerance = {1e-3, 1e-3};
    j.example = judge_case(p, "example", {1, 3, 4},
                           {given({1, 1, 1, 1}), given({10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0}),
                            given({10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120}),
                            given({0.1, 0.1, 0.1}), given({0.1, 0.1, 0.1})});
    add_judge_functional(p, {1, 1, 8}, challenge_values());
    add_judge_functional(p, {1, 2, 8}, challenge_values());
    add_judge_functional(p, {2, 4, 8}, challenge_values());
    add_judge_functional(p, {1, 8, 16}, challenge_values(true));
    add_judge_functional(p, {4, 16, 64}, challenge_values());
    add_judge_functional(p, {8, 64, 64}, challenge_values());
    add_judge_functional(p, {2, 30, 64}, challenge_values());
    add_judge_functional(p, {4, 100, 64}, challenge_values());
    add_judge_functional(p, {16, 512, 64}, challenge_values());
    add_judge_functional(p, {32, 256, 128}, challenge_values());
    j.performance = judge_case(p, "performance", {32, 8192, 128}, challenge_values());
    // Every cached byte read once, the scales and the query once, the output written once.
    p.model = memory_bound([](const Case &c) {
      const double heads = static_cast<double>(c["num_heads"]);
      const double seq = static_cast<double>(c["seq_len"]);
      const double dim = static_cast<double>(c["head_dim"]);
      return 2.0 * heads * seq * dim + 8.0 * heads * seq + 8.0 * heads * dim;
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
