// Which of a GPU test's cases run in this process: KIT_TEST_CASE picks them by label,
// KIT_TEST_SHARD (testing/test_support.h) splits the picked ones among processes. Kept apart from
// test_support.h, which every GPU test includes, for <regex>.
#pragma once

#include "testing/test_support.h"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>

namespace kit::test {

// KIT_TEST_CASE=REGEX runs only the cases whose label (as the test prints it) the expression finds
// (ECMAScript, anywhere in the label), e.g. 'N=65$' or '^judge:'; KIT_TEST_SHARD then splits
// those. With --seed (the basics tests), it repeats one failing case alone.
class CaseSelection {
public:
  CaseSelection() {
    const char *text = std::getenv("KIT_TEST_CASE");
    if (!text || !*text)
      return;
    try {
      pattern_.emplace(text, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      std::fprintf(stderr, "KIT_TEST_CASE=%s: not a regular expression (%s)\n", text, e.what());
      std::exit(2);
    }
  }
  // Whether the case of this label runs in this process: ask once per case, in the test's order.
  bool runs(const std::string &label) {
    if (pattern_ && !std::regex_search(label, *pattern_))
      return false;
    return selected_++ % test_shard().count == test_shard().index;
  }

private:
  std::optional<std::regex> pattern_;
  std::size_t selected_ = 0; // the cases the pattern selected so far: the shards split these
};

} // namespace kit::test
