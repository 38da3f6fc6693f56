// top_p_sampling: the CPU reference and the harness description (arguments, tolerance, cases).
//
// The judge draws the token with torch.multinomial(nucleus_probs, 1) on CUDA after
// torch.manual_seed(seed). For one sample torch takes argmax(probs / q) with q ~ Exp(1) drawn by
// exponential_ from the CUDA generator: Philox4x32-10 keyed by the seed, element k of q from
// subsequence k at offset 0 (while the nucleus has at most 256 x the GPU's resident 256-thread
// blocks, which holds for every judge case on an H100 or B200), first of its four uniforms,
// u = x * 2^-32 + 2^-33, q = -log(u) (2^-24 where u >= 1 - 2^-24). This reference does the same
// in FP32 with the nucleus in torch's order (probabilities descending, equal ones by index).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace kit::basics {
namespace {

// Philox4x32-10 (Salmon et al., as curand's Philox4_32_10): the block for a 128-bit counter and
// a 64-bit key.
struct Philox4 {
  std::uint32_t v[4];
};
Philox4 philox4x32_10(Philox4 ctr, std::uint32_t key0, std::uint32_t key1) {
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * ctr.v[0];
    const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * ctr.v[2];
    ctr = {{static_cast<std::uint32_t>(p1 >> 32) ^ ctr.v[1] ^ key0, static_cast<std::uint32_t>(p1),
            static_cast<std::uint32_t>(p0 >> 32) ^ ctr.v[3] ^ key1,
            static_cast<std::uint32_t>(p0)}};
    key0 += 0x9E3779B9u;
    key1 += 0xBB67AE85u;
  }
  return ctr;
}

// Random123's published known-answer vectors for Philox4x32-10; checked once when the problem is
// described, so every harness run fails loudly if the generator is wrong.
void check_philox_known_answers() {
  struct Known {
    Philox4 ctr;
    std::uint32_t key0, key1;
    Philox4 out;
  };
  static const Known kKnown[] = {
      {{{0u, 0u, 0u, 0u}}, 0u, 0u, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}},
      {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
       0xffffffffu,
       0xffffffffu,
       {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}},
      {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
       0xa4093822u,
       0x299f31d0u,
       {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}}};
  for (const Known &k : kKnown) {
    const Philox4 got = philox4x32_10(k.ctr, k.key0, k.key1);
    for (int w = 0; w < 4; ++w)
      if (got.v[w] != k.out.v[w]) {
        std::fprintf(stderr, "top_p_sampling: Philox4x32-10 known answer %d wrong\n", w);
        std::abort();
      }
  }
}

// The uniform u in (0, 1] that torch's CUDA generator gives element k after manual_seed(seed):
// curand_init(seed, subsequence k, offset 0), the first output of curand_uniform4.
float torch_cuda_uniform(std::int64_t seed, std::uint64_t k) {
  const std::uint64_t key = static_cast<std::uint64_t>(seed);
  const Philox4 out =
      philox4x32_10({{0u, 0u, static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32)}},
                    static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32));
  return std::fma(static_cast<float>(out.v[0]), 0x1p-32f, 0x1p-33f);
}

// torch.rand(3, 4, device="cuda") after torch.cuda.manual_seed(42), as torch 2.4 prints it (four
// decimals): the element-to-subsequence mapping and the uniform's scaling, checked once.
void check_torch_uniforms() {
  static const float kPrinted[] = {0.6130f, 0.0101f, 0.3984f, 0.0403f, 0.1563f, 0.4825f,
                                   0.7362f, 0.4060f, 0.5189f, 0.2867f, 0.2416f, 0.9228f};
  for (std::uint64_t k = 0; k < 12; ++k)
    if (std::fabs(torch_cuda_uniform(42, k) - kPrinted[k]) > 0.00005f) {
      std::fprintf(stderr, "top_p_sampling: uniform %d differs from torch's\n",
                   static_cast<int>(k));
      std::abort();
    }
}

// The Exp(1) variate torch's CUDA exponential_ gives element k of a tensor after manual_seed(seed):
// curand_init(seed, subsequence k, offset 0), the first output of curand_uniform4, then
// -log(u) with u close to 1 replaced (torch's guard against log(1) = 0).
float torch_cuda_exponential(std::int64_t seed, std::uint64_t k) {
  const float u = torch_cuda_uniform(seed, k);
  const float log_u = u >= 1.0f - 0x1p-24f ? -0x1p-24f : std::log(u);
  return -1.0f * log_u;
}

void top_p_sampling_reference(const float *logits, const float *p, const int *seed,
                              int *sampled_token, int vocab_size) {
  const std::size_t n = static_cast<std::size_t>(vocab_size);
  const float max_logit = *std::max_element(logits, logits + n);
  std::vector<float> probs(n);
  float sum = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    probs[i] = std::exp(logits[i] - max_logit);
    sum += probs[i];
  }
  for (float &x : probs)
    x /= sum;
  // Descending, equal probabilities by index (torch's sort of a 1-D CUDA tensor keeps them in
  // index order in the cases the judge generates; see README).
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return probs[a] > probs[b]; });
  // The nucleus: up to and including the first position whose running sum reaches p.
  std::size_t cutoff = n;
  float running = 0.0f;
  for (std::size_t k = 0; k < n; ++k) {
    running += probs[order[k]];
    if (running >= p[0]) {
      cutoff = k + 1;
      break;
    }
  }
  float nucleus_sum = 0.0f;
  for (std::size_t k = 0; k < cutoff; ++k)
    nucleus_sum += probs[order[k]];
  // torch.multinomial with one sample: the first position of the largest (p / sum) / q.
  std::size_t best = 0;
  float best_ratio = -1.0f;
  for (std::size_t k = 0; k < cutoff; ++k) {
    const float ratio = probs[order[k]] / nucleus_sum / torch_cuda_exponential(seed[0], k);
    if (ratio > best_ratio) {
      best_ratio = ratio;
      best = k;
    }
  }
  sampled_token[0] = order[best];
}

