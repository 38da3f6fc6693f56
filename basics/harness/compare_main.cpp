// basics_compare: checks a basics program's output against the expected output with the judge's
// rule for the problem (|got - expected| <= atol + rtol * |expected|, exact for integers).
//
//   basics_compare GOT.out EXPECTED.out
//
// Exit status: 0 pass, 1 mismatch (the first difference is printed), 2 unusable input.
#include "case_io.h"
#include "compare.h"
#include "registry.h"

#include <cstdio>

using namespace kit::basics;

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: basics_compare GOT.out EXPECTED.out\n");
    return 1;
  }
  try {
    const OutputFile expected = read_output(argv[2]);
    const Problem *problem = find_problem(expected.problem);
    if (!problem)
      throw InputError(std::string(argv[2]) + ": unknown problem '" + expected.problem + "'");
    check_output_layout(*problem, expected, argv[2]);
    const OutputFile got = read_output(argv[1]);
    check_output_layout(*problem, got, argv[1]);
    Comparison total;
    for (std::size_t i = 0; i < expected.arrays.size(); ++i)
      merge(total, compare_array(expected.names[i], expected.elems[i], got.arrays[i],
                                 expected.arrays[i], problem->tolerance));
    std::printf("%s %s: %s\n", total.ok ? "PASS" : "FAIL", problem->name.c_str(),
                describe(total).c_str());
    return total.ok ? 0 : 1;
  } catch (const InputError &e) {
    std::fprintf(stderr, "basics_compare: %s\n", e.what());
    return 2;
  }
}
