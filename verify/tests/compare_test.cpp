// The grader's rules, one test per rule: white space and blank lines, line and token counts,
// tolerance edges, NaN and infinities, unusable files.
#include "compare.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace {

std::string write_temp(const std::string &content) {
  static int counter = 0;
  std::string path =
      "verify_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".txt";
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

verify::Outcome exact(const std::string &got, const std::string &expected) {
  return verify::compare_exact(write_temp(got), write_temp(expected)).outcome;
}
verify::Outcome softmax(const std::string &got, const std::string &expected) {
  return verify::compare_softmax(write_temp(got), write_temp(expected)).outcome;
}

using verify::Outcome;

TEST(VerifyExact, WhiteSpaceAmountIsIgnored) {
  EXPECT_EQ(exact("1 2 3 \n", "1  2\t3\r\n"), Outcome::pass);
  EXPECT_EQ(exact("1 2 3", "1 2 3\n"), Outcome::pass); // missing final newline
  EXPECT_EQ(exact("12 3\n", "1 23\n"), Outcome::pass); // diff -w removes all white space
}

TEST(VerifyExact, BlankLinesAreIgnored) {
  EXPECT_EQ(exact("\n1 2\n\n  \n3\n\n", "1 2\n3\n"), Outcome::pass);
}

TEST(VerifyExact, LineSplitMatters) {
  EXPECT_EQ(exact("1 2\n3\n", "1 2 3\n"), Outcome::mismatch);
  EXPECT_EQ(exact("1 2 3\n", "1\n2 3\n"), Outcome::mismatch);
}

TEST(VerifyExact, TokensMustBeIdentical) {
  EXPECT_EQ(exact("1 2 4\n", "1 2 3\n"), Outcome::mismatch);
  EXPECT_EQ(exact("1 2 3.0\n", "1 2 3\n"), Outcome::mismatch);
  EXPECT_EQ(exact("1 2\n", "1 2 3\n"), Outcome::mismatch);     // missing token
  EXPECT_EQ(exact("1 2 3 4\n", "1 2 3\n"), Outcome::mismatch); // extra token
}

TEST(VerifyExact, ExtraAndMissingLines) {
  EXPECT_EQ(exact("1\n2\n", "1\n"), Outcome::mismatch);
  EXPECT_EQ(exact("1\n", "1\n2\n"), Outcome::mismatch);
  EXPECT_EQ(exact("", ""), Outcome::pass);
}

TEST(VerifyExact, ReportsTheFirstDifference) {
  auto r = verify::compare_exact(write_temp("0 1\n5 6 7\n"), write_temp("0 1\n5 9 7\n"));
  EXPECT_EQ(r.outcome, Outcome::mismatch);
  EXPECT_NE(r.message.find("line 2"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("token 2"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("got '6'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("expected '9'"), std::string::npos) << r.message;
}

TEST(VerifyExact, MissingFileIsUnusable) {
  EXPECT_EQ(verify::compare_exact("/nonexistent/out", write_temp("1\n")).outcome,
            Outcome::unusable);
}

TEST(VerifySoftmax, ToleranceEdges) {
  EXPECT_TRUE(verify::softmax_values_match(0.05 + 0.99e-6, 0.05)); // inside the absolute bound
  EXPECT_FALSE(verify::softmax_values_match(0.05 + 2e-6, 0.05));   // 2e-6 abs, 4e-5 rel: fails
  EXPECT_TRUE(verify::softmax_values_match(0.5 + 2e-6, 0.5));      // 4e-6 relative: passes
  EXPECT_TRUE(verify::softmax_values_match(1e-3 * (1 + 1e-5), 1e-3 * (1 - 0.0))); // relative
  EXPECT_TRUE(verify::softmax_values_match(4e-7, 0.0)); // absolute rescues tiny values
  EXPECT_FALSE(verify::softmax_values_match(2e-6, 0.0));
  EXPECT_TRUE(verify::softmax_values_match(1e6 * (1 + 0.9e-5), 1e6));
  EXPECT_FALSE(verify::softmax_values_match(1e6 * (1 + 1.1e-5), 1e6));
}

TEST(VerifySoftmax, NanAndInfinityNeverPass) {
  EXPECT_EQ(softmax("nan 0.5\n", "0.5 0.5\n"), Outcome::mismatch);
  EXPECT_EQ(softmax("inf\n", "inf\n"), Outcome::mismatch);
  EXPECT_EQ(softmax("-inf\n", "0\n"), Outcome::mismatch);
  EXPECT_FALSE(verify::softmax_values_match(std::nan(""), std::nan("")));
}

TEST(VerifySoftmax, ShapeMustMatch) {
  EXPECT_EQ(softmax("0.5 0.5 \n", "0.5 0.5\n"), Outcome::pass);
  EXPECT_EQ(softmax("0.5\n0.5\n", "0.5 0.5\n"), Outcome::mismatch);
  EXPECT_EQ(softmax("0.5 0.5 0\n", "0.5 0.5\n"), Outcome::mismatch);
  EXPECT_EQ(softmax("0.5\n", "0.5 0.5\n"), Outcome::mismatch);
  EXPECT_EQ(softmax("0.5\n1\n", "0.5\n"), Outcome::mismatch);
}

TEST(VerifySoftmax, NotationsAndGarbage) {
  EXPECT_EQ(softmax("4.9801e-05 1\n", "0.000049801 1.0\n"), Outcome::pass);
  EXPECT_EQ(softmax("abc\n", "0.5\n"), Outcome::mismatch);
  EXPECT_EQ(softmax("0.5\n", "abc\n"), Outcome::unusable);
}

std::string exact_message(const std::string &got, const std::string &expected) {
  return verify::compare_exact(write_temp(got), write_temp(expected)).message;
}
std::string softmax_message(const std::string &got, const std::string &expected) {
  return verify::compare_softmax(write_temp(got), write_temp(expected)).message;
}

// True when every byte of `message` is printable ASCII: nothing raw reaches the terminal.
bool printable(const std::string &message) {
  for (const char c : message)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
      return false;
  return true;
}

TEST(VerifyMessages, ShortLineNamesHowManyTokensItHas) {
  EXPECT_EQ(exact_message("1 2\n", "1 2 3\n"),
            "line 1: the output line ends after 2 tokens, expected more (next expected token "
            "'3')");
  EXPECT_EQ(exact_message("7\n5\n", "7\n5 6\n"),
            "line 2: the output line ends after 1 token, expected more (next expected token '6')");
  EXPECT_EQ(softmax_message("0.5 0.5\n0.25\n", "0.5 0.5\n0.25 0.75\n"),
            "line 2: the output line ends after 1 token, expected more (next expected token "
            "'0.75')");
  // The last line of a file without a final newline ends as well.
  EXPECT_EQ(exact_message("1 2 3", "1 2 3 4\n"),
            "line 1: the output line ends after 3 tokens, expected more (next expected token "
            "'4')");
}

TEST(VerifyMessages, UnprintableBytesAreEscaped) {
  const std::string got = exact_message("1 \x01\x1b[2J\xff\n", "1 2\n");
  EXPECT_EQ(got, "line 1: token 2: got '\\x01\\x1b[2J\\xff', expected '2'");
  EXPECT_EQ(exact_message("1 2\n", "1 \x7f\n"), "line 1: token 2: got '2', expected '\\x7f'");
  // Quotes and backslashes are escaped too, so the quoted token is unambiguous.
  EXPECT_EQ(exact_message("'\\\n", "x\n"), "line 1: token 1: got '\\x27\\x5c', expected 'x'");
  const std::string not_a_number = softmax_message("0.5 \x07\n", "0.5 0.5\n");
  EXPECT_EQ(not_a_number, "line 1: token 2: got '\\x07' (not a number), expected '0.5'");
  const std::string long_token = std::string(100, '\x02');
  const std::string cut = exact_message(long_token + "\n", "1\n");
  EXPECT_NE(cut.find("...'"), std::string::npos) << cut;
  for (const std::string &message : {got, not_a_number, cut})
    EXPECT_TRUE(printable(message)) << message;
  EXPECT_TRUE(printable(softmax_message("0.5\n", "\x1b]0;title\x07\n")));
}

} // namespace
