// Host tests of what the harness offers problems beyond the first fifteen, on made-up problems
// shaped like the challenges that need it: float scalars (value clipping's `float lo, float hi`),
// a scalar between the arrays (stream compaction's `const float* A, int N, float* out`), an
// output the judge zero-fills and the reference writes only in part (stream compaction), and
// unsigned 32-bit arrays over their whole range (radix sort).
#include "harness/case_io.h"
#include "harness/compare.h"
#include "harness/random.h"
#include "harness/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

namespace kit::basics {
namespace {

std::string temp_path(const std::string &name) {
  return ::testing::TempDir() + "basics_generality_" + name;
}

std::string write_temp(const std::string &name, const std::string &text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

std::string read_text(const std::string &path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

std::string written_input(const Problem &problem, const Case &c, const std::string &name) {
  const std::string path = temp_path(name);
  std::FILE *f = std::fopen(path.c_str(), "wb");
  write_input(problem, c, f);
  std::fclose(f);
  return path;
}

// --- clip: solve(const float* input, float* output, float lo, float hi, int N) ---

void clip_reference(const float *input, float *output, float lo, float hi, int N) {
  for (int i = 0; i < N; ++i)
    output[i] = std::min(std::max(input[i], lo), hi);
}

const Problem &clip_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "clip";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32, count_of("N")), float_scalar("lo"), float_scalar("hi"),
                scalar("N", 1, 1000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, clip_reference);
    p.fill = fill_with(p, {uniform(-100, 100)});
    return p;
  }();
  return problem;
}

TEST(FloatScalars, BindPassesThemExactlyAndTheSignatureCheckNamesTheirType) {
  const Problem &p = clip_problem();
  EXPECT_NO_THROW(check_signature(p, p.reference_shape, "reference"));
  void (*int_bounds)(const float *, float *, int, int, int) = nullptr;
  try {
    check_signature(p, shape_of(int_bounds), "solve");
    ADD_FAILURE() << "int bounds were accepted";
  } catch (const std::logic_error &e) {
    EXPECT_NE(std::string(e.what()).find("parameter 3 (lo) should be float"), std::string::npos)
        << e.what();
  }
  Case c = p.make_case({-0.5, 2.5, 3});
  Rng rng(1);
  p.generate(c, rng, judge_case(p, "example", {-0.5, 2.5, 3}, {given({-1, 2, 5})}).fill);
  const float want[] = {-0.5f, 2.0f, 2.5f};
  EXPECT_EQ(std::memcmp(p.solve_reference(c).array<float>(1), want, sizeof want), 0);
}

TEST(FloatScalars, CaseFilesWriteTheShortestFloatAndReadItBack) {
  const Problem &p = clip_problem();
  Case c = p.make_case({-51.24, 39.51, 4});
  EXPECT_EQ(c.real("lo"), -51.24f); // rounded to float, as the judge's ctypes call does
  EXPECT_EQ(c["N"], 4);
  EXPECT_THROW(c["lo"], std::logic_error);
  EXPECT_THROW(c.real("N"), std::logic_error);
  Rng rng(2);
  p.generate(c, rng);
  const std::string path = written_input(p, c, "clip.in");
  EXPECT_NE(read_text(path).find("lo = -51.24\nhi = 39.51\nN = 4\n"), std::string::npos)
      << read_text(path);
  const Case back = read_input(p, path);
  EXPECT_EQ(back.scalars, c.scalars);
  EXPECT_EQ(back.arrays[0], c.arrays[0]);
}

TEST(FloatScalars, BadValuesAreRejectedWithTheScalarsName) {
  const Problem &p = clip_problem();
  const std::string head = "problem clip\ninput f32 1\n1\n";
  auto error_of = [&](const std::string &tail) {
    try {
      read_input(p, write_temp("bad_clip.in", head + tail));
    } catch (const InputError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("lo = low\nhi = 1\nN = 1\n").find("expected a float value for 'lo'"),
            std::string::npos);
  EXPECT_NE(error_of("lo = 0\nhi = 1\nN = 1.5\n").find("expected an int value for 'N'"),
            std::string::npos);
  EXPECT_NE(error_of("lo = nan\nhi = 1\nN = 1\n").find("lo = nan is outside"), std::string::npos);
  EXPECT_NE(error_of("lo = 0\nhi = 1e39\nN = 1\n").find("expected a float value for 'hi'"),
            std::string::npos);

  Problem ranged = p;
  ranged.params[2] = float_scalar("lo", 0.0f, 1.0f);
  EXPECT_EQ(ranged.validate(ranged.make_case({2, 3, 1})), "lo = 2 is outside [0, 1]");
  EXPECT_THROW(p.make_case({0, 1, 2.5}), std::logic_error); // an int scalar given a fraction
}

TEST(FloatScalars, LabelsAndAssignmentsRoundTrip) {
  const Problem &p = clip_problem();
  const std::vector<double> values = {-51.24f, 39.51f, 100};
  const std::string label = label_of(p.params, values);
  EXPECT_EQ(label, "lo=-51.24,hi=39.51,N=100");
  EXPECT_EQ(parse_assignments(p, label), values);
  EXPECT_EQ(parse_assignments(p, "lo=-0.5,hi=2.5,N=3"), (std::vector<double>{-0.5, 2.5, 3}));
  for (const char *bad :
       {"lo=x,hi=1,N=3", "lo=0,hi=1,N=3.5", "hi=1,lo=0,N=3", "lo=0,hi=1", "lo=0,hi=1,N=3,extra"})
    EXPECT_THROW(parse_assignments(p, bad), std::invalid_argument) << bad;
  const Recipe r = judge_case(p, "performance", {-51.24, 39.51, 1000}, {uniform(-100, 100)});
  EXPECT_EQ(r.label, "judge:performance (lo=-51.24,hi=39.51,N=1000, U(-100, 100))");
}

// --- compact: solve(const float* A, int N, float* out), out zero-filled by the judge ---

void compact_reference(const float *A, int N, float *out) {
  int kept = 0;
  for (int i = 0; i < N; ++i)
    if (A[i] > 0.0f)
      out[kept++] = A[i];
}

const Problem &compact_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "compact";
    p.params = {input("A", Elem::f32, count_of("N")), scalar("N", 1, 1000),
                output_from_zeros("out", Elem::f32, count_of("N"))};
    p.tolerance = {0, 0};
    set_reference(p, compact_reference);
    p.fill = fill_with(p, {uniform(-2, 2)});
    return p;
  }();
  return problem;
}

