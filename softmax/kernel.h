// Device-resident softmax: the engine behind the GPU `solve` (kernel.cu), the benchmark and the
// GPU tests. Pointers given to Engine are DEVICE pointers; work is ordered on the caller's stream.
// README.md ("GPU kernel") explains the design and "Performance" the measurements behind kAuto.
#pragma once

#include "gpu/gpu.h"

#include <cstddef>
#include <cstdint>

namespace softmax_gpu {

// How the two passes (statistics, then normalisation) are organised. kAuto picks by size; the
// others are kept so that the benchmark can compare them and the tests can check each path.
enum class Method {
  kAuto,
  // A reduction kernel whose last block combines the blocks' (max, sum) pairs, then a
  // normalisation kernel walking the array forward.
  kTwoPass,
  // The same, but the normalisation walks the array backwards: the part of the input that the
  // first pass read last is the part still in L2.
  kTwoPassReverse,
  // One kernel on an occupancy-sized grid: pass 1, a grid-wide barrier, pass 2 backwards (the
  // re-read comes from L2 as far as the input fits there).
  kPersistent,
  // One kernel whose threads keep their elements in registers across the grid-wide barrier:
  // the input is read once. Only for n <= resident_capacity().
  kResident,
  // Like kResident, but a block's slice lives in registers AND dynamic shared memory (sized from
  // the device's limit at run time), one block per multiprocessor: the input is read once up to
  // onchip_capacity() (about 1.3e7 on an H100 or H200). Only for n <= onchip_capacity().
  kOnChip,
};

const char *method_name(Method method);

// Block shapes of the on-chip method: threads per block x float4 per thread held in registers,
// one block per multiprocessor, the rest of the block's slice in dynamic shared memory. Thinner
// shapes trade registers for shared memory and give the scheduler more warps to pick from.
enum class OnChipShape {
  k256x40, // 8 warps per SM on NVIDIA, up to 255 registers per thread
  k512x16, // 16 warps, at most 128 registers per thread
  k768x8,  // 24 warps, at most 85 registers per thread
  k1024x8, // 32 warps, at most 64 registers per thread
};
constexpr OnChipShape kOnChipShapes[] = {OnChipShape::k256x40, OnChipShape::k512x16,
                                         OnChipShape::k768x8, OnChipShape::k1024x8};
const char *shape_name(OnChipShape shape);

// How the on-chip method runs; the member defaults are the measured choice (README,
// "Performance"). The benchmark compares the alternatives, the tests run them all.
struct OnChipConfig {
  OnChipShape shape = OnChipShape::k512x16;
  // The grid shrinks below this many float4 per block (fewer partials and barrier arrivals;
  // 2048 = 256 threads x 8, the rule measured with the first shape).
  unsigned min_block_items = 2048;
  // Cap on the dynamic shared memory per block (0: the device's limit; less means less capacity).
  std::size_t shared_bytes_limit = 0;
  // Pass 1: the shared-memory copies are issued before the register loads (else after, and the
  // register items are processed first).
  bool shared_first = false;
  // A launch takes only the shared memory n needs (the rest stays L1), else all of it.
  bool size_shared_to_n = true;
  // The shared-memory copies are waited for in this many groups (1 to 4): pass 1 starts on the
  // first group while the later ones are still arriving.
  unsigned copy_groups = 1;
  // Pass 2 normalises the shared-memory items before the register items (else after).
  bool pass2_shared_first = false;
  // The shared-memory part arrives by bulk copies of whole rows where the GPU has them (sm_90 and
  // later), else by 16-byte copies per thread (always so on older GPUs and AMD).
  bool bulk_copy = true;
  // Sizes beyond what `shape` holds in registers alone run in the 256x40 shape: with bulk copies
  // it was 3-6 % faster there than 512x16 on the H100 and the H200, and 512x16 up to 4e6 (README,
  // "Performance"). Off: `shape` runs up to its own capacity (the benchmark's shape rows).
  bool wide_beyond_registers = true;
};

// The statistics of the last completed pass 1: the maximum, and the sum of exp(x - ref ln 2) over
// all x for the integer ref = floor(max log2(e)) (sums are kept relative to integer powers of
// two, which makes rescaling them exact; see kernel_passes.h).
struct Stats {
  float max;
  float ref;
  float inv_sum; // (float)(1 / sum), the factor pass 2 applies
  double sum;
};

// Owns the device workspace (the blocks' partial statistics, a ticket, a grid barrier). One
// engine serves one stream at a time: calls on different streams must use different engines.
class Engine {
public:
  Engine();
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  // out[i] = exp(in[i] - max) / sum of exp(in[j] - max), for i < n. in == out is allowed;
  // otherwise the arrays must not overlap. in and out must lie at the same address modulo 16
  // bytes (cudaMalloc'd arrays and equal offsets into them do).
  void run(const float *in, float *out, std::size_t n, cudaStream_t stream,
           Method method = Method::kAuto);

