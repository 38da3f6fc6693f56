// The softmax kernels and the Engine that sizes, launches and chooses them (kernel.h).
#include "kernel.h"
#include "kernel_passes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace softmax_gpu {
namespace detail {

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
  const Pair block = block_merge(r.p, scratch);
  if (threadIdx.x == 0)
    store_partial(ws.partials, blockIdx.x, block);
  barrier.wait();
  const Stats stats = combine_partials(ws.partials, gridDim.x, scratch);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    ws.control->stats = stats;
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
  const Pair block = block_merge(r.p, scratch);
  if (threadIdx.x == 0)
    store_partial(ws.partials, blockIdx.x, block);
  barrier.wait();
  const Stats stats = combine_partials(ws.partials, gridDim.x, scratch);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    ws.control->stats = stats;
#pragma unroll
  for (int j = 0; j < kResidentItems; ++j)
    if (first + j * stride < layout.nvec)
      out4[first + j * stride] = normalized(items[j], stats);
  if (has_extra)
    out[layout.extra_index(threadIdx.x)] = normalized(extra, stats);
}

template <class Kernel> unsigned full_occupancy_grid(Kernel kernel) {
  const int blocks = kit::gpu::resident_blocks(kernel, kBlockThreads);
  if (blocks < 1) {
    std::fprintf(stderr,
                 "softmax: a %d-thread block of a softmax kernel does not fit on one "
                 "multiprocessor\n",
                 kBlockThreads);
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
  reserve_partials(std::max({reduce_grid_, persistent_grid_, resident_grid_}));
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
  GPU_CHECK(cudaMalloc(&partials_, 2 * sizeof(std::uint64_t) * total_partials));
  partial_capacity_ = total_partials;
}

std::size_t Engine::resident_capacity() const {
  return static_cast<std::size_t>(resident_grid_) * kBlockThreads * kResidentItems * 4;
}

Method Engine::auto_method(std::size_t n) const {
  return n <= resident_capacity() ? Method::kResident : Method::kTwoPassReverse;
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
