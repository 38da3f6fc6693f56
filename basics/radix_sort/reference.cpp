// radix_sort: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cstdint>

namespace kit::basics {
namespace {

// The judge sorts a copy widened to int64, which orders the keys as unsigned ints.
void radix_sort_reference(const unsigned int *input, unsigned int *output, int N) {
  std::copy(input, input + N, output);
  std::sort(output, output + N);
}

// Any 32-bit key, every value equally likely (the judge's random cases).
unsigned random_key(Rng &rng) { return static_cast<unsigned>(rng.next() >> 32); }

void fill_full_range(Case &c, Rng &rng) {
  unsigned *x = c.array<unsigned>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = random_key(rng);
}

// A recipe's keys from a function of (position, count, rng).
template <class KeyAt> FillFn keys(KeyAt key_at) {
  return [key_at](Case &c, Rng &rng) {
    unsigned *x = c.array<unsigned>(0);
    const std::size_t n = c.count(0);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = key_at(i, n, rng);
  };
}

// Keys whose bytes sit at the digit boundaries, the largest key (also the kernel's padding key)
// and its neighbours, the sign bit of an int.
const unsigned kSpecial[] = {0u,          1u,          0xffu,       0x100u,      0xffffu,
                             0x10000u,    0xffffffu,   0x1000000u,  0x7fffffffu, 0x80000000u,
                             0xfffffffeu, 0xffffffffu, 0x01010101u, 0xff00ff00u};

} // namespace

const Problem &radix_sort_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "radix_sort";
    p.params = {input("input", Elem::u32, count_of("N")),
                output("output", Elem::u32, count_of("N")), scalar("N", 1, 100000000)};
    // The challenge's tolerance; integer outputs compare exactly whatever it is.
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, radix_sort_reference);
    p.fill = fill_full_range;
    // Tiles of 4096 keys: up to one tile the single-block sort, above it the histogram and four
    // onesweep passes (the last tile partly padded).
    add_awkward_size_tests(p, {4096});
    add_tests(p, {{65537}, {1000003}, {16777217}, {100000000}});
    // Edge values: every key equal (the padding key among them: real keys equal to it must stay
    // before the padding), two keys, one digit varying at a time (the other passes move every key
    // as one run), presorted and reversed input, few distinct keys, the special keys above.
    const std::vector<std::vector<double>> edge_sizes = {{1}, {4096}, {4097}, {1000003}};
    add_tests(p, edge_sizes, keys([](std::size_t, std::size_t, Rng &) { return 0u; }), ",all-0");
    add_tests(p, edge_sizes, keys([](std::size_t, std::size_t, Rng &) { return 0xffffffffu; }),
              ",all-max");
    add_tests(p, {{33}, {8191}, {300007}}, keys([](std::size_t, std::size_t, Rng &rng) {
                return rng.next() % 2 ? 0xffffffffu : 0u;
              }),
              ",two-keys");
    for (int byte = 0; byte < 4; ++byte)
      add_tests(p, {{100003}}, keys([byte](std::size_t, std::size_t, Rng &rng) {
                  return static_cast<unsigned>(rng.next() % 256) << (8 * byte);
                }),
                ",byte-" + std::to_string(byte) + "-only");
    add_tests(p, {{4097}, {1000003}},
              keys([](std::size_t i, std::size_t, Rng &) { return static_cast<unsigned>(i); }),
              ",ascending");
    add_tests(p, {{4097}, {1000003}}, keys([](std::size_t i, std::size_t n, Rng &) {
                return static_cast<unsigned>(n - 1 - i) * 4099u;
              }),
              ",descending");
    add_tests(p, {{1025}, {1000003}}, keys([](std::size_t, std::size_t, Rng &rng) {
                return static_cast<unsigned>(rng.next() % 16) * 0x11111111u;
              }),
              ",16-keys");
    add_tests(p, {{65}, {20477}, {1000003}}, keys([](std::size_t, std::size_t, Rng &rng) {
                return rng.next() % 2 ? kSpecial[rng.next() % (sizeof kSpecial / sizeof *kSpecial)]
                                      : random_key(rng);
              }),
              ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/36_radix_sort";
    j.tolerance = {1e-5, 1e-5};
    const ArrayValues example = given({170, 45, 75, 90, 2, 802, 24, 66});
    j.example = judge_case(p, "example", {8}, {example});
    add_judge_functional(p, {8}, {example});
    add_judge_functional(p, {7}, {given({1, 4, 1, 3, 555, 1000, 2})});
    add_judge_functional(p, {1}, {given({42})});
    add_judge_functional(p, {6}, {given({1, 2, 3, 4, 5, 6})});
    add_judge_functional(p, {6}, {given({6, 5, 4, 3, 2, 1})});
    add_judge_functional(
        p, {5}, {given({4294967295.0, 1000000000.0, 500000000.0, 2000000000.0, 100000000.0})});
    add_judge_functional(p, {1024}, {integers(0, 1000000)});
    add_judge_functional(p, {10000}, {integers(0, 4294967295.0)});
    j.performance = judge_case(p, "performance", {50000000}, {integers(0, 4294967295.0)});
    // Each of the four passes reads and writes every key: the limit is a copy of 32 bytes per
    // key. The histogram pass reads the keys once more (4 bytes per key), so this design tops out
    // at 32 / 36 = 89% of it.
    p.model = memory_bound([](const Case &c) { return 32.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
