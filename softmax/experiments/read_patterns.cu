// How fast one block per multiprocessor can pull a slice of the input on chip, by access pattern,
// against the full-occupancy streaming read of the same bytes (kit::bench::read_device_bytes, the
// floor of pass 1). The on-chip kernel's pass 1 reads like "burst, rows": each thread issues all
// its register loads at once, item j of a thread one grid-wide row after item j - 1. Not part of
// any build; CUDA sm_90 only (bulk copies).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Icommon -o read_patterns softmax/experiments/read_patterns.cu
//   ./read_patterns            (ONLY_STORES=1: pass 2's store patterns alone)
#include "bench/event_timing.h"
#include "gpu/gpu.h"
#include "bench/l2_eviction.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

constexpr std::size_t kBlockShared = 200 * 1024; // keeps one block per multiprocessor

// 0 plain, 1 nc + L1::no_allocate.
template <int kHint> __device__ __forceinline__ float4 load(const float4 *p) {
  if constexpr (kHint == 0) {
    return *p;
  } else {
    float4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
  }
}

__device__ __forceinline__ float fold(float4 v) { return (v.x + v.y) + (v.z + v.w); }

// Uses every loaded value, so that no load can be dropped; stores only for a sum no input makes.
template <int kItems>
__device__ __forceinline__ void consume(const float4 (&v)[kItems], float *sink) {
  float acc = 0;
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    acc += fold(v[j]);
  if (acc == 1234.5f)
    sink[0] = acc;
}

// Item j of thread t of block b: rows (float4 (j * grid + b) * kThreads + t) or a contiguous block
// slice (float4 (b * kItems + j) * kThreads + t). Every load is issued before any is used.
template <int kThreads, int kItems, bool kContiguous, int kHint>
__global__ __launch_bounds__(kThreads, 1) void burst_kernel(const float4 *in, float *sink) {
  float4 v[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const unsigned row = kContiguous ? blockIdx.x * kItems + j : j * gridDim.x + blockIdx.x;
    v[j] = load<kHint>(in + static_cast<std::size_t>(row) * kThreads + threadIdx.x);
  }
  consume(v, sink);
}

// Rows as burst_kernel, but at most kWindow loads of a thread in flight: the address of load
// j + kWindow depends on the value of load j, so the hardware cannot issue it earlier.
template <int kThreads, int kItems, int kWindow, int kHint>
__global__ __launch_bounds__(kThreads, 1) void window_kernel(const float4 *in, float *sink) {
  float4 v[kItems];
  unsigned offset = 0;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    if (j >= kWindow && __float_as_uint(v[j - kWindow].x) == 0xFFFFFFFFu)
      offset = 1; // never: a NaN pattern the input does not hold
    const unsigned row = j * gridDim.x + blockIdx.x;
    v[j] = load<kHint>(in + static_cast<std::size_t>(row) * kThreads + threadIdx.x + offset);
  }
  consume(v, sink);
}

// Thread 0 moves the block's share into shared memory by bulk copies of kRowBytes: grid-wide
// rows (copy r of block b at (r * grid + b) * kRowBytes) or one contiguous slice; then every
// thread folds its part of shared memory.
template <int kThreads, unsigned kRowBytes, bool kContiguous>
__global__ __launch_bounds__(kThreads, 1) void bulk_kernel(const char *in, unsigned rows,
                                                           float *sink) {
  extern __shared__ float4 shared[];
  __shared__ std::uint64_t barrier;
  if (threadIdx.x == 0)
    kit::gpu_tx_barrier_init(&barrier);
  __syncthreads();
  if (threadIdx.x == 0) {
    kit::gpu_tx_barrier_expect(&barrier, rows * kRowBytes);
    for (unsigned r = 0; r < rows; ++r) {
      const std::size_t row = kContiguous ? std::size_t{blockIdx.x} * rows + r
                                          : std::size_t{r} * gridDim.x + blockIdx.x;
      kit::gpu_bulk_copy_to_shared(reinterpret_cast<char *>(shared) + r * kRowBytes,
                                   in + row * kRowBytes, kRowBytes, &barrier);
    }
  }
  kit::gpu_tx_barrier_wait(&barrier, 0);
  float acc = 0;
  for (unsigned i = threadIdx.x; i < rows * kRowBytes / 16; i += kThreads)
    acc += fold(shared[i]);
  if (acc == 1234.5f)
    sink[0] = acc;
}

