// The FFT primitive (primitives/fft.h) against the double-precision host transform
// (testing/reference_fft.h), itself checked against the O(L^2) definition at small lengths.
// Cases: every power of two from 1 to 2^20 (one pass up to the block's capacity, the four-step
// split above it), the lengths the judge's challenges use besides (250; 3, 5, 30, 100, 200) and
// other lengths around the block's capacity (Bluestein, whose padded transforms take one or two
// passes); batches of rows with a padded row stride, columns of a row-major array (strided, four or
// more side by side, and a ragged last block), long columns (the four-step split over a strided
// batch), in-place transforms, all-zero and impulse inputs. Outputs are poisoned before each run
// and the bytes outside the written elements must keep the poison. Under the MI100 persona the
// block holds 4096 points (fft_tuning.h), which moves every split.
#include "gpu/check.h"
#include "gpu/device.h"
#include "primitives/fft.h"
#include "testing/reference_fft.h"
#include "testing/test_support.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using kit::reference::complex;

// Largest |got - want| over the transformed elements, relative to the RMS of the expected values;
// an expected all-zero result must be exactly zero.
struct Error {
  double worst = 0;
  double rms = 0;
};

// Tolerance on the largest error relative to the RMS of the result: FP32 roundings of the
// butterflies grow like log2 of the (padded) length. 5e-7 per level is about 10x what a host
// model of these passes (correctly rounded sincospif) showed: 8e-7 in all at 2^18, 1.5e-6 for
// Bluestein at 262,143; a twiddle error that grew with the length would exceed it.
double tolerance_for(long long length) {
  long long padded = 1;
  int levels = 0;
  const long long needed = (length & (length - 1)) == 0 ? length : 2 * length - 1;
  while (padded < needed) {
    padded <<= 1;
    ++levels;
  }
  return 5e-7 * (levels + 2) * ((length & (length - 1)) == 0 ? 1.0 : 3.0);
}

// One call: `batch` sequences of `length` at in_layout in an input array of `in_count` complex,
// written at out_layout into an output of `out_count` (or in place). Checks every sequence against
// the host transform and the untouched output elements against the poison.
void run_case(kit::test::Checker &check, std::mt19937 &rng, const std::string &name, int length,
              int batch, kit::fft::Layout in_layout, long long in_count,
              kit::fft::Layout out_layout, long long out_count, bool in_place,
              const char *values = "uniform") {
  std::vector<float> in(2 * static_cast<std::size_t>(in_count));
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = std::strcmp(values, "zero") == 0      ? 0.0f
            : std::strcmp(values, "impulse") == 0 ? (i == 0 ? 1.0f : 0.0f)
                                                  : u(rng);
  kit::test::DeviceBuffer<float> d_in(in.size());
  d_in.upload(in);
  kit::test::DeviceBuffer<float> d_out(in_place ? 1 : 2 * static_cast<std::size_t>(out_count));
  float *out_ptr = in_place ? d_in.get() : d_out.get();
  kit::fft::forward(reinterpret_cast<const float2 *>(d_in.get()), in_layout,
                    reinterpret_cast<float2 *>(out_ptr), out_layout, length, batch);
  GPU_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = in_place ? d_in.download() : d_out.download();
  std::vector<float> poison(1);
  std::memset(poison.data(), 0xA5, sizeof(float));
  std::vector<char> written(got.size() / 2, 0);
  Error e;
  double sum_sq = 0;
  long long expected_count = 0;
  double worst_abs = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<complex> x(static_cast<std::size_t>(length));
    for (int n = 0; n < length; ++n) {
      const long long at = b * in_layout.batch_stride + n * in_layout.element_stride;
      x[n] = {in[2 * at], in[2 * at + 1]};
    }
    if (length <= 64) { // the host transform against the definition
      const std::vector<complex> direct = kit::reference::dft_direct(x);
      std::vector<complex> fast = x;
      kit::reference::fft(fast);
      double diff = 0;
      for (int k = 0; k < length; ++k)
        diff = std::max(diff, std::abs(fast[k] - direct[k]));
      check.expect(diff <= 1e-12 * length, (name + ": host fft against the definition").c_str());
    }
    kit::reference::fft(x);
    for (int k = 0; k < length; ++k) {
      const long long at = b * out_layout.batch_stride + k * out_layout.element_stride;
      written[at] = 1;
      const complex g{got[2 * at], got[2 * at + 1]};
      worst_abs = std::max(worst_abs, std::abs(g - x[k]));
      sum_sq += std::norm(x[k]);
      ++expected_count;
    }
  }
  e.rms = std::sqrt(sum_sq / static_cast<double>(expected_count));
  e.worst = e.rms > 0 ? worst_abs / e.rms : worst_abs;
  const double tolerance = e.rms > 0 ? tolerance_for(length) : 0.0;
  const bool ok = e.worst <= tolerance && std::isfinite(e.worst);
  if (!ok)
    std::printf("FAIL %s: largest error %.3g of the RMS %.3g (tolerance %.3g)\n", name.c_str(),
                e.worst, e.rms, tolerance);
  check.expect(ok, (name + ": values").c_str());
  if (!in_place) {
    bool kept = true;
    for (std::size_t i = 0; i < written.size(); ++i)
      if (!written[i] && (std::memcmp(&got[2 * i], poison.data(), sizeof(float)) != 0 ||
                          std::memcmp(&got[2 * i + 1], poison.data(), sizeof(float)) != 0))
        kept = false;
    check.expect(kept, (name + ": elements outside the output untouched").c_str());
  }
}

