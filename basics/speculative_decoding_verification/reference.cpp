// speculative_decoding_verification: the CPU reference and the harness description (arguments,
// tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// The row order of kernel.cu (kRowThreads there): a row of V values is cut into 512 chunks of
// ceil(V / 512) consecutive elements, and every FP32 sum that decides a token is taken in the
// order the kernel takes it (README, "Arithmetic order"), so the two agree bit for bit.
constexpr int kRowThreads = 512;

struct RowOrder {
  int v, chunk;
  explicit RowOrder(int v_) : v(v_), chunk((v_ + kRowThreads - 1) / kRowThreads) {}
  int begin(int t) const { return std::min(v, t * chunk); }
  int end(int t) const { return std::min(v, (t + 1) * chunk); }
};

// Sum of x[0 .. V): each chunk from 0 in element order, then the chunk sums in chunk order.
template <class Value> float row_sum(const RowOrder &order, Value x) {
  float total = 0.0f;
  for (int t = 0; t < kRowThreads; ++t) {
    float chunk = 0.0f;
    for (int i = order.begin(t); i < order.end(t); ++i)
      chunk += x(i);
    total += chunk;
  }
  return total;
}

// The inverse CDF of y[i] = x(i) * scale (each product rounded to FP32): the number of positions
// whose running sum is below r (searchsorted's first index whose cumulative value reaches r),
// at most V - 1. Chunk t's running sum starts from the sum of the chunks before it.
template <class Value> int inverse_cdf(const RowOrder &order, Value x, float scale, float r) {
  int below = 0;
  float before = 0.0f; // the chunks before t, each summed from 0, added in chunk order
  for (int t = 0; t < kRowThreads; ++t) {
    float running = before, chunk = 0.0f;
    for (int i = order.begin(t); i < order.end(t); ++i) {
      // Rounded before it is added, as the kernel's __fmul_rn (volatile: no contraction into a
      // fused multiply-add on hosts that have one).
      const volatile float y = x(i) * scale;
      running += y;
      chunk += y;
      below += running < r ? 1 : 0;
    }
    before += chunk;
  }
  return std::min(below, order.v - 1);
}

void speculative_decoding_verification_reference(const int *draft_tokens, const float *draft_probs,
                                                 const float *target_probs,
                                                 const float *uniform_samples, int *output_tokens,
                                                 int B, int T, int V) {
  const RowOrder order(V);
  for (int b = 0; b < B; ++b) {
    int *out = output_tokens + static_cast<std::size_t>(b) * (T + 1);
    const float *u = uniform_samples + static_cast<std::size_t>(b) * (T + 1);
    std::fill(out, out + T + 1, 0);
    int rejected = T;
    for (int i = 0; i < T; ++i) {
      const int tok = draft_tokens[static_cast<std::size_t>(b) * T + i];
      const std::size_t row = (static_cast<std::size_t>(b) * T + i) * V;
      // The judge's acceptance test in double (Python floats): min(1, q / p) against u.
      const double p = draft_probs[row + tok], q = target_probs[row + tok];
      const double ratio = q / p;
      const double alpha = ratio < 1.0 ? ratio : 1.0; // NaN or +inf: 1, as Python's min(1.0, x)
      if (static_cast<double>(u[i]) < alpha) {
        out[i] = tok;
        continue;
      }
      rejected = i;
      break;
    }
    const float r = u[T];
    if (rejected < T) {
      const std::size_t row = (static_cast<std::size_t>(b) * T + rejected) * V;
      const auto residual = [&](int k) {
        return std::max(target_probs[row + k] - draft_probs[row + k], 0.0f);
      };
      const float total = row_sum(order, residual);
      // torch divides by the Python float total as a multiplication by its FP32 reciprocal; an
      // empty residual becomes ones(V) / V, the same with 1 / V.
      if (total > 0.0f)
        out[rejected] = inverse_cdf(order, residual, 1.0f / total, r);
      else
        out[rejected] = inverse_cdf(
            order, [](int) { return 1.0f; }, 1.0f / static_cast<float>(V), r);
    } else {
      const float *last = target_probs + (static_cast<std::size_t>(b) * T + T - 1) * V;
      out[T] = inverse_cdf(
          order, [&](int k) { return last[k]; }, 1.0f, r);
    }
  }
}

