#include "check.h"

#include "gpu/check.h"
#include "gpu/vendor.h"
#include "harness/random.h"

namespace kit::basics {

Expected expected_for(const Problem &problem, const Case &inputs, std::uint64_t seed) {
  Expected e;
  e.sampled = problem.needs_sampled_check(inputs);
  if (e.sampled) {
    Rng rng(derive_seed(seed, problem.name + "/sample"));
    e.sample = problem.sampled_reference(inputs, rng);
  } else {
    e.full = problem.solve_reference(inputs);
  }
  return e;
}

std::string CheckedRun::describe() const {
  std::string text = kit::basics::describe(comparison);
  if (!untouched.empty())
    text += "; " + untouched;
  return text;
}

Case run_solver(DeviceCase &device, const Solver &solver, unsigned char output_fill) {
  device.upload_inputs();
  device.fill_outputs(output_fill);
  solver.invoke(device.slots());
  GPU_CHECK(cudaGetLastError());
  GPU_CHECK(cudaDeviceSynchronize());
  return device.download();
}

CheckedRun run_checked(const Problem &problem, DeviceCase &device, const Solver &solver,
                       const Expected &expected, unsigned char output_fill) {
  Case got = run_solver(device, solver, output_fill);
  CheckedRun run;
  if (expected.sampled) {
    run.comparison = compare_sampled(problem, got, expected.sample);
  } else {
    accept_untouched_zeros(problem, got, expected.full, output_fill);
    run.comparison = compare_outputs(problem, got, expected.full);
  }
  run.untouched = device.check_untouched();
  return run;
}

} // namespace kit::basics
