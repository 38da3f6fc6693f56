// The small-input policy: which combinations of build, build option and environment send an input
// to the CPU reference, the errors for malformed settings, and the plumbing from the real build
// and environment into it.
#include "program/gpu_warmup.h"
#include "program/small_input.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace {

using kit::io::decide_small_input;
using kit::io::SettingError;
using kit::io::SmallInputLimits;
using kit::io::SmallInputMode;
using kit::io::SmallInputSettings;

constexpr SmallInputLimits kLimits{100, 10000}; // contest, fastest

SmallInputSettings gpu_build(SmallInputMode mode = SmallInputMode::contest) {
  SmallInputSettings settings;
  settings.gpu_build = true;
  settings.build_mode = mode;
  return settings;
}

TEST(SmallInput, ContestModeAnswersOnlyTinyInputsOnTheCpu) {
  const SmallInputSettings settings = gpu_build();
  EXPECT_TRUE(decide_small_input(1, kLimits, settings));
  EXPECT_TRUE(decide_small_input(100, kLimits, settings));
  EXPECT_FALSE(decide_small_input(101, kLimits, settings));
  EXPECT_FALSE(decide_small_input(10000, kLimits, settings));
}

TEST(SmallInput, FastestModeUsesTheMeasuredCrossOver) {
  const SmallInputSettings settings = gpu_build(SmallInputMode::fastest);
  EXPECT_TRUE(decide_small_input(10000, kLimits, settings));
  EXPECT_FALSE(decide_small_input(10001, kLimits, settings));
}

TEST(SmallInput, OffModeSendsEverythingToTheGpu) {
  const SmallInputSettings settings = gpu_build(SmallInputMode::off);
  EXPECT_FALSE(decide_small_input(1, kLimits, settings));
}

TEST(SmallInput, CpuBuildNeverTakesThePath) {
  for (SmallInputMode mode :
       {SmallInputMode::contest, SmallInputMode::fastest, SmallInputMode::off}) {
    SmallInputSettings settings = gpu_build(mode);
    settings.gpu_build = false;
    EXPECT_FALSE(decide_small_input(1, kLimits, settings)) << kit::io::mode_name(mode);
  }
}

TEST(SmallInput, EnvironmentModeOverridesTheBuildMode) {
  SmallInputSettings settings = gpu_build(SmallInputMode::contest);
  settings.mode = "fastest";
  EXPECT_TRUE(decide_small_input(10000, kLimits, settings));
  settings.mode = "off";
  EXPECT_FALSE(decide_small_input(1, kLimits, settings));
  settings = gpu_build(SmallInputMode::off);
  settings.mode = "contest";
  EXPECT_TRUE(decide_small_input(100, kLimits, settings));
  EXPECT_FALSE(decide_small_input(101, kLimits, settings));
}

TEST(SmallInput, ForceGpuWinsOverEveryMode) {
  SmallInputSettings settings = gpu_build(SmallInputMode::fastest);
  settings.small_input_max = "5000"; // no override brings it back
  for (const char *on : {"1", "yes", "true", "2"}) {
    settings.force_gpu = on;
    EXPECT_FALSE(decide_small_input(1, kLimits, settings)) << on;
  }
  for (const char *off : {"", "0"}) {
    settings.force_gpu = off;
    EXPECT_TRUE(decide_small_input(1, kLimits, settings)) << "'" << off << "'";
  }
}

TEST(SmallInput, LimitOverriddenFromTheEnvironment) {
  SmallInputSettings settings = gpu_build();
  settings.small_input_max = "0";
  EXPECT_FALSE(decide_small_input(1, kLimits, settings));
  settings.small_input_max = "5000";
  EXPECT_TRUE(decide_small_input(5000, kLimits, settings));
  EXPECT_FALSE(decide_small_input(5001, kLimits, settings));
  settings.small_input_max = "18446744073709551615";
  EXPECT_TRUE(decide_small_input(1000000000, kLimits, settings));
  settings.mode = "off"; // off stays off
  EXPECT_FALSE(decide_small_input(1, kLimits, settings));
}

