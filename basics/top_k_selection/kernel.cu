// top_k_selection: output = the k largest of the N floats of input, largest first (torch.topk's
// values; LeetGPU signature, device pointers), by a radix select on the floats' order-preserving
// words (primitives/radix_sort.h's FloatKeys: larger float, larger word) followed by a sort of
// only the k selected.
//
// The word of the k-th largest float (the threshold) is found digit by digit from the top: 12
// bits, 12 bits, 8 bits. After each digit is chosen, every candidate whose word is above the
// threshold's digits so far is certainly among the k and is appended to `selected`; the ones equal
// to them so far are the next round's candidates. Launches, all of them stream-ordered:
//  0. guess_first_digit (one block) histograms the top 12 bits of 4096 evenly spaced elements and
//     guesses a first digit low enough that the elements at or above it almost surely include the
//     k largest.
//  1. split<0> reads the input once: a 4096-bin histogram of the top 12 bits (shared memory, then
//     global atomics for the non-zero bins), and the elements at or above the guessed digit
//     copied to a candidate buffer. The last block to arrive chooses the digit holding the k-th
//     largest (choose_digit) and whether the guess was low enough (then that buffer holds every
//     element the next rounds need; otherwise round 1 reads the input again).
//  2. split<1> over those elements: the ones above the first digit go to `selected`, the ones on
//     it to the next candidate buffer, whose next 12 bits it histograms; its last block chooses
//     the second digit.
//  3. split<2> does the same over those candidates (the third, 8-bit digit).
//  4. split<3> appends the remaining candidates above the now complete threshold word; the
//     threshold value itself fills the last `remaining` places (ties with the k-th largest:
//     equal values, any of them will do).
//  5. The k selected floats are sorted descending by the radix sort (FloatKeysDescending); up to
//     4096 of them by one block.
// Appends are staged in shared memory (candidates from the front, selected from the back) and
// flushed with one global atomic per kind and block whenever the stage could overflow in the next
// chunk, so the appends cost a few atomics per block whatever the distribution.
//
// Inter-block data: histograms and counters in device memory; every launch's last block to arrive
// (kit::block_arrives_last) reads the totals, clears the bins it read and sets the next round's
// state. Nobody waits. The counters and bins are zero when the scratch is allocated and every
// launch leaves them so (or sets them before the launch that uses them).
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/launch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"
#include "primitives/radix_sort.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

using kit::radix_sort::FloatKeys;

constexpr int kThreads = 256;
constexpr int kBins = 4096;                              // the 12-bit digits' histogram
constexpr int kVectorsPerThread = 2;                     // 16-byte loads in flight per thread
constexpr int kChunk = kThreads * kVectorsPerThread * 4; // elements a block takes per step
constexpr int kStage = 2 * kChunk;                       // staged appends (shared memory)
// Round r's digit: its shift and width (round 0 the top 12 bits, round 1 the next 12, round 2
// the last 8).
__host__ __device__ constexpr int digit_shift(int round) {
  return round == 0 ? 20 : round == 1 ? 8 : 0;
}
__host__ __device__ constexpr int digit_bits(int round) { return round == 2 ? 8 : 12; }

static_assert(kThreads % 64 == 0, "block sizes are multiples of 64 (AMD wave64)");
static_assert(kBins % kThreads == 0, "choose_digit gives every thread the same number of bins");

// The selection's state in device memory. `guess` is the sampled guess at the first digit,
// `from_guess` whether round 0's buffer holds every element at or above the chosen first digit;
// `prefix` holds the threshold's digits chosen so far, `remaining` how many of the k are still to
// be found among the current candidates; appended[r] counts the elements round r appended to its
// candidate buffer, `selected` the certain ones.
struct State {
  unsigned guess;
  unsigned from_guess;
  unsigned prefix;
  unsigned remaining;
  unsigned appended[3];
  unsigned selected;
  unsigned arrivals;
};

__device__ __forceinline__ unsigned ordered(float x) {
  return FloatKeys::order(__float_as_uint(x));
}

// Called by every thread of a block with the counts of its run of a histogram (thread t: the t-th
// highest run, bins top, top - 1, ...): true in the one thread whose run holds the `target`-th
// largest element, which gets its digit and the number of elements above that digit. A block
// scan of the runs' sums gives how many elements lie above each run. No thread returns true when
// the histogram holds fewer than `target` elements.
template <int kRun>
__device__ bool locate(const unsigned (&counts)[kRun], int top, unsigned target, unsigned &digit,
                       unsigned &above_digit, kit::BlockScratch<unsigned, kThreads> &scratch) {
  unsigned run_total = 0;
#pragma unroll
  for (int i = 0; i < kRun; ++i)
    run_total += counts[i];
  unsigned all;
  unsigned above = kit::block_exclusive_scan<kThreads>(run_total, kit::Plus(), 0u, all, scratch);
  bool found = false;
#pragma unroll
  for (int i = 0; i < kRun; ++i) {
    if (above < target && above + counts[i] >= target) {
      digit = static_cast<unsigned>(top - i);
      above_digit = above;
      found = true;
    }
    above += counts[i];
  }
  return found;
}

