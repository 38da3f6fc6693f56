// What the subarray sums (subarray_sum, 2d_subarray_sum, 3d_subarray_sum) share: their value
// fills and the check of one index range.
#pragma once

#include "spec.h"

#include <string>

namespace kit::basics {

// The challenges' values: integers 1..10.
void fill_one_to_ten(Case &c, Rng &rng);

// Every int, INT_MIN and INT_MAX among them: a sum wraps modulo 2^32 many times.
void fill_full_int_range(Case &c, Rng &rng);

// Element i (row-major) holds i + 1 (mod 2^31), so a sum that misses or repeats an element, or
// reads the wrong slab, row, column or end, is off by a recognisable amount.
void fill_positions(Case &c, Rng &rng);

// "" when the scalars `first` <= `last` < `size`, else why not ("S_ROW 5 > E_ROW 4").
std::string check_index_range(const Case &c, const char *first, const char *last, const char *size);

} // namespace kit::basics
