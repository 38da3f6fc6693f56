// The basics GPU test, shared by every problem: the kit's test cases and the official challenge's
// example, functional and performance cases, on fresh random inputs (the seed is printed; --seed S
// repeats a run), every output compared with the CPU reference, two calls per case (outputs
// poisoned with NaN / -1 first, then filled with plausible garbage, so a solve that accumulates
// into its output without clearing it fails), guard bands and const inputs checked, and the kit's
// small cases repeated at a misaligned address (the judge's own cases run at cudaMalloc's
// alignment, as the judge's tensors are). Where the kit can compute the judge's own reference on
// the device (SolveEntry::judge_reference), the judge's cases are also compared with it, which is
// the comparison the judge makes. The last line, `JUDGE|<problem>|<passed>/<total>`,
// counts the judge's cases (the device script's judge summary reads it).
#include "bench/options.h"
#include "check.h"
#include "entry.h"
#include "harness/random.h"
#include "harness/registry.h"
#include "testing/case_selection.h"
#include "testing/test_support.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>

namespace kit::basics {

namespace {

constexpr unsigned char kPoison = 0xFF;  // NaN floats and halves, -1 ints, 255 bytes
constexpr unsigned char kGarbage = 0x3F; // 0.747 floats, 1.81 halves, 1061109567 ints
constexpr std::size_t kSmallCaseBytes = 16u << 20;

std::size_t case_bytes(const Problem &problem, const Case &c) {
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < problem.params.size(); ++i)
    if (problem.params[i].role != Role::scalar)
      bytes += problem.params[i].count(c) * elem_size(problem.params[i].elem);
  return bytes;
}

// The outputs of `solver` on the case's inputs (outputs poisoned first).
Case outputs_of(const Problem &problem, const Case &c, const Solver &solver) {
  DeviceCase device(problem, c, 0);
  return run_solver(device, solver, kPoison);
}

} // namespace

