// The softmax kernels and the Engine that sizes, launches and chooses them (kernel.h).
#include "kernel.h"
#include "kernel_passes.h"
#include "gpu/bulk_copy.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace softmax_gpu {
namespace detail {

// Diagnostic only (SOFTMAX_PHASE_MARK, kernel_passes.h): the marks' storage and writer.
#if defined(SOFTMAX_PHASE_TIMES) && KIT_CUDA
constexpr unsigned kPhaseMaxBlocks = 1024;
__device__ unsigned long long g_phase_times[kPhaseMaxBlocks * kPhaseMarks];
__device__ void phase_mark(unsigned mark, bool whole_block) {
  if (whole_block)
    __syncthreads();
  if (threadIdx.x == 0 && blockIdx.x < kPhaseMaxBlocks) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    g_phase_times[blockIdx.x * kPhaseMarks + mark] = now;
  }
}
#endif

// Pass 1 of the two-pass methods: one (max, sum) pair per block into partials[first_partial +
// block]; the block that finishes the total_partials-th pair (over every launch sharing the
// ticket) combines them into control->stats and resets the ticket.
__global__ __launch_bounds__(kBlockThreads) void reduce_kernel(const float *in, Layout layout,
                                                               Workspace ws, unsigned first_partial,
                                                               unsigned total_partials) {
  __shared__ PairScratch<kBlockThreads> scratch;
  __shared__ bool is_last;
  const float4 *in4 = reinterpret_cast<const float4 *>(in + layout.head);
  Running r;
  accumulate(r, in4, layout.nvec,
             static_cast<std::size_t>(blockIdx.x) * kBlockThreads + threadIdx.x,
             static_cast<std::size_t>(gridDim.x) * kBlockThreads);
  if (blockIdx.x == 0 && threadIdx.x < layout.extras())
    r.add(in[layout.extra_index(threadIdx.x)]);
  const Pair block = block_merge(r.p, scratch);
  if (threadIdx.x == 0) {
    store_partial(ws.partials, first_partial + blockIdx.x, block);
    __threadfence(); // release the partial before taking a ticket
    is_last = atomicAdd(&ws.control->ticket, 1u) == total_partials - 1;
    if (is_last)
      __threadfence(); // acquire every other block's partial
  }
  __syncthreads();
  if (!is_last)
    return;
  const Stats stats = combine_partials(ws.partials, total_partials, scratch);
  if (threadIdx.x == 0) {
    ws.control->stats = stats;
    ws.control->ticket = 0;
  }
}

// Pass 2 of the two-pass methods.
template <bool kReverse>
__global__ __launch_bounds__(kBlockThreads) void normalize_kernel(const float *in, float *out,
                                                                  Layout layout,
                                                                  const Control *control) {
  const Stats stats = control->stats;
  normalize_items<kReverse>(reinterpret_cast<const float4 *>(in + layout.head),
                            reinterpret_cast<float4 *>(out + layout.head), layout.nvec,
                            static_cast<std::size_t>(blockIdx.x) * kBlockThreads + threadIdx.x,
                            static_cast<std::size_t>(gridDim.x) * kBlockThreads, stats);
  if (blockIdx.x == 0 && threadIdx.x < layout.extras()) {
    const std::size_t i = layout.extra_index(threadIdx.x);
    out[i] = normalized(in[i], stats);
  }
}

