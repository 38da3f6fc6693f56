// The executable of one basics problem (built per problem, see basics/CMakeLists.txt).
#include "device/entry.h"
#include "solve.h"

#if defined(KIT_BASICS_CUBLAS)
#include "bench/cublas_sgemm.h"
#endif
#if defined(KIT_BASICS_CUB_SORT) || defined(KIT_BASICS_CUB_SELECT)
#include "bench/cub_baselines.h"
#endif

int main(int argc, char **argv) {
  kit::basics::SolveEntry entry{KIT_BASICS_PROBLEM, kit::basics::solver("solve", solve), {}};
#if defined(KIT_BASICS_CUBLAS)
  entry.extra_baselines.push_back(
      kit::basics::solver("cuBLAS SGEMM (FP32, no TF32)", kit::basics::cublas_sgemm));
#endif
#if defined(KIT_BASICS_CUB_SORT)
  entry.extra_baselines.push_back(
      kit::basics::solver("CUB DeviceRadixSort::SortKeys", kit::basics::cub_radix_sort));
#endif
#if defined(KIT_BASICS_CUB_SELECT)
  entry.extra_baselines.push_back(
      kit::basics::solver("CUB DeviceSelect::If", kit::basics::cub_select_positive));
#endif
  return kit::basics::program_main(argc, argv, entry);
}
