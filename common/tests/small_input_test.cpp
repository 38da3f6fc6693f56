// The small-input policy: which combinations of build, build option and environment send an input
// to the CPU reference, and the plumbing from the real build and environment into it.
#include "gpu_warmup.h"
#include "small_input.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace {

using kit::io::decide_small_input;
using kit::io::SmallInputSettings;

SmallInputSettings gpu_build() {
  SmallInputSettings settings;
  settings.gpu_build = true;
  settings.enabled_at_build = true;
  return settings;
}

TEST(SmallInput, GpuBuildAnswersUpToTheLimitOnTheCpu) {
  const SmallInputSettings settings = gpu_build();
  EXPECT_TRUE(decide_small_input(1, 1000, settings).on_cpu);
  EXPECT_TRUE(decide_small_input(1000, 1000, settings).on_cpu);
  EXPECT_FALSE(decide_small_input(1001, 1000, settings).on_cpu);
  EXPECT_TRUE(decide_small_input(1000, 1000, settings).warning.empty());
}

TEST(SmallInput, CpuBuildNeverTakesThePath) {
  SmallInputSettings settings = gpu_build();
  settings.gpu_build = false;
  EXPECT_FALSE(decide_small_input(1, 1000, settings).on_cpu);
}

TEST(SmallInput, BuildOptionOffSwitchesItOff) {
  SmallInputSettings settings = gpu_build();
  settings.enabled_at_build = false;
  EXPECT_FALSE(decide_small_input(1, 1000, settings).on_cpu);
  settings.small_input_max = "5000"; // no override brings it back
  EXPECT_FALSE(decide_small_input(1, 1000, settings).on_cpu);
}

TEST(SmallInput, ForceGpuSwitchesItOff) {
  SmallInputSettings settings = gpu_build();
  for (const char *on : {"1", "yes", "true", "2"}) {
    settings.force_gpu = on;
    EXPECT_FALSE(decide_small_input(1, 1000, settings).on_cpu) << on;
  }
  for (const char *off : {"", "0"}) {
    settings.force_gpu = off;
    EXPECT_TRUE(decide_small_input(1, 1000, settings).on_cpu) << "'" << off << "'";
  }
}

TEST(SmallInput, LimitOverriddenFromTheEnvironment) {
  SmallInputSettings settings = gpu_build();
  settings.small_input_max = "0";
  EXPECT_FALSE(decide_small_input(1, 1000, settings).on_cpu);
  settings.small_input_max = "5000";
  EXPECT_TRUE(decide_small_input(5000, 1000, settings).on_cpu);
  EXPECT_FALSE(decide_small_input(5001, 1000, settings).on_cpu);
  settings.small_input_max = "18446744073709551614";
  EXPECT_TRUE(decide_small_input(1000000000, 1000, settings).on_cpu);
}

TEST(SmallInput, MalformedLimitIsIgnoredWithAWarning) {
  SmallInputSettings settings = gpu_build();
  for (const char *bad : {"", "abc", "12x", "-5", "+5", " 5", "99999999999999999999999"}) {
    settings.small_input_max = bad;
    const kit::io::SmallInputDecision decision = decide_small_input(1000, 1000, settings);
    EXPECT_TRUE(decision.on_cpu) << bad; // the default limit still applies
    EXPECT_EQ(decision.warning, "warning: KIT_SMALL_INPUT_MAX='" + std::string(bad) +
                                    "' is not a size (a decimal integer); using 1000");
    EXPECT_FALSE(decide_small_input(1001, 1000, settings).on_cpu) << bad;
  }
}

// The real settings come from this build and this process's environment.
TEST(SmallInput, CurrentSettingsReadBuildAndEnvironment) {
  ASSERT_EQ(setenv("KIT_FORCE_GPU", "1", 1), 0);
  ASSERT_EQ(setenv("KIT_SMALL_INPUT_MAX", "77", 1), 0);
  SmallInputSettings settings = kit::io::current_small_input_settings();
  EXPECT_EQ(settings.gpu_build, kit::io::built_for_gpu());
  EXPECT_EQ(settings.enabled_at_build, KIT_TEST_SMALL_INPUT_CPU != 0);
  ASSERT_NE(settings.force_gpu, nullptr);
  EXPECT_STREQ(settings.force_gpu, "1");
  ASSERT_NE(settings.small_input_max, nullptr);
  EXPECT_STREQ(settings.small_input_max, "77");
  EXPECT_FALSE(kit::io::answer_small_input_on_cpu(1, 1000));

  ASSERT_EQ(unsetenv("KIT_FORCE_GPU"), 0);
  ASSERT_EQ(unsetenv("KIT_SMALL_INPUT_MAX"), 0);
  settings = kit::io::current_small_input_settings();
  EXPECT_EQ(settings.force_gpu, nullptr);
  EXPECT_EQ(settings.small_input_max, nullptr);
  const bool path_exists = kit::io::built_for_gpu() && KIT_TEST_SMALL_INPUT_CPU != 0;
  EXPECT_EQ(kit::io::answer_small_input_on_cpu(1, 1000), path_exists);
  EXPECT_FALSE(kit::io::answer_small_input_on_cpu(1001, 1000));
}

TEST(SmallInput, BuiltForGpuMatchesTheBackend) {
#if defined(KIT_BACKEND_CPU)
  EXPECT_FALSE(kit::io::built_for_gpu());
#else
  EXPECT_TRUE(kit::io::built_for_gpu());
#endif
}

} // namespace