// Both passes in one launch; every block combines all partials itself after the barrier, which
// costs a few kB of L2 reads and saves a second barrier.
__global__ __launch_bounds__(kBlockThreads) void persistent_kernel(const float *in, float *out,
                                                                   Layout layout, Workspace ws) {
  __shared__ PairScratch<kBlockThreads> scratch;
  GridBarrier barrier(ws.control);
  const float4 *in4 = reinterpret_cast<const float4 *>(in + layout.head);
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kBlockThreads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kBlockThreads;
  const bool has_extra = blockIdx.x == 0 && threadIdx.x < layout.extras();
  Running r;
  accumulate(r, in4, layout.nvec, first, stride);
  if (has_extra)
    r.add(in[layout.extra_index(threadIdx.x)]);
  const Stats stats = grid_stats(r, ws, barrier, scratch);
  normalize_items<true>(in4, reinterpret_cast<float4 *>(out + layout.head), layout.nvec, first,
                        stride, stats);
  if (has_extra) {
    const std::size_t i = layout.extra_index(threadIdx.x);
    out[i] = normalized(in[i], stats);
  }
}

// Both passes in one launch with the input held in registers: item j of a thread is float4
// number first + j * stride, so every load instruction of a warp stays coalesced.
__global__ __launch_bounds__(kBlockThreads) void resident_kernel(const float *in, float *out,
                                                                 Layout layout, Workspace ws) {
  __shared__ PairScratch<kBlockThreads> scratch;
  GridBarrier barrier(ws.control);
  const float4 *in4 = reinterpret_cast<const float4 *>(in + layout.head);
  float4 *out4 = reinterpret_cast<float4 *>(out + layout.head);
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kBlockThreads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kBlockThreads;
  float4 items[kResidentItems];
#pragma unroll
  for (int j = 0; j < kResidentItems; ++j)
    if (first + j * stride < layout.nvec)
      items[j] = in4[first + j * stride];
  const bool has_extra = blockIdx.x == 0 && threadIdx.x < layout.extras();
  const float extra = has_extra ? in[layout.extra_index(threadIdx.x)] : 0.0f;
  Running r;
#pragma unroll
  for (int j = 0; j < kResidentItems; ++j)
    if (first + j * stride < layout.nvec)
      r.add(items[j]);
  if (has_extra)
    r.add(extra);
  const Stats stats = grid_stats(r, ws, barrier, scratch);
#pragma unroll
  for (int j = 0; j < kResidentItems; ++j)
    if (first + j * stride < layout.nvec)
      out4[first + j * stride] = normalized(items[j], stats);
  if (has_extra)
    out[layout.extra_index(threadIdx.x)] = normalized(extra, stats);
}

