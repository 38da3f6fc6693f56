// The streaming and register-resident kernels, and the Engine that sizes, launches and chooses the
// methods (kernel.h). The on-chip kernel is in kernel_onchip.h; the numbers in tuning.h.
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/tuning_dispatch.h"
#include "kernel.h"
#include "kernel_onchip.h"
#include "kernel_passes.h"
#include "tuning.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace softmax {
namespace detail {

// Pass 1 of the two-pass method: one (max, sum) pair per block into partials[first_partial +
// block]; the block that finishes the total_partials-th pair (over every launch sharing the
// ticket) combines them into control->stats and resets the ticket.
// Co-residency: no inter-block waiting. The block that draws the last ticket combines partials
// that were all released before their tickets; no block ever waits, so a plain launch of any grid
// is safe.
template <int kThreads, int kUnroll>
__global__ __launch_bounds__(kThreads) void reduce_kernel(const float *in, Layout layout,
                                                          Workspace ws, unsigned first_partial,
                                                          unsigned total_partials) {
  __shared__ PairScratch<kThreads> scratch;
  __shared__ bool is_last;
  const float4 *in4 = reinterpret_cast<const float4 *>(in + layout.head);
  Running r;
  accumulate<kUnroll>(r, in4, layout.nvec,
                      static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x,
                      static_cast<std::size_t>(gridDim.x) * kThreads);
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
    ws.control->stats = stats; // read by later launches only
    kit::gpu_store_relaxed(&ws.control->ticket, 0u);
  }
}

// Pass 2 of the two-pass method, walking the array backwards.
// Co-residency: no inter-block waiting (the statistics come from an earlier launch).
template <int kThreads, int kUnroll>
__global__ __launch_bounds__(kThreads) void normalize_kernel(const float *in, float *out,
                                                             Layout layout,
                                                             const Control *control) {
  const Stats stats = control->stats;
  normalize_items_backwards<kUnroll>(reinterpret_cast<const float4 *>(in + layout.head),
                                     reinterpret_cast<float4 *>(out + layout.head), layout.nvec,
                                     static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x,
                                     static_cast<std::size_t>(gridDim.x) * kThreads, stats);
  if (blockIdx.x == 0 && threadIdx.x < layout.extras()) {
    const std::size_t i = layout.extra_index(threadIdx.x);
    out[i] = normalized(in[i], stats);
  }
}

// Both passes in one launch with the input held in registers: item j of a thread is float4
// number first + j * stride, so every load instruction of a warp stays coalesced.
// Co-residency: waits at a grid barrier, so it is launched with kit::gpu::try_launch_cooperative
// (the two-pass method runs where the runtime refuses) on a
// grid of at most resident_blocks.
template <int kThreads, int kItems>
__global__ __launch_bounds__(kThreads) void resident_kernel(const float *in, float *out,
                                                            Layout layout, Workspace ws) {
  __shared__ PairScratch<kThreads> scratch;
  GridBarrier barrier(ws.control);
  const float4 *in4 = reinterpret_cast<const float4 *>(in + layout.head);
  float4 *out4 = reinterpret_cast<float4 *>(out + layout.head);
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  float4 items[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    if (first + j * stride < layout.nvec)
      items[j] = in4[first + j * stride];
  const bool has_extra = blockIdx.x == 0 && threadIdx.x < layout.extras();
  const float extra = has_extra ? in[layout.extra_index(threadIdx.x)] : 0.0f;
  Running r;
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    if (first + j * stride < layout.nvec)
      r.add(items[j]);
  if (has_extra)
    r.add(extra);
  const Stats stats = grid_stats(r, ws, barrier, scratch);
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    if (first + j * stride < layout.nvec)
      out4[first + j * stride] = normalized(items[j], stats);
  if (has_extra)
    out[layout.extra_index(threadIdx.x)] = normalized(extra, stats);
}

using ReduceKernel = void (*)(const float *, Layout, Workspace, unsigned, unsigned);
using NormalizeKernel = void (*)(const float *, float *, Layout, const Control *);
using ResidentKernel = void (*)(const float *, float *, Layout, Workspace);

// Blocks for `nvec` float4 at `per_block` float4 per block, at least one (for the extras), at most
// `full_grid`.
unsigned shrunk_grid(std::size_t nvec, std::size_t per_block, unsigned full_grid) {
  const std::size_t wanted = (nvec + per_block - 1) / per_block;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, full_grid)));
}

