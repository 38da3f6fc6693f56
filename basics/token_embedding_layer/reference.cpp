// token_embedding_layer: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// Row r = b * T + t of the output: s = token_embeddings[token_ids[r]] +
// position_embeddings[position_ids[t]], formed in float as the judge's float32 reference forms
// it, then layer-normalised in double: two passes (mean, then the biased variance), each output
// rounded once. (The judge's statistics and outputs are float32.)
void token_embedding_layer_reference(const int *token_ids, const int *position_ids,
                                     const float *token_embeddings,
                                     const float *position_embeddings, const float *gamma,
                                     const float *beta, float *output, int B, int T, int V, int P,
                                     int D, float eps) {
  (void)V;
  (void)P;
  std::vector<float> s(static_cast<std::size_t>(D));
  for (long long r = 0; r < static_cast<long long>(B) * T; ++r) {
    const float *tok = token_embeddings + static_cast<std::size_t>(token_ids[r]) * D;
    const float *pos = position_embeddings + static_cast<std::size_t>(position_ids[r % T]) * D;
    double mean = 0.0;
    for (int d = 0; d < D; ++d) {
      s[d] = tok[d] + pos[d];
      mean += s[d];
    }
    mean /= D;
    double variance = 0.0;
    for (int d = 0; d < D; ++d)
      variance += (s[d] - mean) * (s[d] - mean);
    variance /= D;
    const double inv_std = 1.0 / std::sqrt(variance + eps);
    float *y = output + static_cast<std::size_t>(r) * D;
    for (int d = 0; d < D; ++d)
      y[d] = static_cast<float>(gamma[d] * ((s[d] - mean) * inv_std) + beta[d]);
  }
}

// Ids uniform over a table's rows: token ids 0..V-1, position ids 0..P-1.
ArrayValues ids_below(const char *rows) {
  return {std::string("ids 0..") + rows + "-1", [rows](Case &c, std::size_t param, Rng &rng) {
            fill_uniform(c.array<int>(param), c.count(param), 0, c[rows] - 1, rng);
          }};
}

// Every id must name a row of its table (the judge's promise; the reference and the kernel
// gather without bounds checks). Checked once the id arrays are read at their full length.
std::string check_ids(const Case &c) {
  const struct {
    std::size_t param;
    const char *rows;
    long long count;
  } tables[] = {{0, "V", c["B"] * c["T"]}, {1, "P", c["T"]}};
  for (const auto &table : tables) {
    if (c.arrays.size() <= table.param ||
        c.count(table.param) != static_cast<std::size_t>(table.count))
      continue;
    const int *ids = c.array<int>(table.param);
    for (long long i = 0; i < table.count; ++i)
      if (ids[i] < 0 || ids[i] >= c[table.rows])
        return std::string(table.param == 0 ? "token_ids" : "position_ids") + "[" +
               std::to_string(i) + "] = " + std::to_string(ids[i]) + " is outside [0, " +
               table.rows + ")";
  }
  return "";
}

} // namespace