TEST(ScalarsAnywhere, AScalarBetweenTheArraysIsReadWrittenAndPassedInPlace) {
  const Problem &p = compact_problem();
  EXPECT_NO_THROW(check_signature(p, p.reference_shape, "reference"));
  Case c = p.make_case({6});
  Rng rng(3);
  p.generate(c, rng, judge_case(p, "example", {6}, {given({1, -2, 3, 0, -1, 4})}).fill);
  const std::string path = written_input(p, c, "compact.in");
  EXPECT_NE(read_text(path).find("A f32 6\n1 -2 3 0 -1 4\nN = 6\n"), std::string::npos)
      << read_text(path);
  const Case back = read_input(p, path);
  EXPECT_EQ(back["N"], 6);
  EXPECT_EQ(back.arrays[0], c.arrays[0]);
  const float want[] = {1, 3, 4, 0, 0, 0};
  EXPECT_EQ(std::memcmp(p.solve_reference(c).array<float>(2), want, sizeof want), 0);
}

// The solve's output as the GPU check downloads it: `written` first, the rest still `fill`.
Case downloaded(const Case &inputs, std::vector<float> written, unsigned char fill) {
  Case got = inputs;
  got.arrays[2].assign(inputs.count(0) * sizeof(float), fill);
  std::memcpy(got.arrays[2].data(), written.data(), written.size() * sizeof(float));
  return got;
}