// ---- generators, after the challenge's three kinds of case ----

struct Shape {
  int B, T, V;
  explicit Shape(const Case &c)
      : B(static_cast<int>(c["B"])), T(static_cast<int>(c["T"])), V(static_cast<int>(c["V"])) {}
  std::size_t rows() const { return static_cast<std::size_t>(B) * T; }
};

// Sparse rows: K = min(64, V) distinct tokens with random weights summing to 1, the rest 0 (the
// challenge's choice, which keeps the residual to at most 2K nonzero entries). Returns each row's
// active tokens.
std::vector<std::vector<int>> sparse_rows(float *probs, const Shape &s, Rng &rng) {
  const int k = std::min(64, s.V);
  std::vector<std::vector<int>> active(s.rows());
  std::vector<int> perm(static_cast<std::size_t>(s.V));
  for (std::size_t r = 0; r < s.rows(); ++r) {
    float *row = probs + r * s.V;
    std::fill(row, row + s.V, 0.0f);
    std::iota(perm.begin(), perm.end(), 0);
    for (int j = 0; j < k; ++j) // partial Fisher-Yates: the first k of a random permutation
      std::swap(perm[static_cast<std::size_t>(j)],
                perm[static_cast<std::size_t>(rng.uniform_int(j, s.V - 1))]);
    std::vector<float> w(static_cast<std::size_t>(k));
    float sum = 0.0f;
    for (float &x : w)
      sum += (x = rng.uniform(0.0f, 1.0f));
    for (int j = 0; j < k; ++j)
      row[perm[static_cast<std::size_t>(j)]] = w[static_cast<std::size_t>(j)] / sum;
    active[r].assign(perm.begin(), perm.begin() + k);
  }
  return active;
}

// A draft token per row, drawn from the row's active tokens in proportion to their probability.
void draw_tokens(int *tokens, const float *probs, const std::vector<std::vector<int>> &active,
                 const Shape &s, Rng &rng) {
  for (std::size_t r = 0; r < s.rows(); ++r) {
    const float *row = probs + r * s.V;
    double total = 0.0;
    for (int t : active[r])
      total += row[t];
    double pick = rng.unit() * total;
    int chosen = active[r].back();
    for (int t : active[r]) {
      pick -= row[t];
      if (pick < 0.0 && row[t] > 0.0f) {
        chosen = t;
        break;
      }
    }
    tokens[r] = chosen;
  }
}

float *draft_probs_of(Case &c) { return c.array<float>(1); }
float *target_probs_of(Case &c) { return c.array<float>(2); }
float *uniforms_of(Case &c) { return c.array<float>(3); }

// Mixed acceptance: draft and target sparse and independent, uniforms U(0, 1).
void fill_mixed(Case &c, Rng &rng) {
  const Shape s(c);
  const auto active = sparse_rows(draft_probs_of(c), s, rng);
  sparse_rows(target_probs_of(c), s, rng);
  draw_tokens(c.array<int>(0), draft_probs_of(c), active, s, rng);
  fill_uniform(uniforms_of(c), c.count(3), 0.0f, 1.0f, rng);
}

// Every draft token accepted: target = draft (ratio 1), acceptance uniforms 0; the bonus token is
// drawn from the last target row with the row's last uniform.
void fill_accept_all(Case &c, Rng &rng) {
  const Shape s(c);
  const auto active = sparse_rows(draft_probs_of(c), s, rng);
  std::copy(draft_probs_of(c), draft_probs_of(c) + c.count(1), target_probs_of(c));
  draw_tokens(c.array<int>(0), draft_probs_of(c), active, s, rng);
  float *u = uniforms_of(c);
  for (int b = 0; b < s.B; ++b)
    for (int i = 0; i <= s.T; ++i)
      u[static_cast<std::size_t>(b) * (s.T + 1) + i] = i < s.T ? 0.0f : rng.uniform(0.0f, 1.0f);
}

