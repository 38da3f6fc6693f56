#include "bench_run.h"

#include "bench/baselines.h"
#include "bench/limits.h"
#include "check.h"
#include "harness/random.h"
#include "harness/spec.h"
#include "timing.h"

#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/resources.h"
#include "gpu/vendor.h"

#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace kit::basics {

namespace {

constexpr int kWarmup = 3;

const char *limit_name(Limit limit) {
  switch (limit) {
  case Limit::memory:
    return "copy bandwidth";
  case Limit::fp32_fma:
    return "FP32 FMA rate";
  case Limit::fnv_rounds:
    return "FNV-1a round rate";
  }
  return "?";
}

// Times run(vectors_per_thread) at 4, 2 and 1 16-byte vectors per thread and prints each on the
// current line as "<kernel> (V per thread) T ms", the first after `lead`, the others after ", ".
// Returns the fastest of them and `best`.
template <class Run>
Timing fastest_shape(Timer &timer, int runs, const char *lead, const char *kernel, Timing best,
                     Run run) {
  for (const int vectors_per_thread : {4, 2, 1}) {
    const Timing t = timer.measure([&] { run(vectors_per_thread); }, kWarmup, runs);
    std::printf("%s%s (%d per thread) %.4f ms", vectors_per_thread == 4 ? lead : ", ", kernel,
                vectors_per_thread, t.median_ms);
    if (t.median_ms < best.median_ms)
      best = t;
  }
  std::printf("\n");
  return best;
}

// The fastest of cudaMemcpyAsync (device to device) and a streaming copy kernel at 4, 2 and 1
// vectors per thread, moving the same number of bytes as the problem (half read, half written).
Timing time_equal_copy(Timer &timer, double bytes, int runs) {
  const std::size_t each_way = (static_cast<std::size_t>(bytes / 2) + 15) / 16 * 16;
  const kit::gpu::DeviceArray<unsigned char> src(each_way), dst(each_way);
  GPU_CHECK(cudaMemset(src.get(), 1, each_way));
  const Timing memcpy_timing = timer.measure(
      [&] {
        GPU_CHECK(cudaMemcpyAsync(dst.get(), src.get(), each_way, cudaMemcpyDeviceToDevice, 0));
      },
      kWarmup, runs);
  std::printf("copy of %.1f MB each way: cudaMemcpyAsync %.4f ms", each_way / 1e6,
              memcpy_timing.median_ms);
  return fastest_shape(timer, runs, ", ", "copy kernel", memcpy_timing, [&](int vectors) {
    copy_with_kernel(src.get(), dst.get(), each_way, vectors);
  });
}

// The fastest of the read kernel at 4, 2 and 1 vectors per thread over the problem's byte count,
// nothing written. While a copy's written half fits in L2 its stores stay there for the timed run,
// so the copy reads only half its bytes from DRAM and a problem that mostly reads cannot match it;
// a read of all the bytes is that problem's own ceiling.
Timing time_equal_read(Timer &timer, double bytes, int runs) {
  const std::size_t total = (static_cast<std::size_t>(bytes) + 15) / 16 * 16;
  const kit::gpu::DeviceArray<unsigned char> src(total);
  GPU_CHECK(cudaMemset(src.get(), 1, total));
  std::printf("read of %.1f MB, nothing written:", total / 1e6);
  Timing none;
  none.median_ms = std::numeric_limits<double>::infinity();
  return fastest_shape(timer, runs, " ", "read kernel", none,
                       [&](int vectors) { read_with_kernel(src.get(), total, vectors); });
}

struct BaselineResult {
  std::string name = "-";
  double ms = 0;
  bool correct = true;
};

BaselineResult run_baseline(const Problem &problem, const Case &c, const Expected &expected,
                            const Solver &baseline, Timer &timer, int runs) {
  BaselineResult r;
  r.name = baseline.name;
  check_signature(problem, baseline.shape, baseline.name.c_str());
  DeviceCase device(problem, c);
  const CheckedRun check = run_checked(problem, device, baseline, expected, 0xFF);
  r.correct = check.ok();
  std::printf("baseline %s: check %s: %s\n", baseline.name.c_str(), r.correct ? "PASS" : "FAIL",
              check.describe().c_str());
  const std::vector<Slot> slots = device.slots();
  r.ms = timer.measure([&] { baseline.invoke(slots); }, kWarmup, runs).median_ms;
  std::printf("baseline %s: %.4f ms\n", baseline.name.c_str(), r.ms);
  return r;
}

} // namespace

