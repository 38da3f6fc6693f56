// The constants of the onesweep radix sort (primitives/radix_sort.h): digit width, tile shape and
// the histogram pass's geometry. One table for every target: 256 threads (one per digit) and 16
// keys per thread keep 64 registers per thread on sm_90 (four blocks per SM) and no spills on
// gfx908 (wave64).
#pragma once

namespace kit::radix_sort {

constexpr int kRadixBits = 8;
constexpr int kDigits = 1 << kRadixBits;
constexpr int kPasses = 32 / kRadixBits;
// One thread per digit in the per-digit steps (sums over warps, scan, look-back).
constexpr int kThreads = kDigits;
constexpr int kKeysPerThread = 16;
constexpr int kTileKeys = kThreads * kKeysPerThread;

constexpr int kHistogramThreads = kDigits; // the last block scans one digit per thread
constexpr int kHistogramCopies = 8;        // lane l counts into copy l % 8: 32 KB per block
constexpr int kHistogramUnroll = 4;        // 16-byte loads in flight per thread

static_assert(kThreads % 64 == 0, "block sizes are multiples of 64 (AMD wave64)");

} // namespace kit::radix_sort