// The on-chip kernel's read without its arithmetic: kItems rows into registers (all issued at
// once), kSlots further rows into shared memory by mode: 0 bulk copies by thread 0 after the
// register loads (the kernel's default), 1 16-byte cp.async per thread, 2 loads into registers
// and stores to shared memory, 4 float4 at a time (8 in flight), 3 bulk copies issued before
// the register loads.
template <int kThreads, int kItems, int kSlots, int kMode>
__global__ __launch_bounds__(kThreads, 1) void mixed_kernel(const float4 *in, float *sink) {
  extern __shared__ float4 slots[];
  __shared__ std::uint64_t barrier;
  auto row = [&](unsigned j) {
    return in + (std::size_t{j} * gridDim.x + blockIdx.x) * kThreads + threadIdx.x;
  };
  constexpr bool kBulk = kMode == 0 || kMode == 3;
  if (kBulk) {
    if (threadIdx.x == 0)
      kit::gpu_tx_barrier_init(&barrier);
    __syncthreads();
  }
  auto issue_bulk = [&] {
    if (threadIdx.x != 0)
      return;
    kit::gpu_tx_barrier_expect(&barrier, kSlots * kThreads * 16);
    for (int s = 0; s < kSlots; ++s)
      kit::gpu_bulk_copy_to_shared(slots + s * kThreads, row(kItems + s), kThreads * 16, &barrier);
  };
  if (kMode == 3)
    issue_bulk();
  float4 v[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    v[j] = load<1>(row(j));
  if (kMode == 0)
    issue_bulk();
  if (kMode == 1) {
#pragma unroll 8
    for (int s = 0; s < kSlots; ++s)
      kit::gpu_async_copy_16(slots + s * kThreads + threadIdx.x, row(kItems + s));
    kit::gpu_async_copy_commit();
  }
  if (kMode == 2) {
#pragma unroll 2
    for (int s = 0; s < kSlots; s += 4) {
      float4 t[4];
#pragma unroll
      for (int u = 0; u < 4; ++u)
        if (s + u < kSlots)
          t[u] = load<1>(row(kItems + s + u));
#pragma unroll
      for (int u = 0; u < 4; ++u)
        if (s + u < kSlots)
          slots[(s + u) * kThreads + threadIdx.x] = t[u];
    }
  }
  float acc = 0;
#pragma unroll
  for (int j = 0; j < kItems; ++j)
    acc += fold(v[j]);
  if (kBulk)
    kit::gpu_tx_barrier_wait(&barrier, 0);
  if (kMode == 1)
    kit::gpu_async_copy_wait_all();
  for (int s = 0; s < kSlots; ++s)
    acc += fold(slots[s * kThreads + threadIdx.x]);
  if (acc == 1234.5f)
    sink[0] = acc;
}

// Pass 2's side: every thread stores kItems + kSlots rows of the grid (the on-chip kernel's
// layout) from values it computes, in row order (or contiguous block slices), or the last kSlots
// rows from shared memory by bulk stores issued by thread 0 (cp.async.bulk.global.shared::cta).
template <int kThreads, int kItems, int kSlots, int kMode>
__global__ __launch_bounds__(kThreads, 1) void store_kernel(float4 *out, float seed) {
  extern __shared__ float4 slots[];
  auto row = [&](unsigned j) {
    return kMode == 1
               ? out + (std::size_t{blockIdx.x} * (kItems + kSlots) + j) * kThreads + threadIdx.x
               : out + (std::size_t{j} * gridDim.x + blockIdx.x) * kThreads + threadIdx.x;
  };
  const float x = seed + threadIdx.x;
  if (kMode == 2) {
    for (int s = 0; s < kSlots; ++s)
      slots[s * kThreads + threadIdx.x] = make_float4(x, x + s, x, x);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
  }
#pragma unroll 8
  for (int j = 0; j < kItems + (kMode == 2 ? 0 : kSlots); ++j)
    *row(j) = make_float4(x, x + j, x, x);
  if (kMode == 2 && threadIdx.x == 0) {
    for (int s = 0; s < kSlots; ++s) {
      const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(slots + s * kThreads));
      asm volatile(
          "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
              out + (static_cast<std::size_t>(kItems + s) * gridDim.x + blockIdx.x) * kThreads),
          "r"(src), "r"(kThreads * 16)
          : "memory");
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

// A full-occupancy grid-stride store of float4.
__global__ void store_stream_kernel(float4 *out, std::size_t vectors, float seed) {
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < vectors;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = make_float4(seed, seed, seed, seed);
}

struct Bench {
  kit::bench::L2Eviction evict;
  float4 *data = nullptr;
  float *sink = nullptr;
  unsigned *read_sink = nullptr;
  int grid = 0;

  Bench(std::size_t max_bytes) {
    grid = kit::gpu::device_multiprocessors();
    GPU_CHECK(cudaMalloc(&data, max_bytes));
    GPU_CHECK(cudaMemset(data, 0x3c, max_bytes)); // floats of about 0.01
    GPU_CHECK(cudaMalloc(&sink, 4));
    GPU_CHECK(cudaMalloc(&read_sink, 4));
  }
  double time_us(const std::function<void()> &work) {
    return kit::bench::time_events(3, 41, work, evict).median_ms * 1e3;
  }
  void report(const char *name, std::size_t bytes, const std::function<void()> &work) {
    const double streaming =
        time_us([&] { kit::bench::read_device_bytes(data, bytes, read_sink); });
    const double pattern = time_us(work);
    std::printf("| %-34s | %6.2f MB | %6.2f us | %6.2f us | %5.2fx |\n", name, bytes / 1e6, pattern,
                streaming, pattern / streaming);
  }
  // report() for a one-block-per-SM kernel launched by `launch` with `shared` bytes of dynamic
  // shared memory (the attribute is raised to kBlockShared, which keeps one block per SM).
  template <class Kernel, class Launch>
  void report_kernel(const char *name, Kernel kernel, std::size_t bytes, Launch launch) {
    GPU_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(kBlockShared)));
    report(name, bytes, [&] {
      launch(kernel);
      GPU_CHECK_LAUNCH("pattern kernel");
    });
  }
};