  // For pipelines that receive the input in parts (solve with host pointers): pass 1 runs on each
  // part as it arrives, writing reduce_blocks(part size) partial results from `first_partial` on;
  // the launch that completes the `total_partials`-th one combines them all. Then normalize_part
  // runs pass 2 on each part. Parts may be reduced on different streams, but pass 2 must be
  // ordered after every part's pass 1. reserve_partials(total) must precede the launches.
  unsigned reduce_blocks(std::size_t n) const;
  void reserve_partials(unsigned total_partials);
  void reduce_part(const float *in, std::size_t n, unsigned first_partial, unsigned total_partials,
                   cudaStream_t stream);
  void normalize_part(const float *in, float *out, std::size_t n, cudaStream_t stream);

  // Largest n that kResident accepts on this device (registers of an occupancy-sized grid).
  std::size_t resident_capacity() const;
  // Largest n that kOnChip accepts (registers and shared memory of one block per multiprocessor):
  // up to onchip_shape_capacity() it runs in the configured shape, above that in the widest shape
  // (256x40, the most registers per SM), whose capacity is the larger; by default already above
  // the configured shape's register capacity (onchip_wide_from). The dynamic shared memory per
  // block of the configured shape.
  std::size_t onchip_capacity() const;
  std::size_t onchip_shape_capacity() const;
  // Sizes above this run in the 256x40 shape (OnChipConfig::wide_beyond_registers).
  std::size_t onchip_wide_from() const;
  std::size_t onchip_shared_bytes() const;
  // For the benchmark and tests: how the on-chip method runs. The constructor applies
  // OnChipConfig{} (the defaults measured best). May synchronise the device.
  void tune_onchip(const OnChipConfig &config);
  const OnChipConfig &onchip_config() const { return onchip_; }
  // The configured shape's threads per block and float4 per thread in registers.
  unsigned onchip_block_threads() const;
  unsigned onchip_register_items() const;
  // Blocks that `method` launches for n elements (the single-kernel methods wait for all of them
  // at the grid barrier).
  unsigned grid(Method method, std::size_t n) const;
  // The method kAuto resolves to for n elements.
  Method auto_method(std::size_t n) const;
  // Statistics of the last completed run (synchronises with the device); for tests.
  Stats last_stats() const;

private:
  void check_pointers(const float *in, const float *out) const;

  unsigned reduce_grid_ = 0; // full-occupancy grids of each kernel
  unsigned normalize_grid_ = 0;
  unsigned persistent_grid_ = 0;
  unsigned resident_grid_ = 0;
  // The on-chip method's launch sizes for one configuration.
  struct OnChipSizing {
    unsigned grid = 0;  // one block per multiprocessor
    unsigned slots = 0; // float4 per thread in shared memory
    std::size_t shared_bytes = 0;
    std::size_t capacity = 0;
    std::size_t register_capacity = 0; // elements held in registers alone on the full grid
  };
  OnChipSizing size_onchip(const OnChipConfig &config);
  // The configuration in use for n elements: the configured one, or above onchip_wide_from() the
  // same in the widest shape.
  bool onchip_wide(std::size_t n) const { return n > onchip_wide_from(); }

  OnChipConfig onchip_;
  OnChipSizing onchip_sizing_;
  OnChipConfig onchip_wide_; // onchip_ in shape 256x40
  OnChipSizing onchip_wide_sizing_;
  void *control_ = nullptr;           // ticket, barrier, statistics (device)
  std::uint64_t *partials_ = nullptr; // detail::kPartialWords words per partial (device)
  unsigned partial_capacity_ = 0;
};

} // namespace softmax_gpu
