#include "gpu.h"
#include "solve.h"

extern "C" int solve(const FixturePair *pair) {
  return fixture_vendor_twice(pair->first) + pair->second;
}
