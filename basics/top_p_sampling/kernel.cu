// top_p_sampling: one token drawn from the smallest set of most likely tokens whose probabilities
// reach p, as the judge's torch.multinomial draws it after torch.manual_seed(seed) (LeetGPU
// signature, device pointers).
//
// torch.multinomial with one sample is argmax(probs / q) over the nucleus in its sorted order,
// q ~ Exp(1) from the CUDA generator: q[k] comes from Philox4x32-10 keyed by the seed, counter
// (0, 0, k) (subsequence k, offset 0: one 256-thread grid-stride thread per element while the
// nucleus has at most 256 x the resident 256-thread blocks of the GPU), first uniform of the four,
// q = -log(u). So the draw is reproducible: it needs each nucleus token's rank in the descending
// order, not a sort. Three launches, no host synchronisation:
// 1. select_nucleus (one block): the softmax's max and sum, then a radix select on the
//    probabilities' bits (4 passes of 8 bits, counts and masses per digit in shared memory) finds
//    the probability v at which the descending running sum first reaches p, how much mass lies
//    above it and how many tokens equal to v it takes; the nucleus (those above v and the first
//    of those equal to v, by index) is compacted with one shared counter.
// 2. rank_and_draw: each nucleus token counts the tokens before it in torch's order (greater
//    probability, or equal and a smaller index), draws its q for that rank and offers
//    (probability / nucleus sum) / q, with the rank as tie-break, to a 64-bit atomic maximum.
// 3. write_token: the token of the winning rank.
// Differences from torch that can change the token only at a rounding tie: the running sum is
// taken in double (torch: an FP32 cumsum), the sums in the kit's order; see README.
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace {

constexpr int kSelectThreads = 512;
constexpr int kRankThreads = 256;
constexpr int kDigits = 256;

struct State {
  float max_logit;
  float sum;
  float nucleus_sum;
  int nucleus_size;
  std::uint64_t best; // (ratio bits << 32) | (0xFFFFFFFF - rank): the largest wins
};

__device__ __forceinline__ unsigned bits_of(float x) { return __float_as_uint(x); }

// Philox4x32-10, first word of the block for counter (0, 0, k_lo, k_hi) and a 64-bit key.
__device__ __forceinline__ unsigned philox_first_word(std::uint64_t key, std::uint64_t k) {
  unsigned c0 = 0u, c1 = 0u, c2 = static_cast<unsigned>(k), c3 = static_cast<unsigned>(k >> 32);
  unsigned k0 = static_cast<unsigned>(key), k1 = static_cast<unsigned>(key >> 32);
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    const unsigned hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const unsigned hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c0;
}

// torch's CUDA exponential_ for element k after manual_seed(seed): u in (0, 1] as curand_uniform
// makes it, then -log(u), with u >= 1 - 2^-24 mapped to 2^-24 (torch's guard against q = 0).
__device__ __forceinline__ float exponential_for_rank(long long seed, long long k) {
  const unsigned x =
      philox_first_word(static_cast<std::uint64_t>(seed), static_cast<std::uint64_t>(k));
  const float u = fmaf(static_cast<float>(x), 0x1p-32f, 0x1p-33f);
  const float log_u = u >= 1.0f - 0x1p-24f ? -0x1p-24f : logf(u);
  return -1.0f * log_u;
}

__global__ void __launch_bounds__(kSelectThreads)
    select_nucleus(const float *__restrict__ logits, const float *__restrict__ p_in, int n,
                   State *__restrict__ state, float *__restrict__ probs,
                   float *__restrict__ nucleus_prob, int *__restrict__ nucleus_token) {
  __shared__ kit::BlockScratch<float, kSelectThreads> float_scratch;
  __shared__ kit::BlockScratch<int, kSelectThreads> int_scratch;
  __shared__ unsigned counts[kDigits];
  __shared__ double masses[kDigits];
  __shared__ unsigned prefix_bits;
  __shared__ double mass_above;
  __shared__ int count_above, ties_taken, equal_count, members;
  __shared__ bool take_all;
  const int tid = static_cast<int>(threadIdx.x);
  const double p = static_cast<double>(p_in[0]);

  float m = -INFINITY;
  for (int i = tid; i < n; i += kSelectThreads)
    m = fmaxf(m, logits[i]);
  m = kit::block_reduce<kSelectThreads>(m, kit::Max(), -INFINITY, float_scratch);
  float s = 0.0f;
  for (int i = tid; i < n; i += kSelectThreads)
    s += expf(logits[i] - m);
  s = kit::block_reduce<kSelectThreads>(s, kit::Plus(), 0.0f, float_scratch);
  // The probabilities, computed once and read back by the thread that wrote them (every loop
  // below gives thread tid the elements tid, tid + kSelectThreads, ...), from L1/L2.
  for (int i = tid; i < n; i += kSelectThreads)
    probs[i] = expf(logits[i] - m) / s;
  auto prob = [&](int i) { return probs[i]; };

  // Radix select by mass: after the pass at `shift`, prefix_bits holds the top bits of v, the
  // probability (a non-negative float, so its bits order as it does) at which the running sum of
  // the probabilities in descending order first reaches p; mass_above and count_above cover
  // every probability above the digits fixed so far.
  if (tid == 0) {
    prefix_bits = 0u;
    mass_above = 0.0;
    count_above = 0;
    take_all = false;
    ties_taken = 0;
    equal_count = 0;
  }
  int ties = 0; // tokens equal to v, after the last pass
  for (int shift = 24; shift >= 0; shift -= 8) {
    for (int d = tid; d < kDigits; d += kSelectThreads) {
      counts[d] = 0u;
      masses[d] = 0.0;
    }
    __syncthreads();
    const unsigned high_mask = shift == 24 ? 0u : ~0u << (shift + 8);
    const unsigned prefix = prefix_bits;
    // Each thread adds runs of equal digits at once: in the first pass nearly every probability
    // has the same top byte (sign and high exponent bits), and one shared atomic per element on
    // one address would serialise the block.
    unsigned run_digit = 0u, run_count = 0u;
    double run_mass = 0.0;
    for (int i = tid; i < n; i += kSelectThreads) {
      const float x = prob(i);
      const unsigned b = bits_of(x);
      if ((b & high_mask) == (prefix & high_mask)) {
        const unsigned d = (b >> shift) & 0xFFu;
        if (run_count != 0u && d != run_digit) {
          atomicAdd(&counts[run_digit], run_count);
          atomicAdd(&masses[run_digit], run_mass);
          run_count = 0u;
          run_mass = 0.0;
        }
        run_digit = d;
        ++run_count;
        run_mass += static_cast<double>(x);
      }
    }
    if (run_count != 0u) {
      atomicAdd(&counts[run_digit], run_count);
      atomicAdd(&masses[run_digit], run_mass);
    }
    __syncthreads();
    if (tid == 0) {
      int lowest = kDigits - 1;
      for (int d = 0; d < kDigits; ++d)
        if (counts[d] != 0u) {
          lowest = d;
          break;
        }
      double acc = mass_above;
      int above = count_above;
      int chosen = -1;
      for (int d = kDigits - 1; d >= 0; --d) {
        if (counts[d] == 0u)
          continue;
        // The digit whose mass carries the running sum to p; after the first pass the sum is
        // known to get there within the chosen bucket, so rounding cannot leave it unchosen.
        if (acc + masses[d] >= p || (shift != 24 && d == lowest)) {
          chosen = d;
          break;
        }
        acc += masses[d];
        above += static_cast<int>(counts[d]);
      }
      if (chosen < 0) {
        take_all = true; // the whole vocabulary's sum stays below p
      } else {
        prefix_bits = prefix | (static_cast<unsigned>(chosen) << shift);
        mass_above = acc;
        count_above = above;
        if (shift == 0) {
          // Tokens equal to v, taken in index order until the sum reaches p (at least one).
          const double v = static_cast<double>(__uint_as_float(prefix_bits));
          const int equal = static_cast<int>(counts[chosen]);
          int take = equal;
          if (v > 0.0) {
            const double need = ceil((p - acc) / v);
            take = need < 1.0 ? 1 : need > equal ? equal : static_cast<int>(need);
          }
          ties_taken = take;
          equal_count = equal;
        }
      }
    }
    __syncthreads();
    if (take_all)
      break;
  }
  ties = ties_taken;

  // Compaction: the tokens above v and the first `ties` tokens equal to v by index (all of them
  // unless v itself is tied at the boundary). Positions come from one shared counter, a warp at a
  // time, so the nucleus is in no particular order: the ranks below use the token indices. The
  // nucleus sum is each thread's own members in index order, then the block's fixed reduction.
  const bool all = take_all;
  const unsigned v_bits = prefix_bits;
  const bool all_equal_taken = all || ties == equal_count;
  if (tid == 0)
    members = 0;
  __syncthreads();
  int equal_before = 0; // tokens equal to v before this chunk (tied boundary only)
  float nucleus_sum = 0.0f;
  for (int base = 0; base < n; base += kSelectThreads) {
    const int i = base + tid;
    const float x = i < n ? prob(i) : 0.0f;
    const unsigned b = bits_of(x);
    const bool equal = i < n && b == v_bits;
    bool member = i < n && (all || b > v_bits || (equal && all_equal_taken));
    if (!all_equal_taken) { // uniform: the block scans the chunk for the ties' order
      int equal_total = 0;
      const int equal_rank =
          equal_before + kit::block_exclusive_scan<kSelectThreads>(equal ? 1 : 0, kit::Plus(), 0,
                                                                   equal_total, int_scratch);
      member = member || (equal && equal_rank < ties);
      equal_before += equal_total;
    }
    const kit::lane_mask_t votes = kit::warp_ballot(member);
    int warp_first = 0;
    if (kit::lane_id() == 0 && votes != 0u)
      warp_first = atomicAdd(&members, kit::lane_mask_popcount(votes));
    warp_first = kit::warp_shfl(warp_first, 0);
    if (member) {
      const int at = warp_first + kit::lane_mask_popcount(votes & kit::lane_mask_lt());
      nucleus_prob[at] = x;
      nucleus_token[at] = i;
      nucleus_sum += x;
    }
  }
  __syncthreads();
  nucleus_sum = kit::block_reduce<kSelectThreads>(nucleus_sum, kit::Plus(), 0.0f, float_scratch);
  if (tid == 0) {
    state->max_logit = m;
    state->sum = s;
    state->nucleus_sum = nucleus_sum;
    state->nucleus_size = members;
    state->best = 0u;
  }
}

__global__ void __launch_bounds__(kRankThreads)
    rank_and_draw(State *__restrict__ state, const float *__restrict__ nucleus_prob,
                  const int *__restrict__ nucleus_token, int *__restrict__ token_by_rank,
                  const int *__restrict__ seed) {
  __shared__ float chunk_prob[kRankThreads];
  __shared__ int chunk_token[kRankThreads];
  const int size = state->nucleus_size;
  const float nucleus_sum = state->nucleus_sum;
  const long long seed_value = seed[0];
  const int tid = static_cast<int>(threadIdx.x);
  // Whole blocks step together (the chunk loop below synchronises).
  for (int first = blockIdx.x * kRankThreads; first < size; first += gridDim.x * kRankThreads) {
    const int e = first + tid;
    const float pe = e < size ? nucleus_prob[e] : 0.0f;
    const int te = e < size ? nucleus_token[e] : 0;
    int rank = 0; // tokens before e in torch's order: a larger probability, or equal and earlier
    for (int base = 0; base < size; base += kRankThreads) {
      __syncthreads();
      if (base + tid < size) {
        chunk_prob[tid] = nucleus_prob[base + tid];
        chunk_token[tid] = nucleus_token[base + tid];
      }
      __syncthreads();
      const int count = size - base < kRankThreads ? size - base : kRankThreads;
      for (int f = 0; f < count; ++f) {
        const float pf = chunk_prob[f];
        rank += (pf > pe || (pf == pe && chunk_token[f] < te)) ? 1 : 0;
      }
    }
    if (e < size) {
      token_by_rank[rank] = te;
      const float ratio = pe / nucleus_sum / exponential_for_rank(seed_value, rank);
      const std::uint64_t key = static_cast<std::uint64_t>(bits_of(ratio)) << 32 |
                                (0xFFFFFFFFu - static_cast<unsigned>(rank));
      kit::gpu_atomic_max_relaxed(&state->best, key);
    }
  }
}

__global__ void write_token(const State *__restrict__ state, const int *__restrict__ token_by_rank,
                            int *__restrict__ sampled_token) {
  const unsigned rank = 0xFFFFFFFFu - static_cast<unsigned>(state->best & 0xFFFFFFFFu);
  sampled_token[0] = token_by_rank[rank];
}

} // namespace

