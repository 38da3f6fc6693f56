#include "baselines.h"

#include "gpu/check.h"
#include "gpu/resources.h"
#include "gpu/vendor.h"

#include <cmath>
#include <vector>

namespace kit::basics {

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// ---- softmax ----------------------------------------------------------------------------------

__device__ float g_softmax_max;
__device__ float g_softmax_sum;

// Floats compare like their bit patterns read as int when non-negative and reversed when
// negative: the usual atomicMax-on-float construction.
__device__ void atomic_max_float(float *address, float value) {
  if (value >= 0.0f)
    atomicMax(reinterpret_cast<int *>(address), __float_as_int(value));
  else
    atomicMin(reinterpret_cast<unsigned *>(address), __float_as_uint(value));
}

__global__ void softmax_init() {
  g_softmax_max = -INFINITY;
  g_softmax_sum = 0.0f;
}

__global__ void softmax_max(const float *in, int n) {
  __shared__ float s[kThreads];
  const int i = blockIdx.x * kThreads + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : -INFINITY;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomic_max_float(&g_softmax_max, s[0]);
}

__global__ void softmax_sum(const float *in, int n) {
  __shared__ float s[kThreads];
  const int i = blockIdx.x * kThreads + threadIdx.x;
  s[threadIdx.x] = i < n ? expf(in[i] - g_softmax_max) : 0.0f;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(&g_softmax_sum, s[0]);
}

__global__ void softmax_normalize(const float *in, float *out, int n) {
  const int i = blockIdx.x * kThreads + threadIdx.x;
  if (i < n)
    out[i] = expf(in[i] - g_softmax_max) / g_softmax_sum;
}

// ---- reduction --------------------------------------------------------------------------------

__global__ void reduction_blocks(const float *in, float *out, int n) {
  __shared__ float s[kThreads];
  const int i = blockIdx.x * kThreads + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, s[0]);
}

// ---- prefix_sum -------------------------------------------------------------------------------

constexpr int kScanThreads = 1024;

// Inclusive Hillis-Steele scan of one block (double-buffered in shared memory).
__global__ void scan_blocks(const float *in, float *out, float *block_totals, int n) {
  __shared__ float buffer[2][kScanThreads];
  const int i = blockIdx.x * kScanThreads + threadIdx.x;
  int current = 0;
  buffer[current][threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < kScanThreads; offset *= 2) {
    const float v = buffer[current][threadIdx.x];
    buffer[1 - current][threadIdx.x] =
        threadIdx.x >= offset ? v + buffer[current][threadIdx.x - offset] : v;
    current = 1 - current;
    __syncthreads();
  }
  if (i < n)
    out[i] = buffer[current][threadIdx.x];
  if (threadIdx.x == kScanThreads - 1 && block_totals)
    block_totals[blockIdx.x] = buffer[current][threadIdx.x];
}

__global__ void add_block_offsets(float *out, const float *scanned_totals, int n) {
  const int i = blockIdx.x * kScanThreads + threadIdx.x;
  if (blockIdx.x > 0 && i < n)
    out[i] += scanned_totals[blockIdx.x - 1];
}

// Scratch for the block totals of every recursion level, kept across calls.
float *totals_buffer(int level, std::size_t count) {
  static std::vector<kit::gpu::DeviceArray<float>> buffers;
  if (buffers.size() <= static_cast<std::size_t>(level))
    buffers.resize(level + 1);
  kit::gpu::DeviceArray<float> &buffer = buffers[level];
  if (buffer.size() < count)
    buffer = kit::gpu::DeviceArray<float>(count);
  return buffer.get();
}

void scan_recursive(const float *in, float *out, int n, int level) {
  const int blocks = (n + kScanThreads - 1) / kScanThreads;
  float *totals = blocks > 1 ? totals_buffer(level, blocks) : nullptr;
  scan_blocks<<<blocks, kScanThreads>>>(in, out, totals, n);
  GPU_CHECK_LAUNCH("scan_blocks");
  if (blocks > 1) {
    scan_recursive(totals, totals, blocks, level + 1);
    add_block_offsets<<<blocks, kScanThreads>>>(out, totals, n);
    GPU_CHECK_LAUNCH("add_block_offsets");
  }
}

} // namespace

void softmax_three_kernels(const float *input, float *output, int N) {
  softmax_init<<<1, 1>>>();
  GPU_CHECK_LAUNCH("softmax_init");
  softmax_max<<<blocks_for(N), kThreads>>>(input, N);
  GPU_CHECK_LAUNCH("softmax_max");
  softmax_sum<<<blocks_for(N), kThreads>>>(input, N);
  GPU_CHECK_LAUNCH("softmax_sum");
  softmax_normalize<<<blocks_for(N), kThreads>>>(input, output, N);
  GPU_CHECK_LAUNCH("softmax_normalize");
}

void reduction_atomic_blocks(const float *input, float *output, int N) {
  GPU_CHECK(cudaMemsetAsync(output, 0, sizeof(float), 0));
  reduction_blocks<<<blocks_for(N), kThreads>>>(input, output, N);
  GPU_CHECK_LAUNCH("reduction_blocks");
}

void prefix_sum_block_scan_add(const float *input, float *output, int N) {
  scan_recursive(input, output, N, 0);
}

Solver straightforward_baseline(const std::string &problem) {
  if (problem == "softmax")
    return solver("3-kernel softmax + atomics", softmax_three_kernels);
  if (problem == "reduction")
    return solver("block tree + atomicAdd", reduction_atomic_blocks);
  if (problem == "prefix_sum")
    return solver("block scan + add", prefix_sum_block_scan_add);
  return {};
}

} // namespace kit::basics
