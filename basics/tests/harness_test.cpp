// Host tests of the basics harness and CPU references: problem descriptions consistent with
// their references, the committed hand-checked examples, the case format (round trips and every
// class of bad input), the comparison rule at its edges, and the sampled matmul reference.
#include "harness/case_io.h"
#include "harness/compare.h"
#include "harness/random.h"
#include "harness/registry.h"
#include "harness/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

namespace kit::basics {
namespace {

const std::string kSourceDir = KIT_BASICS_SOURCE_DIR;

std::string temp_path(const std::string &name) { return ::testing::TempDir() + "basics_" + name; }

std::string write_temp(const std::string &name, const std::string &text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

// The message of the InputError that reading `text` as a `problem` input raises.
std::string input_error(const Problem &problem, const std::string &text) {
  const std::string path = write_temp("bad.in", text);
  try {
    read_input(problem, path);
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

// The registry holds exactly the problem folders (those with a reference.cpp), each once and under
// its folder's name: a folder left out of the registry, or a name registered twice, fails here
// without a count to update whenever a problem is added.
TEST(Problems, EveryProblemFolderIsRegisteredUnderItsName) {
  std::set<std::string> folders;
  for (const auto &entry : std::filesystem::directory_iterator(kSourceDir))
    if (std::filesystem::exists(entry.path() / "reference.cpp"))
      folders.insert(entry.path().filename().string());
  std::set<std::string> registered;
  for (const Problem *p : all_problems()) {
    EXPECT_TRUE(registered.insert(p->name).second) << p->name << " is registered twice";
    EXPECT_EQ(find_problem(p->name), p);
  }
  EXPECT_EQ(registered, folders);
  EXPECT_EQ(find_problem("no_such_problem"), nullptr);
}

TEST(Problems, ReferencesMatchTheDeclaredParameters) {
  for (const Problem *p : all_problems())
    EXPECT_NO_THROW(check_signature(*p, p->reference_shape, "reference")) << p->name;
}

TEST(Problems, SignatureCheckRejectsAWrongSolve) {
  const Problem &relu = *find_problem("relu");
  void (*swapped)(float *, const float *, int) = nullptr;
  EXPECT_THROW(check_signature(relu, shape_of(swapped), "solve"), std::logic_error);
  void (*int_typed)(const int *, int *, int) = nullptr;
  EXPECT_THROW(check_signature(relu, shape_of(int_typed), "solve"), std::logic_error);
  void (*short_list)(const float *, float *) = nullptr;
  EXPECT_THROW(check_signature(relu, shape_of(short_list), "solve"), std::logic_error);
}

TEST(Problems, EveryRecipeIsValidAndUniquelyLabelled) {
  for (const Problem *p : all_problems()) {
    EXPECT_FALSE(p->tests.empty()) << p->name;
    std::vector<const Recipe *> recipes = p->judge.all();
    for (const Recipe &r : p->tests)
      recipes.push_back(&r);
    std::set<std::string> labels;
    for (const Recipe *r : recipes) {
      EXPECT_EQ(p->validate(p->make_case(r->scalars)), "") << p->name << " " << r->label;
      EXPECT_TRUE(labels.insert(r->label).second) << p->name << ": two cases named " << r->label;
    }
  }
}

TEST(Problems, FullScaleOnlyCasesAreNamedAndLeaveSmallerOnes) {
  Problem nearest = *find_problem("nearest_neighbor");
  EXPECT_THROW(run_only_at_full_scale(nearest, {"N=123457"}), std::logic_error);
  std::set<std::string> marked;
  for (const Problem *p : all_problems()) {
    std::size_t at_small_scale = 0;
    for (const Recipe &r : p->tests) {
      if (r.full_scale_only)
        marked.insert(p->name + " " + r.label);
      else
        ++at_small_scale;
    }
    EXPECT_GT(at_small_scale, p->tests.size() / 2) << p->name;
  }
  // The four whose work outgrows their size (docs/TESTING.md names them).
  EXPECT_EQ(marked.size(), 4u);
  EXPECT_EQ(marked.count("nearest_neighbor N=100000"), 1u);
  EXPECT_EQ(marked.count("kmeans_clustering sample_size=100003,k=1000,max_iterations=2"), 1u);
  EXPECT_EQ(marked.count("bfs_shortest_path rows=500,cols=500,start_row=0,start_col=0,end_row=499,"
                         "end_col=499,open"),
            1u);
  EXPECT_EQ(marked.count("bfs_shortest_path rows=201,cols=301,start_row=0,start_col=0,end_row=200,"
                         "end_col=0,serpentine"),
            1u);
}

TEST(Problems, TestSuitesCoverTheAwkwardSizes) {
  for (const char *name : {"vector_add", "relu", "reduction", "prefix_sum", "softmax"}) {
    const Problem &p = *find_problem(name);
    for (long long n : {1, 2, 31, 32, 33, 63, 64, 65, 1023, 1025}) {
      bool found = false;
      for (const Recipe &r : p.tests)
        found = found || r.scalars.front() == n;
      EXPECT_TRUE(found) << name << " N=" << n;
    }
  }
}

TEST(Judge, EveryProblemNamesItsChallengeWhoseToleranceItUses) {
  for (const Problem *p : all_problems()) {
    EXPECT_EQ(p->judge.challenge.rfind("challenges/", 0), 0u) << p->name;
    EXPECT_EQ(p->judge.tolerance.atol, p->tolerance.atol) << p->name;
    EXPECT_EQ(p->judge.tolerance.rtol, p->tolerance.rtol) << p->name;
  }
}

TEST(Judge, CasesAreLabelledByKindInTheChallengesOrder) {
  for (const Problem *p : all_problems()) {
    const JudgeCases &j = p->judge;
    EXPECT_EQ(j.example.label.rfind("judge:example (", 0), 0u) << j.example.label;
    EXPECT_FALSE(j.functional.empty()) << p->name;
    for (std::size_t k = 0; k < j.functional.size(); ++k)
      EXPECT_EQ(j.functional[k].label.rfind("judge:functional-" + std::to_string(k + 1) + " (", 0),
                0u)
          << j.functional[k].label;
    EXPECT_EQ(j.performance.label.rfind("judge:performance (", 0), 0u) << j.performance.label;
  }
}

// Every judge case up to a few million elements generates (given values match the array sizes,
// integer values fit their type) and goes through the CPU reference.
TEST(Judge, SmallCasesGenerateAndSolve) {
  for (const Problem *p : all_problems()) {
    for (const Recipe *r : p->judge.all()) {
      Case c = p->make_case(r->scalars);
      double elements = 0;
      for (std::size_t i = 0; i < p->params.size(); ++i)
        if (p->params[i].role != Role::scalar)
          elements += static_cast<double>(p->params[i].count(c));
      if (elements > 4e6 || p->needs_sampled_check(c))
        continue;
      Rng rng(derive_seed(1, p->name + "/" + r->label));
      ASSERT_NO_THROW(p->generate(c, rng, r->fill)) << p->name << " " << r->label;
      ASSERT_NO_THROW(p->solve_reference(c)) << p->name << " " << r->label;
    }
  }
}

TEST(Judge, GivenValuesReachTheReference) {
  const Problem &relu = *find_problem("relu");
  Case c = relu.make_case(relu.judge.example.scalars);
  Rng rng(1);
  relu.generate(c, rng, relu.judge.example.fill);
  const float input[] = {-2, -1, 0, 1, 2}, output[] = {0, 0, 0, 1, 2};
  EXPECT_EQ(std::memcmp(c.array<float>(0), input, sizeof input), 0);
  EXPECT_EQ(std::memcmp(relu.solve_reference(c).array<float>(1), output, sizeof output), 0);

  const Problem &table = *find_problem("rainbow_table");
  const Recipe &perf = table.judge.performance;
  Case words = table.make_case(perf.scalars);
  table.generate(words, rng, perf.fill);
  const int *w = words.array<int>(0);
  EXPECT_TRUE(std::all_of(w, w + words.count(0), [](int v) { return v >= 0; }))
      << "the challenge's words are non-negative";
}

TEST(Examples, ReferencesReproduceTheHandCheckedAnswers) {
  for (const Problem *p : all_problems()) {
    const std::string dir = kSourceDir + "/" + p->name + "/";
    const Case input = read_input(*p, dir + "example.in");
    const Case got = p->solve_reference(input);
    const OutputFile want = read_output(dir + "example.out");
    ASSERT_NO_THROW(check_output_layout(*p, want, dir + "example.out")) << p->name;
    std::size_t k = 0;
    for (std::size_t i = 0; i < p->params.size(); ++i) {
      if (p->params[i].role != Role::out && p->params[i].role != Role::inout)
        continue;
      const Comparison c =
          compare_array(want.names[k], want.elems[k], got.arrays[i], want.arrays[k], p->tolerance);
      EXPECT_TRUE(c.ok) << p->name << ": " << describe(c);
      ++k;
    }
  }
}

TEST(Examples, RainbowTableMatchesPublishedFnv1a) {
  // FNV-1a 32 of four zero bytes is 0x4B95F515 (one round of the word 0).
  const Problem &p = *find_problem("rainbow_table");
  Case c = p.make_case({1, 1});
  Rng rng(1);
  p.generate(c, rng, [](Case &k, Rng &) { k.array<int>(0)[0] = 0; });
  EXPECT_EQ(p.solve_reference(c).array<unsigned>(1)[0], 0x4B95F515u);
}

TEST(CaseFormat, GeneratedCasesRoundTripBitForBit) {
  for (const Problem *p : all_problems()) {
    Case c = p->make_case(p->tests.front().scalars);
    Rng rng(derive_seed(7, p->name));
    p->generate(c, rng);
    const Case solved = p->solve_reference(c);
    const std::string in_path = temp_path(p->name + ".in");
    const std::string out_path = temp_path(p->name + ".out");
    std::FILE *f = std::fopen(in_path.c_str(), "wb");
    write_input(*p, c, f);
    std::fclose(f);
    f = std::fopen(out_path.c_str(), "wb");
    write_output(*p, solved, f);
    std::fclose(f);
    const Case back = read_input(*p, in_path);
    EXPECT_EQ(back.scalars, c.scalars) << p->name;
    for (std::size_t i = 0; i < p->params.size(); ++i)
      if (p->params[i].role == Role::in || p->params[i].role == Role::inout)
        EXPECT_EQ(back.arrays[i], c.arrays[i]) << p->name << " " << p->params[i].name;
    const OutputFile outputs = read_output(out_path);
    EXPECT_NO_THROW(check_output_layout(*p, outputs, out_path));
    std::size_t k = 0;
    for (std::size_t i = 0; i < p->params.size(); ++i)
      if (p->params[i].role == Role::out || p->params[i].role == Role::inout)
        EXPECT_EQ(outputs.arrays[k++], solved.arrays[i]) << p->name;
  }
}

TEST(CaseFormat, FloatsKeepEveryBit) {
  const Problem &p = *find_problem("relu");
  Case c = p.make_case({6});
  p.generate(c, *std::make_unique<Rng>(1), [](Case &k, Rng &) {
    const float values[] = {1e-45f, -0.0f, 3.4028235e38f, 0.1f, 1.0f / 3.0f, -16777217.0f};
    std::memcpy(k.array<float>(0), values, sizeof values);
  });
  const std::string path = temp_path("floats.in");
  std::FILE *f = std::fopen(path.c_str(), "wb");
  write_input(p, c, f);
  std::fclose(f);
  EXPECT_EQ(read_input(p, path).arrays[0], c.arrays[0]);
}

TEST(CaseFormat, CommentsAndFreeLineBreaksAreAccepted) {
  const Problem &p = *find_problem("vector_add");
  const Case c = read_input(
      p, write_temp("free.in", "# header\nproblem vector_add # trailing\nA f32 3 1\n2\n\n 3\r\n"
                               "B f32 3 4 5 6 N = 3"));
  EXPECT_EQ(c["N"], 3);
  EXPECT_EQ(c.array<float>(1)[2], 6.0f);
}

TEST(CaseFormat, BadInputNamesFileLineAndWhatWasExpected) {
  const Problem &p = *find_problem("vector_add");
  const std::string path = temp_path("bad.in");
  struct Bad {
    const char *text;
    const char *message;
  } cases[] = {
      {"", ":1: expected 'problem vector_add', found end of file"},
      {"problem relu\n", ":1: expected problem 'vector_add', found 'relu'"},
      {"problem vector_add\nX f32 1\n1\n", ":2: expected array 'A f32 <count>', found 'X'"},
      {"problem vector_add\nA i32 1\n1\n", ":2: expected element type f32 for 'A', found 'i32'"},
      {"problem vector_add\nA f32 many\n", ":2: expected an element count for 'A', found 'many'"},
      {"problem vector_add\nA f32 2\n1 x\n", ":3: expected f32 value 2 of 2 for 'A', found 'x'"},
      {"problem vector_add\nA f32 2\n1\n", ":4: expected f32 value 2 of 2 for 'A', found end of"},
      {"problem vector_add\nA f32 1\n1\nB f32 1\n2\nN 1\n",
       ":6: expected '=' after 'N', found '1'"},
      {"problem vector_add\nA f32 1\n1\nB f32 1\n2\nN = 1.5\n",
       ":6: expected an int value for 'N', found '1.5'"},
      {"problem vector_add\nA f32 1\n1\nB f32 1\n2\nN = 1\nextra\n",
       ":7: expected end of file after the last argument, found 'extra'"},
      {"problem vector_add\nA f32 1\n1\nB f32 1\n2\nN = 0\n",
       ":6: invalid arguments: N = 0 is outside [1, 100000000]"},
      {"problem vector_add\nA f32 1\n1\nB f32 2\n2 3\nN = 1\n",
       ":4: expected 1 elements for 'B' (from the scalars), found 2"},
      {"problem vector_add\nA f32 99999999999\n1\n", "more than the rest of the file can hold"},
  };
  for (const Bad &bad : cases) {
    const std::string message = input_error(p, bad.text);
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find(bad.message), std::string::npos)
        << "got: " << message << "\nwanted: " << bad.message;
  }
  EXPECT_NE(input_error(p, "").find(path), std::string::npos);
  try {
    read_input(p, temp_path("does_not_exist.in"));
    ADD_FAILURE() << "a missing file was accepted";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

TEST(CaseFormat, CrossArgumentRulesAreChecked) {
  const Problem &p = *find_problem("convolution_1d");
  const std::string message = input_error(
      p, "problem convolution_1d\ninput f32 2\n1 2\nkernel f32 3\n1 2 3\ninput_size = 2\n"
         "kernel_size = 3\n");
  EXPECT_NE(message.find("kernel_size 3 > input_size 2"), std::string::npos) << message;
}

TEST(CaseFormat, OutputLayoutMustMatchTheProblem) {
  const Problem &relu = *find_problem("relu");
  const std::string path = write_temp("layout.out", "problem relu\nwrong f32 1\n1\n");
  EXPECT_THROW(check_output_layout(relu, read_output(path), path), InputError);
  const std::string other = write_temp("other.out", "problem vector_add\nC f32 1\n1\n");
  EXPECT_THROW(check_output_layout(relu, read_output(other), other), InputError);
}

std::vector<unsigned char> floats(std::initializer_list<float> values) {
  std::vector<unsigned char> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

TEST(Compare, FloatToleranceIsAbsolutePlusRelative) {
  const Tolerance tol{1e-5, 1e-5};
  // 100 +- (1e-5 + 1e-3): inside, then just outside.
  EXPECT_TRUE(compare_array("x", Elem::f32, floats({100.00100f}), floats({100.0f}), tol).ok);
  EXPECT_FALSE(compare_array("x", Elem::f32, floats({100.0012f}), floats({100.0f}), tol).ok);
  EXPECT_TRUE(compare_array("x", Elem::f32, floats({9e-6f}), floats({0.0f}), tol).ok);
  EXPECT_FALSE(compare_array("x", Elem::f32, floats({2e-5f}), floats({0.0f}), tol).ok);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(compare_array("x", Elem::f32, floats({nan}), floats({1.0f}), tol).ok);
  EXPECT_FALSE(compare_array("x", Elem::f32, floats({nan}), floats({nan}), tol).ok);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(compare_array("x", Elem::f32, floats({inf, -inf}), floats({inf, -inf}), tol).ok);
  EXPECT_FALSE(compare_array("x", Elem::f32, floats({inf}), floats({-inf}), tol).ok);
  EXPECT_FALSE(compare_array("x", Elem::f32, floats({3e38f}), floats({inf}), tol).ok);
  EXPECT_FALSE(compare_array("x", Elem::f32, floats({1.0f, 2.0f}), floats({1.0f}), tol).ok);
}

TEST(Compare, IntegersAreExactAndTheFirstMismatchIsNamed) {
  std::vector<unsigned char> got(12), want(12);
  const int g[] = {1, 2, 4}, w[] = {1, 2, 3};
  std::memcpy(got.data(), g, 12);
  std::memcpy(want.data(), w, 12);
  const Comparison c = compare_array("output", Elem::i32, got, want, {1, 1});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_NE(c.first.find("output[2]: got 4, expected 3"), std::string::npos) << c.first;
}

TEST(Random, SeedsAreDeterministicAndDistinct) {
  EXPECT_EQ(derive_seed(1, "relu/N=31"), derive_seed(1, "relu/N=31"));
  EXPECT_NE(derive_seed(1, "relu/N=31"), derive_seed(2, "relu/N=31"));
  EXPECT_NE(derive_seed(1, "relu/N=31"), derive_seed(1, "relu/N=32"));
  Rng rng(3);
  for (int i = 0; i < 100000; ++i) {
    const float v = rng.uniform(-10.0f, 10.0f);
    ASSERT_TRUE(v >= -10.0f && v < 10.0f) << v;
    const long long k = rng.uniform_int(-8, 8);
    ASSERT_TRUE(k >= -8 && k <= 8) << k;
  }
}

TEST(MatrixMultiplication, SampledReferenceAgreesWithTheFullOne) {
  const Problem &p = *find_problem("matrix_multiplication");
  for (bool integers : {false, true}) {
    Case c = p.make_case({37, 29, 41});
    Rng rng(5);
    if (integers)
      p.generate(c, rng, [](Case &k, Rng &r) {
        for (std::size_t a = 0; a < 2; ++a)
          for (std::size_t i = 0; i < k.count(a); ++i)
            k.array<float>(a)[i] = static_cast<float>(r.uniform_int(-8, 8));
      });
    else
      p.generate(c, rng);
    const Case full = p.solve_reference(c);
    Rng sample_rng(6);
    const auto sample = p.sampled_reference(c, sample_rng);
    ASSERT_EQ(sample.size(), 18u * 41 + 18u * 37);
    const Comparison cmp = compare_sampled(p, full, sample);
    EXPECT_TRUE(cmp.ok) << describe(cmp);
    for (const SampledValue &s : sample)
      EXPECT_EQ(s.slack == 0.0, integers);
  }
}

} // namespace
} // namespace kit::basics
