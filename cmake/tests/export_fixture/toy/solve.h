// The toy problem's entry point: exported as main.h.
#pragma once

#include "types.h"

extern "C" int solve(const FixturePair *pair);
