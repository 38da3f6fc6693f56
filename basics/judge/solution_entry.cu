// Compiled with a user's solution file into the shared library that judge_host loads: hands the
// harness the user's `solve`, bound to its parameter types (harness/signature.h). The problem's
// solve.h is force-included into both files, so a solve whose signature differs from the judge's
// fails to compile there, with the compiler naming both declarations.
#include "device/entry.h"

extern "C" const kit::basics::Solver *kit_judge_solution() {
  static const kit::basics::Solver solution = kit::basics::solver("your solve", solve);
  return &solution;
}
