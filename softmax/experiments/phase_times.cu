// Where the on-chip kernel's time goes, block by block: built only by phase_times.sh, with
// SOFTMAX_PHASE_TIMES defined so that the kernel records the global timer at nine marks per block
// (kernel_passes.h). For each size: the same bytes read, set and copied by the simplest kernels
// (floors; also, once, an empty kernel of the 256x40 shape's grid with and without its shared
// memory); then for each shape the event-timed median of the instrumented kernel and, as medians
// over the runs, the marks relative to the first block's start: the last block's start, pass 1
// done (first / median / last block), statistics known (first / last), last store issued (median
// / last), each block's pass 1 from its own start (shortest / median / longest: a spread here is
// slow reading, not late starts), and as thread 0 of each block sees them, its register items
// through pass 1 and its first shared-memory group landed (median / last), and the exchange: the
// last block's pair merged, the last arrival at the grid barrier returned, and that arrival seen
// (first / median block; the statistics follow once a block has merged the partials). The time
// from the last store issued to the stop event is the write drain and the kernel's exit.
// PT_BULK=0, PT_GROUPS=k and PT_SHARED_FIRST=1 set OnChipConfig::bulk_copy, copy_groups and
// shared_first.
//
//   phase_times [N ...]      (default 8e6 1e7 1.2e7)
#include "bench/event_timing.h"
#include "kernel.h"
#include "kernel_passes.h"
#include "bench/l2_eviction.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace softmax_gpu::detail {
// kernel_engine.cu, built with SOFTMAX_PHASE_TIMES: kMarks marks per block.
void copy_phase_times(unsigned long long *host, unsigned blocks);
} // namespace softmax_gpu::detail

namespace {

constexpr unsigned kMarks = softmax_gpu::detail::kPhaseMarks;

// Median event time in us of `work`, the L2 evicted before each run (the kernel and its floors).
template <class Work> double event_us(const kit::bench::L2Eviction &evict, Work &&work) {
  return kit::bench::time_events(3, 31, work, evict).median_ms * 1e3;
}

// The launch floor of a kernel the on-chip kernel's size: nothing but the launch, the blocks'
// start with the dynamic shared memory they ask for, and their exit.
__global__ void empty_kernel() { extern __shared__ float4 unused[]; }

double empty_kernel_us(const kit::bench::L2Eviction &evict, unsigned grid, int threads,
                       std::size_t shared_bytes) {
  GPU_CHECK(cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(shared_bytes)));
  return event_us(evict, [&] {
    empty_kernel<<<grid, threads, shared_bytes>>>();
    GPU_CHECK_LAUNCH("empty_kernel");
  });
}

