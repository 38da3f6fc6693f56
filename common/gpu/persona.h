// The MI100 persona (CUDA builds with -DKIT_PERSONA=gfx908): the NVIDIA GPU runs the kit's
// kernels as if it were an MI100, so that the code paths only gfx908 takes (64-lane warps, 64-bit
// lane masks, wave-sized tiles and windows, configurations sized for 64 KB of LDS and 120 CUs)
// execute and can be tested. Kernels do not change: gpu/vendor.h routes its warp helpers here.
//
// A 64-lane group is two hardware warps of consecutive threadIdx.x. Its lanes exchange values
// through a per-block shared-memory array (8 bytes per thread) and synchronise with a named
// barrier that covers exactly those 64 threads (bar.sync with a thread count; barrier 0 is
// __syncthreads, so groups use barriers 1 to 15). That limits a block to 15 groups, 960 threads:
// a kernel with a larger block, or with blockDim.x not a multiple of 64 (which AMD would run with
// partial wavefronts, and which the kit's kernels never use), stops with a trap and a message.
//
// What it proves: the wave64 logic (lane arithmetic, masks, shuffles, ballots, group-sized tiles,
// look-back windows) and every configuration chosen for gfx908 (its tuning tables, 64 KB of shared
// memory, 120 multiprocessors, an 8 MB L2, reported to the host code by gpu/device.h). What it
// cannot: AMD's memory model and caches, the lock-step execution of a wavefront (here the two
// halves of a group run independently between synchronisations, which is stricter for code that
// relies on synchronisation, and hides code that wrongly relies on lock-step), register and LDS
// limits as the AMD compiler applies them, and any timing.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>

#define KIT_WARP_SIZE 64

namespace kit::persona {

inline constexpr int kGroupLanes = 64;
inline constexpr int kMaxGroups = 15;
inline constexpr unsigned kMaxBlockThreads = kGroupLanes * kMaxGroups;

// gfx908's limits, as the host code sees them under the persona.
inline constexpr int kMultiprocessors = 120;
inline constexpr int kSharedBytesPerBlock = 64 * 1024;
inline constexpr int kL2Bytes = 8 * 1024 * 1024;

#if defined(__CUDACC__)

__device__ __forceinline__ void check_block() {
  if (blockDim.x % kGroupLanes != 0 || blockDim.x > kMaxBlockThreads) {
    if (threadIdx.x == 0)
      printf("MI100 persona: block of %u threads: a warp helper needs a multiple of 64 up to %u\n",
             blockDim.x, kMaxBlockThreads);
    __trap();
  }
}

__device__ __forceinline__ int group() { return static_cast<int>(threadIdx.x) / kGroupLanes; }
__device__ __forceinline__ int lane() { return static_cast<int>(threadIdx.x) % kGroupLanes; }

// The 64 threads of the calling group wait for each other; memory accesses before it are
// visible to the group after it (bar.sync orders them among the participating threads).
__device__ __forceinline__ void group_barrier() {
  check_block();
  asm volatile("bar.sync %0, %1;" ::"r"(group() + 1), "r"(kGroupLanes) : "memory");
}

// One 8-byte slot per thread of the block, shared by every helper of a kernel.
__device__ __forceinline__ unsigned long long *exchange_slots() {
  __shared__ unsigned long long slots[kMaxBlockThreads];
  return slots;
}

// Every lane publishes `value` and reads lane `source(lane)`'s (its own when out of range).
template <class T, class Source> __device__ __forceinline__ T exchange(T value, Source source) {
  constexpr int kWords = (sizeof(T) + 7) / 8;
  unsigned long long words[kWords] = {};
  std::memcpy(words, &value, sizeof(T));
  unsigned long long *slots = exchange_slots() + group() * kGroupLanes;
  const int from = source(lane());
  const int read = from >= 0 && from < kGroupLanes ? from : lane();
#pragma unroll
  for (int w = 0; w < kWords; ++w) {
    slots[lane()] = words[w];
    group_barrier();
    words[w] = slots[read];
    group_barrier(); // every lane has read before the slots are written again
  }
  T result;
  std::memcpy(&result, words, sizeof(T));
  return result;
}

template <class T> __device__ __forceinline__ T shfl(T v, int src_lane) {
  return exchange(v, [&](int) { return src_lane & (kGroupLanes - 1); });
}
template <class T> __device__ __forceinline__ T shfl_up(T v, unsigned delta) {
  return exchange(v, [&](int lane) { return lane - static_cast<int>(delta); });
}
template <class T> __device__ __forceinline__ T shfl_down(T v, unsigned delta) {
  return exchange(v, [&](int lane) { return lane + static_cast<int>(delta); });
}
template <class T> __device__ __forceinline__ T shfl_xor(T v, int lane_mask) {
  return exchange(v, [&](int lane) { return lane ^ lane_mask; });
}

// The group's 64-bit vote: each hardware warp votes, and the two halves are combined.
__device__ __forceinline__ std::uint64_t ballot(bool predicate) {
  const unsigned half = __ballot_sync(0xffffffffu, predicate);
  unsigned long long *slots = exchange_slots() + group() * kGroupLanes;
  const int hardware_warp = lane() / 32;
  if (lane() % 32 == 0)
    slots[hardware_warp] = half;
  group_barrier();
  const std::uint64_t mask = slots[0] | (slots[1] << 32);
  group_barrier();
  return mask;
}

#endif // __CUDACC__

} // namespace kit::persona