// Run by the last block of a round over the device histogram of `kRoundBins` digits (which it
// reads and clears): the digit d holding the `remaining`-th largest candidate (fewer than
// `remaining` above d, at least `remaining` at or above it), appended to the threshold's digits,
// and the number still to be found on it.
template <int kRoundBins>
__device__ void choose_digit(unsigned *histogram, State *state, unsigned remaining, bool first,
                             kit::BlockScratch<unsigned, kThreads> &scratch) {
  constexpr int kRun = kRoundBins / kThreads;
  const int top = kRoundBins - 1 - static_cast<int>(threadIdx.x) * kRun; // highest bin of the run
  unsigned counts[kRun];
#pragma unroll
  for (int i = 0; i < kRun; ++i) {
    counts[i] = kit::gpu_load_relaxed(&histogram[top - i]);
    kit::gpu_store_relaxed(&histogram[top - i], 0u);
  }
  unsigned digit, above;
  if (locate(counts, top, remaining, digit, above, scratch)) {
    state->prefix = first ? digit : (state->prefix << (kRoundBins == kBins ? 12 : 8)) | digit;
    state->remaining = remaining - above;
  }
}

// 0. One block guesses the first digit from kSamples evenly spaced elements: the digit holding
// the sample's `target`-th largest, with target twice the k-th largest's expected rank in the
// sample plus 8, so that the elements at or above the guess almost surely include the k largest
// yet are few. kNoGuess (no digit is that high) when the target exceeds the sample. A wrong guess
// costs time, never correctness: round 0 checks it against the whole input's histogram.
constexpr int kSamples = 4096;
constexpr unsigned kNoGuess = kBins;
static_assert(kSamples % kThreads == 0, "every thread draws the same number of samples");

__global__ void __launch_bounds__(kThreads)
    guess_first_digit(const float *__restrict__ input, unsigned n, unsigned k,
                      State *__restrict__ state) {
  constexpr int kPerThread = kSamples / kThreads;
  constexpr int kRun = kBins / kThreads;
  __shared__ unsigned counts[kBins];
  __shared__ unsigned guess;
  __shared__ kit::BlockScratch<unsigned, kThreads> scratch;
  for (int i = threadIdx.x; i < kBins; i += kThreads)
    counts[i] = 0;
  if (threadIdx.x == 0)
    guess = kNoGuess;
  const unsigned samples = min(n, static_cast<unsigned>(kSamples));
  float x[kPerThread]; // every load issued before any is counted
#pragma unroll
  for (int u = 0; u < kPerThread; ++u) {
    const unsigned s = u * kThreads + threadIdx.x;
    x[u] = s < samples ? input[static_cast<std::size_t>(s) * n / samples] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int u = 0; u < kPerThread; ++u)
    if (u * kThreads + threadIdx.x < samples)
      atomicAdd(&counts[ordered(x[u]) >> digit_shift(0)], 1u);
  __syncthreads();
  const unsigned long long expected_rank =
      (static_cast<unsigned long long>(k) * samples + n - 1) / n;
  const unsigned long long target = 2 * expected_rank + 8;
  const int top = kBins - 1 - static_cast<int>(threadIdx.x) * kRun;
  unsigned run[kRun];
#pragma unroll
  for (int i = 0; i < kRun; ++i)
    run[i] = counts[top - i];
  unsigned digit, above;
  if (target <= samples && locate(run, top, static_cast<unsigned>(target), digit, above, scratch))
    guess = digit;
  __syncthreads();
  if (threadIdx.x == 0) {
    state->guess = guess;
    state->appended[0] = 0;
  }
}

