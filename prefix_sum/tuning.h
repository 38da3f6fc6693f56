// prefix_sum's tuning per GPU architecture: the scan kernel's shape and tile order (device_scan.h)
// and the host path behind solve() (solve_gpu.cu). kit::gpu::with_tuning<ScanTuning> picks the
// entry of the device the program runs on. Everything that depends on the device at run time (warp
// size, multiprocessors, how many blocks fit at once, cooperative launch support) is queried there,
// not written here. README.md, "Tuning", has the measurements behind each number.
#pragma once

#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"
#include "primitives/device_scan.h"

#include <cstddef>

template <kit::gpu::GpuArch> struct ScanTuning;

template <> struct ScanTuning<kit::gpu::GpuArch::sm90> {
  // 256 data threads x 32 items (8192-item tiles in registers) plus the look-back warp: the fastest
  // shape at N >= 1e8 on the H100 and the H200, within 1% of every other shape measured there.
  static constexpr int kDataThreads = 256;
  static constexpr int kItemsPerThread = 32;
  // No occupancy hint: asking for 4 blocks per SM cost 5 points of copy bandwidth at 1e8 (H100).
  static constexpr int kOccupancyHint = 1;
  // blockIdx tiles in a cooperative launch up to the resident limit (396 tiles, N <= 3.2e6 on the
  // H100), tickets above: blockIdx tiles were 1-10% faster than tickets at 1e6-3e6 on the H100 and
  // the H200 (measured under plain launches), equal above.
  static constexpr kit::TileOrder kTileOrder = kit::TileOrder::kCooperativeWhenResident;
  using Scan = kit::ScanConfig<kDataThreads, kItemsPerThread, kOccupancyHint, kTileOrder>;

  // solve()'s host path: one device buffer and pageable copies up to kDirectMaxItems, chunks
  // through pinned staging slots above. On the H200 machine the staged path costs about 17 ms of
  // set-up (pinned allocation) and then 0.31 ms per million items, the direct one 0.69 ms per
  // million: they cross near 45 million.
  static constexpr std::size_t kDirectMaxItems = std::size_t{3} << 24;
  // 8 MiB chunks: long enough for the copy engines to run at full speed, short enough that filling
  // and draining the pipeline costs little.
  static constexpr std::size_t kChunkItems = std::size_t{1} << 21;
  // Chunks in flight: one being staged by the host, one on each copy engine, one being scanned.
  static constexpr int kSlots = 4;
};

// Blackwell: not measured; the Hopper entry.
template <> struct ScanTuning<kit::gpu::GpuArch::sm100> : ScanTuning<kit::gpu::GpuArch::sm90> {};

// MI100: every number below is reasoned from its published limits, not measured on hardware.
template <> struct ScanTuning<kit::gpu::GpuArch::gfx908> {
  // 256 data threads = 4 wave64 plus one look-back wave64 (320 threads): the same 8192-item tile
  // as on NVIDIA, and the four data waves cover the CU's four SIMDs. 32 items per thread keep the
  // tile in 68 VGPRs without spills (hip_resource_usage.sh), 3 waves per SIMD: 2 blocks per CU,
  // 64 KiB of loads in flight per CU, several times what 1.2 TB/s over 120 CUs needs to cover
  // HBM2 latency. Not measured on hardware.
  static constexpr int kDataThreads = 256;
  static constexpr int kItemsPerThread = 32;
  // HIP reads this as waves per SIMD. 4 would cap the kernel at 64 VGPRs (it fits in 63) for 3
  // blocks per CU instead of 2, but the same kind of hint lost on NVIDIA; the benchmark's
  // --configs measures it ("min4"). Not measured on hardware.
  static constexpr int kOccupancyHint = 1;
  // Tickets always: ROCm sends every cooperative launch through one device-wide cooperative queue,
  // fenced against the other queues before and after, and gfx9's grid barrier hardware (GWS) is
  // set up for it; that costs more than the ticket's one atomic round trip would save (NVIDIA:
  // 0.1-1.0 us at 1e6-3e6). Not measured on hardware.
  static constexpr kit::TileOrder kTileOrder = kit::TileOrder::kTicket;
  using Scan = kit::ScanConfig<kDataThreads, kItemsPerThread, kOccupancyHint, kTileOrder>;

  // The host path's cross-over is set by the host more than by the GPU. Both runtimes copy
  // pageable memory through pinned staging buffers of their own (ROCm/clr: the blit staging path
  // of rocclr/device/rocm/rocblit.cpp), so the direct path's cost per item is of the same kind as
  // on NVIDIA; the staged path's fixed cost is pinned allocation, which on ROCm also maps the
  // memory for the GPU through the kernel driver, no cheaper than CUDA's. The MI100's PCIe 4 link
  // slows both paths alike. So the H200 machine's cross-over, until the self-test's tuning phase
  // (TUNE=1) measures it on the MI100. Not measured on hardware.
  static constexpr std::size_t kDirectMaxItems = std::size_t{3} << 24;
  static constexpr std::size_t kChunkItems = std::size_t{1} << 21;
  static constexpr int kSlots = 4;
};
