#include "compare.h"

#include "half.h"

#include <cmath>
#include <cstring>

namespace kit::basics {

namespace {

double value_at(const std::vector<unsigned char> &bytes, Elem elem, std::size_t i) {
  switch (elem) {
  case Elem::f32: {
    float v;
    std::memcpy(&v, &bytes[4 * i], 4);
    return v;
  }
  case Elem::f16: { // compared in float, after the exact conversion
    std::uint16_t v;
    std::memcpy(&v, &bytes[2 * i], 2);
    return half_to_float(v);
  }
  case Elem::i32: {
    int v;
    std::memcpy(&v, &bytes[4 * i], 4);
    return v;
  }
  case Elem::u32: {
    unsigned v;
    std::memcpy(&v, &bytes[4 * i], 4);
    return v;
  }
  case Elem::u8:
    return bytes[i];
  case Elem::i8: {
    signed char v;
    std::memcpy(&v, &bytes[i], 1);
    return v;
  }
  }
  return 0;
}

std::string text_of(double v, Elem elem) {
  char buf[64];
  if (is_floating(elem))
    std::snprintf(buf, sizeof buf, "%.9g", v);
  else
    std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// Records one element's comparison in `c`.
void check_element(Comparison &c, const std::string &name, Elem elem, std::size_t index, double got,
                   double want, Tolerance tol, double slack = 0) {
  ++c.checked;
  const double error = std::fabs(got - want);
  bool pass;
  double allowed = 0;
  if (is_floating(elem)) {
    allowed = tol.atol + tol.rtol * std::fabs(want) + slack;
    // As torch.allclose: equal infinities match, an infinity matches nothing else, NaN never
    // matches (inf - inf is NaN, and an infinite `want` would allow any finite `got`).
    pass = got == want || (std::isfinite(got) && std::isfinite(want) && error <= allowed);
  } else {
    pass = got == want;
  }
  if (!std::isnan(error) && error > c.max_error)
    c.max_error = error;
  if (pass)
    return;
  if (!std::isfinite(error))
    ++c.not_finite;
  if (c.mismatches++ == 0) {
    c.first = name + "[" + std::to_string(index) + "]: got " + text_of(got, elem) + ", expected " +
              text_of(want, elem);
    if (is_floating(elem))
      c.first +=
          " (|difference| " + text_of(error, elem) + " > allowed " + text_of(allowed, elem) + ")";
  }
  c.ok = false;
}

} // namespace

Comparison compare_array(const std::string &name, Elem elem, const std::vector<unsigned char> &got,
                         const std::vector<unsigned char> &expected, Tolerance tolerance) {
  Comparison c;
  const std::size_t width = elem_size(elem);
  if (got.size() != expected.size()) {
    c.ok = false;
    c.mismatches = 1;
    c.first = name + ": " + std::to_string(got.size() / width) + " elements, expected " +
              std::to_string(expected.size() / width);
    return c;
  }
  for (std::size_t i = 0; i < got.size() / width; ++i)
    check_element(c, name, elem, i, value_at(got, elem, i), value_at(expected, elem, i), tolerance);
  return c;
}

Comparison compare_outputs(const Problem &problem, const Case &got, const Case &expected) {
  Comparison total;
  for (std::size_t i = 0; i < problem.params.size(); ++i) {
    const Param &p = problem.params[i];
    if (p.role == Role::out || p.role == Role::inout)
      merge(total,
            compare_array(p.name, p.elem, got.arrays[i], expected.arrays[i], problem.tolerance));
  }
  return total;
}

Comparison compare_sampled(const Problem &problem, const Case &got,
                           const std::vector<SampledValue> &expected) {
  Comparison c;
  for (const SampledValue &s : expected) {
    const Param &p = problem.params[s.param];
    check_element(c, p.name, p.elem, s.index, value_at(got.arrays[s.param], p.elem, s.index),
                  s.value, problem.tolerance, s.slack);
  }
  return c;
}

void accept_untouched_zeros(const Problem &problem, Case &got, const Case &expected,
                            unsigned char fill) {
  for (std::size_t i = 0; i < problem.params.size(); ++i) {
    const Param &p = problem.params[i];
    if (!p.starts_zeroed || got.arrays[i].size() != expected.arrays[i].size())
      continue;
    const std::size_t width = elem_size(p.elem);
    std::vector<unsigned char> &bytes = got.arrays[i];
    for (std::size_t k = 0; k < bytes.size() / width; ++k) {
      bool untouched = true;
      for (std::size_t b = 0; b < width; ++b)
        untouched = untouched && bytes[k * width + b] == fill;
      if (untouched && value_at(expected.arrays[i], p.elem, k) == 0)
        std::memcpy(&bytes[k * width], &expected.arrays[i][k * width], width);
    }
  }
}

void merge(Comparison &total, const Comparison &part) {
  if (total.ok && !part.ok)
    total.first = part.first;
  total.ok = total.ok && part.ok;
  total.checked += part.checked;
  total.mismatches += part.mismatches;
  total.not_finite += part.not_finite;
  if (part.max_error > total.max_error)
    total.max_error = part.max_error;
}

std::string describe(const Comparison &c) {
  char buf[160];
  if (c.not_finite == 0)
    std::snprintf(buf, sizeof buf, "%zu of %zu elements differ (max |error| %.3g)", c.mismatches,
                  c.checked, c.max_error);
  else
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu elements differ (%zu by a NaN or an infinity; max finite |error| "
                  "%.3g)",
                  c.mismatches, c.checked, c.not_finite, c.max_error);
  return c.ok ? std::string(buf) : std::string(buf) + "; first: " + c.first;
}

} // namespace kit::basics