// 1.-4. Round r (0..3). Round 0 reads the input: a histogram of every element's first digit, and
// the elements at or above the guessed digit copied to its candidate buffer; its last block
// chooses the first digit and whether that buffer holds every element at or above it. Rounds
// 1..3 read their candidates (round 1: round 0's buffer, or the input when the guess failed): the
// elements whose words are above the threshold's first r digits go to `selected`, those equal to
// them to the candidate buffer `next` (rounds 1 and 2), whose next digit is counted; the last
// block chooses that digit (rounds 1 and 2) or writes the ties (round 3).
template <int kRound>
__global__ void __launch_bounds__(kThreads)
    split(const unsigned *__restrict__ input, bool input_vectorized,
          const unsigned *__restrict__ candidates, unsigned n, unsigned k,
          unsigned *__restrict__ histogram, State *__restrict__ state, unsigned *__restrict__ next,
          float *__restrict__ selected) {
  constexpr bool kRawWords = kRound <= 1; // float words (input, round 0's copies), else ordered
  constexpr bool kCounts = kRound < 3;    // a digit to count and choose
  constexpr int kShift = kRound > 0 ? digit_shift(kRound - 1) : 0;
  constexpr int kBinsCounted = kCounts ? 1 << digit_bits(kRound) : 1;
  constexpr int kCountShift = kCounts ? digit_shift(kRound) : 0;
  __shared__ unsigned counts[kBinsCounted];
  __shared__ unsigned stage[kStage];
  __shared__ unsigned staged_candidates, staged_selected, candidate_base, selected_base;
  __shared__ kit::BlockScratch<unsigned, kThreads> scratch;
  for (int i = threadIdx.x; i < kBinsCounted; i += kThreads)
    counts[i] = 0;
  if (threadIdx.x == 0) {
    staged_candidates = 0;
    staged_selected = 0;
  }
  const unsigned guess = state->guess;
  const unsigned prefix = state->prefix;
  const bool from_input = kRound == 0 || (kRound == 1 && state->from_guess == 0);
  const unsigned *words = from_input ? input : candidates;
  const unsigned count = from_input ? n : state->appended[kRound > 0 ? kRound - 1 : 0];
  const bool vectorized = from_input ? input_vectorized : true;
  __syncthreads();

  const auto visit = [&](unsigned word) {
    const unsigned key = kRawWords ? FloatKeys::order(word) : word;
    if constexpr (kRound == 0) {
      const unsigned digit = key >> kCountShift;
      atomicAdd(&counts[digit], 1u);
      if (digit >= guess)
        stage[atomicAdd(&staged_candidates, 1u)] = word;
    } else {
      const unsigned high = key >> kShift;
      if (high > prefix) {
        stage[kStage - 1 - atomicAdd(&staged_selected, 1u)] = key;
      } else if (kCounts && high == prefix) {
        stage[atomicAdd(&staged_candidates, 1u)] = key;
        atomicAdd(&counts[key >> kCountShift & (kBinsCounted - 1)], 1u);
      }
    }
  };
  // Moves the staged appends to device memory (every thread of the block calls it).
  const auto flush = [&]() {
    if (threadIdx.x == 0) {
      candidate_base = staged_candidates == 0
                           ? 0
                           : atomicAdd(&state->appended[kCounts ? kRound : 0], staged_candidates);
      selected_base = staged_selected == 0 ? 0 : atomicAdd(&state->selected, staged_selected);
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < staged_candidates; i += kThreads)
      next[candidate_base + i] = stage[i];
    for (unsigned i = threadIdx.x; i < staged_selected; i += kThreads)
      selected[selected_base + i] = __uint_as_float(FloatKeys::restore(stage[kStage - 1 - i]));
    __syncthreads();
    if (threadIdx.x == 0) {
      staged_candidates = 0;
      staged_selected = 0;
    }
    __syncthreads();
  };

  // Chunks of kChunk elements, block-strided; every thread of a block takes the same number of
  // steps (the barriers of the flush).
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kChunk;
  for (std::size_t base = static_cast<std::size_t>(blockIdx.x) * kChunk; base < count;
       base += stride) {
    unsigned w[kVectorsPerThread][4];
#pragma unroll
    for (int u = 0; u < kVectorsPerThread; ++u) {
      const std::size_t i = base + (static_cast<std::size_t>(u) * kThreads + threadIdx.x) * 4;
      if (vectorized && i + 3 < count) {
        const uint4 v = *reinterpret_cast<const uint4 *>(words + i);
        w[u][0] = v.x;
        w[u][1] = v.y;
        w[u][2] = v.z;
        w[u][3] = v.w;
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
          w[u][e] = i + e < count ? words[i + e] : 0u;
      }
    }
#pragma unroll
    for (int u = 0; u < kVectorsPerThread; ++u) {
      const std::size_t i = base + (static_cast<std::size_t>(u) * kThreads + threadIdx.x) * 4;
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (i + e < count)
          visit(w[u][e]);
    }
    __syncthreads();
    const bool full = staged_candidates + staged_selected > kStage - kChunk;
    __syncthreads(); // every thread has decided before the next chunk moves the counters
    if (full)
      flush();
  }
  flush();

  if constexpr (kCounts) {
    for (int i = threadIdx.x; i < kBinsCounted; i += kThreads)
      if (counts[i] != 0)
        atomicAdd(&histogram[i], counts[i]);
  }
  if (!kit::block_arrives_last(&state->arrivals))
    return;
  if constexpr (kRound == 0) {
    if (threadIdx.x == 0) { // the counters of the rounds to come
      state->appended[1] = 0;
      state->appended[2] = 0;
      state->selected = 0;
    }
    choose_digit<kBins>(histogram, state, k, true, scratch);
    __syncthreads(); // the chosen digit is in state->prefix
    if (threadIdx.x == 0)
      state->from_guess = state->prefix >= guess ? 1u : 0u;
  } else {
    const unsigned remaining = state->remaining;
    __syncthreads(); // every thread has read the state before choose_digit rewrites it
    if constexpr (kCounts) {
      choose_digit<kBinsCounted>(histogram, state, remaining, false, scratch);
    } else {
      // The threshold itself, `remaining` times, after the k - remaining elements above it.
      const float tie = __uint_as_float(FloatKeys::restore(prefix));
      for (unsigned i = threadIdx.x; i < remaining; i += kThreads)
        selected[k - remaining + i] = tie;
    }
  }
}

