// The GPU test of one basics problem (built per problem, see basics/CMakeLists.txt).
#include "device/entry.h"
#include "solve.h"

int main(int argc, char **argv) {
  return kit::basics::gpu_test_main(argc, argv,
                                    {KIT_BASICS_PROBLEM, kit::basics::solver("solve", solve), {}});
}