// Dense rows: a softmax of normal logits (every token has some probability), so the residual and
// its CDF cover the whole row.
void dense_rows(float *probs, const Shape &s, Rng &rng) {
  std::vector<float> logits(static_cast<std::size_t>(s.V));
  for (std::size_t r = 0; r < s.rows(); ++r) {
    float *row = probs + r * s.V;
    float max_logit = -INFINITY;
    for (float &x : logits) {
      const double u1 = 1.0 - rng.unit(), u2 = rng.unit();
      x = static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
      max_logit = std::max(max_logit, x);
    }
    float sum = 0.0f;
    for (int k = 0; k < s.V; ++k)
      sum += (row[k] = std::exp(logits[static_cast<std::size_t>(k)] - max_logit));
    for (int k = 0; k < s.V; ++k)
      row[k] /= sum;
  }
}

// Position 0 of every sequence rejected: dense rows, then at position 0 the draft puts 0.9 on its
// token and 0.1 spread over the rest, the target is uniform (1 / V), and the uniform sample is
// 0.99; later positions are dense and random.
void fill_reject_first(Case &c, Rng &rng) {
  const Shape s(c);
  float *draft = draft_probs_of(c), *target = target_probs_of(c);
  dense_rows(draft, s, rng);
  dense_rows(target, s, rng);
  int *tokens = c.array<int>(0);
  for (std::size_t r = 0; r < s.rows(); ++r)
    tokens[r] = static_cast<int>(rng.uniform_int(0, s.V - 1));
  for (int b = 0; b < s.B; ++b) {
    const std::size_t row = static_cast<std::size_t>(b) * s.T * s.V;
    const int tok = tokens[static_cast<std::size_t>(b) * s.T];
    float sum = 0.0f;
    for (int k = 0; k < s.V; ++k)
      sum += (draft[row + k] = k == tok ? 0.9f : 0.1f / static_cast<float>(std::max(s.V - 1, 1)));
    for (int k = 0; k < s.V; ++k) {
      draft[row + k] /= sum;
      target[row + k] = 1.0f / static_cast<float>(s.V);
    }
  }
  float *u = uniforms_of(c);
  fill_uniform(u, c.count(3), 0.0f, 1.0f, rng);
  for (int b = 0; b < s.B; ++b)
    u[static_cast<std::size_t>(b) * (s.T + 1)] = 0.99f;
}

// Dense rows with U(0, 1) acceptance samples: rejections whose residual spans the whole row.
void fill_dense(Case &c, Rng &rng) {
  const Shape s(c);
  dense_rows(draft_probs_of(c), s, rng);
  dense_rows(target_probs_of(c), s, rng);
  int *tokens = c.array<int>(0);
  for (std::size_t r = 0; r < s.rows(); ++r)
    tokens[r] = static_cast<int>(rng.uniform_int(0, s.V - 1));
  fill_uniform(uniforms_of(c), c.count(3), 0.0f, 1.0f, rng);
}

// Rejections with an empty residual (target <= draft everywhere: target = draft / 2, normalised
// or not does not matter to the rule) and a draft token whose ratio is 1/2 against u = 0.75:
// the resample is uniform over the vocabulary.
void fill_empty_residual(Case &c, Rng &rng) {
  const Shape s(c);
  const auto active = sparse_rows(draft_probs_of(c), s, rng);
  float *draft = draft_probs_of(c), *target = target_probs_of(c);
  for (std::size_t k = 0; k < c.count(1); ++k)
    target[k] = draft[k] * 0.5f;
  draw_tokens(c.array<int>(0), draft, active, s, rng);
  float *u = uniforms_of(c);
  fill_uniform(u, c.count(3), 0.0f, 1.0f, rng);
  for (int b = 0; b < s.B; ++b)
    u[static_cast<std::size_t>(b) * (s.T + 1)] = 0.75f;
}

Recipe judge_recipe(const std::string &kind, std::vector<double> scalars, FillFn fill,
                    const std::string &what) {
  const auto text = [](double x) { return std::to_string(static_cast<long long>(x)); };
  const std::string label = "judge:" + kind + " (B=" + text(scalars[0]) + ",T=" + text(scalars[1]) +
                            ",V=" + text(scalars[2]) + ", " + what + ")";
  return {label, std::move(scalars), std::move(fill)};
}

} // namespace