using softmax_gpu::Method;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void measure(softmax_gpu::Engine &engine, const kit::bench::L2Eviction &evict, const float *d_in,
             float *d_out, std::size_t n) {
  const unsigned grid = engine.grid(Method::kOnChip, n);
  const double kernel_us = event_us(evict, [&] { engine.run(d_in, d_out, n, 0, Method::kOnChip); });
  // Per run: last start, pass 1 first / median / last, stats first / last, stores median / last,
  // own pass 1 shortest / median / longest, registers through pass 1 and shared items landed
  // (median / last each), the exchange (pair merged last, arrival returned last, last arrival
  // seen first / median).
  constexpr int kColumns = 19;
  std::vector<std::vector<double>> columns(kColumns);
  std::vector<unsigned long long> marks(grid * kMarks);
  for (int run = 0; run < 24; ++run) {
    evict();
    engine.run(d_in, d_out, n, 0, Method::kOnChip);
    GPU_CHECK(cudaDeviceSynchronize());
    if (run < 3)
      continue; // warm-up
    softmax_gpu::detail::copy_phase_times(marks.data(), grid);
    std::vector<double> mark[kMarks];
    unsigned long long origin = ~0ull;
    for (unsigned b = 0; b < grid; ++b)
      origin = std::min(origin, marks[b * kMarks]);
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned k = 0; k < kMarks; ++k)
        mark[k].push_back((marks[b * kMarks + k] - origin) * 1e-3); // ns -> us
    // Each block's own pass 1 (from its own start): tells a late start from a slow read.
    std::vector<double> pass1(grid);
    for (unsigned b = 0; b < grid; ++b)
      pass1[b] = mark[1][b] - mark[0][b];
    std::sort(pass1.begin(), pass1.end());
    for (auto &m : mark)
      std::sort(m.begin(), m.end());
    const double values[kColumns] = {
        mark[0].back(), mark[1].front(),   mark[1][grid / 2], mark[1].back(),    mark[2].front(),
        mark[2].back(), mark[3][grid / 2], mark[3].back(),    pass1.front(),     pass1[grid / 2],
        pass1.back(),   mark[4][grid / 2], mark[4].back(),    mark[5][grid / 2], mark[5].back(),
        mark[6].back(), mark[7].back(),    mark[8].front(),   mark[8][grid / 2]};
    for (int c = 0; c < kColumns; ++c)
      columns[c].push_back(values[c]);
  }
  std::printf(
      "| %-7s | %9zu | %4u | %7.2f | %6.2f | %5.2f / %5.2f / %5.2f | %5.2f / %5.2f | %5.2f / "
      "%5.2f | %5.2f / %5.2f / %5.2f | %5.2f / %5.2f | %5.2f / %5.2f | %5.2f / %5.2f / %5.2f / "
      "%5.2f |\n",
      softmax_gpu::shape_name(engine.onchip_config().shape), n, grid, kernel_us, median(columns[0]),
      median(columns[1]), median(columns[2]), median(columns[3]), median(columns[4]),
      median(columns[5]), median(columns[6]), median(columns[7]), median(columns[8]),
      median(columns[9]), median(columns[10]), median(columns[11]), median(columns[12]),
      median(columns[13]), median(columns[14]), median(columns[15]), median(columns[16]),
      median(columns[17]), median(columns[18]));
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(static_cast<std::size_t>(std::strtod(argv[i], nullptr)));
  if (sizes.empty())
    sizes = {8000000, 10000000, 12000000};
  const cudaDeviceProp prop = kit::gpu::device_properties_or_exit("phase_times");
  std::printf("%s: on-chip kernel marks, us from the first block's start (medians of 21 runs, L2 "
              "evicted before each)\n",
              prop.name);
  std::printf("| shape   |         N | grid | event us | last start | pass 1 done first / median "
              "/ last | stats first / last | stores issued median / last | own pass 1 min / median "
              "/ max | registers through pass 1 median / last | shared items landed median / last "
              "| exchange: merged last / arrived last / last arrival seen first / median |\n");
  softmax_gpu::Engine engine;
  kit::bench::L2Eviction evict;
  {
    // One 256-thread block per multiprocessor, as the 256x40 shape launches.
    softmax_gpu::OnChipConfig wide;
    wide.shape = softmax_gpu::OnChipShape::k256x40;
    engine.tune_onchip(wide);
    const unsigned grid = static_cast<unsigned>(prop.multiProcessorCount);
    const std::size_t shared_bytes = engine.onchip_shared_bytes();
    std::printf("| launch floor: empty kernel of %u x 256 threads %.2f us, with %zu bytes of "
                "dynamic shared memory %.2f us |\n",
                grid, empty_kernel_us(evict, grid, 256, 0), shared_bytes,
                empty_kernel_us(evict, grid, 256, shared_bytes));
  }
  unsigned *sink = nullptr;
  GPU_CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> value(-50000, 50000);
  for (std::size_t n : sizes) {
    std::vector<float> input(n);
    for (float &x : input)
      x = value(rng) / 1000.0f;
    float *d_in = nullptr, *d_out = nullptr;
    GPU_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    GPU_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    GPU_CHECK(cudaMemcpy(d_in, input.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    // The same bytes streamed by the simplest kernels, same eviction: a full-occupancy read
    // (pass 1's floor), a memset (pass 2's) and a device-to-device copy.
    const double read_us =
        event_us(evict, [&] { kit::bench::read_device_bytes(d_in, n / 4 * 16, sink); });
    const double write_us =
        event_us(evict, [&] { GPU_CHECK(cudaMemsetAsync(d_out, 0, n * sizeof(float))); });
    const double copy_us = event_us(evict, [&] {
      GPU_CHECK(cudaMemcpyAsync(d_out, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice));
    });
    std::printf("| N %zu: read %.2f us, memset %.2f us, copy %.2f us (%zu bytes each) |\n", n,
                read_us, write_us, copy_us, n * sizeof(float));
    for (softmax_gpu::OnChipShape shape :
         {softmax_gpu::OnChipShape::k512x16, softmax_gpu::OnChipShape::k256x40}) {
      softmax_gpu::OnChipConfig config;
      config.shape = shape;
      config.wide_beyond_registers = false;
      if (const char *bulk = std::getenv("PT_BULK"))
        config.bulk_copy = std::atoi(bulk) != 0;
      if (const char *groups = std::getenv("PT_GROUPS"))
        config.copy_groups = static_cast<unsigned>(std::atoi(groups));
      if (const char *shared_first = std::getenv("PT_SHARED_FIRST"))
        config.shared_first = std::atoi(shared_first) != 0;
      engine.tune_onchip(config);
      if (n <= engine.onchip_shape_capacity())
        measure(engine, evict, d_in, d_out, n);
    }
    GPU_CHECK(cudaFree(d_in));
    GPU_CHECK(cudaFree(d_out));
  }
  GPU_CHECK(cudaFree(sink));
  return 0;
}