// Run-time options of the on-chip kernel (OnChipConfig).
struct OnChipOptions {
  unsigned copy_groups; // 1 to 4
  bool bulk_copy;       // where kit::kGpuBulkCopy
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
// power-of-two pieces from kPiece down: exponentials only for items that exist. (A group padded
// with -inf spent 15-20 % of the exponentials after the copies land on padding from 8e6 to 1.2e7
// on the 256x40 shape; README, "The exchange".)
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

// Both passes in one launch with each block's slice on chip across the grid-wide barrier: items
// [0, kRegisterItems) of a thread in registers, items from kRegisterItems on in the block's
// dynamic shared memory (`slots` per thread). One template for every block shape (OnChipShape):
// kThreads threads, one block per multiprocessor. Item j of a thread is float4 number first + j *
// stride, as in the resident kernel. The shared-memory items are copied without passing through
// registers, in options.copy_groups groups of rows that pass 1 waits for one at a time: on sm_90
// and later one bulk copy per row of the block (kit::gpu_bulk_copy_to_shared, issued by thread 0,
// each group completing on its own transaction barrier), elsewhere or without
// options.bulk_copy 16 bytes per thread (kit::gpu_async_copy_16). kSharedFirst: the copies are
// issued first, then the register loads, and pass 1 works through the shared-memory items while the
// register items are still arriving, then on those as they arrive. Otherwise (the default: faster
// from 8e6 on in every shape, README) the register loads go first and are processed first while the
// copies land. Dynamic shared memory layout (OnChipScratch): the pair scratch, the copy groups'
// transaction barriers, then slot s of thread t at float4 s * kThreads + t (a warp's accesses are
// consecutive 16-byte words, and row s of the block is one contiguous range of the input; with
// per-thread copies every thread reads only its own slots, so its own wait for its copies is all
// the synchronisation needed).
template <int kThreads, int kRegisterItems, bool kSharedFirst, bool kPass2SharedFirst>
__global__ __launch_bounds__(kThreads, 1) void onchip_kernel(const float *in, float *out,
                                                             Layout layout, Workspace ws,
                                                             OnChipOptions options) {
  constexpr int kGroup = onchip_group(kThreads);
  static_assert(kRegisterItems % kGroup == 0, "register items in whole groups");
  SOFTMAX_PHASE_MARK(0, false);
  extern __shared__ float4 dynamic_shared[];
  using Scratch = OnChipScratch<kThreads>;
  auto &scratch = *reinterpret_cast<PairScratch<kThreads> *>(dynamic_shared);
  auto *copy_barriers = reinterpret_cast<std::uint64_t *>(reinterpret_cast<char *>(dynamic_shared) +
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
  // This thread's items (the Engine sizes the grid so that they fit).
  const unsigned count = first < nvec ? (nvec - 1 - first) / stride + 1 : 0;
  const unsigned shared_count = count > kRegisterItems ? count - kRegisterItems : 0;
  // The block's shared-memory rows (its thread 0 has the most items; the others have as many or,
  // in the last row, one fewer). Rows per copy group, in whole pass-1 groups so that none
  // straddles two, the same for every thread.
  const unsigned block_first = blockIdx.x * kThreads;
  const unsigned block_count = block_first < nvec ? (nvec - 1 - block_first) / stride + 1 : 0;
  const unsigned block_rows = block_count > kRegisterItems ? block_count - kRegisterItems : 0;
  const unsigned per_copy =
      ((block_rows + options.copy_groups - 1) / options.copy_groups + kGroup - 1) / kGroup * kGroup;
  const unsigned copy_groups = shared_count ? (shared_count + per_copy - 1) / per_copy : 0;
  const bool bulk = kit::kGpuBulkCopy && options.bulk_copy && block_rows != 0;
  if (bulk) {
    if (threadIdx.x == 0)
      for (unsigned g = 0; g * per_copy < block_rows; ++g)
        kit::gpu_tx_barrier_init(copy_barriers + g);
    __syncthreads();
  }

  const float4 *shared_first = in4 + first + kRegisterItems * stride;
  // Thread 0 copies the block's rows, announcing each group's bytes on its barrier first.
  auto bulk_copy_rows = [&] {
    if (threadIdx.x != 0)
      return;
    for (unsigned begin = 0, g = 0; begin < block_rows; begin += per_copy, ++g) {
      const unsigned end = min(block_rows, begin + per_copy);
      auto row_start = [&](unsigned s) { return (kRegisterItems + s) * stride + block_first; };
      auto row_bytes = [&](unsigned s) {
        return min(static_cast<unsigned>(kThreads), nvec - row_start(s)) * 16u;
      };
      unsigned bytes = 0;
      for (unsigned s = begin; s < end; ++s)
        bytes += row_bytes(s);
      kit::gpu_tx_barrier_expect(copy_barriers + g, bytes);
      for (unsigned s = begin; s < end; ++s)
        kit::gpu_bulk_copy_to_shared(block_slots + s * kThreads, in4 + row_start(s), row_bytes(s),
                                     copy_barriers + g);
    }
  };
  auto copy_shared_items = [&] {
    if (bulk)
      return bulk_copy_rows();
    for (unsigned begin = 0; begin < shared_count; begin += per_copy) {
      const unsigned end = min(shared_count, begin + per_copy);
      // Unrolled for gfx908, where each copy is a load and a store: several loads in flight.
#pragma unroll 8
      for (unsigned s = begin; s < end; ++s)
        kit::gpu_async_copy_16(slots + s * kThreads, shared_first + s * stride);
      kit::gpu_async_copy_commit();
    }
  };
  if (kSharedFirst)
    copy_shared_items();
  float4 items[kRegisterItems];
  {
    const float4 *p = in4 + first;
#pragma unroll
    for (int j = 0; j < kRegisterItems; ++j, p += stride)
      items[j] = j < static_cast<int>(count)
                     ? kit::gpu_load_once(p)
                     : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  }
  if (!kSharedFirst)
    copy_shared_items();
  const bool has_extra = blockIdx.x == 0 && threadIdx.x < layout.extras();
  const float extra = has_extra ? in[layout.extra_index(threadIdx.x)] : 0.0f;

  Running r;
  auto add_register_items = [&] {
#pragma unroll
    for (int j = 0; j < kRegisterItems; j += kGroup)
      r.add_group<kGroup>(items + j);
  };
  if (!kSharedFirst) {
    add_register_items();
    SOFTMAX_PHASE_MARK(4, false);
  }
  for (unsigned s = 0, next_copy_group = 0, pending = copy_groups; s < shared_count; s += kGroup) {
    if (s == next_copy_group) { // the first group of a copy group
      --pending;
      if (bulk)
        kit::gpu_tx_barrier_wait(copy_barriers + s / per_copy, 0);
      else
        kit::gpu_async_copy_wait_pending(pending);
      next_copy_group += per_copy;
      if (s == 0)
        SOFTMAX_PHASE_MARK(5, false);
    }
    if (shared_count - s >= kGroup)
      add_shared_group<kGroup, kThreads>(r, slots + s * kThreads);
    else
      add_partial_group<kGroup / 2, kThreads>(r, slots + s * kThreads, shared_count - s);
  }
  if (kSharedFirst) {
    add_register_items();
    SOFTMAX_PHASE_MARK(4, false);
  }
  if (has_extra)
    r.add(extra);
  SOFTMAX_PHASE_MARK(1, true);
  const Stats stats = grid_stats(r, ws, barrier, scratch);
  SOFTMAX_PHASE_MARK(2, false);
  // The extra is read again rather than kept across the barrier (one register fewer); issued
  // first, its load overlaps the other writes. Only this thread writes that element (in == out).
  const float extra_again = has_extra ? in[layout.extra_index(threadIdx.x)] : 0.0f;
  auto write_register_items = [&] {
    // Tested as an index, not as j < count: a test the compiler could share with the loads
    // would keep 40 lane masks alive across the barrier (gfx908 ran out of scalar registers).
    float4 *p = out4 + first;
#pragma unroll
    for (int j = 0; j < kRegisterItems; ++j, p += stride)
      if (first + j * stride < nvec)
        *p = normalized(items[j], stats);
  };
  auto write_shared_items = [&] {
    float4 *shared_out = out4 + first + kRegisterItems * stride;
#pragma unroll 4
    for (unsigned s = 0; s < shared_count; ++s)
      shared_out[s * stride] = normalized(slots[s * kThreads], stats);
  };
  // Template parameters rather than run-time choices: a run-time choice of the pass-2 order
  // kept both orders' addresses alive and cost up to 34 registers (spills on sm_90).
  if (kPass2SharedFirst)
    write_shared_items();
  write_register_items();
  if (!kPass2SharedFirst)
    write_shared_items();
  if (has_extra)
    out[layout.extra_index(threadIdx.x)] = normalized(extra_again, stats);
  SOFTMAX_PHASE_MARK(3, true);
}

// The on-chip kernels of one block shape, for the Engine's host code.
template <int kThreads, int kRegisterItems> struct OnChipKernels {
  static constexpr int threads = kThreads;
  static constexpr int register_items = kRegisterItems;
  // Bytes of dynamic shared memory before the slots.
  static constexpr std::size_t scratch_bytes = OnChipScratch<kThreads>::bytes;
  using Kernel = void (*)(const float *, float *, Layout, Workspace, OnChipOptions);
  static constexpr Kernel kernels[2][2] = {{onchip_kernel<kThreads, kRegisterItems, false, false>,
                                            onchip_kernel<kThreads, kRegisterItems, false, true>},
                                           {onchip_kernel<kThreads, kRegisterItems, true, false>,
                                            onchip_kernel<kThreads, kRegisterItems, true, true>}};
  static Kernel pick(bool shared_first, bool pass2_shared_first) {
    return kernels[shared_first][pass2_shared_first];
  }
};

template <OnChipShape kShape>
using OnChipKernelsOf = OnChipKernels<onchip_threads(kShape), onchip_register_items(kShape)>;

// Calls f(OnChipKernels<...>{}) for `shape`.
template <class F> void with_onchip_kernels(OnChipShape shape, F &&f) {
  switch (shape) {
  case OnChipShape::k256x40:
    return f(OnChipKernelsOf<OnChipShape::k256x40>{});
  case OnChipShape::k512x16:
    return f(OnChipKernelsOf<OnChipShape::k512x16>{});
  case OnChipShape::k768x8:
    return f(OnChipKernelsOf<OnChipShape::k768x8>{});
  case OnChipShape::k1024x8:
    return f(OnChipKernelsOf<OnChipShape::k1024x8>{});
  }
}

template <class Kernel>
unsigned full_occupancy_grid(Kernel kernel, std::size_t shared_bytes = 0,
                             int threads = kBlockThreads) {
  const int blocks = kit::gpu::resident_blocks(kernel, threads, shared_bytes);
  if (blocks < 1) {
    std::fprintf(stderr,
                 "softmax: a %d-thread block of a softmax kernel does not fit on one "
                 "multiprocessor\n",
                 threads);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  return static_cast<unsigned>(blocks);
}

// Blocks for a streaming pass over `layout`: enough for kUnroll float4 per thread, at most the
// full-occupancy grid, at least one (for the extras).
unsigned streaming_grid(const Layout &layout, unsigned full_grid) {
  const std::size_t per_block = static_cast<std::size_t>(kBlockThreads) * kUnroll;
  const std::size_t wanted = (layout.nvec + per_block - 1) / per_block;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, full_grid)));
}

