#include "subarray_cases.h"

#include <climits>

namespace kit::basics {

void fill_one_to_ten(Case &c, Rng &rng) { fill_uniform(c.array<int>(0), c.count(0), 1, 10, rng); }

void fill_full_int_range(Case &c, Rng &rng) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 8 == 0 ? (rng.next() % 2 ? INT_MAX : INT_MIN)
                               : static_cast<int>(rng.uniform_int(INT_MIN, INT_MAX));
}

void fill_positions(Case &c, Rng &) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = static_cast<int>((i + 1) & 0x7fffffff);
}

std::string check_index_range(const Case &c, const char *first, const char *last,
                              const char *size) {
  if (c[first] > c[last])
    return std::string(first) + " " + std::to_string(c[first]) + " > " + last + " " +
           std::to_string(c[last]);
  if (c[last] >= c[size])
    return std::string(last) + " " + std::to_string(c[last]) + " >= " + size + " " +
           std::to_string(c[size]);
  return "";
}

} // namespace kit::basics