// torch.randn(n) * scale: the kit's standard normal generator (not torch's values), scaled.
ArrayValues scaled_normal(double scale) {
  ArrayValues base = normal();
  return {"N(0, 1) x " + std::to_string(scale),
          [fill = base.fill, scale](Case &c, std::size_t param, Rng &rng) {
            fill(c, param, rng);
            float *x = c.array<float>(param);
            for (std::size_t i = 0; i < c.count(param); ++i)
              x[i] = static_cast<float>(x[i] * scale);
          }};
}

// torch.linspace(lo, hi, n) in FP32: the first half counted up from lo, the second down from hi.
ArrayValues linspace(float lo, float hi) {
  return {"linspace", [lo, hi](Case &c, std::size_t param, Rng &) {
            float *x = c.array<float>(param);
            const std::size_t n = c.count(param);
            const float step = n > 1 ? (hi - lo) / static_cast<float>(n - 1) : 0.0f;
            for (std::size_t i = 0; i < n; ++i)
              x[i] = i < n / 2 ? lo + step * static_cast<float>(i)
                               : hi - step * static_cast<float>(n - 1 - i);
          }};
}

// Zeros with one spike: logits[0] = value.
ArrayValues spike(float value) {
  return {"zeros, [0] = " + std::to_string(value), [value](Case &c, std::size_t param, Rng &) {
            float *x = c.array<float>(param);
            std::fill(x, x + c.count(param), 0.0f);
            x[0] = value;
          }};
}

void fill_default(Case &c, Rng &rng) {
  scaled_normal(3.0).fill(c, 0, rng);
  c.array<float>(1)[0] = rng.uniform(0.5f, 0.99f);
  c.array<int>(2)[0] = static_cast<int>(rng.uniform_int(0, 1000000));
}

// Every logit equal: all probabilities tie, so the nucleus is the first tokens by index. p x n is
// kept away from a whole number, so rounding cannot move the boundary.
void fill_flat(Case &c, Rng &rng) {
  std::fill(c.array<float>(0), c.array<float>(0) + c.count(0), 0.25f);
  c.array<float>(1)[0] = 0.4321f;
  c.array<int>(2)[0] = static_cast<int>(rng.uniform_int(0, 1000000));
}

// p above 1: the running sum never reaches it, so the nucleus is the whole vocabulary (p = 1
// itself is left out: whether an FP32 running sum reaches 1 is decided by rounding); p = 0: the
// single most likely token.
void fill_p_above_one(Case &c, Rng &rng) {
  fill_default(c, rng);
  c.array<float>(1)[0] = 1.5f;
}
void fill_p_zero(Case &c, Rng &rng) {
  fill_default(c, rng);
  c.array<float>(1)[0] = 0.0f;
}
// A negative seed (torch maps it to the 64-bit key 2^64 + seed).
void fill_negative_seed(Case &c, Rng &rng) {
  fill_default(c, rng);
  c.array<int>(2)[0] = -static_cast<int>(rng.uniform_int(1, 1000000));
}

} // namespace

const Problem &top_p_sampling_problem() {
  static const Problem problem = [] {
    check_philox_known_answers();
    check_torch_uniforms();
    Problem p;
    p.name = "top_p_sampling";
    p.params = {input("logits", Elem::f32, count_of("vocab_size")),
                input("p", Elem::f32, count_one()), input("seed", Elem::i32, count_one()),
                output("sampled_token", Elem::i32, count_one()), scalar("vocab_size", 1, 200000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, top_p_sampling_reference);
    p.fill = fill_default;
    // Sizes around the warp, the 1024-thread block and the rank pass's 256-element chunks.
    add_awkward_size_tests(p, {256, 1024});
    add_tests(p, {{50000}, {100003}, {200000}});
    add_tests(p, {{1}, {33}, {5000}}, fill_flat, ",flat");
    add_tests(p, {{7}, {1025}, {50000}}, fill_p_above_one, ",p=1.5");
    add_tests(p, {{7}, {1025}, {50000}}, fill_p_zero, ",p=0");
    add_tests(p, {{100}, {50000}}, fill_negative_seed, ",negative-seed");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/60_top_p_sampling";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 0.5}), given({0.9}), given({42})});
    add_judge_functional(p, {3}, {given({1, 2, 3}), given({0.95}), given({123})});
    add_judge_functional(p, {10}, {normal(), given({0.9}), given({456})});
    add_judge_functional(p, {100}, {scaled_normal(5.0), given({0.85}), given({789})});
    add_judge_functional(p, {50}, {spike(10.0f), given({0.5}), given({111})});
    add_judge_functional(p, {500}, {scaled_normal(3.0), given({0.92}), given({222})});
    add_judge_functional(p, {200}, {linspace(-5.0f, 5.0f), given({0.8}), given({333})});
    add_judge_functional(p, {1000}, {scaled_normal(2.0), given({0.95}), given({444})});
    add_judge_functional(p, {5000}, {normal(), given({0.9}), given({555})});
    j.performance =
        judge_case(p, "performance", {50000}, {scaled_normal(3.0), given({0.9}), given({999})});
    // The logits are read a few times from L2; the floor is launch latency, so the limit is a
    // copy of the bytes read once.
    p.model = memory_bound([](const Case &c) { return 4.0 * c["vocab_size"] + 12.0; });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
