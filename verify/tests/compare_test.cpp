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

} // namespace
