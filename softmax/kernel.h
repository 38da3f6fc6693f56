// Device-resident softmax: the engine behind the GPU `solve` (kernel.cu), the benchmark and the
// GPU tests. Pointers given to Engine are DEVICE pointers; work is ordered on the caller's stream.
// README.md ("GPU kernel") explains the design and "Performance" the measurements behind kAuto.
#pragma once

#include "gpu.h"

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
  // onchip_capacity() (about 1.2e7 on an H200). Only for n <= onchip_capacity().
  kOnChip,
};

const char *method_name(Method method);

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
  // Largest n that kOnChip accepts (registers and shared memory of one block per multiprocessor),
  // and the dynamic shared memory per block it uses.
  std::size_t onchip_capacity() const;
  std::size_t onchip_shared_bytes() const;
  // For the benchmark and tests: the on-chip method's grid shrinks below this many float4 per
  // thread; its shared memory is capped at shared_bytes_limit (0: the device's limit; smaller
  // means less capacity); shared_first picks the order of its loads (kernel_engine.cu); with
  // size_shared_to_n a launch takes only the shared memory that n needs (the rest stays L1),
  // otherwise all of it. The constructor applies the defaults (kDefaultOnChipMinItems, 0, true,
  // true). May synchronise the device.
  void tune_onchip(unsigned min_items_per_thread, std::size_t shared_bytes_limit,
                   bool shared_first = true, bool size_shared_to_n = true);
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
  unsigned onchip_grid_ = 0;
  unsigned onchip_slots_ = 0; // float4 per thread in shared memory
  unsigned onchip_min_items_ = 0;
  bool onchip_shared_first_ = true;
  bool onchip_size_shared_ = true;
  std::size_t onchip_shared_bytes_ = 0;
  void *control_ = nullptr;           // ticket, barrier, statistics (device)
  std::uint64_t *partials_ = nullptr; // two words per partial (device)
  unsigned partial_capacity_ = 0;
};

} // namespace softmax_gpu
