// apsp_reference (Dijkstra and blocked Floyd-Warshall paths) against a plain triple loop, on
// awkward sizes around the 64-vertex tile and densities on both sides of the switch point; the
// choice between them under a host memory budget, and the error when nothing fits.
#include "plain_floyd_warshall.h"
#include "reference.h"

#include "io/host_memory.h"

#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

std::vector<int> collect(const Graph &g) {
  const std::size_t n = static_cast<std::size_t>(g.vertices);
  std::vector<int> rows(n * n, -7); // poison: every cell must be delivered
  int next_row = 0;
  apsp_reference(g, [&](int first, int count, const int *block) {
    EXPECT_EQ(first, next_row) << "rows out of order";
    next_row = first + count;
    std::copy(block, block + static_cast<std::size_t>(count) * n, rows.begin() + first * n);
  });
  EXPECT_EQ(next_row, g.vertices);
  return rows;
}

TEST(ApspReference, MatchesPlainFloydWarshall) {
  std::mt19937 rng(99);
  for (int v : {1, 2, 3, 31, 63, 64, 65, 130}) {
    for (double density : {0.0, 0.02, 0.1, 0.5, 1.0}) {
      Graph g;
      g.vertices = v;
      std::uniform_int_distribution<int> weight(0, kApspMaxWeight), vertex(0, v - 1);
      const long long edges = static_cast<long long>(density * v * v);
      for (long long e = 0; e < edges; ++e) // duplicates and self-loops included on purpose
        g.edges.push_back(
            Edge{vertex(rng), vertex(rng), e % 5 == 0 ? weight(rng) % 3 : weight(rng)});
      EXPECT_EQ(collect(g), plain_floyd_warshall(g)) << "V = " << v << " density " << density;
    }
  }
}

Graph random_graph(int v, long long edges, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> weight(0, kApspMaxWeight), vertex(0, v - 1);
  Graph g;
  g.vertices = v;
  for (long long e = 0; e < edges; ++e)
    g.edges.push_back(Edge{vertex(rng), vertex(rng), weight(rng)});
  return g;
}

// Sets environment variables for one scope (the reference reads them when it runs).
class ScopedEnvironment {
public:
  ScopedEnvironment(std::initializer_list<std::pair<const char *, const char *>> variables) {
    for (const auto &[name, value] : variables) {
      names_.push_back(name);
      ::setenv(name, value, 1);
    }
  }
  ~ScopedEnvironment() {
    for (const char *name : names_)
      ::unsetenv(name);
  }

private:
  std::vector<const char *> names_;
};

TEST(ApspReference, FloydWarshallOnlyWhenDenseAndTheMatrixFits) {
  constexpr std::uint64_t kMatrix2048 = std::uint64_t{2048} * 2048 * sizeof(int); // V = 2000
  EXPECT_EQ(choose_reference_algorithm(2000, 250000, std::uint64_t{1} << 40),
            ApspReferenceAlgorithm::floyd_warshall);
  EXPECT_EQ(choose_reference_algorithm(2000, 250000, kMatrix2048),
            ApspReferenceAlgorithm::floyd_warshall);
  EXPECT_EQ(choose_reference_algorithm(2000, 250000, kMatrix2048 - 1),
            ApspReferenceAlgorithm::dijkstra);
  EXPECT_EQ(choose_reference_algorithm(2000, 249999, std::uint64_t{1} << 40),
            ApspReferenceAlgorithm::dijkstra);
  // V = 40,000: the int32 matrix takes 6.4 GB, so a dense graph needs that much to use it.
  EXPECT_EQ(choose_reference_algorithm(40000, 100000000, 6400000000),
            ApspReferenceAlgorithm::floyd_warshall);
  EXPECT_EQ(choose_reference_algorithm(40000, 100000000, 6399999999),
            ApspReferenceAlgorithm::dijkstra);
}

TEST(ApspReference, DenseGraphWithoutRoomForTheMatrixIsStillExact) {
  // V = 130: the padded matrix takes 192 * 192 * 4 = 147,456 bytes; Dijkstra on one thread about
  // 4 * (261 + 2 * 8450 + 2 * 16 * 130) = 85,284.
  const Graph g = random_graph(130, 8450, 7);
  ScopedEnvironment environment{{"KIT_HOST_MEMORY_MAX", "120000"}, {"KIT_THREADS", "1"}};
  ASSERT_EQ(choose_reference_algorithm(130, g.edges.size(), kit::usable_host_memory()),
            ApspReferenceAlgorithm::dijkstra);
  EXPECT_EQ(collect(g), plain_floyd_warshall(g));
}

TEST(ApspReference, NamesTheBytesItNeedsWhenNothingFits) {
  const Graph g = random_graph(130, 100, 8);
  ScopedEnvironment environment{{"KIT_HOST_MEMORY_MAX", "1000"}, {"KIT_THREADS", "1"}};
  try {
    apsp_reference(g, [](int, int, const int *) { FAIL() << "no row may be computed"; });
    FAIL() << "expected kit::HostMemoryError";
  } catch (const kit::HostMemoryError &error) {
    // 4 * (2 * 130 + 1 + 2 * 100 + 2 * 16 * 130) bytes.
    EXPECT_NE(std::string(error.what()).find("needs 18484 bytes of host memory"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("only 1000 bytes are usable"), std::string::npos)
        << error.what();
  }
}

} // namespace
