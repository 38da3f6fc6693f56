// torch.linalg.matrix_power's sequence of products, with the product itself left to the caller:
// kernel.cu multiplies on the kit's SIMT SGEMM, bench/library.cu on cuBLAS, and both must form
// the power from the same products in the same order (the judge's tolerance is below the rounding
// of a product where a result lands near zero). torch forms input^P as:
//   P = 1: a copy;  P = 2: A A;  P = 3: (A A) A;
//   P >= 4: binary decomposition from the lowest bit, z running through A, A^2, A^4, ... (each the
//   square of the one before) and the result, started as the first z whose bit is set, multiplied
//   on the right by each later such z: result = result z.
// The intermediate powers live in three N x N scratch matrices (`scratch`, kept by the caller from
// one call to the next); the last product writes the output. No host synchronisation.
#pragma once

#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace matrix_power {

// `multiply(x, y, out)` enqueues out = x y for N x N matrices on the default stream.
template <class Multiply>
void power_by_products(const float *input, float *output, int N, int P,
                       kit::gpu::DeviceScratch &scratch, Multiply multiply) {
  const std::size_t matrix = static_cast<std::size_t>(N) * N;
  const std::size_t bytes = matrix * sizeof(float);
  if (P <= 1) {
    GPU_CHECK(cudaMemcpyAsync(output, input, bytes, cudaMemcpyDeviceToDevice, nullptr));
    return;
  }
  if (P == 2) {
    multiply(input, input, output);
    return;
  }
  float *const slots = static_cast<float *>(scratch.reserve(3 * bytes));
  if (P == 3) {
    multiply(input, input, slots);
    multiply(slots, input, output);
    return;
  }
  // A scratch matrix holding neither z nor result (three are enough: z and result hold two).
  const float *z = nullptr, *result = nullptr;
  auto free_slot = [&] {
    for (int s = 0;; ++s)
      if (slots + s * matrix != z && slots + s * matrix != result)
        return slots + s * matrix;
  };
  for (int n = P; n > 0;) {
    const int bit = n % 2;
    n /= 2;
    if (z == nullptr) {
      z = input;
    } else {
      float *const square = free_slot();
      multiply(z, z, square);
      z = square;
    }
    if (bit == 1) {
      if (n == 0) { // the highest bit: the last product goes to the output
        if (result != nullptr)
          multiply(result, z, output);
        else
          GPU_CHECK(cudaMemcpyAsync(output, z, bytes, cudaMemcpyDeviceToDevice, nullptr));
      } else if (result != nullptr) {
        float *const product = free_slot();
        multiply(result, z, product);
        result = product;
      } else {
        result = z;
      }
    }
  }
}

} // namespace matrix_power
