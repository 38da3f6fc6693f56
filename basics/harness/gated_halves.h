// The shape the gated activations share (geglu, swiglu): `input` holds two halves x1 | x2 of
// N / 2 floats each, `output` N / 2 floats, N even.
#pragma once

#include "spec.h"

#include <vector>

namespace kit::basics {

// Sets the parameters (input, output, N from 2 to max_n), the check that N is even, the default
// fill U(-100, 100) and the kit's sizes: N / 2 at the awkward sizes around the block tiles (1024
// outputs on NVIDIA, 4096 on gfx908) (every N / 2 % 4, i.e. whether x2 = input + N / 2 is 16-byte
// aligned), and the largest N, max_n - 2, whose x2 is not.
void describe_gated_halves(Problem &p, long long max_n);

// A fill drawing each x1 from `x1` and each x2 from `x2`.
FillFn fill_halves_from(std::vector<float> x1, std::vector<float> x2);

} // namespace kit::basics
