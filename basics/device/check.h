// One checked call of a solver on the device: inputs uploaded fresh, outputs pre-filled, the call,
// then the outputs compared with the CPU reference and the guard bands and inputs inspected.
#pragma once

#include "device_case.h"
#include "harness/compare.h"

#include <cstdint>

namespace kit::basics {

// The reference's answer: every output, or a sample for cases too large for the full reference.
struct Expected {
  bool sampled = false;
  Case full;
  std::vector<SampledValue> sample;
};

Expected expected_for(const Problem &problem, const Case &inputs, std::uint64_t seed);

struct CheckedRun {
  Comparison comparison;
  std::string untouched; // "" when guards and inputs are intact
  bool ok() const { return comparison.ok && untouched.empty(); }
  std::string describe() const;
};

// One call of `solver` on the device case: inputs uploaded fresh, outputs pre-filled with
// `output_fill`, the call, and its outputs downloaded.
Case run_solver(DeviceCase &device, const Solver &solver, unsigned char output_fill);

CheckedRun run_checked(const Problem &problem, DeviceCase &device, const Solver &solver,
                       const Expected &expected, unsigned char output_fill);

} // namespace kit::basics