#if defined(SOFTMAX_PHASE_TIMES) && KIT_CUDA
// The marks of the last on-chip launch: kPhaseMarks per block, blocks [0, blocks).
void copy_phase_times(unsigned long long *host, unsigned blocks) {
  GPU_CHECK(cudaMemcpyFromSymbol(host, g_phase_times,
                                 sizeof(unsigned long long) * kPhaseMarks *
                                     std::min(blocks, kPhaseMaxBlocks)));
}
#endif

} // namespace detail

using namespace detail;

const char *method_name(Method method) {
  switch (method) {
  case Method::kAuto:
    return "auto";
  case Method::kTwoPass:
    return "two-pass";
  case Method::kTwoPassReverse:
    return "two-pass-rev";
  case Method::kPersistent:
    return "persistent";
  case Method::kResident:
    return "resident";
  case Method::kOnChip:
    return "on-chip";
  }
  return "?";
}

const char *shape_name(OnChipShape shape) {
  switch (shape) {
  case OnChipShape::k256x40:
    return "256x40";
  case OnChipShape::k512x16:
    return "512x16";
  case OnChipShape::k768x8:
    return "768x8";
  case OnChipShape::k1024x8:
    return "1024x8";
  }
  return "?";
}

Engine::Engine() {
  reduce_grid_ = full_occupancy_grid(reduce_kernel);
  normalize_grid_ = full_occupancy_grid(normalize_kernel<true>);
  persistent_grid_ = full_occupancy_grid(persistent_kernel);
  resident_grid_ = full_occupancy_grid(resident_kernel);
  GPU_CHECK(cudaMalloc(&control_, sizeof(Control)));
  GPU_CHECK(cudaMemset(control_, 0, sizeof(Control)));
  tune_onchip(OnChipConfig{});
  reserve_partials(std::max({reduce_grid_, persistent_grid_, resident_grid_}));
}

