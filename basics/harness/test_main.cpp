// The GPU test of one basics problem (built per problem, see basics/CMakeLists.txt).
#include "device/entry.h"
#include "solve.h"

#if defined(KIT_BASICS_LIBRARY)
#include "device/library.h"
#endif

int main(int argc, char **argv) {
  kit::basics::SolveEntry entry{KIT_BASICS_PROBLEM, kit::basics::solver("solve", solve), {}, {}};
#if defined(KIT_BASICS_LIBRARY)
  entry.judge_reference = kit::basics::library_judge_reference();
#endif
  return kit::basics::gpu_test_main(argc, argv, entry);
}
