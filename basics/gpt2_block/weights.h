// gpt2_block's fixed sizes and the packing of its weight buffer (the judge's order: ln_1 weight and
// bias, W_qkv and b_qkv, W_attn and b_attn, ln_2 weight and bias, W_fc and b_fc, W_proj and b_proj,
// every matrix stored as x W), shared by the kernel and the CPU reference.
#pragma once

#include <cstddef>

namespace gpt2_block {

constexpr int kModel = 768;
constexpr int kHeads = 12;
constexpr int kHeadDim = kModel / kHeads;
constexpr int kHidden = 3072;
constexpr std::size_t kLn1W = 0;
constexpr std::size_t kLn1B = kLn1W + kModel;
constexpr std::size_t kWqkv = kLn1B + kModel;
constexpr std::size_t kBqkv = kWqkv + std::size_t{kModel} * 3 * kModel;
constexpr std::size_t kWattn = kBqkv + 3 * kModel;
constexpr std::size_t kBattn = kWattn + std::size_t{kModel} * kModel;
constexpr std::size_t kLn2W = kBattn + kModel;
constexpr std::size_t kLn2B = kLn2W + kModel;
constexpr std::size_t kWfc = kLn2B + kModel;
constexpr std::size_t kBfc = kWfc + std::size_t{kModel} * kHidden;
constexpr std::size_t kWproj = kBfc + kHidden;
constexpr std::size_t kBproj = kWproj + std::size_t{kHidden} * kModel;
constexpr std::size_t kWeights = kBproj + kModel;

} // namespace gpt2_block