void Engine::tune_onchip(const OnChipConfig &config) {
  if (config.copy_groups < 1 || config.copy_groups > 4) {
    std::fprintf(stderr, "softmax: on-chip copy groups must be 1 to 4, not %u\n",
                 config.copy_groups);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  onchip_ = config;
  onchip_.min_block_items = std::max(1u, config.min_block_items);
  onchip_wide_ = onchip_;
  onchip_wide_.shape = OnChipShape::k256x40;
  onchip_wide_sizing_ = size_onchip(onchip_wide_);
  // After the wide one: each sets its kernels' shared-memory limit, which must be this shape's
  // when both are the same.
  onchip_sizing_ = size_onchip(onchip_);
  reserve_partials(std::max(onchip_sizing_.grid, onchip_wide_sizing_.grid));
}

Engine::OnChipSizing Engine::size_onchip(const OnChipConfig &config) {
  std::size_t bytes = static_cast<std::size_t>(kit::gpu::max_shared_bytes_per_block());
  if (config.shared_bytes_limit != 0)
    bytes = std::min(bytes, config.shared_bytes_limit);
  OnChipSizing sizing;
  with_onchip_kernels(config.shape, [&](auto kernels) {
    using Kernels = decltype(kernels);
    const std::size_t slot_row = sizeof(float4) * Kernels::threads;
    sizing.slots = bytes > Kernels::scratch_bytes
                       ? static_cast<unsigned>((bytes - Kernels::scratch_bytes) / slot_row)
                       : 0;
    sizing.shared_bytes = Kernels::scratch_bytes + sizing.slots * slot_row;
    sizing.grid = ~0u;
    for (const auto &by_pass2 : Kernels::kernels)
      for (const typename Kernels::Kernel kernel : by_pass2) {
        GPU_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel),
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(sizing.shared_bytes)));
        sizing.grid = std::min(sizing.grid,
                               full_occupancy_grid(kernel, sizing.shared_bytes, Kernels::threads));
      }
    sizing.capacity =
        std::size_t{sizing.grid} * Kernels::threads * (Kernels::register_items + sizing.slots) * 4;
    sizing.register_capacity =
        std::size_t{sizing.grid} * Kernels::threads * Kernels::register_items * 4;
  });
  return sizing;
}

