// The executable of one basics problem (built per problem, see basics/CMakeLists.txt).
#include "device/entry.h"
#include "solve.h"

#if defined(KIT_BASICS_LIBRARY)
#include "device/library.h"
#endif

int main(int argc, char **argv) {
  kit::basics::SolveEntry entry{KIT_BASICS_PROBLEM, kit::basics::solver("solve", solve), {}, {}};
#if defined(KIT_BASICS_LIBRARY)
  entry.extra_baselines = kit::basics::library_baselines();
#endif
  return kit::basics::program_main(argc, argv, entry);
}