[[noreturn]] void exceeds_capacity(const char *what, std::size_t n, std::size_t limit) {
  std::fprintf(stderr, "softmax: %zu elements exceed the %s capacity %zu\n", n, what, limit);
  std::exit(kit::gpu::kGpuFailureExitCode);
}

// The on-chip method's sizes for one shape on this device, capped at `shared_limit` bytes of
// shared memory per block (0: the device's limit). Capacity 0 where the shape does not fit.
OnChipShapeInfo size_onchip(const OnChipShapeKernel &shape, std::size_t shared_limit) {
  OnChipShapeInfo info;
  info.threads = shape.threads;
  info.register_items = shape.register_items;
  const std::size_t device_bytes = static_cast<std::size_t>(kit::gpu::max_shared_bytes_per_block());
  const std::size_t row = sizeof(float4) * shape.threads;
  if (device_bytes < shape.scratch_bytes)
    return info;
  // The opt-in limit before any sizing, and always the device's most for this shape (whatever the
  // cap), so that engines with different caps agree on it.
  const std::size_t device_slots = (device_bytes - shape.scratch_bytes) / row;
  GPU_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(shape.kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(shape.scratch_bytes + device_slots * row)));
  const std::size_t bytes = shared_limit != 0 ? std::min(device_bytes, shared_limit) : device_bytes;
  if (bytes < shape.scratch_bytes)
    return info;
  info.slots = static_cast<unsigned>((bytes - shape.scratch_bytes) / row);
  info.shared_bytes = shape.scratch_bytes + info.slots * row;
  const int blocks =
      kit::gpu::resident_blocks(shape.kernel, static_cast<int>(shape.threads), info.shared_bytes);
  if (blocks < 1)
    return info;
  info.grid = static_cast<unsigned>(blocks);
  const std::size_t threads = std::size_t{info.grid} * shape.threads;
  info.register_capacity = threads * shape.register_items * 4;
  info.capacity = threads * (shape.register_items + info.slots) * 4;
  return info;
}

// Full-occupancy grid of a streaming kernel; these have no fallback, so a device that cannot hold
// one block of them ends the program.
template <class Kernel> unsigned streaming_full_grid(Kernel kernel, unsigned threads) {
  const int blocks = kit::gpu::resident_blocks(kernel, static_cast<int>(threads));
  if (blocks < 1) {
    std::fprintf(stderr,
                 "softmax: a %u-thread block of a streaming kernel does not fit on one "
                 "multiprocessor\n",
                 threads);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  return static_cast<unsigned>(blocks);
}

} // namespace detail

using namespace detail;

// The kernels of the device's tuning table (tuning.h) and the numbers their launches use.
struct Engine::Plan {
  ReduceKernel reduce;
  NormalizeKernel normalize;
  unsigned stream_threads;
  unsigned stream_block_items; // float4 per block of the streaming grid rule
  ResidentKernel resident;
  unsigned resident_threads;
  unsigned resident_items;
  unsigned resident_min_block_items;
  OnChipKernels onchip;
  unsigned onchip_min_block_items;
  unsigned auto_resident_divisor;
  std::size_t auto_single_launch_min_items;
};

namespace {

template <class T> Engine::Plan plan_for() {
  return Engine::Plan{reduce_kernel<T::kStreamThreads, T::kStreamUnroll>,
                      normalize_kernel<T::kStreamThreads, T::kStreamUnroll>,
                      T::kStreamThreads,
                      T::kStreamThreads * T::kStreamUnroll,
                      resident_kernel<T::kResidentThreads, T::kResidentItems>,
                      T::kResidentThreads,
                      T::kResidentItems,
                      T::kResidentMinBlockItems,
                      onchip_kernels<T, CopyPath::kBulk>(),
                      T::kOnChipMinBlockItems,
                      T::kAutoResidentDivisor,
                      T::kAutoSingleLaunchMinItems};
}

Workspace workspace_of(const kit::gpu::DeviceArray<unsigned char> &control,
                       const kit::gpu::DeviceArray<std::uint64_t> &partials) {
  return Workspace{reinterpret_cast<Control *>(control.get()), partials.get()};
}

} // namespace

