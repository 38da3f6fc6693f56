// Host tests of what the harness offers problems beyond the first fifteen, on made-up problems
// shaped like the challenges that need it: float scalars (value clipping's `float lo, float hi`),
// a scalar between the arrays (stream compaction's `const float* A, int N, float* out`), an
// output the judge zero-fills and the reference writes only in part (stream compaction),
// unsigned 32-bit arrays over their whole range (radix sort), and half arrays (the FP16
// challenges): the host conversion, the case format, generation and comparison.
#include "harness/case_io.h"
#include "harness/compare.h"
#include "harness/half.h"
#include "harness/random.h"
#include "harness/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
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

// --- half: solve(const half* x, const half* y, half* sum, int N) (the FP16 dot product's shape)
// ---

void half_sum_reference(const std::uint16_t *x, const std::uint16_t *y, std::uint16_t *sum, int N) {
  double total = 0;
  for (int i = 0; i < N; ++i)
    total += static_cast<double>(half_to_float(x[i])) * half_to_float(y[i]);
  sum[0] = half_from_double(total);
}

const Problem &half_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "half_sum";
    p.params = {input("x", Elem::f16, count_of("N")), input("y", Elem::f16, count_of("N")),
                output("sum", Elem::f16, count_one()), scalar("N", 1, 1 << 17)};
    p.tolerance = {0.05, 0.05};
    set_reference(p, half_sum_reference);
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1)});
    return p;
  }();
  return problem;
}

bool is_nan_half(std::uint16_t bits) { return (bits & 0x7C00u) == 0x7C00u && (bits & 0x3FFu); }

// The value of a half from its fields, independently of half_to_float.
double half_value(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  const double magnitude =
      exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
  return (bits & 0x8000u) ? -magnitude : magnitude;
}

TEST(Half, EveryHalfConvertsToItsValueAndBack) {
  for (std::uint32_t b = 0; b <= 0xFFFFu; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const float f = half_to_float(bits);
    if (is_nan_half(bits)) {
      EXPECT_TRUE(std::isnan(f)) << b;
      const std::uint16_t back = half_from_float(f);
      EXPECT_TRUE(is_nan_half(back)) << b;
      EXPECT_EQ(back & 0x8000u, bits & 0x8000u) << b; // the sign is kept
      continue;
    }
    if ((bits & 0x7FFFu) == 0x7C00u)
      EXPECT_TRUE(std::isinf(f) && std::signbit(f) == ((bits & 0x8000u) != 0)) << b;
    else
      EXPECT_EQ(static_cast<double>(f), half_value(bits)) << b;
    EXPECT_EQ(std::signbit(f), (bits & 0x8000u) != 0) << b;
    EXPECT_EQ(half_from_float(f), bits) << b;
  }
}

TEST(Half, RoundsToNearestTiesToEvenAcrossEveryInterval) {
  // Between each pair of neighbouring finite halves (subnormals, the subnormal-to-normal step and
  // every binade included), the midpoint goes to the even one and values just off it to the nearer.
  for (std::uint16_t lo = 0; lo < 0x7BFFu; ++lo) {
    const std::uint16_t hi = lo + 1;
    const double mid = (half_value(lo) + half_value(hi)) / 2; // exact in double
    const std::uint16_t even = (lo & 1u) ? hi : lo;
    ASSERT_EQ(half_from_double(mid), even) << lo;
    ASSERT_EQ(half_from_double(std::nextafter(mid, 0.0)), lo) << lo;
    ASSERT_EQ(half_from_double(std::nextafter(mid, 1e9)), hi) << lo;
    ASSERT_EQ(half_from_double(-mid), even | 0x8000u) << lo;
  }
  EXPECT_EQ(half_from_double(65504.0), 0x7BFFu);
  EXPECT_EQ(half_from_double(65519.99), 0x7BFFu);
  EXPECT_EQ(half_from_double(65520.0), 0x7C00u); // the tie with 65536 goes up: infinity
  EXPECT_EQ(half_from_double(-1e300), 0xFC00u);
  EXPECT_EQ(half_from_double(std::ldexp(1.0, -25)), 0x0000u); // half the smallest subnormal
  EXPECT_EQ(half_from_double(std::nextafter(std::ldexp(1.0, -25), 1.0)), 0x0001u);
  EXPECT_EQ(half_from_double(3 * std::ldexp(1.0, -25)), 0x0002u);
  EXPECT_EQ(half_from_double(-1e-300), 0x8000u);
  EXPECT_EQ(half_from_double(-0.0), 0x8000u);
  EXPECT_EQ(half_from_double(1.0 / 3.0), 0x3555u);
  EXPECT_EQ(half_from_double(1.0 + std::ldexp(1.0, -11)), 0x3C00u); // tie: to the even 1.0
  EXPECT_EQ(half_from_double(std::numeric_limits<double>::infinity()), 0x7C00u);
  EXPECT_TRUE(is_nan_half(half_from_double(std::nan(""))));
  EXPECT_EQ(half_from_float(std::numeric_limits<float>::denorm_min()), 0x0000u);
}

