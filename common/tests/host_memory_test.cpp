// The host memory budget: bounded by what the machine reports, lowered by KIT_HOST_MEMORY_MAX
// (ignored unless it is a decimal integer) and by ulimit-style limits, and the error it raises.
#include "io/host_memory.h"

#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace {

std::uint64_t physical_memory() {
  return static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) *
         static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

TEST(HostMemory, AtMostThePhysicalMemory) {
  ::unsetenv("KIT_HOST_MEMORY_MAX");
  const std::uint64_t usable = kit::usable_host_memory();
  EXPECT_GT(usable, 0u);
  EXPECT_LE(usable, physical_memory());
}

TEST(HostMemory, TheUserCapLowersIt) {
  ::setenv("KIT_HOST_MEMORY_MAX", "12345", 1);
  EXPECT_EQ(kit::usable_host_memory(), 12345u);
  for (const char *not_a_size : {"", "12k", "-5", " 7", "1e9", "99999999999999999999999"}) {
    ::setenv("KIT_HOST_MEMORY_MAX", not_a_size, 1);
    EXPECT_GT(kit::usable_host_memory(), 12345u) << "'" << not_a_size << "' is not a size";
  }
  ::unsetenv("KIT_HOST_MEMORY_MAX");
}

TEST(HostMemory, TheDataSegmentLimitLowersIt) {
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_DATA, &saved), 0);
  const std::uint64_t before = kit::usable_host_memory();
  struct rlimit lowered = saved;
  lowered.rlim_cur = 4ull << 30; // 4 GiB, well above what this test uses
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < lowered.rlim_cur)
    GTEST_SKIP() << "the hard limit is below 4 GiB";
  ASSERT_EQ(::setrlimit(RLIMIT_DATA, &lowered), 0);
  const std::uint64_t under_limit = kit::usable_host_memory();
  ASSERT_EQ(::setrlimit(RLIMIT_DATA, &saved), 0);
  EXPECT_LT(under_limit, 4ull << 30);
  EXPECT_LE(under_limit, before);
}

TEST(HostMemory, RequireNamesTheBytes) {
  ::setenv("KIT_HOST_MEMORY_MAX", "1000", 1);
  EXPECT_NO_THROW(kit::require_host_memory(1000, "a table"));
  try {
    kit::require_host_memory(1001, "a table");
    ADD_FAILURE() << "expected kit::HostMemoryError";
  } catch (const kit::HostMemoryError &error) {
    EXPECT_EQ(std::string(error.what())
                  .rfind("needs 1001 bytes of host memory for a table, but "
                         "only 1000 bytes are usable",
                         0),
              0u)
        << error.what();
  }
  ::unsetenv("KIT_HOST_MEMORY_MAX");
}

} // namespace