template <int kThreads, int kItems, bool kContiguous, int kHint>
void burst(Bench &b, const char *name) {
  b.report_kernel(name, burst_kernel<kThreads, kItems, kContiguous, kHint>,
                  std::size_t{16} * kThreads * kItems * b.grid,
                  [&](auto kernel) { kernel<<<b.grid, kThreads, kBlockShared>>>(b.data, b.sink); });
}

template <int kThreads, int kItems, int kWindow, int kHint>
void window(Bench &b, const char *name) {
  b.report_kernel(name, window_kernel<kThreads, kItems, kWindow, kHint>,
                  std::size_t{16} * kThreads * kItems * b.grid,
                  [&](auto kernel) { kernel<<<b.grid, kThreads, kBlockShared>>>(b.data, b.sink); });
}

template <int kThreads, unsigned kRowBytes, bool kContiguous>
void bulk(Bench &b, unsigned rows, const char *name) {
  b.report_kernel(name, bulk_kernel<kThreads, kRowBytes, kContiguous>,
                  std::size_t{kRowBytes} * rows * b.grid, [&](auto kernel) {
                    kernel<<<b.grid, kThreads, kBlockShared>>>(
                        reinterpret_cast<const char *>(b.data), rows, b.sink);
                  });
}

// The mixed kernels ask for only the shared memory they use, as the on-chip kernel does (the
// rest stays L1).
template <int kThreads, int kItems, int kSlots, int kMode> void mixed(Bench &b, const char *name) {
  b.report_kernel(name, mixed_kernel<kThreads, kItems, kSlots, kMode>,
                  std::size_t{16} * kThreads * (kItems + kSlots) * b.grid, [&](auto kernel) {
                    kernel<<<b.grid, kThreads, kSlots * kThreads * 16>>>(b.data, b.sink);
                  });
}

