// Includes types.h before solve.h (main.h then repeats it under the same guard) and a header
// first seen inside a false #if, which must still be inlined for the unconditional include.
#include "types.h"
// (separate blocks keep this order through clang-format)
#include "solve.h"
#include "text.h"
#if FIXTURE_NEVER_DEFINED
#include "only_if.h"
#endif
#include <only_if.h>
/* a commented-out include must stay as it is:
#include "does_not_exist.h"
*/
#include <cstdio>

namespace {
const char *const kPrefix = "main: "; // text.cpp has its own kPrefix
} // namespace

int main() {
  FixturePair pair{FIXTURE_OFFSET, kFixtureOnlyIf};
  std::printf("%s%s\n", kPrefix, fixture_format(solve(&pair)).c_str());
  return 0;
}