// With `judge_reference`, solve's outputs must also be within the judge's tolerance of that
// reference's outputs on the same inputs, as the judge compares them (problem.tolerance is the
// challenge's atol and rtol: a host test checks it).
int run_gpu_test_case(const Problem &problem, const SolveEntry &entry, const Recipe &recipe,
                      std::uint64_t seed, bool also_misaligned, const Solver *judge_reference) {
  const auto start = std::chrono::steady_clock::now();
  Case c = problem.make_case(recipe.scalars);
  const std::string invalid = problem.validate(c);
  if (!invalid.empty()) {
    std::printf("FAIL %s %s: the test case itself is invalid: %s\n", problem.name.c_str(),
                recipe.label.c_str(), invalid.c_str());
    return 1;
  }
  // The small scale leaves out cases above its element cap and those marked full scale only.
  const bool within_cap = kit::test::runs_at_this_scale(case_bytes(problem, c) / sizeof(float));
  if (!within_cap || (recipe.full_scale_only && kit::test::small_scale())) {
    std::printf("SKIP %s %s (KIT_TEST_SCALE=small%s)\n", problem.name.c_str(), recipe.label.c_str(),
                within_cap ? ": full scale only, its work outgrows its size" : "");
    return 0;
  }
  Rng rng(derive_seed(seed, problem.name + "/" + recipe.label));
  problem.generate(c, rng, recipe.fill);
  const Expected expected = expected_for(problem, c, seed);
  if (also_misaligned && case_bytes(problem, c) > kSmallCaseBytes)
    also_misaligned = false;
  for (std::size_t misalign : {std::size_t{0}, std::size_t{1}}) {
    if (misalign && !also_misaligned)
      break;
    DeviceCase device(problem, c, misalign);
    for (unsigned char fill : {kPoison, kGarbage}) {
      const CheckedRun run = run_checked(problem, device, entry.solve, expected, fill);
      if (!run.ok()) {
        std::printf("FAIL %s %s (%s, outputs pre-filled with 0x%02X): %s\n", problem.name.c_str(),
                    recipe.label.c_str(), misalign ? "misaligned by one element" : "aligned", fill,
                    run.describe().c_str());
        return 1;
      }
    }
  }
  std::string against_judge_note;
  if (judge_reference) {
    Case got = outputs_of(problem, c, entry.solve);
    const Case judged = outputs_of(problem, c, *judge_reference);
    accept_untouched_zeros(problem, got, judged, kPoison); // the judge zero-fills those outputs
    const Comparison against_judge = compare_outputs(problem, got, judged);
    if (!against_judge.ok) {
      std::printf("FAIL %s %s: against %s, as the judge compares: %s\n", problem.name.c_str(),
                  recipe.label.c_str(), judge_reference->name.c_str(),
                  describe(against_judge).c_str());
      return 1;
    }
    char note[160];
    std::snprintf(note, sizeof note, " [against %s: max |difference| %.3g]",
                  judge_reference->name.c_str(), against_judge.max_error);
    against_judge_note = note;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("PASS %s %s%s%s%s (%.2f s)\n", problem.name.c_str(), recipe.label.c_str(),
              expected.sampled ? " [sampled reference]" : "",
              also_misaligned ? " [aligned + misaligned]" : "", against_judge_note.c_str(),
              seconds);
  return 0;
}

int gpu_test_main(int argc, char **argv, const SolveEntry &entry) {
  const std::string test_name = std::string("basics_") + entry.problem + "_test";
  std::size_t seed = std::random_device{}();
  kit::bench::Options options(test_name, "every test case and judge case of the problem against "
                                         "the CPU reference, on fresh random inputs");
  options.size("--seed", &seed, "repeat the run of this seed (default: a random one)");
  options.parse(argc, argv);
  kit::test::begin_gpu_test(test_name.c_str(), kit::test::Cases::Selectable);
  const Problem *problem = find_problem(entry.problem);
  if (!problem) {
    std::printf("FAIL: no problem description named %s\n", entry.problem);
    return 1;
  }
  std::printf("%s: seed %llu (repeat with --seed %llu)\n", test_name.c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  const Solver *judge_reference =
      entry.judge_reference.name.empty() ? nullptr : &entry.judge_reference;
  try {
    check_signature(*problem, entry.solve.shape, "solve");
    check_signature(*problem, problem->reference_shape, "the CPU reference");
    if (judge_reference)
      check_signature(*problem, judge_reference->shape, judge_reference->name.c_str());
  } catch (const std::logic_error &e) {
    std::printf("FAIL %s\n", e.what());
    return 1;
  }
  // The kit's cases, then the judge's: KIT_TEST_CASE and KIT_TEST_SHARD select from them all.
  int kit_failures = 0, judge_failures = 0, cases = 0, judge_total = 0;
  kit::test::CaseSelection selection;
  for (const Recipe &recipe : problem->tests) {
    if (!selection.runs(recipe.label))
      continue;
    kit_failures += run_gpu_test_case(*problem, entry, recipe, seed, true, nullptr);
    ++cases;
  }
  if (judge_reference)
    std::printf("%s: the judge's cases are also compared with %s, the judge's own reference\n",
                test_name.c_str(), judge_reference->name.c_str());
  for (const Recipe *recipe : problem->judge.all()) {
    if (!selection.runs(recipe->label))
      continue;
    judge_failures += run_gpu_test_case(*problem, entry, *recipe, seed, false, judge_reference);
    ++cases;
    ++judge_total;
  }
  std::printf("%s: %d cases, %d failed\n", test_name.c_str(), cases, kit_failures + judge_failures);
  std::printf("JUDGE|%s|%d/%d\n", problem->name.c_str(), judge_total - judge_failures, judge_total);
  return kit_failures + judge_failures == 0 ? 0 : 1;
}

} // namespace kit::basics
