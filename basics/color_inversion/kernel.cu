// color_inversion: invert the R, G and B channels of a width x height RGBA8 image in place,
// leaving alpha alone (LeetGPU signature, device pointer).
//
// A pixel is one little-endian 32-bit word with R in the low byte and alpha in the high byte, so
// inverting R, G, B is `word ^ 0x00FFFFFF`. Memory-bound (every byte read and written once): the
// shared in-place element-wise pass (primitives/elementwise.h) applies it to the pixel words, one
// 16-byte vector (4 pixels) per thread on NVIDIA and four on gfx908, loads before stores, the
// pixels after the last whole vector done by the first threads of block 0. A pointer that is not
// 16-byte aligned takes a per-byte kernel (its words may not even be 4-byte aligned).
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/elementwise.h"

#include <cstddef>

namespace {

constexpr int kThreads = kit::elementwise::kThreads;

struct InvertRgb {
  __device__ __forceinline__ unsigned operator()(unsigned pixel) const {
    return pixel ^ 0x00FFFFFFu;
  }
};

__global__ void __launch_bounds__(kThreads) invert_bytes(unsigned char *image, std::size_t bytes) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < bytes && i % 4 != 3)
    image[i] = static_cast<unsigned char>(255 - image[i]);
}

} // namespace

extern "C" void solve(unsigned char *image, int width, int height) {
  namespace ew = kit::elementwise;
  if (width <= 0 || height <= 0)
    return;
  const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  if (ew::aligned16(image)) {
    ew::map_in_place_aligned(reinterpret_cast<unsigned *>(image), pixels, InvertRgb());
  } else {
    const std::size_t bytes = pixels * 4;
    invert_bytes<<<ew::blocks_for(bytes, 1), kThreads>>>(image, bytes);
    GPU_CHECK_LAUNCH("invert_bytes");
  }
}
