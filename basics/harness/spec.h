// Helpers for the problem descriptions in basics/<name>/reference.cpp.
#pragma once

#include "problem.h"
#include "random.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace kit::basics {

// Installs the CPU reference (same parameter list as solve, host pointers).
template <class... Ps> void set_reference(Problem &problem, void (*reference)(Ps...)) {
  problem.reference = bind(reference);
  problem.reference_shape = shape_of(reference);
}

// The sizes every 1-D problem is tested at: 1, 2, 31..33, 63..65, 1023..1025, and tile - 1,
// tile, tile + 1 for each tile size given (elements one block handles), sorted.
std::vector<long long> awkward_sizes(std::initializer_list<long long> tiles);

// Adds a recipe for each awkward size (awkward_sizes(tiles)) of a problem whose only scalar is
// its element count.
void add_awkward_size_tests(Problem &problem, std::initializer_list<long long> tiles);

// "N=31" or "rows=31,cols=33" for the scalar values of a recipe.
std::string label_of(const std::vector<Param> &params, const std::vector<long long> &scalars);

// Adds a recipe per scalar list, labelled by label_of.
void add_tests(Problem &problem, const std::vector<std::vector<long long>> &scalar_lists,
               const FillFn &fill = {}, const std::string &suffix = "");

// Element count of an array parameter sized by one scalar, or by a product of two.
CountFn count_of(const char *scalar);
CountFn count_of(const char *a, const char *b);
CountFn count_one();

PerfModel memory_bound(std::function<double(const Case &)> bytes);

} // namespace kit::basics
