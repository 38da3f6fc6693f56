#include "solve.h"

extern "C" int solve(const FixturePair *pair) { return -1; }
