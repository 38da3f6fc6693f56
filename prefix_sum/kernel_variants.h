// The scan configurations the benchmark compares and the GPU tests check: the kit's default plus
// neighbours in tile shape and in memory ordering, so that the choice of the default stays a
// measured one.
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
  visit_unless_default<ScanConfig<256, 16, LookbackOrder::kRelaxed>>(visit);
  visit_unless_default<ScanConfig<256, 16, LookbackOrder::kReleaseAcquire>>(visit);
  visit_unless_default<ScanConfig<128, 16>>(visit);
  visit_unless_default<ScanConfig<256, 8>>(visit);
  visit_unless_default<ScanConfig<128, 32>>(visit);
  visit_unless_default<ScanConfig<256, 32>>(visit);
  visit_unless_default<ScanConfig<512, 16>>(visit);
}