extern "C" void solve(const float *logits, const float *p, const int *seed, int *sampled_token,
                      int vocab_size) {
  if (vocab_size <= 0)
    return;
  const std::size_t n = static_cast<std::size_t>(vocab_size);
  static kit::gpu::DeviceScratch scratch;
  // State, then the probabilities, the nucleus's probabilities and tokens and the token of each
  // rank.
  const std::size_t state_bytes = 256;
  char *base = static_cast<char *>(scratch.reserve(state_bytes + 4 * n * sizeof(float)));
  State *state = reinterpret_cast<State *>(base);
  float *probs = reinterpret_cast<float *>(base + state_bytes);
  float *nucleus_prob = probs + n;
  int *nucleus_token = reinterpret_cast<int *>(nucleus_prob + n);
  int *token_by_rank = nucleus_token + n;

  select_nucleus<<<1, kSelectThreads>>>(logits, p, vocab_size, state, probs, nucleus_prob,
                                        nucleus_token);
  GPU_CHECK_LAUNCH("select_nucleus");
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  const std::size_t blocks_needed = (n + kRankThreads - 1) / kRankThreads;
  const std::size_t blocks_cap = static_cast<std::size_t>(4 * multiprocessors);
  const unsigned blocks =
      static_cast<unsigned>(blocks_needed < blocks_cap ? blocks_needed : blocks_cap);
  rank_and_draw<<<blocks, kRankThreads>>>(state, nucleus_prob, nucleus_token, token_by_rank, seed);
  GPU_CHECK_LAUNCH("rank_and_draw");
  write_token<<<1, 1>>>(state, token_by_rank, sampled_token);
  GPU_CHECK_LAUNCH("write_token");
}