unsigned Engine::onchip_block_threads() const { return onchip_threads(onchip_.shape); }
unsigned Engine::onchip_register_items() const {
  return detail::onchip_register_items(onchip_.shape);
}

Engine::~Engine() {
  // Errors are not checked here: a destructor may run after the runtime has shut down.
  (void)cudaFree(partials_);
  (void)cudaFree(control_);
}

void Engine::reserve_partials(unsigned total_partials) {
  if (total_partials <= partial_capacity_)
    return;
  // Kernels still queued may be using the old array.
  GPU_CHECK(cudaDeviceSynchronize());
  GPU_CHECK(cudaFree(partials_));
  GPU_CHECK(cudaMalloc(&partials_, kPartialWords * sizeof(std::uint64_t) * total_partials));
  partial_capacity_ = total_partials;
}

std::size_t Engine::resident_capacity() const {
  return static_cast<std::size_t>(resident_grid_) * kBlockThreads * kResidentItems * 4;
}

std::size_t Engine::onchip_capacity() const {
  return std::max(onchip_sizing_.capacity, onchip_wide_sizing_.capacity);
}
std::size_t Engine::onchip_shape_capacity() const { return onchip_sizing_.capacity; }
std::size_t Engine::onchip_wide_from() const {
  return onchip_.wide_beyond_registers
             ? std::min(onchip_sizing_.register_capacity, onchip_sizing_.capacity)
             : onchip_sizing_.capacity;
}
std::size_t Engine::onchip_shared_bytes() const { return onchip_sizing_.shared_bytes; }

