// The tile table of the FP32 flash attention (primitives/flash_attention.h) and the rule that picks
// a tile for a call. A tile changes which thread forms a score or an output element, never its
// chain of operations, so the choice affects speed only. No entry has been measured yet: the
// shapes follow from the shared-memory budget (below) and from the wish to give every
// multiprocessor a block.
#pragma once

namespace kit::flash {

// The compiled head-dimension tiers: a call with head dimension d runs the smallest tier >= d (the
// dimensions past d are zeros in shared memory, which leave every chain unchanged); d above the
// largest tier takes the unfused path of flash_attention.h.
inline constexpr int kHeadDimTiers[] = {64, 128, 256};
inline constexpr int kLargestHeadDimTier = 256;

// The three tiles of a tier, tallest first: query rows per block x keys per step. Shared memory of
// a tile (floats): Dim x (rows + 4) for Q, Dim x max(keys + 4, keys) for the K/V stage, keys x
// (rows + 4) for the probabilities. Tier 128: 87 KB for 64 x 64 (two blocks per H200
// multiprocessor), 62.5 KB for 32 x 64 (within gfx908's 64 KB LDS), 48 KB for 16 x 64. Tier 256
// steps 32 keys in its shortest tile, the only one within 64 KB (58.5 KB).
template <int Dim> struct TierTiles {
  static constexpr int kTallRows = 64, kTallKeys = 64;
  static constexpr int kMediumRows = 32, kMediumKeys = 64;
  static constexpr int kShortRows = 16, kShortKeys = Dim > 128 ? 32 : 64;
};

// A tile's grid fills the device when it gives every multiprocessor a block: the tallest tile
// whose grid does is taken (taller tiles read K and V fewer times), else the shortest that fits
// shared memory. A rule of thumb, not a measurement.
inline bool grid_fills(long long blocks, int multiprocessors) { return blocks >= multiprocessors; }

} // namespace kit::flash