template <int kThreads, int kItems, int kSlots, int kMode> void store(Bench &b, const char *name) {
  auto kernel = store_kernel<kThreads, kItems, kSlots, kMode>;
  const int shared = kMode == 2 ? kSlots * kThreads * 16 : 0;
  GPU_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(kBlockShared)));
  const std::size_t bytes = std::size_t{16} * kThreads * (kItems + kSlots) * b.grid;
  const double memset_us = b.time_us([&] { GPU_CHECK(cudaMemsetAsync(b.data, 0, bytes)); });
  static const int stream_blocks = kit::gpu::resident_blocks(store_stream_kernel, 256);
  const double stream_us = b.time_us([&] {
    store_stream_kernel<<<stream_blocks, 256>>>(b.data, bytes / 16, 1.0f);
    GPU_CHECK_LAUNCH("store_stream_kernel");
  });
  const double pattern_us = b.time_us([&] {
    kernel<<<b.grid, kThreads, kMode == 2 ? shared : static_cast<int>(kBlockShared)>>>(b.data,
                                                                                       1.0f);
    GPU_CHECK_LAUNCH("store_kernel");
  });
  std::printf("| %-34s | %6.2f MB | %6.2f us | memset %6.2f us, streaming store %6.2f us |\n", name,
              bytes / 1e6, pattern_us, memset_us, stream_us);
}

} // namespace

int main() {
  const cudaDeviceProp prop = kit::gpu::device_properties_or_exit("read_patterns");
  std::printf("%s: one block per SM reading its share, against a full-occupancy streaming read of "
              "the same bytes (event medians of 41, L2 evicted before each)\n",
              prop.name);
  std::printf("| pattern | bytes | pattern | streaming | ratio |\n|---|---|---|---|---|\n");
  Bench b(std::size_t{64} << 20);
  auto stores = [&] {
    store<256, 40, 34, 0>(b, "store 256x74 rows");
    store<256, 40, 34, 1>(b, "store 256x74 contiguous");
    store<256, 40, 34, 2>(b, "store 256x40 rows + 34 bulk rows");
    store<512, 16, 21, 0>(b, "store 512x37 rows");
  };
  if (std::getenv("ONLY_STORES")) { // the store patterns alone
    stores();
    return 0;
  }
  burst<256, 40, false, 0>(b, "burst 256x40, rows");
  burst<256, 40, false, 1>(b, "burst 256x40, rows, no_allocate");
  burst<256, 40, true, 1>(b, "burst 256x40, contiguous, no_alloc");
  window<256, 40, 8, 1>(b, "window 8 of 256x40, rows, no_alloc");
  window<256, 40, 16, 1>(b, "window 16 of 256x40, rows, no_alloc");
  window<256, 40, 24, 1>(b, "window 24 of 256x40, rows, no_alloc");
  burst<512, 16, false, 1>(b, "burst 512x16, rows, no_allocate");
  burst<512, 16, true, 1>(b, "burst 512x16, contiguous, no_alloc");
  window<512, 16, 8, 1>(b, "window 8 of 512x16, rows, no_alloc");
  bulk<256, 4096, false>(b, 48, "bulk 48 rows of 4 kB, rows");
  bulk<256, 4096, true>(b, 48, "bulk 48 x 4 kB, contiguous");
  bulk<256, 16384, true>(b, 12, "bulk 12 x 16 kB, contiguous");
  bulk<256, 4096, false>(b, 24, "bulk 24 rows of 4 kB, rows");
  mixed<256, 40, 34, 0>(b, "256x40 + 34 rows bulk after");
  mixed<256, 40, 34, 3>(b, "256x40 + 34 rows bulk before");
  mixed<256, 40, 34, 1>(b, "256x40 + 34 rows cp.async");
  mixed<256, 40, 34, 2>(b, "256x40 + 34 rows ld/st");
  mixed<512, 16, 21, 0>(b, "512x16 + 21 rows bulk after");
  mixed<512, 16, 21, 1>(b, "512x16 + 21 rows cp.async");
  mixed<512, 16, 21, 2>(b, "512x16 + 21 rows ld/st");
  mixed<256, 40, 14, 0>(b, "256x40 + 14 rows bulk after");
  mixed<256, 40, 14, 2>(b, "256x40 + 14 rows ld/st");
  stores();
  return 0;
}