unsigned Engine::grid(Method method, std::size_t n) const {
  const Layout layout{n, 0, n / 4};
  switch (method) {
  case Method::kAuto:
    return grid(auto_method(n), n);
  case Method::kTwoPass:
  case Method::kTwoPassReverse:
    return streaming_grid(layout, reduce_grid_);
  case Method::kPersistent:
    return streaming_grid(layout, persistent_grid_);
  case Method::kResident:
    return streaming_grid(layout, resident_grid_);
  case Method::kOnChip: {
    // Few items per thread on a small grid (fewer partials, fewer arrivals at the barrier), the
    // full grid with up to its capacity per thread above.
    const std::size_t per_block = onchip_.min_block_items;
    const std::size_t wanted = (layout.nvec + per_block - 1) / per_block;
    const unsigned full = onchip_wide(n) ? onchip_wide_sizing_.grid : onchip_sizing_.grid;
    return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, full)));
  }
  }
  return 1;
}

// From the measurements (README, "Performance", 2026-11-22). With the 256x40 on-chip shape the
// register-resident kernel was faster up to 1.5e6 on the H200 (a crossover at 35-46 % of its
// capacity). The 512x16 shape is faster than resident from 1e6 on (H100: 0.0098 against 0.0106
// ms; 1.5e6: 0.0110 against 0.0127), mostly by its smaller grid at the barrier (123-132 blocks
// against 245-528); at 5e5 resident's grid is small too (123 blocks) and it was 14 % faster than
// on-chip on the H200: the crossover is taken at 1/6 of resident's capacity (0.72e6), between.
// The on-chip kernel up to its capacity (H100 1.2e7: 0.0415 ms against 0.0515 for two-pass-rev,
// which reads the input twice); two-pass-rev beyond.
Method Engine::auto_method(std::size_t n) const {
  if (n <= resident_capacity() / 6)
    return Method::kResident;
  return n <= onchip_capacity() ? Method::kOnChip : Method::kTwoPassReverse;
}

Stats Engine::last_stats() const {
  Control control;
  GPU_CHECK(cudaMemcpy(&control, control_, sizeof(Control), cudaMemcpyDeviceToHost));
  return control.stats;
}

