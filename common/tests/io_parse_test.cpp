// Parallel parsing gives the same values and the same first error whatever the thread count and
// wherever the chunks are cut, including cuts that land inside numbers.
#include "io/input_error.h"
#include "io/text_parse.h"

#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace {

std::string random_int_text(std::size_t n, std::mt19937 &rng, std::vector<int> &values) {
  std::string text = std::to_string(n) + "\n";
  const char *separators[] = {" ", "  ", "\n", "\t", " \r\n", "\n\n"};
  for (std::size_t i = 0; i < n; ++i) {
    int v = static_cast<int>(rng());
    if (i % 3 == 0)
      v %= 1000;
    values.push_back(v);
    text += std::to_string(v);
    text += separators[rng() % 6];
  }
  return text;
}

std::vector<int> parse_ints(const std::string &text, int threads, std::size_t chunks,
                            kit::io::TrailingTokens *trailing = nullptr) {
  kit::ThreadPool pool(threads);
  const char *cursor = text.data();
  const char *end = text.data() + text.size();
  auto n = kit::io::parse_header_integer(text.data(), end, &cursor, "N", 1, 1 << 30);
  std::vector<int> out(static_cast<std::size_t>(n), 0x5a5a5a5a);
  kit::io::StoreInto<int> store{out.data(), out.size()};
  const kit::io::TrailingTokens after = kit::io::parse_values<kit::io::Int32Values>(
      text.data(), cursor, end, out.size(), "value", store, pool, chunks);
  if (trailing)
    *trailing = after;
  return out;
}

TEST(ParallelParse, SameValuesForAnyThreadCountAndSplit) {
  std::mt19937 rng(31);
  for (std::size_t n : {1, 2, 3, 31, 64, 65, 1000, 100003}) {
    std::vector<int> values;
    std::string text = random_int_text(n, rng, values);
    for (int threads : {1, 2, 3, 8})
      for (std::size_t chunks : {1, 2, 3, 7, 64, 1000})
        ASSERT_EQ(parse_ints(text, threads, chunks), values)
            << "n " << n << " threads " << threads << " chunks " << chunks;
  }
}

TEST(ParallelParse, SplitsNeverCutTokens) {
  // Long tokens of equal length make every naive cut land inside a number.
  std::string text = "6\n";
  for (int i = 0; i < 6; ++i)
    text += "-123456789 ";
  std::vector<int> want(6, -123456789);
  for (std::size_t chunks = 1; chunks <= 70; ++chunks)
    ASSERT_EQ(parse_ints(text, 3, chunks), want) << chunks;
}

std::string first_error(const std::string &text, int threads, std::size_t chunks) {
  try {
    parse_ints(text, threads, chunks);
  } catch (const kit::io::InputError &e) {
    return std::to_string(e.offset()) + ": " + e.what();
  }
  return "no error";
}

TEST(ParallelParse, FirstErrorIsDeterministic) {
  std::mt19937 rng(8);
  std::vector<int> values;
  std::string text = random_int_text(20000, rng, values);
  // Two bad tokens far apart: the earlier one must always be reported.
  text.replace(text.find(' ', text.size() / 3) + 1, 1, "x");
  text.replace(text.find(' ', 2 * text.size() / 3) + 1, 1, "y");
  const std::string want = first_error(text, 1, 1);
  ASSERT_NE(want, "no error");
  EXPECT_NE(want.find("found 'x"), std::string::npos) << want;
  for (int threads : {2, 3, 8})
    for (std::size_t chunks : {2, 5, 64, 999})
      EXPECT_EQ(first_error(text, threads, chunks), want);
}

TEST(ParallelParse, CountErrors) {
  EXPECT_NE(first_error("3\n1 2\n", 2, 4).find("expected 3 values, found only 2"),
            std::string::npos);
  EXPECT_EQ(first_error("3\n", 2, 4), "2: expected 3 values, found only 0 before the end of file");
}

