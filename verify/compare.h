// The grader's two comparison rules, streaming both files in bounded memory:
//  * exact:   `diff -qBw`: white space inside lines and blank lines are ignored (so, as with the
//             grader, only the non-blank characters of each non-blank line and the split into
//             lines matter);
//  * softmax: same number of (non-blank) lines and of tokens per line; each value passes when
//             |got - expected| <= 1e-6 or |got - expected| / max(|expected|, 1e-12) <= 1e-5.
#pragma once

#include <string>

namespace verify {

enum class Outcome { pass = 0, mismatch = 1, unusable = 2 };

struct Result {
  Outcome outcome = Outcome::pass;
  // The first difference, or why the files cannot be compared. Tokens appear quoted, with bytes
  // outside printable ASCII written as \xNN, so the message is safe to print on a terminal.
  std::string message;
};

Result compare_exact(const std::string &got_path, const std::string &expected_path);
Result compare_softmax(const std::string &got_path, const std::string &expected_path);

// The softmax rule for one pair of values (NaN and infinities never pass).
bool softmax_values_match(double got, double expected);

} // namespace verify