const Problem &speculative_decoding_verification_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "speculative_decoding_verification";
    const auto rows_of_v = [](const Case &c) {
      return static_cast<std::size_t>(c["B"]) * static_cast<std::size_t>(c["T"]) *
             static_cast<std::size_t>(c["V"]);
    };
    const auto per_sequence = [](const Case &c) {
      return static_cast<std::size_t>(c["B"]) * (static_cast<std::size_t>(c["T"]) + 1);
    };
    p.params = {input("draft_tokens", Elem::i32, count_of("B", "T")),
                input("draft_probs", Elem::f32, rows_of_v),
                input("target_probs", Elem::f32, rows_of_v),
                input("uniform_samples", Elem::f32, per_sequence),
                output("output_tokens", Elem::i32, per_sequence),
                scalar("B", 1, 256),
                scalar("T", 1, 16),
                scalar("V", 1, 131072)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, speculative_decoding_verification_reference);
    p.fill = fill_mixed;
    // Rows of V around the 512-chunk row order (chunks of 1 and 2 elements, a ragged last chunk),
    // T from 1 to 16, a batch larger than the GPU's multiprocessors.
    add_tests(p, {{1, 1, 1},
                  {1, 1, 2},
                  {3, 2, 31},
                  {2, 3, 33},
                  {4, 8, 511},
                  {4, 8, 512},
                  {4, 8, 513},
                  {3, 16, 1025},
                  {200, 4, 64},
                  {8, 8, 32768},
                  {2, 4, 100003}});
    add_tests(p, {{1, 1, 1}, {5, 3, 65}, {16, 8, 4097}}, fill_accept_all, ",accept-all");
    add_tests(p, {{1, 1, 2}, {4, 4, 513}, {8, 8, 32768}}, fill_reject_first, ",reject-first");
    add_tests(p, {{3, 5, 1000}, {16, 8, 32768}}, fill_dense, ",dense");
    add_tests(p, {{2, 2, 7}, {4, 8, 5000}}, fill_empty_residual, ",empty-residual");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times (its generators' shapes; the
    // values are the kit's draws).
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/87_speculative_decoding_verification";
    j.tolerance = {1e-5, 1e-5};
    j.example =
        judge_case(p, "example", {1, 3, 4},
                   {given({1, 2, 0}),
                    given({0.10, 0.60, 0.20, 0.10, 0.10, 0.20, 0.50, 0.20, 0.40, 0.20, 0.20, 0.20}),
                    given({0.10, 0.50, 0.20, 0.20, 0.30, 0.20, 0.20, 0.30, 0.30, 0.20, 0.30, 0.20}),
                    given({0.50, 0.70, 0.30, 0.90})});
    const std::vector<std::pair<std::vector<double>, int>> functional = {
        {{1, 1, 4}, 0},  {{1, 1, 4}, 1},   {{1, 2, 8}, 0},  {{2, 4, 8}, 1},   {{4, 4, 16}, 0},
        {{4, 8, 64}, 2}, {{8, 8, 256}, 2}, {{4, 6, 30}, 2}, {{8, 8, 128}, 1}, {{16, 8, 1000}, 2}};
    const FillFn kinds[] = {fill_reject_first, fill_accept_all, fill_mixed};
    const char *kind_names[] = {"first position rejected", "all accepted", "sparse, mixed"};
    for (const auto &[scalars, kind] : functional)
      j.functional.push_back(judge_recipe("functional-" + std::to_string(j.functional.size() + 1),
                                          scalars, kinds[kind], kind_names[kind]));
    j.performance = judge_recipe("performance", {64, 8, 32768}, fill_mixed, "sparse, mixed");
    // Reads the decisive probabilities and one or two rows of V per sequence (the residual's two
    // rows, or the bonus row); the rows are read three times, from cache after the first.
    p.model = memory_bound([](const Case &c) {
      return 8.0 * c["B"] * c["V"] + 8.0 * c["B"] * c["T"] + 8.0 * c["B"] * (c["T"] + 1);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
