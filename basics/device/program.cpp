// `<problem> CASE.in > CASE.out`: the judge's flow on one case (inputs uploaded, outputs
// allocated and poisoned, or zeroed where the judge zeroes them, solve called with device
// pointers, outputs downloaded and printed).
#include "bench_run.h"
#include "device_case.h"
#include "entry.h"
#include "harness/case_io.h"
#include "harness/registry.h"

#include "gpu/gpu.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

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
  if (argc >= 2 && std::strcmp(argv[1], "--bench") == 0) {
    BenchOptions options;
    for (int i = 2; i < argc; ++i) {
      if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
        options.runs = std::atoi(argv[++i]);
      else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
        options.seed = std::strtoull(argv[++i], nullptr, 10);
      else
        return usage(argv[0]);
    }
    if (options.runs < 0)
      return usage(argv[0]);
    return run_bench(*problem, entry, options);
  }
  if (argc != 2 || argv[1][0] == '-')
    return usage(argv[0]);
  return run_case_file(*problem, entry, argv[1]);
}

} // namespace kit::basics
