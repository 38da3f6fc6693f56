// CPU reference: inclusive scan of int32 with two's complement wrap-around (addition mod 2^32),
// exactly what a serial int32 loop computes.
#pragma once

#include <cstddef>

void prefix_sum_reference(const int *input, int *output, std::size_t n);
