// Where the on-chip kernel's time goes, block by block: built only by phase_times.sh, with
// SOFTMAX_PHASE_TIMES defined so that the kernel records the global timer at four marks per block
// (kernel_engine.cu). For each shape and size: the event-timed median of the instrumented kernel,
// then, as medians over the runs, the marks relative to the first block's start: the last block's
// start, pass 1 done (first / median / last block), statistics known (first / last), last store
// issued (median / last), and each block's pass 1 from its own start (shortest / median /
// longest: a spread here is slow reading, not late starts). The time from the last store issued
// to the stop event is the write drain and the kernel's exit.
//
//   phase_times [N ...]      (default 8e6 1e7 1.2e7)
#include "event_timing.h"
#include "kernel.h"
#include "kernel_passes.h"
#include "l2_eviction.h"

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

constexpr unsigned kMarks = 4; // kPhaseMarks in kernel_engine.cu

using softmax_gpu::Method;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void measure(softmax_gpu::Engine &engine, const kit::bench::L2Eviction &evict, const float *d_in,
             float *d_out, std::size_t n) {
  const unsigned grid = engine.grid(Method::kOnChip, n);
  const double event_ms = kit::bench::time_events(
                              3, 31, [&] { engine.run(d_in, d_out, n, 0, Method::kOnChip); }, evict)
                              .median_ms;
  // Per run: last start, pass 1 first / median / last, stats first / last, stores median / last.
  std::vector<std::vector<double>> columns(11);
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
    const double values[11] = {mark[0].back(),  mark[1].front(), mark[1][grid / 2], mark[1].back(),
                               mark[2].front(), mark[2].back(),  mark[3][grid / 2], mark[3].back(),
                               pass1.front(),   pass1[grid / 2], pass1.back()};
    for (int c = 0; c < 11; ++c)
      columns[c].push_back(values[c]);
  }
  std::printf(
      "| %-7s | %9zu | %4u | %7.2f | %6.2f | %5.2f / %5.2f / %5.2f | %5.2f / %5.2f | %5.2f / "
      "%5.2f | %5.2f / %5.2f / %5.2f |\n",
      softmax_gpu::shape_name(engine.onchip_config().shape), n, grid, event_ms * 1e3,
      median(columns[0]), median(columns[1]), median(columns[2]), median(columns[3]),
      median(columns[4]), median(columns[5]), median(columns[6]), median(columns[7]),
      median(columns[8]), median(columns[9]), median(columns[10]));
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(static_cast<std::size_t>(std::strtod(argv[i], nullptr)));
  if (sizes.empty())
    sizes = {8000000, 10000000, 12000000};
  const char *why = nullptr;
  if (!kit::gpu::device_available(&why)) {
    std::fprintf(stderr, "phase_times: no usable GPU (%s)\n", why);
    return 1;
  }
  cudaDeviceProp prop;
  GPU_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s: on-chip kernel marks, us from the first block's start (medians of 21 runs, L2 "
              "evicted before each)\n",
              prop.name);
  std::printf("| shape   |         N | grid | event us | last start | pass 1 done first / median "
              "/ last | stats first / last | stores issued median / last | own pass 1 min / median "
              "/ max |\n");
  softmax_gpu::Engine engine;
  kit::bench::L2Eviction evict;
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
    for (softmax_gpu::OnChipShape shape :
         {softmax_gpu::OnChipShape::k512x16, softmax_gpu::OnChipShape::k256x40}) {
      softmax_gpu::OnChipConfig config;
      config.shape = shape;
      config.wide_beyond_registers = false;
      engine.tune_onchip(config);
      if (n <= engine.onchip_shape_capacity())
        measure(engine, evict, d_in, d_out, n);
    }
    GPU_CHECK(cudaFree(d_in));
    GPU_CHECK(cudaFree(d_out));
  }
  return 0;
}
