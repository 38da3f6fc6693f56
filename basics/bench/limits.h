// Hardware limits measured in the benchmark's own run, against which the basics kernels are
// reported: FP32 FMA issue rate, the rate of the FNV-1a arithmetic rainbow_table needs, a
// streaming copy kernel and a streaming read kernel.
#pragma once

#include <cstddef>

namespace kit::basics {

class Timer;

// Fused multiply-adds per second with every multiprocessor full of independent FMA chains.
double measure_fma_rate(Timer &timer);
// FNV-1a rounds (four xor-multiply steps on a 32-bit word) per second, same conditions.
double measure_fnv_round_rate(Timer &timer);
// Copies `bytes` (a multiple of 16, 16-byte aligned pointers) with a streaming kernel that keeps
// `vectors_per_thread` 16-byte loads in flight per thread (1, 2 or 4): four suit large copies,
// one spreads a small copy over more multiprocessors. The copy-bandwidth limit is the fastest of
// these and cudaMemcpyAsync, which is not always the fastest way to move bytes.
void copy_with_kernel(const void *src, void *dst, std::size_t bytes, int vectors_per_thread);
// Reads `bytes` (a multiple of 16, a 16-byte aligned pointer) with the copy kernel's shape and
// writes nothing: the reference for problems that read far more than they write.
void read_with_kernel(const void *src, std::size_t bytes, int vectors_per_thread);

} // namespace kit::basics
