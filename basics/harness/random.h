// Deterministic random inputs: the same seed gives the same case on every compiler and standard
// library (std::*_distribution are not portable), and a 1e8-element array takes well under a
// second to generate.
#pragma once

#include "testing/random.h"

#include <cstddef>

namespace kit::basics {

// The kit's SplitMix64 generator and seed derivation (common/testing/random.h).
using Rng = kit::Rng;
using kit::derive_seed;

void fill_uniform(float *data, std::size_t n, float lo, float hi, Rng &rng);
void fill_uniform(int *data, std::size_t n, long long lo, long long hi, Rng &rng);
void fill_uniform(unsigned char *data, std::size_t n, Rng &rng);

} // namespace kit::basics
