// rainbow_table: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <climits>

namespace kit::basics {
namespace {

// One round of 32-bit FNV-1a over the four bytes of `word`, least significant first.
unsigned fnv1a(unsigned word) {
  unsigned hash = 2166136261u;
  for (int byte = 0; byte < 4; ++byte)
    hash = (hash ^ ((word >> (8 * byte)) & 0xffu)) * 16777619u;
  return hash;
}

void rainbow_table_reference(const int *input, unsigned int *output, int N, int R) {
  for (int i = 0; i < N; ++i) {
    unsigned word = static_cast<unsigned>(input[i]);
    for (int round = 0; round < R; ++round)
      word = fnv1a(word);
    output[i] = word;
  }
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<int>(0), c.count(0), INT_MIN, INT_MAX, rng);
}

// The extremes and the values whose bytes are all equal.
void fill_edge_values(Case &c, Rng &rng) {
  static const int kSpecial[] = {0, -1, 1, INT_MIN, INT_MAX, 255, 256, -256, 0x01010101};
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = kSpecial[rng.next() % (sizeof kSpecial / sizeof kSpecial[0])];
}

} // namespace

const Problem &rainbow_table_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "rainbow_table";
    p.params = {input("input", Elem::i32, count_of("N")),
                output("output", Elem::u32, count_of("N")), scalar("N", 1, 10000000),
                scalar("R", 1, 100)};
    p.tolerance = {0, 0};
    set_reference(p, rainbow_table_reference);
    p.fill = fill_values;
    // A block hashes 1024 words (four per thread).
    for (double n : awkward_sizes({1024}))
      add_tests(p, {{n, 1}, {n, 3}});
    add_tests(p, {{1000003, 10}, {4097, 100}, {5, 100}});
    add_tests(p, {{999, 2}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/24_rainbow_table";
    j.tolerance = {0, 0};
    // The challenge's random words are non-negative: integers 0..2^31-1.
    j.example = judge_case(p, "example", {3, 2}, {given({123, 456, 789})});
    add_judge_functional(p, {3, 2}, {given({123, 456, 789})});
    add_judge_functional(p, {3, 3}, {given({0, 1, 2147483647})});
    add_judge_functional(p, {5, 1}, {given({1, 2, 3, 4, 5})});
    add_judge_functional(p, {1024, 50}, {integers(0, 2147483647)});
    add_judge_functional(p, {10000, 10}, {integers(0, 2147483647)});
    j.performance = judge_case(p, "performance", {5000000, 10}, {integers(0, 2147483647)});
    p.model.limit = Limit::fnv_rounds;
    p.model.bytes = [](const Case &c) { return 8.0 * static_cast<double>(c["N"]); };
    p.model.ops = [](const Case &c) {
      return static_cast<double>(c["N"]) * static_cast<double>(c["R"]);
    };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
