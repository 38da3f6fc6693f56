// Every basics problem, by name.
#pragma once

#include "problem.h"

#include <string>
#include <vector>

namespace kit::basics {

// In the order of basics/problems.txt (that of docs/LEETGPU.md).
const std::vector<const Problem *> &all_problems();
// nullptr for an unknown name.
const Problem *find_problem(const std::string &name);

} // namespace kit::basics
