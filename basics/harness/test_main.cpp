// The GPU test of one basics problem (built per problem, see basics/CMakeLists.txt).
#include "device/entry.h"
#include "solve.h"

#if defined(KIT_BASICS_CUBLAS)
#include "bench/cublas_sgemm.h"
#endif

int main(int argc, char **argv) {
  kit::basics::SolveEntry entry{KIT_BASICS_PROBLEM, kit::basics::solver("solve", solve), {}, {}};
#if defined(KIT_BASICS_CUBLAS)
  entry.judge_reference =
      kit::basics::solver("cuBLAS SGEMM (FP32, no TF32)", kit::basics::cublas_sgemm);
#endif
  return kit::basics::gpu_test_main(argc, argv, entry);
}