int run_bench(const Problem &problem, const SolveEntry &entry, const BenchOptions &options) {
  const char *why = nullptr;
  if (!kit::gpu::device_available(&why)) {
    std::fprintf(stderr, "%s: no usable GPU (%s)\n", problem.name.c_str(), why ? why : "?");
    return kit::gpu::kGpuFailureExitCode;
  }
  cudaDeviceProp prop;
  int device_id = 0;
  GPU_CHECK(cudaGetDevice(&device_id));
  GPU_CHECK(cudaGetDeviceProperties(&prop, device_id));

  const Recipe &recipe = problem.judge.performance;
  const std::string case_text = label_of(problem.params, recipe.scalars);
  Case c = problem.make_case(recipe.scalars);
  Rng rng(derive_seed(options.seed, problem.name + "/" + recipe.label));
  problem.generate(c, rng, recipe.fill);
  const double ops = problem.model.ops ? problem.model.ops(c) : 0.0;
  const int runs = options.runs > 0 ? options.runs : ops > 1e11 ? 10 : 50;
  std::printf("== %s %s on %s (seed %llu, median of %d runs, L2 flushed before each)\n",
              problem.name.c_str(), recipe.label.c_str(), prop.name,
              static_cast<unsigned long long>(options.seed), runs);

  const Expected expected = expected_for(problem, c, options.seed);
  DeviceCase device(problem, c);
  const CheckedRun check = run_checked(problem, device, entry.solve, expected, 0xFF);
  std::printf("check: %s: %s%s\n", check.ok() ? "PASS" : "FAIL", check.describe().c_str(),
              expected.sampled ? " (sampled reference)" : "");

  Timer timer;
  const std::vector<Slot> slots = device.slots();
  const Timing kernel = timer.measure([&] { entry.solve.invoke(slots); }, kWarmup, runs);
  std::printf("solve: %.4f ms (min %.4f)\n", kernel.median_ms, kernel.min_ms);
  const Timing from_idle =
      timer.measure_from_idle([&] { entry.solve.invoke(slots); }, kWarmup, runs);
  std::printf("solve as the judge times it (events around one call from an idle GPU, launch "
              "included): %.4f ms (min %.4f)\n",
              from_idle.median_ms, from_idle.min_ms);
  std::printf("FROM_IDLE|%s|%.4f\n", problem.name.c_str(), from_idle.median_ms);

  const double bytes = problem.model.bytes(c);
  const Timing copy = time_equal_copy(timer, bytes, runs);
  const double memory_fraction = copy.median_ms / kernel.median_ms;
  std::printf("memory: %.1f MB moved at %.0f GB/s; copy of the same traffic %.4f ms = %.0f GB/s;"
              " %.1f%% of copy bandwidth\n",
              bytes / 1e6, bytes / (kernel.median_ms * 1e6), copy.median_ms,
              bytes / (copy.median_ms * 1e6), 100 * memory_fraction);
  char read_share[32] = "-";
  if (problem.model.limit == Limit::memory) {
    const Timing read = time_equal_read(timer, bytes, runs);
    const double read_fraction = read.median_ms / kernel.median_ms;
    std::printf("memory: a read of the same bytes %.4f ms = %.0f GB/s; %.1f%% of read bandwidth\n",
                read.median_ms, bytes / (read.median_ms * 1e6), 100 * read_fraction);
    std::snprintf(read_share, sizeof read_share, "%.1f%%", 100 * read_fraction);
  }

  double limit_ms = copy.median_ms;
  if (problem.model.limit == Limit::fp32_fma) {
    const double rate = measure_fma_rate(timer);
    limit_ms = ops / rate * 1e3;
    std::printf("compute: %.3g FMAs; measured peak %.2f TFMA/s -> %.4f ms; %.1f%% of the FMA "
                "rate\n",
                ops, rate / 1e12, limit_ms, 100 * limit_ms / kernel.median_ms);
  } else if (problem.model.limit == Limit::fnv_rounds) {
    const double rate = measure_fnv_round_rate(timer);
    limit_ms = ops / rate * 1e3;
    std::printf("compute: %.3g FNV-1a rounds; measured peak %.3g rounds/s -> %.4f ms; %.1f%% of "
                "that rate\n",
                ops, rate, limit_ms, 100 * limit_ms / kernel.median_ms);
  }
  const double limit_fraction = limit_ms / kernel.median_ms;

  std::vector<Solver> baselines = entry.extra_baselines;
  if (Solver simple = straightforward_baseline(problem.name); !simple.name.empty())
    baselines.push_back(simple);
  BaselineResult best;
  for (const Solver &b : baselines) {
    try {
      const BaselineResult r = run_baseline(problem, c, expected, b, timer, runs);
      if (best.ms == 0 || r.ms < best.ms)
        best = r;
    } catch (const std::logic_error &e) {
      std::printf("baseline %s: not run: %s\n", b.name.c_str(), e.what());
    }
  }
  char ratio[64] = "-", baseline_ms[64] = "-";
  if (best.ms > 0) {
    std::snprintf(ratio, sizeof ratio, "%.2fx%s", best.ms / kernel.median_ms,
                  best.correct ? "" : " (baseline fails the check)");
    std::snprintf(baseline_ms, sizeof baseline_ms, "%.4f", best.ms);
  }
  // The result row, as a Markdown table and as one `RESULT|...` line for scripts; the fields are
  // the same.
  char fields[1024];
  std::snprintf(fields, sizeof fields, "%s|%s|%.4f|%s|%.4f|%.1f%%|%.1f%%|%s|%s|%s|%s|%s",
                problem.name.c_str(), case_text.c_str(), kernel.median_ms,
                limit_name(problem.model.limit), limit_ms, 100 * limit_fraction,
                100 * memory_fraction, read_share, best.name.c_str(), baseline_ms, ratio,
                check.ok() ? "PASS" : "FAIL");
  std::string row = "| ";
  for (const char *f = fields; *f; ++f)
    row += *f == '|' ? std::string(" | ") : std::string(1, *f);
  std::printf("\n| problem | case | solve (ms) | limit | limit (ms) | %% of limit | %% of copy "
              "bandwidth | %% of read bandwidth | baseline | baseline (ms) | speed-up | check |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|\n%s |\n\nRESULT|%s\n",
              row.c_str(), fields);
  return check.ok() ? 0 : 1;
}

} // namespace kit::basics
