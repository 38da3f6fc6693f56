// The tile table of the FP32 flash attention (primitives/flash_attention.h) and the rule that picks
// a tile for a call. A tile changes which thread forms a score or an output element, never its
// chain of operations, so the choice affects speed only. The tile shapes follow from the
// shared-memory budget (below), not from a sweep; the split rule's constants are measured (their
// comments).
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

// A plan for a call: which tile of the tier, and into how many chunks each query tile's visible key
// range is cut (equal runs of whole key steps; a block per query tile, slice and chunk, the
// chunks' partial results combined by a second kernel when splits > 1).
enum class TileClass { Tall, Medium, Short };
struct Plan {
  TileClass tile = TileClass::Short;
  int splits = 1;
};

// A split grid aims for this many blocks per multiprocessor.
inline constexpr int kTargetBlocksPerMultiprocessor = 2;
// A query tile whose visible keys span fewer key steps than this is not split: a chunk costs its
// partials' write and the combining pass, and a range of two or three steps moves too little work
// (sliding_window_attn, 2-3 steps per query tile, ran 2.1x slower split in 4 on the H200).
inline constexpr int kLeastKeyStepsToSplit = 4;

// The planner's rule for one tile, tried from the tallest tile the device's shared memory grants
// to the shortest (taller tiles have more threads and read K and V fewer times): `blocks` query
// tiles x slices, `key_steps` the most key steps any query tile's visible range spans. The tile is
// taken unsplit when every multiprocessor gets a block (splitting such a grid in two made
// multi_head_attention's 256 blocks and multi_head_cross_attention's 8-9% slower on the H200);
// otherwise, when its ranges are long enough, split into ceil(target / blocks) chunks (at most
// one per key step) if the split grid reaches the target, else the next shorter tile is tried
// (0); the shortest takes what it can. Each query tile's chunks are equal runs of its own range,
// so under a causal rule the tiles with short ranges leave some chunks empty (they exit at once).
inline int split_for_tile(long long blocks, int key_steps, int multiprocessors, bool shortest) {
  if (blocks >= multiprocessors)
    return 1;
  if (key_steps < kLeastKeyStepsToSplit)
    return shortest ? 1 : 0;
  const long long target = static_cast<long long>(kTargetBlocksPerMultiprocessor) * multiprocessors;
  if (blocks * key_steps < target && !shortest)
    return 0;
  const long long splits = (target + blocks - 1) / blocks;
  return static_cast<int>(splits < key_steps ? splits : key_steps);
}

} // namespace kit::flash
