// adder_transformer: the fixed constants of the judge's 10-weight adding transformer, shared by
// kernel.cu and reference.cpp. The weights themselves are an input; these are the architecture's
// constants, which the judge's Python computes in double and applies to float32 tensors (so each
// is rounded to float once).
#pragma once

#include <cmath>

namespace adder_model {

constexpr int kPromptLength = 31; // 0, a's 10 digits (least significant first), 9 zeros, b's, 0
constexpr int kOutputDigits = 11; // generated tokens: the sum's digits, least significant first
constexpr int kVocabulary = 10;   // the digits 0..9
constexpr int kWeights = 10;
constexpr int kLongestInput = kPromptLength + kOutputDigits - 1; // the last step reads 41 tokens
constexpr float kEmbedConstant = 1000.0f;
constexpr float kNormEpsilon = 1e-6f;

// Weight layout: [0, 1] embedding e(d) = (w0 - w1 d^2, -d); [2, 3] query projection; [4] value
// projection; [5, 6] gate projection; [7] carry projection; [8, 9] final norm's weight.
constexpr int kEmbed = 0;
constexpr int kQuery = 2;
constexpr int kValue = 4;
constexpr int kGate = 5;
constexpr int kCarry = 7;
constexpr int kFinalNorm = 8;

// The rotary frequency 2 pi / 19 per position.
inline float rope_omega() { return static_cast<float>(2.0 * 3.14159265358979323846 / 19.0); }

// The attention scale: head_dim^-1/2 (head_dim = 2) times the square of the query-key norm scale
// sqrt(A / sqrt(2)), A = ln(10) / (cos(0.3 omega) - cos(0.7 omega)), in the judge's order of
// double operations.
inline float attention_scale() {
  const double omega = 2.0 * 3.14159265358979323846 / 19.0;
  const double amplitude = std::log(10.0) / (std::cos(omega * 0.3) - std::cos(omega * 0.7));
  const double qk_norm_scale = std::sqrt(amplitude / std::sqrt(2.0));
  return static_cast<float>(std::pow(2.0, -0.5) * (qk_norm_scale * qk_norm_scale));
}

} // namespace adder_model
