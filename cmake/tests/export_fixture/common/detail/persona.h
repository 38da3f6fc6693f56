// Fixture stand-in for the MI100 persona: 64-lane warps on a CUDA build, for testing only.
#pragma once

inline constexpr int kFixtureWarp = 64;