// Tokens after the announced count are not an error (the official skeleton never reads them):
// the values are parsed, and the first extra token is located the same way for any split.
TEST(ParallelParse, TrailingTokensAreReportedNotRejected) {
  std::mt19937 rng(5);
  std::vector<int> values;
  std::string text = random_int_text(5000, rng, values);
  const std::size_t first_extra = text.size();
  text += "77 not-a-number 12abc\n-5 \n";
  for (int threads : {1, 2, 3, 8})
    for (std::size_t chunks : {1, 2, 7, 64, 999}) {
      kit::io::TrailingTokens trailing;
      ASSERT_EQ(parse_ints(text, threads, chunks, &trailing), values);
      EXPECT_EQ(trailing.count, 4u);
      EXPECT_EQ(trailing.offset, first_extra);
      EXPECT_EQ(trailing.first, "'77'");
    }
  kit::io::TrailingTokens none;
  none.count = 99;
  parse_ints("2\n1 2 \n\n", 2, 3, &none);
  EXPECT_EQ(none.count, 0u);
  // A bad token among the announced values is still an error, even with extra tokens after it.
  EXPECT_NE(first_error("2\n1 x 3\n", 2, 3).find("found 'x'"), std::string::npos);
}

// The one-pass readers may only accept what the exact classifiers accept, with the same value
// and the same token end; tokens built from the characters that matter to either.
TEST(TokenParsers, FastPathsAgreeWithExactClassification) {
  std::mt19937 rng(12);
  const std::string alphabet = "0123456789000999+-.eE xin";
  std::size_t int_fast = 0, float_fast = 0;
  for (int i = 0; i < 2000000; ++i) {
    std::string token;
    const std::size_t length = 1 + rng() % 24;
    for (std::size_t k = 0; k < length; ++k)
      token += alphabet[rng() % alphabet.size()];
    if (i % 3 == 0) // plain numbers, the common case
      token = std::to_string(static_cast<int>(rng()) >> (rng() % 32));
    const char *begin = token.data();
    const char *end = begin + token.size();
    const char *token_stop = kit::io::token_end(begin, end);

    int int_value = 0, int_exact = 0;
    if (const char *stop = kit::io::parse_int32_token_fast(begin, end, int_value)) {
      ++int_fast;
      ASSERT_EQ(stop, token_stop) << token;
      ASSERT_EQ(kit::io::parse_int32_token(begin, token_stop, int_exact), kit::io::TokenStatus::ok)
          << token;
      ASSERT_EQ(int_value, int_exact) << token;
    }
    float float_value = 0, float_exact = 0;
    if (const char *stop = kit::io::parse_float_token_fast(begin, end, float_value)) {
      ++float_fast;
      ASSERT_EQ(stop, token_stop) << token;
      ASSERT_EQ(kit::io::parse_float_token(begin, token_stop, float_exact),
                kit::io::TokenStatus::ok)
          << token;
      ASSERT_EQ(std::memcmp(&float_value, &float_exact, sizeof(float)), 0) << token;
    }
  }
  EXPECT_GT(int_fast, 600000u); // the fast paths really were exercised
  EXPECT_GT(float_fast, 600000u);
  int v = 0;
  EXPECT_EQ(kit::io::parse_int32_token_fast("+12", "+12" + 3, v), "+12" + 3); // istream takes '+'
  EXPECT_EQ(v, 12);
  EXPECT_EQ(kit::io::parse_int32_token_fast("2147483648", "2147483648" + 10, v), nullptr);
  EXPECT_NE(kit::io::parse_int32_token_fast("-2147483648", "-2147483648" + 11, v), nullptr);
  EXPECT_EQ(v, -2147483647 - 1);
  EXPECT_EQ(kit::io::parse_int32_token_fast("0000000000000000001", "0000000000000000001" + 19, v),
            nullptr); // 19 digits: left to the exact path, which accepts it
}

} // namespace
