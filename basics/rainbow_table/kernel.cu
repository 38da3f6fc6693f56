// rainbow_table: output[i] = R rounds of 32-bit FNV-1a applied to input[i] (LeetGPU signature,
// device pointers). A round hashes the four bytes of the current word, least significant first,
// from the offset basis 2166136261 with the prime 16777619; its result is the next round's word.
//
// Integer-bound: a round is four xor-multiply steps plus byte extraction, and nothing in a chain
// of rounds can overlap. Each thread therefore hashes four words (one 16-byte load) as four
// independent chains, which fills the integer pipelines' latency; the words after the last whole
// vector are done by the first threads of block 0, and unaligned pointers take a scalar kernel.
#include "gpu/check.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr unsigned kOffsetBasis = 2166136261u;
constexpr unsigned kPrime = 16777619u;

__device__ __forceinline__ unsigned fnv1a_word(unsigned v) {
  unsigned h = kOffsetBasis;
  h = (h ^ (v & 0xffu)) * kPrime;
  h = (h ^ ((v >> 8) & 0xffu)) * kPrime;
  h = (h ^ ((v >> 16) & 0xffu)) * kPrime;
  h = (h ^ (v >> 24)) * kPrime;
  return h;
}

__device__ __forceinline__ unsigned rounds(unsigned v, int r) {
  for (int i = 0; i < r; ++i)
    v = fnv1a_word(v);
  return v;
}

__global__ void __launch_bounds__(kThreads)
    hash_vec4(const int *__restrict__ in, unsigned *__restrict__ out, std::size_t n, int r) {
  const std::size_t vectors = n / 4;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < vectors) {
    const int4 x = reinterpret_cast<const int4 *>(in)[i];
    uint4 h = make_uint4(static_cast<unsigned>(x.x), static_cast<unsigned>(x.y),
                         static_cast<unsigned>(x.z), static_cast<unsigned>(x.w));
    for (int round = 0; round < r; ++round) {
      h.x = fnv1a_word(h.x);
      h.y = fnv1a_word(h.y);
      h.z = fnv1a_word(h.z);
      h.w = fnv1a_word(h.w);
    }
    reinterpret_cast<uint4 *>(out)[i] = h;
  }
  const std::size_t tail = vectors * 4 + threadIdx.x;
  if (blockIdx.x == 0 && tail < n)
    out[tail] = rounds(static_cast<unsigned>(in[tail]), r);
}

__global__ void __launch_bounds__(kThreads)
    hash_scalar(const int *in, unsigned *out, std::size_t n, int r) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n)
    out[i] = rounds(static_cast<unsigned>(in[i]), r);
}

} // namespace

extern "C" void solve(const int *input, unsigned int *output, int N, int R) {
  if (N <= 0)
    return;
  const std::size_t n = static_cast<std::size_t>(N);
  const bool aligned = reinterpret_cast<std::uintptr_t>(input) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(output) % 16 == 0;
  if (aligned) {
    const std::size_t per_block = static_cast<std::size_t>(kThreads) * 4;
    hash_vec4<<<static_cast<unsigned>((n + per_block - 1) / per_block), kThreads>>>(input, output,
                                                                                    n, R);
    GPU_CHECK_LAUNCH("hash_vec4");
  } else {
    hash_scalar<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads>>>(input, output,
                                                                                    n, R);
    GPU_CHECK_LAUNCH("hash_scalar");
  }
}
