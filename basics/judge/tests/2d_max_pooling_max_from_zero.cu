// Rejected: the running maximum starts at 0 instead of -infinity, so a window whose values are
// all negative (every negative element, with the judge's 1 x 1 kernel case) yields 0.
#include <cuda_runtime.h>

__global__ void pool(const float *input, float *output, int planes, int H, int W, int k, int stride,
                     int padding, int out_h, int out_w) {
  const long long o = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (o >= static_cast<long long>(planes) * out_h * out_w)
    return;
  const int x = o % out_w, y = o / out_w % out_h;
  const long long plane = o / (static_cast<long long>(out_w) * out_h);
  float best = 0.0f;
  for (int dy = 0; dy < k; ++dy)
    for (int dx = 0; dx < k; ++dx) {
      const int r = y * stride - padding + dy, c = x * stride - padding + dx;
      if (r >= 0 && r < H && c >= 0 && c < W)
        best = fmaxf(best, input[(plane * H + r) * W + c]);
    }
  output[o] = best;
}

extern "C" void solve(const float *input, float *output, int N, int C, int H, int W,
                      int kernel_size, int stride, int padding) {
  const int out_h = (H + 2 * padding - kernel_size) / stride + 1;
  const int out_w = (W + 2 * padding - kernel_size) / stride + 1;
  const long long outputs = static_cast<long long>(N) * C * out_h * out_w;
  pool<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(
      input, output, N * C, H, W, kernel_size, stride, padding, out_h, out_w);
}
