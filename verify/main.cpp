// verify: checks a program's output against the expected one under the grader's rules.
//   verify exact OUT EXPECTED     (prefix_sum, apsp: diff -qBw)
//   verify softmax OUT EXPECTED   (same shape, 1e-6 absolute or 1e-5 relative per value)
// Exit 0 pass, 1 mismatch (the first difference on stdout), 2 unusable input or usage.
#include "compare.h"

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  const std::string mode = argc == 4 ? argv[1] : "";
  if (mode != "exact" && mode != "softmax") {
    std::fprintf(stderr, "Usage: %s exact|softmax <output_file> <expected_file>\n",
                 argc > 0 ? argv[0] : "verify");
    return 2;
  }
  const verify::Result result = mode == "exact" ? verify::compare_exact(argv[2], argv[3])
                                                : verify::compare_softmax(argv[2], argv[3]);
  switch (result.outcome) {
  case verify::Outcome::pass:
    return 0;
  case verify::Outcome::mismatch:
    std::printf("MISMATCH %s vs %s: %s\n", argv[2], argv[3], result.message.c_str());
    return 1;
  default:
    std::fprintf(stderr, "verify: %s\n", result.message.c_str());
    return 2;
  }
}
