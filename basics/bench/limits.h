// Hardware limits measured in the benchmark's own run, against which the basics kernels are
// reported: FP32 FMA issue rate, the rate of the FNV-1a arithmetic rainbow_table needs, and a
// read-only pass that evicts L2 between timed runs. Copy bandwidth is timed with
// cudaMemcpyAsync (device to device) by the benchmark itself.
#pragma once

#include <cstddef>

namespace kit::basics {

class Timer;

// Fused multiply-adds per second with every multiprocessor full of independent FMA chains.
double measure_fma_rate(Timer &timer);
// FNV-1a rounds (four xor-multiply steps on a 32-bit word) per second, same conditions.
double measure_fnv_round_rate(Timer &timer);
// Reads `bytes` of device memory (a multiple of 16) and discards the result.
void read_through(const void *buffer, std::size_t bytes);

} // namespace kit::basics
