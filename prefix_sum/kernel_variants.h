// The scan configurations the benchmark compares and the GPU tests check: the kit's default plus
// neighbours in prefetch distance, memory ordering and tile shape, so that the choice of the
// default stays a measured one.
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
  using scan_variants_detail::visit_unless_default;
  visit(ScanVariant<kit::DefaultScanConfig>{});
  // Prefetch distance (in tiles) at the default shape; 0 is the register-only kernel.
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kRelaxed, 0>>(visit);
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kRelaxed, 64>>(visit);
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kRelaxed, 256>>(visit);
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kRelaxed, 512>>(visit);
  // Memory ordering of the tile states.
  visit_unless_default<ScanConfig<256, 32, LookbackOrder::kReleaseAcquire, 128>>(visit);
  // Tile shape, with the prefetch.
  visit_unless_default<ScanConfig<256, 48, LookbackOrder::kRelaxed, 96>>(visit);
  visit_unless_default<ScanConfig<128, 32, LookbackOrder::kRelaxed, 128>>(visit);
  visit_unless_default<ScanConfig<256, 16, LookbackOrder::kRelaxed, 128>>(visit);
  visit_unless_default<ScanConfig<512, 16, LookbackOrder::kRelaxed, 128>>(visit);
}