TEST(Half, CaseFilesWriteShortDecimalsThatReadBackBitForBit) {
  const Problem &p = half_problem();
  EXPECT_NO_THROW(check_signature(p, p.reference_shape, "reference"));
  // Every half but the NaNs other than the two quiet ones the format writes ("nan", "-nan").
  std::vector<std::uint16_t> all;
  for (std::uint32_t b = 0; b <= 0xFFFFu; ++b)
    if (!is_nan_half(static_cast<std::uint16_t>(b)) || b == 0x7E00u || b == 0xFE00u)
      all.push_back(static_cast<std::uint16_t>(b));
  Case c = p.make_case({static_cast<double>(all.size())});
  Rng rng(8);
  p.generate(c, rng, [&](Case &k, Rng &) {
    std::memcpy(k.array<std::uint16_t>(0), all.data(), 2 * all.size());
    std::memcpy(k.array<std::uint16_t>(1), all.data(), 2 * all.size());
  });
  const std::string path = written_input(p, c, "halves.in");
  EXPECT_EQ(read_input(p, path).arrays[0], c.arrays[0]);
  EXPECT_EQ(read_input(p, path).arrays[1], c.arrays[1]);

  Case small = p.make_case({6});
  p.generate(small, rng,
             judge_case(p, "example", {6},
                        {given({0.1, -0.0, 65504, 1.0 / 3.0, 6e-8, 1}), given({1, 2, 3, 4, 5, 6})})
                 .fill);
  const std::string text = read_text(written_input(p, small, "small_halves.in"));
  EXPECT_NE(text.find("x f16 6\n0.1 -0 65504 0.3333 6e-08 1\n"), std::string::npos) << text;
}

TEST(Half, BadValuesAreRejectedWithTheArraysName) {
  const Problem &p = half_problem();
  auto error = [&](const std::string &values) {
    const std::string path = write_temp("bad_half.in", "problem half_sum\nx f16 2\n" + values +
                                                           "\ny f16 2\n1 2\nN = 2\n");
    try {
      read_input(p, path);
    } catch (const InputError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("1 0.5"), "");
  EXPECT_EQ(error("65519 -1e-9"), ""); // rounds to 65504 and -0
  EXPECT_EQ(error("inf nan"), "");
  EXPECT_NE(error("1 65520").find("expected f16 value 2 of 2 for 'x'"), std::string::npos)
      << error("1 65520"); // finite, but rounds to infinity
  EXPECT_NE(error("1 1e999").find("f16 value 2 of 2"), std::string::npos);
  EXPECT_NE(error("1 0x3C00").find("found '0x3C00'"), std::string::npos);
  EXPECT_NE(error("half 1").find("f16 value 1 of 2"), std::string::npos);
  const std::string wrong_type =
      write_temp("half_as_f32.in", "problem half_sum\nx f32 1\n1\ny f16 1\n1\nN = 1\n");
  EXPECT_THROW(read_input(p, wrong_type), InputError);
}

TEST(Half, GeneratedValuesAreRoundedDrawsAndCompareInFloat) {
  const Problem &p = half_problem();
  Case c = p.make_case({100000});
  Rng rng(9);
  p.generate(c, rng);
  Rng same(9);
  const std::uint16_t *x = c.array<std::uint16_t>(0);
  for (std::size_t i = 0; i < c.count(0); ++i) { // x first, from the same float draws
    const float draw = same.uniform(-1.0f, 1.0f);
    ASSERT_EQ(x[i], half_from_float(draw)) << i;
    ASSERT_LE(std::fabs(half_to_float(x[i]) - draw), std::ldexp(1.0f, -12)) << i;
  }
  EXPECT_THROW(integers(0, 3).fill(c, 0, rng), std::logic_error); // integers into halves

  Case one = p.make_case({1});
  p.generate(one, rng, judge_case(p, "example", {1}, {given({3}), given({5})}).fill);
  const Case want = p.solve_reference(one);
  EXPECT_EQ(half_to_float(want.array<std::uint16_t>(2)[0]), 15.0f);
  Case got = want;
  got.array<std::uint16_t>(2)[0] = half_from_double(15.75); // |0.75| <= 0.05 + 0.05 * 15
  EXPECT_TRUE(compare_outputs(p, got, want).ok);
  got.array<std::uint16_t>(2)[0] = half_from_double(16.0); // |1| > 0.8
  const Comparison off = compare_outputs(p, got, want);
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.first.find("sum[0]: got 16, expected 15"), std::string::npos) << off.first;
  got.array<std::uint16_t>(2)[0] = 0xFFFFu; // the harness's poison: a NaN half
  EXPECT_FALSE(compare_outputs(p, got, want).ok);
  Case inf = want;
  inf.array<std::uint16_t>(2)[0] = 0x7C00u;
  EXPECT_TRUE(compare_outputs(p, inf, inf).ok);
  EXPECT_FALSE(compare_outputs(p, got, inf).ok);
}

} // namespace
} // namespace kit::basics