const Problem &token_embedding_layer_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "token_embedding_layer";
    const CountFn tokens = count_of("B", "T");
    p.params = {
        input("token_ids", Elem::i32, tokens),
        input("position_ids", Elem::i32, count_of("T")),
        input("token_embeddings", Elem::f32, count_of("V", "D")),
        input("position_embeddings", Elem::f32, count_of("P", "D")),
        input("gamma", Elem::f32, count_of("D")),
        input("beta", Elem::f32, count_of("D")),
        output("output", Elem::f32,
               [tokens](const Case &c) { return tokens(c) * static_cast<std::size_t>(c["D"]); }),
        scalar("B", 1, 64),
        scalar("T", 1, 1024),
        scalar("V", 1, 50000),
        scalar("P", 1, 4096),
        scalar("D", 1, 1024),
        float_scalar("eps", 1e-10f, 1.0f)};
    p.check = check_ids;
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, token_embedding_layer_reference);
    // The challenge's default ranges: embeddings U(-1, 1), gamma U(0.5, 1.5), beta U(-0.5, 0.5).
    const auto with_ranges = [&p](ArrayValues embeddings, ArrayValues gamma, ArrayValues beta) {
      return fill_with(p, {ids_below("V"), ids_below("P"), embeddings, embeddings, gamma, beta});
    };
    p.fill = with_ranges(uniform(-1, 1), uniform(0.5, 1.5), uniform(-0.5, 0.5));
    // B x T rows of D columns (as B, T, V, P, D, eps). A warp holds 128/256/512/1024 columns on
    // NVIDIA (256/512/1024 on AMD); odd widths take the 4-byte path. Rows: 1, one warp's
    // worth, a block's (8 or 4 warps), many; tables of one row (every id 0) and large ones.
    add_tests(p, {{1, 1, 1, 1, 1, 1e-5},
                  {1, 2, 3, 2, 2, 1e-5},
                  {1, 3, 5, 3, 3, 1e-5},
                  {2, 31, 7, 31, 31, 1e-5},
                  {3, 33, 100, 40, 32, 1e-5},
                  {1, 9, 10, 9, 33, 1e-5},
                  {5, 13, 64, 13, 63, 1e-5},
                  {4, 16, 64, 16, 64, 1e-5},
                  {3, 11, 64, 20, 65, 1e-5},
                  {2, 17, 300, 17, 127, 1e-5},
                  {2, 16, 300, 16, 128, 1e-5},
                  {2, 15, 300, 15, 129, 1e-5},
                  {3, 25, 999, 25, 255, 1e-5},
                  {3, 24, 999, 24, 256, 1e-5},
                  {3, 23, 999, 23, 257, 1e-5},
                  {2, 11, 500, 11, 511, 1e-5},
                  {2, 12, 500, 12, 512, 1e-5},
                  {2, 13, 500, 13, 513, 1e-5},
                  {4, 7, 1000, 7, 767, 1e-5},
                  {4, 8, 1000, 8, 768, 1e-5},
                  {4, 9, 1000, 9, 769, 1e-5},
                  {3, 7, 2000, 7, 1023, 1e-5},
                  {3, 8, 2000, 8, 1024, 1e-5},
                  {1, 1, 1, 1, 1024, 1e-5},
                  {64, 1024, 50000, 4096, 64, 1e-5},
                  {64, 1024, 1, 1, 8, 1e-5},
                  {33, 1000, 30000, 2048, 768, 1e-5},
                  {7, 333, 5000, 512, 100, 1e-5},
                  {2, 64, 50, 64, 512, 0.5}});
    // Sums far from zero with little spread (tokens U(99.99, 100.01), positions U(-0.01, 0.01)):
    // the statistics must not lose the deviations.
    add_tests(p, {{2, 64, 100, 64, 768, 1e-5}, {1, 5, 7, 5, 1000, 1e-5}},
              fill_with(p, {ids_below("V"), ids_below("P"), uniform(99.99, 100.01),
                            uniform(-0.01, 0.01), uniform(0.5, 1.5), uniform(-0.5, 0.5)}),
              ",100+-0.01");
    // Constant rows (variance 0: every output is beta).
    add_tests(p, {{3, 20, 10, 20, 768, 1e-5}, {2, 5, 3, 5, 37, 1e-5}},
              with_ranges(constant(0.25), uniform(0.5, 1.5), uniform(-0.5, 0.5)), ",constant");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Its random ids are
    // torch.randint over the table's rows.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/106_token_embedding_layer";
    j.tolerance = {1e-4, 1e-4};
    j.example =
        judge_case(p, "example", {1, 2, 3, 2, 4, 1e-5},
                   {given({2, 0}), given({0, 1}), given({1, 2, 3, 4, 0, 1, 0, -1, 2, 0, -2, 0}),
                    given({0, 0, 0, 0, 1, 0, -1, 0}), constant(1), constant(0)});
    add_judge_functional(p, {1, 1, 1, 1, 4, 1e-5},
                         {given({0}), given({0}), given({1, 2, 3, 4}), given({0.5, -0.5, 1, -1}),
                          constant(1), constant(0)});
    add_judge_functional(
        p, {2, 3, 4, 3, 8, 1e-5},
        {integers(0, 3), integers(0, 2), constant(0), constant(0), constant(1), constant(0)});
    add_judge_functional(p, {2, 4, 5, 4, 8, 1e-5},
                         {integers(0, 4), given({0, 1, 2, 3}), uniform(-3, -0.5), uniform(-2, 2),
                          uniform(0.5, 2), uniform(-1, 1)});
    std::vector<double> same_token_per_batch;
    for (int b = 0; b < 4; ++b)
      same_token_per_batch.insert(same_token_per_batch.end(), 16, b);
    std::vector<double> positions(16);
    for (int t = 0; t < 16; ++t)
      positions[t] = t;
    add_judge_functional(p, {4, 16, 8, 16, 32, 1e-5},
                         {given(same_token_per_batch), given(positions), uniform(-1, 1),
                          uniform(-1, 1), uniform(0.5, 1.5), uniform(-0.5, 0.5)});
    const auto random_case = [&p](double B, double T, double V, double P, double D,
                                  double emb = 1.0, double gamma_lo = 0.5, double gamma_hi = 1.5,
                                  double beta = 0.5) {
      return std::pair<std::vector<double>, std::vector<ArrayValues>>{
          {B, T, V, P, D, 1e-5},
          {integers(0, V - 1), integers(0, P - 1), uniform(-emb, emb), uniform(-emb, emb),
           uniform(gamma_lo, gamma_hi), uniform(-beta, beta)}};
    };
    for (const auto &[scalars, values] :
         {random_case(8, 64, 256, 128, 64), random_case(3, 17, 100, 33, 48),
          random_case(5, 100, 1000, 255, 192), random_case(4, 128, 2048, 512, 256),
          random_case(8, 256, 5000, 512, 384, 0.3)})
      add_judge_functional(p, scalars, values);
    const auto [perf_scalars, perf_values] =
        random_case(32, 512, 30000, 2048, 768, 0.3, 0.8, 1.2, 0.1);
    j.performance = judge_case(p, "performance", perf_scalars, perf_values);
    // The gathered token rows and the output rows; the position rows (at most min(T, P)
    // distinct ones) and gamma and beta once; the ids.
    p.model = memory_bound([](const Case &c) {
      const double rows = static_cast<double>(c["B"]) * static_cast<double>(c["T"]);
      const double D = static_cast<double>(c["D"]);
      const double positions = static_cast<double>(std::min(c["T"], c["P"]));
      return 8.0 * rows * D + 4.0 * positions * D + 8.0 * D + 4.0 * rows +
             4.0 * static_cast<double>(c["T"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