TEST(OutputFromZeros, UntouchedElementsReadAsTheJudgesZeros) {
  const Problem &p = compact_problem();
  Case c = p.make_case({6});
  Rng rng(4);
  p.generate(c, rng, judge_case(p, "example", {6}, {given({1, -2, 3, 0, -1, 4})}).fill);
  const Case expected = p.solve_reference(c);
  auto passes = [&](std::vector<float> written, unsigned char fill) {
    Case got = downloaded(c, std::move(written), fill);
    accept_untouched_zeros(p, got, expected, fill);
    return compare_outputs(p, got, expected).ok;
  };
  for (unsigned char fill : {0xFF, 0x3F}) {
    EXPECT_TRUE(passes({1, 3, 4}, fill)) << "tail left untouched";
    EXPECT_TRUE(passes({1, 3, 4, 0, 0, 0}, fill)) << "tail cleared";
    EXPECT_FALSE(passes({1, 3, 4, -2, 0, -1}, fill)) << "tail written with the rejected values";
    EXPECT_FALSE(passes({1, 3}, fill)) << "a kept value missing";
  }
  // Any other output still compares every element as written.
  Problem plain = p;
  plain.params[2] = output("out", Elem::f32, count_of("N"));
  Case got = downloaded(c, {1, 3, 4}, 0xFF);
  accept_untouched_zeros(plain, got, expected, 0xFF);
  EXPECT_FALSE(compare_outputs(plain, got, expected).ok);
}

// --- sort: solve(const unsigned int* input, unsigned int* output, int N) ---

void sort_reference(const unsigned *input, unsigned *output, int N) {
  std::copy(input, input + N, output);
  std::sort(output, output + N);
}

const Problem &sort_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "sort";
    p.params = {input("input", Elem::u32, count_of("N")),
                output("output", Elem::u32, count_of("N")), scalar("N", 1, 100000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, sort_reference);
    p.fill = fill_with(p, {integers(0, 4294967295.0)});
    return p;
  }();
  return problem;
}

TEST(Unsigned32, WholeRangeValuesGenerateRoundTripAndCompareExactly) {
  const Problem &p = sort_problem();
  EXPECT_NO_THROW(check_signature(p, p.reference_shape, "reference"));
  const Recipe r = judge_case(p, "functional-8", {10000}, {integers(0, 4294967295.0)});
  EXPECT_EQ(r.label, "judge:functional-8 (N=10000, integers 0..4294967295)");
  Case c = p.make_case(r.scalars);
  Rng rng(5);
  p.generate(c, rng, r.fill);
  const unsigned *x = c.array<unsigned>(0);
  EXPECT_GT(*std::max_element(x, x + c.count(0)), 0x80000000u) << "values above 2^31";
  const std::string path = written_input(p, c, "sort.in");
  EXPECT_EQ(read_input(p, path).arrays[0], c.arrays[0]);

  Case top = p.make_case({3});
  p.generate(top, rng, judge_case(p, "example", {3}, {given({4294967295.0, 0, 1000000000})}).fill);
  const Case sorted = p.solve_reference(top);
  const unsigned want[] = {0, 1000000000u, 4294967295u};
  EXPECT_EQ(std::memcmp(sorted.array<unsigned>(1), want, sizeof want), 0);
  Case off_by_one = sorted;
  off_by_one.array<unsigned>(1)[2] = 4294967294u;
  EXPECT_FALSE(compare_outputs(p, off_by_one, sorted).ok);
}

TEST(JudgeValues, MisfitValuesAreCaughtWhenTheCaseIsGenerated) {
  const Problem &p = sort_problem();
  Rng rng(6);
  auto generate = [&](std::vector<double> scalars, ArrayValues values) {
    Case c = p.make_case(scalars);
    p.generate(c, rng, judge_case(p, "example", scalars, {std::move(values)}).fill);
  };
  EXPECT_THROW(generate({2}, given({1, 2, 3})), std::logic_error); // three values for two
  EXPECT_THROW(generate({1}, given({-1})), std::logic_error);      // negative in a u32
  EXPECT_THROW(generate({1}, given({0.5})), std::logic_error);     // fraction in a u32
  EXPECT_THROW(generate({4}, integers(-1, 5)), std::logic_error);
  EXPECT_THROW(generate({4}, uniform(0, 1)), std::logic_error);      // floats into a u32
  EXPECT_THROW(judge_case(p, "example", {1}, {}), std::logic_error); // no values for `input`
}

} // namespace
} // namespace kit::basics