TEST(SmallInput, MalformedSettingsAreErrorsNamingTheVariable) {
  SmallInputSettings settings = gpu_build();
  for (const char *bad : {"", "x", "Contest", "fast", " off"}) {
    settings.mode = bad;
    try {
      decide_small_input(1, kLimits, settings);
      ADD_FAILURE() << "accepted KIT_SMALL_INPUT='" << bad << "'";
    } catch (const SettingError &e) {
      EXPECT_EQ(std::string(e.what()),
                "KIT_SMALL_INPUT='" + std::string(bad) + "': expected contest, fastest or off");
    }
  }
  settings.mode = nullptr;
  for (const char *bad : {"", "abc", "12x", "-5", "+5", " 5", "99999999999999999999999"}) {
    settings.small_input_max = bad;
    try {
      decide_small_input(1, kLimits, settings);
      ADD_FAILURE() << "accepted KIT_SMALL_INPUT_MAX='" << bad << "'";
    } catch (const SettingError &e) {
      EXPECT_EQ(std::string(e.what()), "KIT_SMALL_INPUT_MAX='" + std::string(bad) +
                                           "': expected a size (a decimal integer, 0 for none)");
    }
  }
}

TEST(SmallInput, MalformedSettingsAreErrorsOnEveryBackend) {
  SmallInputSettings settings = gpu_build();
  settings.gpu_build = false;
  settings.mode = "x";
  EXPECT_THROW(decide_small_input(1, kLimits, settings), SettingError);
}

// The real settings come from this build and this process's environment.
TEST(SmallInput, CurrentSettingsReadBuildAndEnvironment) {
  ASSERT_EQ(setenv("KIT_FORCE_GPU", "1", 1), 0);
  ASSERT_EQ(setenv("KIT_SMALL_INPUT", "fastest", 1), 0);
  ASSERT_EQ(setenv("KIT_SMALL_INPUT_MAX", "77", 1), 0);
  SmallInputSettings settings = kit::io::current_small_input_settings();
  EXPECT_EQ(settings.gpu_build, kit::io::built_for_gpu());
  EXPECT_STREQ(kit::io::mode_name(settings.build_mode), KIT_TEST_SMALL_INPUT_MODE);
  ASSERT_NE(settings.force_gpu, nullptr);
  EXPECT_STREQ(settings.force_gpu, "1");
  ASSERT_NE(settings.mode, nullptr);
  EXPECT_STREQ(settings.mode, "fastest");
  ASSERT_NE(settings.small_input_max, nullptr);
  EXPECT_STREQ(settings.small_input_max, "77");
  EXPECT_FALSE(kit::io::answer_small_input_on_cpu(1, kLimits));

  ASSERT_EQ(unsetenv("KIT_FORCE_GPU"), 0);
  ASSERT_EQ(unsetenv("KIT_SMALL_INPUT"), 0);
  ASSERT_EQ(unsetenv("KIT_SMALL_INPUT_MAX"), 0);
  settings = kit::io::current_small_input_settings();
  EXPECT_EQ(settings.force_gpu, nullptr);
  EXPECT_EQ(settings.mode, nullptr);
  EXPECT_EQ(settings.small_input_max, nullptr);
  const bool path_exists = kit::io::built_for_gpu() && settings.build_mode != SmallInputMode::off;
  EXPECT_EQ(kit::io::answer_small_input_on_cpu(1, kLimits), path_exists);
  EXPECT_FALSE(kit::io::answer_small_input_on_cpu(10001, kLimits));
}

TEST(SmallInput, BuiltForGpuMatchesTheBackend) {
#if defined(KIT_BACKEND_CPU)
  EXPECT_FALSE(kit::io::built_for_gpu());
#else
  EXPECT_TRUE(kit::io::built_for_gpu());
#endif
}

} // namespace
