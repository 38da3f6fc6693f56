// The on-chip kernel (Method::kOnChip): both passes in one launch with each block's slice on chip
// across the grid-wide barrier, in registers and dynamic shared memory. One template for every
// block shape (tuning.h, OnChipShape) and copy path; kernel_engine.cu instantiates the production
// kernels, bench/variants.cu the alternatives that only the benchmark and the GPU tests run.
#pragma once

#include "gpu/bulk_copy.h"
#include "gpu/math.h"
#include "kernel_passes.h"
#include "tuning.h"

#include <cstddef>
#include <cstdint>

namespace softmax {
namespace detail {

// How the shared-memory part of a block's slice arrives.
enum class CopyPath {
  // One bulk copy per row of the block by the copy engine where the GPU has them (sm_90 and
  // later), else 16-byte copies per thread.
  kBulk,
  // 16-byte copies per thread everywhere (what AMD and older NVIDIA GPUs run).
  kPerThread,
};

// The smallest warp of any target (NVIDIA, RDNA): the scratch is sized for the most warps a block
// can have, so that host and device agree on where the slots start whatever the device's warp.
constexpr int kSmallestWarp = 32;

// The on-chip kernel's dynamic shared memory before its slots: the pair scratch, the copies'
// transaction barrier, then padding so that the slots start 16 bytes past a 128-byte boundary
// (where the slots start within 128 bytes moved the kernel's time by up to 5 % on NVIDIA, not
// monotonically; 16 past the boundary was the best or level at 8e6 and 1e7: README, "Design
// notes").
template <int kBlock> struct OnChipScratch {
  static constexpr int pair_bytes = kBlock / kSmallestWarp * sizeof(Pair);
  static_assert(sizeof(PairScratch<kBlock>) <= pair_bytes, "room for every warp's pair");
  static constexpr int barrier_offset = (pair_bytes + 15) / 16 * 16;
  static constexpr int barrier_end = barrier_offset + sizeof(std::uint64_t);
  static constexpr int bytes = (barrier_end + 127 - 16) / 128 * 128 + 16;
  static_assert(bytes >= barrier_end && bytes % 128 == 16, "slots 16 bytes past 128");
};

// kCount shared-memory items of a thread into pass 1 as one group (item u at items[u * kThreads]).
template <int kCount, int kThreads>
__device__ __forceinline__ void add_shared_group(Running &r, const float4 *items) {
  float4 group[kCount];
#pragma unroll
  for (int u = 0; u < kCount; ++u)
    group[u] = items[u * kThreads];
  r.add_group<kCount>(group);
}

// The last shared-memory items of a thread, fewer than a pass-1 group (`left` of them), in
// power-of-two pieces from kPiece down: exponentials only for items that exist (a group padded
// with -inf spent 15-20 % of the exponentials after the copies land on padding).
template <int kPiece, int kThreads>
__device__ __forceinline__ void add_partial_group(Running &r, const float4 *items, unsigned left) {
  if constexpr (kPiece >= 1) {
    if (left & kPiece) {
      add_shared_group<kPiece, kThreads>(r, items);
      items += kPiece * kThreads;
    }
    add_partial_group<kPiece / 2, kThreads>(r, items, left);
  }
}

// Co-residency: waits at a grid barrier, so it is launched with kit::gpu::try_launch_cooperative
// (the two-pass method runs where the runtime refuses) on a
// grid of at most resident_blocks (one block per multiprocessor when the shared memory fills it).
//
// Items [0, kRegisterItems) of a thread live in registers, items from kRegisterItems on in the
// block's dynamic shared memory (as many slots as the launch's n needs). Item j of a thread is
// float4 number first + j * stride, so every load instruction of a warp stays coalesced. The
// register loads are issued first and processed first while the shared-memory copies land (the
// other order was 2-4 % slower from 8e6 on); the copies never pass through registers: with
// CopyPath::kBulk on sm_90 and later one bulk copy per row of the block
// (kit::gpu_bulk_copy_to_shared, issued by thread 0, completing on one transaction barrier),
// otherwise 16 bytes per thread (kit::gpu_async_copy_16: cp.async on sm_80+, a load and a store
// on gfx908). Pass 2 writes the register items, then the shared-memory items. Dynamic shared
// memory layout (OnChipScratch): the pair scratch, the transaction barrier, then slot s of thread
// t at float4 s * kThreads + t (a warp's accesses are consecutive 16-byte words, and row s of the
// block is one contiguous range of the input; with per-thread copies every thread reads only its
// own slots, so its own wait for its copies is all the synchronisation needed).
template <class Shape, CopyPath kCopy>
__global__ __launch_bounds__(Shape::kThreads, 1) void onchip_kernel(const float *in, float *out,
                                                                    Layout layout, Workspace ws) {
  constexpr int kThreads = Shape::kThreads;
  constexpr int kRegisterItems = Shape::kRegisterItems;
  constexpr int kGroup = Shape::kGroup;
  constexpr bool kBulkCopies = kit::kGpuBulkCopy && kCopy == CopyPath::kBulk;
  extern __shared__ float4 dynamic_shared[];
  using Scratch = OnChipScratch<kThreads>;
  auto &scratch = *reinterpret_cast<PairScratch<kThreads> *>(dynamic_shared);
  auto *copy_barrier = reinterpret_cast<std::uint64_t *>(reinterpret_cast<char *>(dynamic_shared) +
                                                         Scratch::barrier_offset);
  float4 *const block_slots = dynamic_shared + Scratch::bytes / 16;
  float4 *slots = block_slots + threadIdx.x;
  GridBarrier barrier(ws.control);
  const float4 *in4 = reinterpret_cast<const float4 *>(in + layout.head);
  float4 *out4 = reinterpret_cast<float4 *>(out + layout.head);
  // 32-bit item indices (the capacity is far below 2^32 float4): fewer registers for the
  // unrolled addresses, which gfx908 would otherwise hold as 64-bit scalar pairs.
  const unsigned nvec = static_cast<unsigned>(layout.nvec);
  const unsigned first = blockIdx.x * kThreads + threadIdx.x;
  const unsigned stride = gridDim.x * kThreads;
  // This thread's items (the Engine sizes the grid and the shared memory so that they fit).
  const unsigned count = first < nvec ? (nvec - 1 - first) / stride + 1 : 0;
  const unsigned shared_count = count > kRegisterItems ? count - kRegisterItems : 0;
  // The block's shared-memory rows (its thread 0 has the most items; the others have as many or,
  // in the last row, one fewer).
  const unsigned block_first = blockIdx.x * kThreads;
  const unsigned block_count = block_first < nvec ? (nvec - 1 - block_first) / stride + 1 : 0;
  const unsigned block_rows = block_count > kRegisterItems ? block_count - kRegisterItems : 0;
  if constexpr (kBulkCopies) {
    if (block_rows != 0) {
      if (threadIdx.x == 0)
        kit::gpu_tx_barrier_init(copy_barrier);
      __syncthreads();
    }
  }

  float4 items[kRegisterItems];
  {
    const float4 *p = in4 + first;
#pragma unroll
    for (int j = 0; j < kRegisterItems; ++j, p += stride)
      items[j] = j < static_cast<int>(count)
                     ? kit::gpu_load_once(p)
                     : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  }
  if constexpr (kBulkCopies) {
    // Thread 0 copies the block's rows, announcing their bytes on the barrier first.
    if (threadIdx.x == 0 && block_rows != 0) {
      auto row_start = [&](unsigned s) { return (kRegisterItems + s) * stride + block_first; };
      auto row_bytes = [&](unsigned s) {
        return min(static_cast<unsigned>(kThreads), nvec - row_start(s)) * 16u;
      };
      unsigned bytes = 0;
      for (unsigned s = 0; s < block_rows; ++s)
        bytes += row_bytes(s);
      kit::gpu_tx_barrier_expect(copy_barrier, bytes);
      for (unsigned s = 0; s < block_rows; ++s)
        kit::gpu_bulk_copy_to_shared(block_slots + s * kThreads, in4 + row_start(s), row_bytes(s),
                                     copy_barrier);
    }
  } else {
    const float4 *shared_first = in4 + first + kRegisterItems * stride;
    // Unrolled for gfx908, where each copy is a load and a store: several loads in flight.
#pragma unroll 8
    for (unsigned s = 0; s < shared_count; ++s)
      kit::gpu_async_copy_16(slots + s * kThreads, shared_first + s * stride);
    kit::gpu_async_copy_commit();
  }
  const bool has_extra = blockIdx.x == 0 && threadIdx.x < layout.extras();
  const float extra = has_extra ? in[layout.extra_index(threadIdx.x)] : 0.0f;

  Running r;
#pragma unroll
  for (int j = 0; j < kRegisterItems; j += kGroup)
    r.add_group<kGroup>(items + j);
  if (shared_count != 0) {
    if constexpr (kBulkCopies)
      kit::gpu_tx_barrier_wait(copy_barrier, 0);
    else
      kit::gpu_async_copy_wait_all();
  }
  for (unsigned s = 0; s < shared_count; s += kGroup) {
    if (shared_count - s >= kGroup)
      add_shared_group<kGroup, kThreads>(r, slots + s * kThreads);
    else
      add_partial_group<kGroup / 2, kThreads>(r, slots + s * kThreads, shared_count - s);
  }
  if (has_extra)
    r.add(extra);
  const Stats stats = grid_stats(r, ws, barrier, scratch);
  // The extra is read again rather than kept across the barrier (one register fewer); issued
  // first, its load overlaps the other writes. Only this thread writes that element (in == out).
  const float extra_again = has_extra ? in[layout.extra_index(threadIdx.x)] : 0.0f;
  {
    // Tested as an index, not as j < count: a test the compiler could share with the loads would
    // keep 40 lane masks alive across the barrier (gfx908 ran out of scalar registers).
    float4 *p = out4 + first;
#pragma unroll
    for (int j = 0; j < kRegisterItems; ++j, p += stride)
      if (first + j * stride < nvec)
        *p = normalized(items[j], stats);
  }
  {
    float4 *shared_out = out4 + first + kRegisterItems * stride;
#pragma unroll 4
    for (unsigned s = 0; s < shared_count; ++s)
      shared_out[s * stride] = normalized(slots[s * kThreads], stats);
  }
  if (has_extra)
    out[layout.extra_index(threadIdx.x)] = normalized(extra_again, stats);
}

using OnChipKernelFunction = void (*)(const float *, float *, Layout, Workspace);

} // namespace detail

// One on-chip kernel with what the Engine needs to size its launches.
struct OnChipShapeKernel {
  detail::OnChipKernelFunction kernel;
  unsigned threads;
  unsigned register_items;
  std::size_t scratch_bytes; // dynamic shared memory before the slots
};

// The on-chip kernels of a tuning table's two shapes.
struct OnChipKernels {
  OnChipShapeKernel narrow; // Tuning::OnChipNarrow
  OnChipShapeKernel wide;   // Tuning::OnChipWide
};

namespace detail {

template <class Shape, CopyPath kCopy> OnChipShapeKernel onchip_shape_kernel() {
  return OnChipShapeKernel{onchip_kernel<Shape, kCopy>, static_cast<unsigned>(Shape::kThreads),
                           static_cast<unsigned>(Shape::kRegisterItems),
                           static_cast<std::size_t>(OnChipScratch<Shape::kThreads>::bytes)};
}

// Instantiates the on-chip kernel in both shapes of `Tuning` with copy path kCopy.
template <class Tuning, CopyPath kCopy> OnChipKernels onchip_kernels() {
  static_assert(onchip_rules_fit<Tuning>(), "a shrunk grid must hold its items in registers");
  return OnChipKernels{onchip_shape_kernel<typename Tuning::OnChipNarrow, kCopy>(),
                       onchip_shape_kernel<typename Tuning::OnChipWide, kCopy>()};
}

} // namespace detail
} // namespace softmax