// The scratch, kept from one call to the next: the state and the histogram (zero when allocated,
// left zero by every call), the k selected floats, two candidate buffers of up to n words each.
struct Scratch {
  State *state;
  unsigned *histogram;
  float *selected;
  unsigned *candidates[2];
};

Scratch scratch_for(unsigned n, unsigned k) {
  static kit::gpu::DeviceScratch scratch;
  constexpr std::size_t kHeaderBytes = 256 + kBins * sizeof(unsigned); // state, then histogram
  static_assert(sizeof(State) <= 256, "the state fits before the histogram");
  // Candidate buffers start 16-byte aligned (whole vectors).
  const std::size_t selected_words = (static_cast<std::size_t>(k) + 3) / 4 * 4;
  const std::size_t candidate_words = (static_cast<std::size_t>(n) + 3) / 4 * 4;
  bool grew = false;
  auto *base = static_cast<unsigned char *>(scratch.reserve(
      kHeaderBytes + (selected_words + 2 * candidate_words) * sizeof(unsigned), &grew));
  if (grew)
    GPU_CHECK(cudaMemsetAsync(base, 0, kHeaderBytes));
  Scratch s;
  s.state = reinterpret_cast<State *>(base);
  s.histogram = reinterpret_cast<unsigned *>(base + 256);
  s.selected = reinterpret_cast<float *>(base + kHeaderBytes);
  s.candidates[0] = reinterpret_cast<unsigned *>(s.selected + selected_words);
  s.candidates[1] = s.candidates[0] + candidate_words;
  return s;
}

} // namespace

extern "C" void solve(const float *input, float *output, int N, int k) {
  if (N <= 0 || k <= 0)
    return;
  const unsigned n = static_cast<unsigned>(N);
  const unsigned kk = static_cast<unsigned>(std::min(k, N));
  const Scratch s = scratch_for(n, kk);

  static const int resident = std::min(kit::gpu::resident_blocks(split<0>, kThreads),
                                       kit::gpu::resident_blocks(split<1>, kThreads));
  const unsigned blocks =
      std::max(1u, std::min((n + kChunk - 1) / kChunk, static_cast<unsigned>(resident)));
  const bool vectorized = reinterpret_cast<std::uintptr_t>(input) % 16 == 0;
  const unsigned *words = reinterpret_cast<const unsigned *>(input);

  guess_first_digit<<<1, kThreads>>>(input, n, kk, s.state);
  GPU_CHECK_LAUNCH("guess_first_digit");
  // Round r appends to candidates[r % 2]; the candidates' number is on the device, so every
  // round has the same grid, each block striding over what there is.
  split<0><<<blocks, kThreads>>>(words, vectorized, nullptr, n, kk, s.histogram, s.state,
                                 s.candidates[0], s.selected);
  GPU_CHECK_LAUNCH("split<0>");
  split<1><<<blocks, kThreads>>>(words, vectorized, s.candidates[0], n, kk, s.histogram, s.state,
                                 s.candidates[1], s.selected);
  GPU_CHECK_LAUNCH("split<1>");
  split<2><<<blocks, kThreads>>>(words, vectorized, s.candidates[1], n, kk, s.histogram, s.state,
                                 s.candidates[0], s.selected);
  GPU_CHECK_LAUNCH("split<2>");
  split<3><<<blocks, kThreads>>>(words, vectorized, s.candidates[0], n, kk, s.histogram, s.state,
                                 nullptr, s.selected);
  GPU_CHECK_LAUNCH("split<3>");

  static kit::radix_sort::Workspace workspace;
  kit::radix_sort::sort<kit::radix_sort::FloatKeysDescending>(s.selected, output, kk, workspace,
                                                              "top_k_selection");
}
