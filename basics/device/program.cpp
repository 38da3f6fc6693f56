// `<problem> CASE.in > CASE.out`: the judge's flow on one case (inputs uploaded, outputs
// allocated and poisoned, or zeroed where the judge zeroes them, solve called with device
// pointers, outputs downloaded and printed). `<problem> --bench [--runs R] [--seed S]`: the
// benchmark (bench_run.h). Exit status: 0 done, 1 usage (no case file and no --bench, or both),
// 2 bad input or a bad option, 3 a GPU runtime failure.
#include "bench/options.h"
#include "bench_run.h"
#include "device_case.h"
#include "entry.h"
#include "harness/case_io.h"
#include "harness/registry.h"

#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace kit::basics {

namespace {

constexpr int kUsageExit = 1;
constexpr int kBadInputExit = 2;

int usage(const char *program) {
  std::fprintf(stderr,
               "usage: %s CASE.in            (prints the outputs in the basics case format)\n"
               "       %s --bench [--runs R] [--seed S]\n",
               program, program);
  return kUsageExit;
}

struct Arguments {
  std::string case_file; // "" unless given
  bool bench = false;
  BenchOptions bench_options;
};

// Bad options and --help end the program here (kit::bench::Options: exit 2 naming the option).
Arguments parse_arguments(int argc, char **argv, const std::string &problem) {
  Arguments a;
  std::size_t runs = 0, seed = a.bench_options.seed;
  bool case_given = false;
  kit::bench::Options options(
      problem, "CASE.in: runs solve on one case and prints the outputs in the basics case format; "
               "--bench: times solve on the judge's performance case against the problem's limit "
               "and baselines measured in the same run");
  options.flag("--bench", &a.bench, "benchmark at the judge's performance size")
      .size("--runs", &runs, "timed runs (default 50, 10 above 1e11 operations)")
      .size("--seed", &seed, "seed of the generated inputs (default 1)")
      .positional("CASE.in", [&](const std::string &path) {
        if (case_given)
          return false;
        a.case_file = path;
        case_given = true;
        return true;
      });
  options.parse(argc, argv);
  a.bench_options.runs = static_cast<int>(std::min<std::size_t>(runs, 1000000));
  a.bench_options.seed = seed;
  return a;
}

int run_case_file(const Problem &problem, const SolveEntry &entry, const char *path) {
  Case c;
  try {
    c = read_input(problem, path);
  } catch (const InputError &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kBadInputExit;
  }
  const char *why = nullptr;
  if (!kit::gpu::device_available(&why)) {
    std::fprintf(stderr, "%s: no usable GPU (%s)\n", problem.name.c_str(), why ? why : "?");
    return kit::gpu::kGpuFailureExitCode;
  }
  DeviceCase device(problem, c);
  device.upload_inputs();
  device.fill_outputs(0xFF);
  device.zero_outputs_the_judge_zeroes();
  entry.solve.invoke(device.slots());
  GPU_CHECK(cudaGetLastError());
  GPU_CHECK(cudaDeviceSynchronize());
  write_output(problem, device.download(), stdout);
  if (std::fflush(stdout) != 0) {
    std::fprintf(stderr, "%s: cannot write the output\n", problem.name.c_str());
    return kBadInputExit;
  }
  return 0;
}

} // namespace

int program_main(int argc, char **argv, const SolveEntry &entry) {
  const Problem *problem = find_problem(entry.problem);
  if (!problem) {
    std::fprintf(stderr, "%s: no problem description named %s\n", argv[0], entry.problem);
    return kUsageExit;
  }
  try {
    check_signature(*problem, entry.solve.shape, "solve");
  } catch (const std::logic_error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kUsageExit;
  }
  const Arguments arguments = parse_arguments(argc, argv, problem->name);
  if (arguments.bench == !arguments.case_file.empty())
    return usage(argv[0]);
  if (arguments.bench)
    return run_bench(*problem, entry, arguments.bench_options);
  return run_case_file(*problem, entry, arguments.case_file.c_str());
}

} // namespace kit::basics
