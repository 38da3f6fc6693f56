// color_inversion: invert the R, G and B channels of a width x height RGBA8 image in place,
// leaving alpha alone (LeetGPU signature, device pointer).
//
// A pixel is one little-endian 32-bit word with R in the low byte and alpha in the high byte, so
// inverting R, G, B is `word ^ 0x00FFFFFF`. Memory-bound (every byte read and written once):
// each thread handles four 16-byte vectors (16 pixels), with all loads issued before the stores;
// the pixels after the last whole vector are done by the first threads of block 0. A pointer that
// is not 16-byte aligned takes a per-byte kernel.
#include "gpu.h"

#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kVectorsPerThread = 4;
constexpr unsigned kInvertRgb = 0x00FFFFFFu;

__global__ void __launch_bounds__(kThreads)
    invert_vec4(unsigned *__restrict__ pixels, std::size_t count) {
  const std::size_t vectors = count / 4;
  uint4 *v = reinterpret_cast<uint4 *>(pixels);
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * kThreads * kVectorsPerThread + threadIdx.x;
  uint4 x[kVectorsPerThread];
#pragma unroll
  for (int k = 0; k < kVectorsPerThread; ++k) {
    const std::size_t i = first + k * kThreads;
    if (i < vectors)
      x[k] = v[i];
  }
#pragma unroll
  for (int k = 0; k < kVectorsPerThread; ++k) {
    const std::size_t i = first + k * kThreads;
    if (i < vectors)
      v[i] = make_uint4(x[k].x ^ kInvertRgb, x[k].y ^ kInvertRgb, x[k].z ^ kInvertRgb,
                        x[k].w ^ kInvertRgb);
  }
  const std::size_t tail = vectors * 4 + threadIdx.x;
  if (blockIdx.x == 0 && tail < count)
    pixels[tail] ^= kInvertRgb;
}

__global__ void __launch_bounds__(kThreads) invert_bytes(unsigned char *image, std::size_t bytes) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < bytes && i % 4 != 3)
    image[i] = static_cast<unsigned char>(255 - image[i]);
}

} // namespace

extern "C" void solve(unsigned char *image, int width, int height) {
  if (width <= 0 || height <= 0)
    return;
  const std::size_t count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  if (reinterpret_cast<std::uintptr_t>(image) % 16 == 0) {
    const std::size_t per_block = static_cast<std::size_t>(kThreads) * kVectorsPerThread * 4;
    invert_vec4<<<static_cast<unsigned>((count + per_block - 1) / per_block), kThreads>>>(
        reinterpret_cast<unsigned *>(image), count);
    GPU_CHECK_LAUNCH("invert_vec4");
  } else {
    const std::size_t bytes = count * 4;
    invert_bytes<<<static_cast<unsigned>((bytes + kThreads - 1) / kThreads), kThreads>>>(image,
                                                                                         bytes);
    GPU_CHECK_LAUNCH("invert_bytes");
  }
}
