// sorting: the N floats of `data` sorted ascending in place (LeetGPU signature, device pointers),
// as torch.sort orders them, by the kit's onesweep radix sort (primitives/radix_sort.h) on the
// floats' order-preserving words (FloatKeys: a positive float's sign bit flipped, a negative
// float's every bit flipped): a histogram launch, then four stable 8-bit passes
// data -> scratch -> data -> scratch -> data; up to 4096 keys one block sorts them in shared
// memory.
#include "primitives/radix_sort.h"

extern "C" void solve(float *data, int N) {
  if (N <= 0)
    return;
  // The scratch (a second buffer of N keys and the tile states) is kept from one call to the
  // next.
  static kit::radix_sort::Workspace workspace;
  kit::radix_sort::sort<kit::radix_sort::FloatKeys>(data, data, static_cast<unsigned>(N), workspace,
                                                    "sorting");
}
