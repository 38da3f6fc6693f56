// The scan configurations the benchmark's --configs compares and the GPU tests check: the tuned
// one of the device (tuning.h), the same shape in the other tile order, and neighbours in tile
// shape and occupancy hint, so that the tuning stays a measured choice. The contest program
// instantiates only the tuned one (solve_gpu.cu).
#pragma once

#include "primitives/device_scan.h"

#include <string>
#include <type_traits>

// "256x32 coop", "256x32 ticket min4", ...; the tuned configuration is marked.
template <class Config, class Tuned> std::string scan_config_name() {
  std::string text = std::to_string(Config::kBlockThreads) + "x" +
                     std::to_string(Config::kItemsPerThread) +
                     (Config::kTileOrder == kit::TileOrder::kTicket ? " ticket" : " coop");
  if (Config::kOccupancyHint > 1)
    text += " min" + std::to_string(Config::kOccupancyHint);
  if (std::is_same_v<Config, Tuned>)
    text += " (tuned)";
  return text;
}

template <class Config, class Tuned> struct ScanConfigCase {
  using config = Config;
  static std::string name() { return scan_config_name<Config, Tuned>(); }
};

namespace scan_configs_detail {
template <class Tuned, class Config, class Visitor> void visit_unless_tuned(Visitor &visit) {
  if constexpr (!std::is_same_v<Config, Tuned>)
    visit(ScanConfigCase<Config, Tuned>{});
}
} // namespace scan_configs_detail

// Calls visit(ScanConfigCase<Config, Tuning::Scan>{}) for every configuration, the tuned one
// first.
template <class Tuning, class Visitor> void for_each_scan_config(Visitor &&visit) {
  using Tuned = typename Tuning::Scan;
  using kit::ScanConfig;
  using kit::TileOrder;
  using scan_configs_detail::visit_unless_tuned;
  constexpr int kHint = Tuned::kOccupancyHint;
  constexpr TileOrder kOrder = Tuned::kTileOrder;
  constexpr TileOrder kOtherOrder =
      kOrder == TileOrder::kTicket ? TileOrder::kCooperativeWhenResident : TileOrder::kTicket;
  visit(ScanConfigCase<Tuned, Tuned>{});
  // Tickets against blockIdx tiles in a cooperative launch (the two differ up to the resident
  // limit only).
  visit_unless_tuned<Tuned,
                     ScanConfig<Tuned::kBlockThreads, Tuned::kItemsPerThread, kHint, kOtherOrder>>(
      visit);
  // An occupancy hint: 4 blocks per SM on NVIDIA, 4 waves per SIMD on AMD.
  visit_unless_tuned<Tuned, ScanConfig<Tuned::kBlockThreads, Tuned::kItemsPerThread, 4, kOrder>>(
      visit);
  // Other tile shapes.
  visit_unless_tuned<Tuned, ScanConfig<256, 24, kHint, kOrder>>(visit);
  visit_unless_tuned<Tuned, ScanConfig<256, 32, kHint, kOrder>>(visit);
  visit_unless_tuned<Tuned, ScanConfig<192, 32, kHint, kOrder>>(visit);
  visit_unless_tuned<Tuned, ScanConfig<128, 32, kHint, kOrder>>(visit);
  visit_unless_tuned<Tuned, ScanConfig<128, 64, kHint, kOrder>>(visit);
  visit_unless_tuned<Tuned, ScanConfig<384, 32, kHint, kOrder>>(visit);
}