void contiguous(kit::test::Checker &check, std::mt19937 &rng, int length, int batch = 1,
                const char *values = "uniform") {
  const long long count = static_cast<long long>(length) * batch;
  run_case(check, rng,
           "length " + std::to_string(length) + " x " + std::to_string(batch) + " " + values,
           length, batch, {1, length}, count, {1, length}, count, false, values);
}

} // namespace

int main() {
  kit::test::begin_gpu_test("fft_test");
  kit::test::Checker check;
  std::mt19937 rng(12345);
  // Powers of two, one sequence: one pass up to the block's capacity, two above it.
  for (int p = 0; p <= 20; ++p)
    if (kit::test::runs_at_this_scale(std::size_t{1} << p))
      contiguous(check, rng, 1 << p);
  // Other lengths: the judge's 250 and 2-D sides, primes, the block's capacity +- 1.
  for (int length : {3, 5, 7, 30, 31, 33, 63, 65, 100, 200, 250, 1000, 2047, 2049, 4095, 4097, 8191,
                     8193, 100003})
    contiguous(check, rng, length);
  // Batches of rows: several short sequences per block, ragged last blocks.
  contiguous(check, rng, 2, 1000);
  contiguous(check, rng, 16, 333);
  contiguous(check, rng, 2048, 9);
  contiguous(check, rng, 200, 100);
  contiguous(check, rng, 1 << 16, 3); // the four-step split over a batch
  contiguous(check, rng, 5000, 3);    // Bluestein over a batch, two-pass padded transforms
  contiguous(check, rng, 1 << 18, 1, "impulse");
  contiguous(check, rng, 4096, 1, "zero");
  contiguous(check, rng, 250, 1, "zero");
  // Rows with a padded stride, written to a differently padded output.
  run_case(check, rng, "rows 2048 x 3, strides 2053 -> 2050", 2048, 3, {1, 2053}, 3 * 2053,
           {1, 2050}, 3 * 2050, false);
  // Columns of a rows x cols row-major array (element stride cols, batch stride 1), in place as
  // the 2-D transform does it, and out of place.
  for (const auto &shape : std::vector<std::pair<int, int>>{
           {2048, 7}, {2048, 64}, {5, 3}, {30, 30}, {100, 200}, {512, 512}, {16384, 5}, {3, 1}})
    run_case(check, rng,
             "columns of " + std::to_string(shape.first) + " x " + std::to_string(shape.second),
             shape.first, shape.second, {shape.second, 1},
             static_cast<long long>(shape.first) * shape.second, {shape.second, 1},
             static_cast<long long>(shape.first) * shape.second, shape.first != 2048);
  // Columns read, written as rows (a transposed result).
  run_case(check, rng, "columns of 1024 x 12 to rows", 1024, 12, {12, 1}, 1024 * 12, {1, 1024},
           1024 * 12, false);
  return check.finish("fft_test");
}
