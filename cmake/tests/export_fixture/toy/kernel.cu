#include "gpu.h"
#include "kernel_helper.h"
#include "solve.h"

namespace {
constexpr int kScale = 2;
} // namespace

extern "C" int solve(const FixturePair *pair) {
  return kScale * fixture_vendor_value(pair->first) + toy_bonus(pair->second);
}
