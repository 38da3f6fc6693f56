// Device-resident softmax: the engine behind the GPU `solve` (solve_gpu.cu), the benchmark and the
// GPU tests. Pointers given to Engine are DEVICE pointers; work is ordered on the caller's stream.
// README.md ("Design") explains the methods and tuning.h the numbers behind kAuto.
#pragma once

#include "gpu/resources.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace softmax {

// How the two passes (statistics, then normalisation) are organised. kAuto picks by size; the
// others are there for the benchmark and the tests, which check each path.
enum class Method {
  kAuto,
  // A reduction kernel whose last block combines the blocks' (max, sum) pairs, then a
  // normalisation kernel walking the array backwards: the part of the input that the first pass
  // read last is the part still in L2. Any n.
  kTwoPassReverse,
  // One kernel whose threads keep their elements in registers across a grid-wide barrier: the
  // input is read once. Only for n <= resident_capacity().
  kResident,
  // Like kResident, but a block's slice lives in registers AND dynamic shared memory (sized from
  // the device's limit at run time), one block per multiprocessor: the input is read once up to
  // onchip_capacity(). Only for n <= onchip_capacity().
  kOnChip,
};

const char *method_name(Method method);

struct OnChipKernels; // kernel_onchip.h

// How an Engine runs. The defaults are the production path; the benchmark and the GPU tests set
// the others (bench/variants.h).
struct EngineOptions {
  // The on-chip kernels of both shapes; null: the production ones.
  const OnChipKernels *onchip_kernels = nullptr;
  // The narrow on-chip shape up to its own capacity (registers and shared memory), instead of the
  // wide shape as soon as the narrow shape's registers no longer hold the input.
  bool narrow_to_capacity = false;
  // Shared memory per block the on-chip method may use, below the device's limit (0: the limit);
  // the GPU tests size it like an MI100 (64 KB) on a GPU with more.
  std::size_t shared_bytes_limit = 0;
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

// One block shape of the on-chip method as sized for the device (tuning.h, OnChipShape).
struct OnChipShapeInfo {
  unsigned threads = 0;        // per block
  unsigned register_items = 0; // float4 per thread in registers
  unsigned grid = 0;           // blocks resident at once with the shared memory full
  unsigned slots = 0;          // float4 per thread in shared memory, at most
  std::size_t shared_bytes = 0;
  std::size_t register_capacity = 0; // elements the registers of the full grid hold alone
  std::size_t capacity = 0;          // elements in registers and shared memory; 0: cannot run
};

// Owns the device workspace (the blocks' partial statistics, a ticket, a grid barrier). One
// engine serves one stream at a time: calls on different streams must use different engines.
class Engine {
public:
  explicit Engine(const EngineOptions &options = {});
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

  // Largest n that kResident accepts on this device (registers of a full-occupancy grid; 0 where
  // the device cannot launch cooperatively).
  std::size_t resident_capacity() const;
  // kAuto runs kResident up to this n (tuning.h).
  std::size_t auto_resident_limit() const;
  // Largest n that kOnChip accepts (0 where it cannot run). It runs in the narrow shape up to
  // onchip_narrow_limit(), in the wide shape above (unless the wide shape cannot hold n).
  std::size_t onchip_capacity() const;
  std::size_t onchip_narrow_limit() const;
  const OnChipShapeInfo &onchip_narrow() const { return narrow_; }
  const OnChipShapeInfo &onchip_wide() const { return wide_; }
  // The shape kOnChip runs n elements in (null above the capacity).
  const OnChipShapeInfo *onchip_shape(std::size_t n) const;
  // The on-chip grid shrinks below this many float4 per block.
  unsigned onchip_min_block_items() const;
  // Blocks that `method` launches for n elements (the single-kernel methods wait for all of them
  // at the grid barrier).
  unsigned grid(Method method, std::size_t n) const;
  // The method kAuto resolves to for n elements.
  Method auto_method(std::size_t n) const;
  // Statistics of the last completed run (synchronises with the device); for tests.
  Stats last_stats() const;

  // The kernels and tuning numbers of the device's table (kernel_engine.cu; opaque here).
  struct Plan;

private:
  void check_pointers(const float *in, const float *out) const;
  // False (nothing launched) when the runtime refuses the cooperative launch.
  bool launch_onchip(const float *in, float *out, std::size_t n, cudaStream_t stream) const;
  // The two-pass method, also where a single-launch method's cooperative launch is refused.
  void run_two_pass(const float *in, float *out, std::size_t n, cudaStream_t stream);

  std::unique_ptr<const Plan> plan_;
  unsigned reduce_grid_ = 0; // full-occupancy grids of each kernel
  unsigned normalize_grid_ = 0;
  unsigned resident_grid_ = 0; // 0: the resident kernel cannot run
  OnChipShapeInfo narrow_, wide_;
  bool narrow_to_capacity_ = false;
  kit::gpu::DeviceArray<unsigned char> control_;  // detail::Control: ticket, barrier, statistics
  kit::gpu::DeviceArray<std::uint64_t> partials_; // detail::kPartialWords words per partial
};

} // namespace softmax
