// The benchmarks' option parser: sizes in both notations, lists, flags, positional words, and the
// exit status and message of a bad option.
#include "bench/options.h"

#include <gtest/gtest.h>

namespace {

using kit::bench::Options;
using kit::bench::parse_size;

std::vector<char *> args(std::vector<std::string> &words) {
  std::vector<char *> argv;
  for (std::string &w : words)
    argv.push_back(w.data());
  return argv;
}

TEST(BenchOptions, SizesInBothNotations) {
  std::size_t n = 0;
  EXPECT_TRUE(parse_size("100000000", &n));
  EXPECT_EQ(n, 100000000u);
  EXPECT_TRUE(parse_size("1e8", &n));
  EXPECT_EQ(n, 100000000u);
  EXPECT_TRUE(parse_size("2.5e6", &n));
  EXPECT_EQ(n, 2500000u);
  for (const char *bad : {"", "-1", "+5", "1.5", "1e-3", "abc", "12x", "1e30"})
    EXPECT_FALSE(parse_size(bad, &n)) << bad;
}

TEST(BenchOptions, FlagsValuesListsAndPositionals) {
  bool variants = false;
  std::vector<std::size_t> sizes = {1};
  std::size_t max_n = 0;
  std::string torch;
  std::vector<std::string> sections;
  Options options("bench_x", "test");
  options.flag("--variants", &variants, "alternatives")
      .sizes("--sizes", &sizes, "sizes")
      .size("--max-n", &max_n, "largest n")
      .text("--torch", &torch, "FILE", "torch times")
      .positional("[section]", [&](const std::string &w) {
        sections.push_back(w);
        return w == "dense" || w == "sparse";
      });
  std::vector<std::string> words = {"bench_x", "--sizes", "1e6,2e6,3", "--variants", "dense",
                                    "--max-n", "8192",    "--torch",   "t.txt",      "sparse"};
  std::vector<char *> argv = args(words);
  options.parse(static_cast<int>(argv.size()), argv.data());
  EXPECT_TRUE(variants);
  EXPECT_EQ(sizes, (std::vector<std::size_t>{1000000, 2000000, 3}));
  EXPECT_EQ(max_n, 8192u);
  EXPECT_EQ(torch, "t.txt");
  EXPECT_EQ(sections, (std::vector<std::string>{"dense", "sparse"}));
}

TEST(BenchOptionsDeathTest, BadOptionsExitWithTwoAndSayWhy) {
  std::vector<std::size_t> sizes;
  Options options("bench_x", "test");
  options.sizes("--sizes", &sizes, "sizes");
  auto run = [&](std::vector<std::string> words) {
    std::vector<char *> argv = args(words);
    options.parse(static_cast<int>(argv.size()), argv.data());
  };
  EXPECT_EXIT(run({"bench_x", "--sizes", "1e6,x"}), testing::ExitedWithCode(2),
              "bench_x: --sizes: '1e6,x' is not N,N,...");
  EXPECT_EXIT(run({"bench_x", "--sizes"}), testing::ExitedWithCode(2),
              "bench_x: --sizes needs a value");
  EXPECT_EXIT(run({"bench_x", "--nope"}), testing::ExitedWithCode(2),
              "bench_x: unexpected argument '--nope'");
  EXPECT_EXIT(run({"bench_x", "--help"}), testing::ExitedWithCode(0), "");
}

} // namespace