const char *method_name(Method method) {
  switch (method) {
  case Method::kAuto:
    return "auto";
  case Method::kTwoPassReverse:
    return "two-pass-rev";
  case Method::kResident:
    return "resident";
  case Method::kOnChip:
    return "on-chip";
  }
  return "?";
}

Engine::Engine(const EngineOptions &options)
    : narrow_to_capacity_(options.narrow_to_capacity), control_(sizeof(Control)) {
  Plan plan = kit::gpu::with_tuning<SoftmaxTuning>(
      [](auto tuning) { return plan_for<decltype(tuning)>(); });
  if (options.onchip_kernels)
    plan.onchip = *options.onchip_kernels;
  plan_ = std::make_unique<const Plan>(plan);
  reduce_grid_ = streaming_full_grid(plan.reduce, plan.stream_threads);
  normalize_grid_ = streaming_full_grid(plan.normalize, plan.stream_threads);
  // The single-kernel methods wait at a grid barrier: only where the device launches
  // cooperatively; elsewhere their capacities stay 0 and kAuto runs the two-pass method.
  if (kit::gpu::cooperative_launch_works()) {
    resident_grid_ = static_cast<unsigned>(std::max(
        0, kit::gpu::resident_blocks(plan.resident, static_cast<int>(plan.resident_threads))));
    narrow_ = size_onchip(plan.onchip.narrow, options.shared_bytes_limit);
    wide_ = size_onchip(plan.onchip.wide, options.shared_bytes_limit);
  }
  GPU_CHECK(cudaMemset(control_.get(), 0, sizeof(Control)));
  reserve_partials(std::max({reduce_grid_, resident_grid_, narrow_.grid, wide_.grid}));
}

Engine::~Engine() = default;

void Engine::reserve_partials(unsigned total_partials) {
  if (std::size_t{total_partials} * kPartialWords <= partials_.size())
    return;
  // Kernels still queued may be using the old array.
  GPU_CHECK(cudaDeviceSynchronize());
  partials_ = kit::gpu::DeviceArray<std::uint64_t>(std::size_t{total_partials} * kPartialWords);
}

std::size_t Engine::resident_capacity() const {
  return std::size_t{resident_grid_} * plan_->resident_threads * plan_->resident_items * 4;
}

std::size_t Engine::onchip_capacity() const { return std::max(narrow_.capacity, wide_.capacity); }

std::size_t Engine::onchip_narrow_limit() const {
  return narrow_to_capacity_ ? narrow_.capacity
                             : std::min(narrow_.register_capacity, narrow_.capacity);
}

const OnChipShapeInfo *Engine::onchip_shape(std::size_t n) const {
  if (n <= onchip_narrow_limit())
    return &narrow_;
  if (n <= wide_.capacity)
    return &wide_;
  if (n <= narrow_.capacity)
    return &narrow_;
  return nullptr;
}

unsigned Engine::onchip_min_block_items() const { return plan_->onchip_min_block_items; }

unsigned Engine::grid(Method method, std::size_t n) const {
  // Grids depend on the alignment of the array only through the rounding of nvec: the aligned
  // count, so that reduce_blocks() and the launches agree.
  const std::size_t nvec = n / 4;
  switch (method) {
  case Method::kAuto:
    return grid(auto_method(n), n);
  case Method::kTwoPassReverse:
    return shrunk_grid(nvec, plan_->stream_block_items, reduce_grid_);
  case Method::kResident:
    return shrunk_grid(nvec, plan_->resident_min_block_items, resident_grid_);
  case Method::kOnChip: {
    const OnChipShapeInfo *shape = onchip_shape(n);
    return shape ? shrunk_grid(nvec, plan_->onchip_min_block_items, shape->grid) : 0;
  }
  }
  return 1;
}

std::size_t Engine::auto_resident_limit() const {
  return resident_capacity() / plan_->auto_resident_divisor;
}

Method Engine::auto_method(std::size_t n) const {
  if (n < plan_->auto_single_launch_min_items)
    return Method::kTwoPassReverse;
  if (n <= auto_resident_limit())
    return Method::kResident;
  return n <= onchip_capacity() ? Method::kOnChip : Method::kTwoPassReverse;
}

