// The tile table of the FP32 flash attention (primitives/flash_attention.h) and the rule that picks
// a tile for a call. A tile changes which thread forms a score or an output element, never its
// chain of operations, so the choice affects speed only. No entry has been measured yet: the
// shapes follow from the shared-memory budget (below) and from the wish to give every
// multiprocessor blocks (splitting the key axis when the query tiles and slices alone are too
// few).
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

// A plan for a call: which tile of the tier, and into how many chunks the key axis is cut (each
// chunk a whole number of the tile's key steps; a block per query tile, slice and chunk, the
// chunks' partial results combined by a second kernel when splits > 1).
enum class TileClass { Tall, Medium, Short };
struct Plan {
  TileClass tile = TileClass::Short;
  int splits = 1;
};

// The grid the planner aims for: this many blocks per multiprocessor. A rule of thumb, not
// measured; the one constant to change.
inline constexpr int kTargetBlocksPerMultiprocessor = 2;

// The planner's rule for one tile, tried from the tallest tile the device's shared memory grants
// to the shortest (taller tiles have more threads and read K and V fewer times): `blocks` query
// tiles x slices, `key_tiles` key steps over the keys, `target` blocks wanted. The tile is taken
// unsplit when its grid reaches the target; split into ceil(target / blocks) chunks (at most one
// per key step) when the split grid reaches it; else the next shorter tile is tried (0), and the
// shortest takes one chunk per key step. The count ignores the visibility rule: under a causal or
// window rule many (query tile, chunk) blocks see no key and exit at once, which is accepted (the
// grid then holds fewer working blocks than the target).
inline int split_for_tile(long long blocks, int key_tiles, long long target, bool shortest) {
  if (key_tiles < 1)
    key_tiles = 1;
  if (blocks >= target)
    return 1;
  if (blocks * key_tiles >= target) {
    const long long splits = (target + blocks - 1) / blocks;
    return static_cast<int>(splits < key_tiles ? splits : key_tiles);
  }
  return shortest ? key_tiles : 0;
}

} // namespace kit::flash
