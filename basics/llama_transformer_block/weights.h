// llama_transformer_block's fixed sizes and the packing of its weight buffer (the judge's order:
// rms1_w, W_Q, W_K, W_V, W_O, rms2_w, W_gate, W_up, W_down, every matrix stored out x in, as
// torch's Linear weight), shared by the kernel and the CPU reference. W_Q, W_K and W_V lie back
// to back, so together they are one kQkv x kModel matrix at kWq.
#pragma once

#include <cstddef>

namespace llama_transformer_block {

constexpr int kModel = 512;
constexpr int kQueryHeads = 8;
constexpr int kKvHeads = 2;
constexpr int kHeadDim = kModel / kQueryHeads;
constexpr int kHalf = kHeadDim / 2;
constexpr int kKvDim = kKvHeads * kHeadDim;
constexpr int kQueriesPerKvHead = kQueryHeads / kKvHeads;
constexpr int kQkv = kModel + 2 * kKvDim; // q, k and v columns of the fused projection
constexpr int kHidden = 1408;
constexpr std::size_t kRms1 = 0;
constexpr std::size_t kWq = kRms1 + kModel;
constexpr std::size_t kWk = kWq + std::size_t{kModel} * kModel;
constexpr std::size_t kWv = kWk + std::size_t{kKvDim} * kModel;
constexpr std::size_t kWo = kWv + std::size_t{kKvDim} * kModel;
constexpr std::size_t kRms2 = kWo + std::size_t{kModel} * kModel;
constexpr std::size_t kWgate = kRms2 + kModel;
constexpr std::size_t kWup = kWgate + std::size_t{kHidden} * kModel;
constexpr std::size_t kWdown = kWup + std::size_t{kHidden} * kModel;
constexpr std::size_t kWeights = kWdown + std::size_t{kModel} * kHidden;
static_assert(kWo == kWq + std::size_t{kQkv} * kModel, "W_Q, W_K, W_V back to back");

} // namespace llama_transformer_block
