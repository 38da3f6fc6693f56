// The GPU side of the local judge (basics/judge/judge.py): runs a user's `solve`, built into a
// shared library with solution_entry.cu, through the harness of one problem.
//
//   judge_host PROBLEM SOLUTION.so --list            the judge's case labels, one per line
//   judge_host PROBLEM SOLUTION.so --case LABEL      one case, as the GPU test runs it
//   judge_host PROBLEM SOLUTION.so --bench           the performance case, as `<problem> --bench`
//
// One case per process: judge.py runs each in its own process with a time limit, so a solve that
// crashes, corrupts the GPU context or hangs fails its case and nothing else. Exit status: 0 the
// case passed (or the listing / benchmark ran), 1 it failed, 2 bad usage, 3 a GPU runtime
// failure (the runtime's message is on stderr), 4 the library or its solve could not be loaded,
// 77 no usable GPU.
#include "device/bench_run.h"
#include "device/entry.h"
#include "harness/registry.h"
#include "testing/test_support.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

namespace {

constexpr int kUsageExit = 2;
constexpr int kLoadExit = 4;

int usage() {
  std::fprintf(stderr, "usage: judge_host PROBLEM SOLUTION.so (--list | --case LABEL | --bench) "
                       "[--seed S] [--runs R]\n");
  return kUsageExit;
}

// The user's solve from the library, or nullptr after one line on stderr.
const kit::basics::Solver *load_solution(const char *path) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::fprintf(stderr, "judge_host: cannot load %s: %s\n", path, dlerror());
    return nullptr;
  }
  using Entry = const kit::basics::Solver *(*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(library, "kit_judge_solution"));
  if (!entry) {
    std::fprintf(stderr, "judge_host: %s was not built by the judge (no kit_judge_solution)\n",
                 path);
    return nullptr;
  }
  return entry();
}

} // namespace

int main(int argc, char **argv) {
  using namespace kit::basics;
  if (argc < 4)
    return usage();
  const std::string problem_name = argv[1];
  const std::string command = argv[3];
  std::string label;
  std::uint64_t seed = std::random_device{}();
  BenchOptions bench_options;
  int next = 4;
  if (command == "--case") {
    if (argc < 5)
      return usage();
    label = argv[next++];
  } else if (command != "--list" && command != "--bench") {
    return usage();
  }
  for (; next + 1 < argc; next += 2) {
    const std::string option = argv[next];
    const unsigned long long value = std::strtoull(argv[next + 1], nullptr, 10);
    if (option == "--seed")
      seed = value;
    else if (option == "--runs")
      bench_options.runs = static_cast<int>(value);
    else
      return usage();
  }
  if (next != argc)
    return usage();

  const Problem *problem = find_problem(problem_name);
  if (!problem) {
    std::fprintf(stderr, "judge_host: no problem named %s (basics/problems.txt lists them)\n",
                 problem_name.c_str());
    return kUsageExit;
  }
  if (command == "--list") {
    for (const Recipe *recipe : problem->judge.all())
      std::printf("%s\n", recipe->label.c_str());
    return 0;
  }
  kit::test::begin_gpu_test("judge"); // exit 77, as the GPU tests skip
  const Solver *solution = load_solution(argv[2]);
  if (!solution)
    return kLoadExit;
  try {
    check_signature(*problem, solution->shape, "your solve");
  } catch (const std::logic_error &e) {
    std::printf("FAIL %s\n", e.what());
    return 1;
  }
  const SolveEntry entry{problem->name.c_str(), *solution, {}, {}};
  if (command == "--bench") {
    bench_options.seed = seed;
    return run_bench(*problem, entry, bench_options);
  }
  for (const Recipe *recipe : problem->judge.all())
    if (recipe->label == label)
      return run_gpu_test_case(*problem, entry, *recipe, seed, false, nullptr);
  std::fprintf(stderr, "judge_host: %s has no case labelled \"%s\" (--list shows them)\n",
               problem->name.c_str(), label.c_str());
  return kUsageExit;
}
