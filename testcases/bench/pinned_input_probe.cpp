// Should the programs parse into pinned (page-locked) host memory? Measures, for N int32 values,
// what the input buffer costs before and after parsing in the two cases:
//   pageable: new int[N], pages faulted in by the parsing threads (simulated by a parallel fill);
//   pinned:   cudaMallocHost (page-locks every page up front), then the same parallel fill;
// and what it saves: a plain cudaMemcpy host-to-device from each, and prefix_sum's solve() from
// each (solve stages through its own pinned buffers, so it can only gain if the copy engine reads
// the caller's buffer directly). Median of 5 runs; the runtime is started before timing.
//   pinned_input_probe [N...]   (default 10000000 100000000)
#include "gpu/gpu.h"
#include "solve.h"
#include "io/threads.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

namespace {

double milliseconds(const std::function<void()> &work) {
  std::vector<double> runs;
  for (int run = 0; run < 5; ++run) {
    const auto start = std::chrono::steady_clock::now();
    work();
    runs.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

// What the parse threads do to the input buffer: write every value once, in parallel.
void parallel_fill(int *data, std::size_t n) {
  kit::ThreadPool &pool = kit::default_pool();
  const std::size_t parts = static_cast<std::size_t>(pool.size()) * 4;
  pool.run(parts, [&](std::size_t part) {
    for (std::size_t i = n * part / parts; i < n * (part + 1) / parts; ++i)
      data[i] = static_cast<int>(i % 2001) - 1000;
  });
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty())
    sizes = {10000000, 100000000};
  GPU_CHECK(cudaFree(nullptr));
  std::printf("threads %d\n", kit::default_pool().size());
  std::printf("| N | buffer | alloc + fill (ms) | H2D cudaMemcpy (ms) | solve() (ms) |\n");
  std::printf("|---:|---|---:|---:|---:|\n");
  for (std::size_t n : sizes) {
    const std::size_t bytes = n * sizeof(int);
    int *device = nullptr;
    GPU_CHECK(cudaMalloc(&device, bytes));
    std::unique_ptr<int[]> output(new int[n]);
    parallel_fill(output.get(), n); // fault the output in once: both cases share it

    const double pageable_fill = milliseconds([&] {
      std::unique_ptr<int[]> input(new int[n]);
      parallel_fill(input.get(), n);
    });
    std::unique_ptr<int[]> pageable(new int[n]);
    parallel_fill(pageable.get(), n);
    const double pageable_copy = milliseconds(
        [&] { GPU_CHECK(cudaMemcpy(device, pageable.get(), bytes, cudaMemcpyHostToDevice)); });
    const double pageable_solve =
        milliseconds([&] { solve(pageable.get(), output.get(), static_cast<int>(n)); });
    pageable.reset();

    const double pinned_fill = milliseconds([&] {
      int *input = nullptr;
      GPU_CHECK(cudaMallocHost(&input, bytes));
      parallel_fill(input, n);
      GPU_CHECK(cudaFreeHost(input));
    });
    int *pinned = nullptr;
    GPU_CHECK(cudaMallocHost(&pinned, bytes));
    parallel_fill(pinned, n);
    const double pinned_copy =
        milliseconds([&] { GPU_CHECK(cudaMemcpy(device, pinned, bytes, cudaMemcpyHostToDevice)); });
    const double pinned_solve =
        milliseconds([&] { solve(pinned, output.get(), static_cast<int>(n)); });
    GPU_CHECK(cudaFreeHost(pinned));
    GPU_CHECK(cudaFree(device));

    std::printf("| %zu | pageable | %.1f | %.1f | %.1f |\n", n, pageable_fill, pageable_copy,
                pageable_solve);
    std::printf("| %zu | pinned | %.1f | %.1f | %.1f |\n", n, pinned_fill, pinned_copy,
                pinned_solve);
  }
  return 0;
}
