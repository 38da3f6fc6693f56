// stream_compaction's library baseline: CUB's DeviceSelect::If with the predicate A[i] > 0
// (decoupled look-back).
#include <cub/device/device_select.cuh>

#include "device/library.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace kit::basics {
namespace {

struct IsPositive {
  __device__ bool operator()(const float &x) const { return x > 0.0f; }
};

// The selected count goes to the first 256 bytes of the scratch, CUB's temporary storage after
// it; the scratch is kept from one call to the next, as the kit's own solves keep theirs.
void cub_select_positive(const float *A, int N, float *out) {
  constexpr std::size_t kCountBytes = 256;
  static gpu::DeviceScratch scratch;
  std::size_t bytes = 0;
  GPU_CHECK(
      cub::DeviceSelect::If(nullptr, bytes, A, out, static_cast<int *>(nullptr), N, IsPositive()));
  char *base = static_cast<char *>(scratch.reserve(kCountBytes + bytes));
  GPU_CHECK(cub::DeviceSelect::If(base + kCountBytes, bytes, A, out, reinterpret_cast<int *>(base),
                                  N, IsPositive()));
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("CUB DeviceSelect::If", cub_select_positive)};
}

Solver library_judge_reference() { return {}; }

} // namespace kit::basics
