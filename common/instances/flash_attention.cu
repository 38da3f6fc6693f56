// The FP32 flash attention (primitives/flash_attention.h) over a StridedLayout without a bias:
// the instantiation that every attention problem but ALiBi's calls, with its 18 fused kernels
// (three head-dimension tiers, three tiles, split and unsplit) and the unfused path's GEMMs,
// compiled once per build here instead of once in each caller.
#include "primitives/flash_attention.h"

namespace kit::flash {

template void attention_with_plan<StridedLayout, Scores<>>(const Shape &, const StridedLayout &,
                                                           const Scores<> &, const Plan &,
                                                           cudaStream_t);

} // namespace kit::flash