Stats Engine::last_stats() const {
  Control control;
  GPU_CHECK(cudaMemcpy(&control, control_.get(), sizeof(Control), cudaMemcpyDeviceToHost));
  return control.stats;
}

void Engine::check_pointers(const float *in, const float *out) const {
  if ((reinterpret_cast<std::uintptr_t>(in) - reinterpret_cast<std::uintptr_t>(out)) % 16 != 0) {
    std::fprintf(stderr, "softmax: input %p and output %p differ in alignment modulo 16 bytes\n",
                 static_cast<const void *>(in), static_cast<const void *>(out));
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
}

unsigned Engine::reduce_blocks(std::size_t n) const { return grid(Method::kTwoPassReverse, n); }

void Engine::reduce_part(const float *in, std::size_t n, unsigned first_partial,
                         unsigned total_partials, cudaStream_t stream) {
  plan_->reduce<<<reduce_blocks(n), plan_->stream_threads, 0, stream>>>(
      in, make_layout(in, n), workspace_of(control_, partials_), first_partial, total_partials);
  GPU_CHECK_LAUNCH("softmax reduce_kernel");
}

void Engine::normalize_part(const float *in, float *out, std::size_t n, cudaStream_t stream) {
  check_pointers(in, out);
  const unsigned grid = shrunk_grid(n / 4, plan_->stream_block_items, normalize_grid_);
  plan_->normalize<<<grid, plan_->stream_threads, 0, stream>>>(
      in, out, make_layout(in, n), reinterpret_cast<const Control *>(control_.get()));
  GPU_CHECK_LAUNCH("softmax normalize_kernel");
}

bool Engine::launch_onchip(const float *in, float *out, std::size_t n, cudaStream_t stream) const {
  const OnChipShapeInfo *shape = onchip_shape(n);
  if (!shape)
    exceeds_capacity("on-chip", n, onchip_capacity());
  const OnChipShapeKernel &kernel = shape == &narrow_ ? plan_->onchip.narrow : plan_->onchip.wide;
  const Layout layout = make_layout(in, n);
  const unsigned grid = this->grid(Method::kOnChip, n);
  // Only the shared memory this n needs: what the kernel does not take stays L1, which holds the
  // register loads in flight. Below the register capacity the kernel needs none but the scratch.
  const std::size_t threads = std::size_t{grid} * kernel.threads;
  const std::size_t per_thread = (layout.nvec + threads - 1) / threads;
  const std::size_t slots =
      per_thread > kernel.register_items ? per_thread - kernel.register_items : 0;
  const std::size_t shared_bytes = kernel.scratch_bytes + slots * sizeof(float4) * kernel.threads;
  return kit::gpu::try_launch_cooperative("softmax onchip_kernel", kernel.kernel, grid,
                                          kernel.threads, shared_bytes, stream, in, out, layout,
                                          workspace_of(control_, partials_));
}

void Engine::run_two_pass(const float *in, float *out, std::size_t n, cudaStream_t stream) {
  const unsigned blocks = reduce_blocks(n);
  reduce_part(in, n, 0, blocks, stream);
  normalize_part(in, out, n, stream);
}

void Engine::run(const float *in, float *out, std::size_t n, cudaStream_t stream, Method method) {
  if (n == 0)
    return;
  check_pointers(in, out);
  if (method == Method::kAuto)
    method = auto_method(n);
  switch (method) {
  case Method::kAuto:
    break;
  case Method::kTwoPassReverse:
    run_two_pass(in, out, n, stream);
    break;
  // The single-launch methods need a cooperative launch; one the runtime refuses (after one
  // warning line) runs the two-pass method, which computes the same answer.
  case Method::kResident:
    if (n > resident_capacity())
      exceeds_capacity("register-resident", n, resident_capacity());
    if (!kit::gpu::try_launch_cooperative("softmax resident_kernel", plan_->resident,
                                          grid(Method::kResident, n), plan_->resident_threads, 0,
                                          stream, in, out, make_layout(in, n),
                                          workspace_of(control_, partials_)))
      run_two_pass(in, out, n, stream);
    break;
  case Method::kOnChip:
    if (!launch_onchip(in, out, n, stream))
      run_two_pass(in, out, n, stream);
    break;
  }
}

} // namespace softmax
