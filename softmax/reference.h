// CPU reference: numerically stable softmax (maximum subtracted first), sums in double.
#pragma once

#include <cstddef>

void softmax_reference(const float *input, float *output, std::size_t n);