void Engine::check_pointers(const float *in, const float *out) const {
  if ((reinterpret_cast<std::uintptr_t>(in) - reinterpret_cast<std::uintptr_t>(out)) % 16 != 0) {
    std::fprintf(stderr, "softmax: input %p and output %p differ in alignment modulo 16 bytes\n",
                 static_cast<const void *>(in), static_cast<const void *>(out));
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
}

unsigned Engine::reduce_blocks(std::size_t n) const {
  // The layout of a part depends on its alignment only through `head`, which never changes the
  // grid by more than the rounding of nvec: use the aligned count.
  return streaming_grid(Layout{n, 0, n / 4}, reduce_grid_);
}

void Engine::reduce_part(const float *in, std::size_t n, unsigned first_partial,
                         unsigned total_partials, cudaStream_t stream) {
  const Layout layout = make_layout(in, n);
  const unsigned grid = reduce_blocks(n);
  Workspace ws{static_cast<Control *>(control_), partials_};
  reduce_kernel<<<grid, kBlockThreads, 0, stream>>>(in, layout, ws, first_partial, total_partials);
  GPU_CHECK_LAUNCH("softmax reduce_kernel");
}

void Engine::normalize_part(const float *in, float *out, std::size_t n, cudaStream_t stream) {
  check_pointers(in, out);
  const Layout layout = make_layout(in, n);
  const unsigned grid = streaming_grid(layout, normalize_grid_);
  normalize_kernel<true>
      <<<grid, kBlockThreads, 0, stream>>>(in, out, layout, static_cast<const Control *>(control_));
  GPU_CHECK_LAUNCH("softmax normalize_kernel");
}

void Engine::run(const float *in, float *out, std::size_t n, cudaStream_t stream, Method method) {
  if (n == 0)
    return;
  check_pointers(in, out);
  if (method == Method::kAuto)
    method = auto_method(n);
  const Layout layout = make_layout(in, n);
  Workspace ws{static_cast<Control *>(control_), partials_};
  const Control *control = ws.control;
  switch (method) {
  case Method::kAuto:
    break;
  case Method::kTwoPass:
  case Method::kTwoPassReverse: {
    const unsigned reduce_grid = streaming_grid(layout, reduce_grid_);
    reduce_kernel<<<reduce_grid, kBlockThreads, 0, stream>>>(in, layout, ws, 0, reduce_grid);
    GPU_CHECK_LAUNCH("softmax reduce_kernel");
    const unsigned grid = streaming_grid(layout, normalize_grid_);
    if (method == Method::kTwoPass)
      normalize_kernel<false><<<grid, kBlockThreads, 0, stream>>>(in, out, layout, control);
    else
      normalize_kernel<true><<<grid, kBlockThreads, 0, stream>>>(in, out, layout, control);
    GPU_CHECK_LAUNCH("softmax normalize_kernel");
    break;
  }
  case Method::kPersistent: {
    const unsigned grid = streaming_grid(layout, persistent_grid_);
    persistent_kernel<<<grid, kBlockThreads, 0, stream>>>(in, out, layout, ws);
    GPU_CHECK_LAUNCH("softmax persistent_kernel");
    break;
  }
  case Method::kOnChip: {
    if (n > onchip_capacity()) {
      std::fprintf(stderr, "softmax: %zu elements exceed the on-chip capacity %zu\n", n,
                   onchip_capacity());
      std::exit(kit::gpu::kGpuFailureExitCode);
    }
    // Only the shared memory this n needs: what the kernel does not take stays L1, which holds
    // the register loads in flight (capping it at 96 KB made 8e6 5 % faster in the first device
    // run); below the register capacity the kernel needs none but the scratch.
    const unsigned grid = this->grid(method, n);
    const OnChipConfig &config = onchip_wide(n) ? onchip_wide_ : onchip_;
    const OnChipSizing &sizing = onchip_wide(n) ? onchip_wide_sizing_ : onchip_sizing_;
    const OnChipOptions options{config.copy_groups, config.bulk_copy};
    with_onchip_kernels(config.shape, [&](auto kernels) {
      using Kernels = decltype(kernels);
      const std::size_t threads = std::size_t{grid} * Kernels::threads;
      const std::size_t per_thread = (layout.nvec + threads - 1) / threads;
      const std::size_t slots = per_thread > static_cast<std::size_t>(Kernels::register_items)
                                    ? per_thread - Kernels::register_items
                                    : 0;
      const std::size_t shared_bytes =
          config.size_shared_to_n
              ? Kernels::scratch_bytes + slots * sizeof(float4) * Kernels::threads
              : sizing.shared_bytes;
      Kernels::pick(config.shared_first,
                    config.pass2_shared_first)<<<grid, Kernels::threads, shared_bytes, stream>>>(
          in, out, layout, ws, options);
    });
    GPU_CHECK_LAUNCH("softmax onchip_kernel");
    break;
  }
  case Method::kResident: {
    if (n > resident_capacity()) {
      std::fprintf(stderr, "softmax: %zu elements exceed the register-resident capacity %zu\n", n,
                   resident_capacity());
      std::exit(kit::gpu::kGpuFailureExitCode);
    }
    // Up to kUnroll float4 per thread on a small grid (fewer partials to combine, fewer
    // arrivals at the barrier), up to kResidentItems when the full grid is needed.
    const unsigned grid = streaming_grid(layout, resident_grid_);
    resident_kernel<<<grid, kBlockThreads, 0, stream>>>(in, out, layout, ws);
    GPU_CHECK_LAUNCH("softmax resident_kernel");
    break;
  }
  }
}

} // namespace softmax_gpu
