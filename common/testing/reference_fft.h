// The forward DFT in double on the host, X[k] = sum_n x[n] exp(-2 pi i n k / L): the CPU reference
// of the FFT problems (basics/fast_fourier_transform, basics/2d_fft) and of the FFT primitive's
// test (common/tests/fft_test.cu). Any length: an iterative radix-2 transform for powers of two,
// Bluestein's chirp z-transform over one for the others, O(L log L) either way. Every twiddle is
// taken from exact integers (m mod L, n^2 mod 2L) into one call of sin/cos, so the only error is
// double rounding (about 1e-16 relative per operation). dft_direct is the O(L^2) definition, a
// cross-check for small lengths.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <vector>

namespace kit::reference {

using complex = std::complex<double>;

// exp(-2 pi i m / d) for integers 0 <= m < d.
inline complex unit_root(unsigned long long m, unsigned long long d) {
  const double pi = 3.14159265358979323846;
  // Fold into the first half turn's nearest representation: angle in [-pi, pi).
  const double angle =
      -2.0 * pi *
      (2 * m < d ? static_cast<double>(m) : static_cast<double>(m) - static_cast<double>(d)) /
      static_cast<double>(d);
  return {std::cos(angle), std::sin(angle)};
}

// In place, length a power of two (1 included).
inline void fft_pow2(std::vector<complex> &x) {
  const std::size_t n = x.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) { // bit-reversal permutation
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j |= bit;
    if (i < j)
      std::swap(x[i], x[j]);
  }
  std::vector<complex> roots(n / 2 > 0 ? n / 2 : 1);
  for (std::size_t k = 0; k < n / 2; ++k)
    roots[k] = unit_root(k, n);
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const std::size_t step = n / len;
    for (std::size_t start = 0; start < n; start += len)
      for (std::size_t k = 0; k < len / 2; ++k) {
        const complex u = x[start + k], v = x[start + k + len / 2] * roots[k * step];
        x[start + k] = u + v;
        x[start + k + len / 2] = u - v;
      }
  }
}

// In place, any length.
inline void fft(std::vector<complex> &x) {
  const std::size_t n = x.size();
  if (n <= 1)
    return;
  if ((n & (n - 1)) == 0) {
    fft_pow2(x);
    return;
  }
  // Bluestein: X[k] = w[k] sum_j (x[j] w[j]) conj(w[k - j]), w[j] = exp(-i pi j^2 / L).
  std::size_t m = 1;
  while (m < 2 * n - 1)
    m <<= 1;
  std::vector<complex> w(n);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned long long sq = static_cast<unsigned long long>(i) * i % (2 * n);
    w[i] = unit_root(sq, 2 * n); // exp(-2 pi i sq / 2L) = exp(-i pi i^2 / L)
  }
  std::vector<complex> a(m), h(m);
  for (std::size_t i = 0; i < n; ++i)
    a[i] = x[i] * w[i];
  h[0] = std::conj(w[0]);
  for (std::size_t i = 1; i < n; ++i)
    h[i] = h[m - i] = std::conj(w[i]);
  fft_pow2(a);
  fft_pow2(h);
  for (std::size_t i = 0; i < m; ++i)
    a[i] = std::conj(a[i] * h[i]); // inverse as a forward transform of the conjugate
  fft_pow2(a);
  for (std::size_t k = 0; k < n; ++k)
    x[k] = w[k] * std::conj(a[k]) / static_cast<double>(m);
}

// The definition, O(L^2): a cross-check for small lengths.
inline std::vector<complex> dft_direct(const std::vector<complex> &x) {
  const std::size_t n = x.size();
  std::vector<complex> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    complex sum = 0;
    for (std::size_t i = 0; i < n; ++i)
      sum += x[i] * unit_root(static_cast<unsigned long long>(i) * k % n, n);
    out[k] = sum;
  }
  return out;
}

// Interleaved floats (re, im) <-> complex doubles.
inline std::vector<complex> from_interleaved(const float *values, std::size_t count) {
  std::vector<complex> x(count);
  for (std::size_t i = 0; i < count; ++i)
    x[i] = {values[2 * i], values[2 * i + 1]};
  return x;
}

// The 2-D transform of a rows x cols row-major array: every row, then every column.
inline void fft_2d(std::vector<complex> &x, std::size_t rows, std::size_t cols) {
  std::vector<complex> line(cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c)
      line[c] = x[r * cols + c];
    fft(line);
    for (std::size_t c = 0; c < cols; ++c)
      x[r * cols + c] = line[c];
  }
  line.resize(rows);
  for (std::size_t c = 0; c < cols; ++c) {
    for (std::size_t r = 0; r < rows; ++r)
      line[r] = x[r * cols + c];
    fft(line);
    for (std::size_t r = 0; r < rows; ++r)
      x[r * cols + c] = line[r];
  }
}

} // namespace kit::reference
