// The scan configurations the benchmark compares and the GPU tests check: the kit's default plus
// neighbours in tile shape, look-back order, prefetch and memory ordering, so that the choice of
// the default stays a measured one.
#pragma once

#include "device_scan.h"

#include <string>
#include <type_traits>

template <class Config> struct ScanVariant {
  using config = Config;
  static std::string name() {
    std::string text = std::to_string(Config::kBlockThreads) + "x" +
                       std::to_string(Config::kItemsPerThread) +
                       (Config::kOrder == kit::LookbackOrder::kRelaxed ? " relaxed" : " rel/acq");
    if (Config::kPrefetchTiles > 0)
      text += " pf" + std::to_string(Config::kPrefetchTiles);
    if (Config::kLookbackWarp)
      text += " lbw";
    if (Config::kMinBlocks > 1)
      text += " min" + std::to_string(Config::kMinBlocks);
    if (Config::kTileOrder == kit::TileOrder::kTicket)
      text += " ticket";
    if (std::is_same_v<Config, kit::DefaultScanConfig>)
      text += " (default)";
    return text;
  }
};

namespace scan_variants_detail {
template <class Config, class Visitor> void visit_unless_default(Visitor &visit) {
  if constexpr (!std::is_same_v<Config, kit::DefaultScanConfig>)
    visit(ScanVariant<Config>{});
}
} // namespace scan_variants_detail

// Calls visit(ScanVariant<Config>{}) for every variant, the default first.
template <class Visitor> void for_each_scan_variant(Visitor &&visit) {
  using kit::LookbackOrder;
  using kit::ScanConfig;
  using kit::TileOrder;
  using scan_variants_detail::visit_unless_default;
  visit(ScanVariant<kit::DefaultScanConfig>{});
  // Tickets even where the grid is resident (N <= 3,244,032 on the H100).
  visit_unless_default<
      ScanConfig<256, 32, LookbackOrder::kRelaxed, 0, true, 1, TileOrder::kTicket>>(visit);
  // The look-back warp at other tile shapes, with an occupancy hint, with an L2 prefetch.
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kRelaxed, 0, true, 4>>(visit);
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kRelaxed, 32, true>>(visit);
  visit_unless_default<ScanConfig<256, 24, LookbackOrder::kRelaxed, 0, true>>(visit);
  visit_unless_default<ScanConfig<192, 32, LookbackOrder::kRelaxed, 0, true>>(visit);
  visit_unless_default<ScanConfig<128, 32, LookbackOrder::kRelaxed, 0, true>>(visit);
  visit_unless_default<ScanConfig<128, 64, LookbackOrder::kRelaxed, 0, true>>(visit);
  visit_unless_default<ScanConfig<384, 32, LookbackOrder::kRelaxed, 0, true>>(visit);
  // Warp 0 looks back after the tile is scanned (the classic order): alone, with an L2 prefetch
  // 128 tiles ahead, and with release/acquire instead of relaxed states.
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kRelaxed, 0>>(visit);
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kRelaxed, 128>>(visit);
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kReleaseAcquire, 0>>(visit);
}
