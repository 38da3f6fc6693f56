#include "registry.h"

#include <stdexcept>

namespace kit::basics {

// basics_problems.inc is generated from basics/problems.txt by basics/CMakeLists.txt: one
// KIT_BASICS_PROBLEM(<name>, <function>) per problem, in the table's order. Each function is
// defined in basics/<name>/reference.cpp.
#define KIT_BASICS_PROBLEM(name, function) const Problem &function();
#include "basics_problems.inc"
#undef KIT_BASICS_PROBLEM

namespace {

// A reference.cpp whose problem is named differently from its folder would be unreachable by the
// name the table, the tests and the executables use.
const Problem *registered(const Problem &problem, const char *name) {
  if (problem.name != name)
    throw std::logic_error("basics/" + std::string(name) + "/reference.cpp names its problem '" +
                           problem.name + "'");
  return &problem;
}

} // namespace

const std::vector<const Problem *> &all_problems() {
  static const std::vector<const Problem *> problems = {
#define KIT_BASICS_PROBLEM(name, function) registered(function(), #name),
#include "basics_problems.inc"
#undef KIT_BASICS_PROBLEM
  };
  return problems;
}

const Problem *find_problem(const std::string &name) {
  for (const Problem *p : all_problems())
    if (p->name == name)
      return p;
  return nullptr;
}

} // namespace kit::basics
