// The variants of bench/variants.h: the on-chip kernel template (kernel_onchip.h) instantiated
// with per-thread copies, and the option sets the benchmark and the GPU tests compare.
#include "gpu/tuning_dispatch.h"
#include "kernel_onchip.h"
#include "tuning.h"
#include "variants.h"

namespace softmax {

const OnChipKernels &per_thread_copy_kernels() {
  static const OnChipKernels kernels = kit::gpu::with_tuning<SoftmaxTuning>([](auto tuning) {
    return detail::onchip_kernels<decltype(tuning), detail::CopyPath::kPerThread>();
  });
  return kernels;
}

std::vector<EngineVariant> engine_variants() {
  std::vector<EngineVariant> variants(2);
  variants[0].name = "per-thread copies";
  variants[0].options.onchip_kernels = &per_thread_copy_kernels();
  variants[1].name = "narrow to capacity";
  variants[1].options.narrow_to_capacity = true;
  return variants;
}

} // namespace softmax
