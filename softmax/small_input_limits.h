// softmax's small-input limits on N (program/small_input.h; top README, "Small inputs"). GPU builds
// answer inputs up to `contest` with the CPU reference by default (the whole CPU answer costs
// about 1% of the GPU runtime's start-up), up to `fastest` with KIT_SMALL_INPUT=fastest (the
// measured cross-over, testcases/bench/small_input_sweep.sh). Written here only: main.cpp uses
// them and testcases/KitCaseTests.cmake reads this definition for the tests at each limit, so it
// stays one line holding two integer literals.
#pragma once

#include "program/small_input.h"

inline constexpr kit::io::SmallInputLimits kSmallInputLimits{50000, 10000000}; // contest, fastest
