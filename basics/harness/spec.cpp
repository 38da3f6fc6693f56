#include "spec.h"

#include "half.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace kit::basics {

std::vector<long long> awkward_sizes(std::initializer_list<long long> tiles) {
  std::vector<long long> sizes = {1, 2, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025};
  for (long long tile : tiles)
    for (long long n : {tile - 1, tile, tile + 1, 2 * tile + 1, 5 * tile - 3})
      if (n >= 1)
        sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::string label_of(const std::vector<Param> &params, const std::vector<double> &scalars) {
  std::string text;
  std::size_t k = 0;
  for (const Param &p : params) {
    if (p.role != Role::scalar)
      continue;
    if (!text.empty())
      text += ",";
    text += p.name + "=" + scalar_text(p, scalars.at(k++));
  }
  return text;
}

std::vector<double> parse_assignments(const Problem &problem, const std::string &text) {
  std::vector<double> values;
  std::size_t at = 0;
  for (const Param &p : problem.params) {
    if (p.role != Role::scalar)
      continue;
    const bool is_float = p.elem == Elem::f32;
    const std::string prefix = p.name + "=";
    if (text.compare(at, prefix.size(), prefix) != 0)
      throw std::invalid_argument("expected '" + prefix + (is_float ? "<float>" : "<int>") +
                                  "' at '" + text.substr(at) + "'");
    at += prefix.size();
    const std::size_t end = std::min(text.find(',', at), text.size());
    double value;
    if (!parse_scalar(p, std::string_view(text).substr(at, end - at), value))
      throw std::invalid_argument(std::string(is_float ? "expected a float" : "expected an int") +
                                  " after '" + prefix + "', found '" + text.substr(at, end - at) +
                                  "'");
    values.push_back(value);
    at = end < text.size() ? end + 1 : end;
  }
  if (at != text.size())
    throw std::invalid_argument("unexpected '" + text.substr(at) + "'");
  return values;
}

void add_tests(Problem &problem, const std::vector<std::vector<double>> &scalar_lists,
               const FillFn &fill, const std::string &suffix) {
  for (const auto &scalars : scalar_lists)
    problem.tests.push_back({label_of(problem.params, scalars) + suffix, scalars, fill});
}

void run_only_at_full_scale(Problem &problem, const std::vector<std::string> &labels) {
  for (const std::string &label : labels) {
    auto it = std::find_if(problem.tests.begin(), problem.tests.end(),
                           [&](const Recipe &r) { return r.label == label; });
    if (it == problem.tests.end())
      throw std::logic_error(problem.name + ": no kit case is labelled " + label);
    it->full_scale_only = true;
  }
}

void add_awkward_size_tests(Problem &problem, std::initializer_list<long long> tiles) {
  for (double n : awkward_sizes(tiles))
    add_tests(problem, {{n}});
}

CountFn count_of(const char *scalar) {
  return [scalar](const Case &c) { return static_cast<std::size_t>(c[scalar]); };
}

CountFn count_of(const char *a, const char *b) {
  return [a, b](const Case &c) {
    return static_cast<std::size_t>(c[a]) * static_cast<std::size_t>(c[b]);
  };
}

CountFn count_one() {
  return [](const Case &) { return std::size_t{1}; };
}

PerfModel memory_bound(std::function<double(const Case &)> bytes) {
  PerfModel model;
  model.limit = Limit::memory;
  model.bytes = std::move(bytes);
  return model;
}

namespace {

// "-10", "0.001", "4294967295": integers without an exponent, other values as %g would.
std::string number_text(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e16)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Throws std::logic_error unless `value` is one of array `param`'s element values: integer types
// take only whole numbers in their range (the challenges' literals always are), floats anything.
void check_fits(const Case &c, std::size_t param, double value) {
  const Param &p = (*c.params)[param];
  bool fits = true;
  switch (p.elem) {
  case Elem::f32: // any value, infinities and NaN included
  case Elem::f16: // any value, rounded to the nearest half when stored
    break;
  case Elem::i32:
    fits = value == std::floor(value) && value >= -2147483648.0 && value <= 2147483647.0;
    break;
  case Elem::u32:
    fits = value == std::floor(value) && value >= 0 && value <= 4294967295.0;
    break;
  case Elem::u8:
    fits = value == std::floor(value) && value >= 0 && value <= 255;
    break;
  case Elem::i8:
    fits = value == std::floor(value) && value >= -128 && value <= 127;
    break;
  }
  if (!fits)
    throw std::logic_error("judge value " + number_text(value) + " does not fit '" + p.name +
                           "' (" + elem_name(p.elem) + ")");
}

// Sets element `i` of array `param` to value(i), converted to the array's element type.
template <class ValueAt> void store_each(Case &c, std::size_t param, ValueAt value) {
  const std::size_t n = c.count(param);
  switch ((*c.params)[param].elem) {
  case Elem::f32:
    for (std::size_t i = 0; i < n; ++i)
      c.array<float>(param)[i] = static_cast<float>(value(i));
    break;
  case Elem::f16: // rounded to the nearest half, as torch rounds values into a float16 tensor
    for (std::size_t i = 0; i < n; ++i)
      c.array<std::uint16_t>(param)[i] = half_from_double(static_cast<double>(value(i)));
    break;
  case Elem::i32:
    for (std::size_t i = 0; i < n; ++i)
      c.array<int>(param)[i] = static_cast<int>(value(i));
    break;
  case Elem::u32:
    for (std::size_t i = 0; i < n; ++i)
      c.array<unsigned>(param)[i] = static_cast<unsigned>(value(i));
    break;
  case Elem::u8:
    for (std::size_t i = 0; i < n; ++i)
      c.array<unsigned char>(param)[i] = static_cast<unsigned char>(value(i));
    break;
  case Elem::i8:
    for (std::size_t i = 0; i < n; ++i)
      c.array<signed char>(param)[i] = static_cast<signed char>(value(i));
    break;
  }
}

void require_elem(const Case &c, std::size_t param, bool is_float, const char *what) {
  const Param &p = (*c.params)[param];
  if (is_floating(p.elem) != is_float)
    throw std::logic_error(std::string(what) + " does not apply to '" + p.name + "' (" +
                           elem_name(p.elem) + ")");
}

} // namespace

ArrayValues given(std::vector<double> values) {
  return {"given values", [values](Case &c, std::size_t param, Rng &) {
            if (c.count(param) != values.size())
              throw std::logic_error(std::to_string(values.size()) + " given values for '" +
                                     (*c.params)[param].name + "', which has " +
                                     std::to_string(c.count(param)) + " elements");
            for (double v : values)
              check_fits(c, param, v);
            store_each(c, param, [&](std::size_t i) { return values[i]; });
          }};
}

ArrayValues uniform(double lo, double hi) {
  return {"U(" + number_text(lo) + ", " + number_text(hi) + ")",
          [lo, hi](Case &c, std::size_t param, Rng &rng) {
            require_elem(c, param, true, "uniform()");
            // f16: the same float draws, each rounded to the nearest half (torch's uniform_ on
            // a float16 tensor draws in float and rounds; hi itself can then occur).
            if ((*c.params)[param].elem == Elem::f16)
              store_each(c, param, [&](std::size_t) {
                return rng.uniform(static_cast<float>(lo), static_cast<float>(hi));
              });
            else
              fill_uniform(c.array<float>(param), c.count(param), static_cast<float>(lo),
                           static_cast<float>(hi), rng);
          }};
}

FillFn fill_pairs_from(std::vector<std::pair<float, float>> pairs) {
  return [pairs = std::move(pairs)](Case &c, Rng &rng) {
    float *a = c.array<float>(0);
    float *b = c.array<float>(1);
    for (std::size_t i = 0; i < c.count(0); ++i) {
      const std::pair<float, float> &pair = pairs[rng.next() % pairs.size()];
      a[i] = pair.first;
      b[i] = pair.second;
    }
  };
}

ArrayValues normal() {
  return {"N(0, 1)", [](Case &c, std::size_t param, Rng &rng) {
            require_elem(c, param, true, "normal()");
            store_each(c, param, [&](std::size_t) {
              const double u1 = 1.0 - rng.unit(), u2 = rng.unit();
              return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) *
                                        std::cos(6.283185307179586 * u2));
            });
          }};
}

ArrayValues integers(double lo, double hi) {
  return {"integers " + number_text(lo) + ".." + number_text(hi),
          [lo, hi](Case &c, std::size_t param, Rng &rng) {
            require_elem(c, param, false, "integers()");
            check_fits(c, param, lo);
            check_fits(c, param, hi);
            const auto low = static_cast<long long>(lo), high = static_cast<long long>(hi);
            store_each(c, param, [&](std::size_t) { return rng.uniform_int(low, high); });
          }};
}

ArrayValues constant(double value) {
  return {"all " + number_text(value), [value](Case &c, std::size_t param, Rng &) {
            check_fits(c, param, value);
            store_each(c, param, [&](std::size_t) { return value; });
          }};
}

namespace {
// Indices of the arrays solve reads: the input and in-place arrays, in parameter order.
std::vector<std::size_t> read_arrays(const Problem &problem) {
  std::vector<std::size_t> arrays;
  for (std::size_t i = 0; i < problem.params.size(); ++i)
    if (problem.params[i].role == Role::in || problem.params[i].role == Role::inout)
      arrays.push_back(i);
  return arrays;
}
} // namespace

FillFn fill_with(const Problem &problem, const std::vector<ArrayValues> &values) {
  const std::vector<std::size_t> arrays = read_arrays(problem);
  if (values.size() != arrays.size())
    throw std::logic_error(problem.name + ": " + std::to_string(values.size()) +
                           " value lists for " + std::to_string(arrays.size()) + " input arrays");
  return [arrays, values](Case &c, Rng &rng) {
    for (std::size_t k = 0; k < arrays.size(); ++k)
      values[k].fill(c, arrays[k], rng);
  };
}

Recipe judge_case(const Problem &problem, const std::string &kind,
                  const std::vector<double> &scalars, const std::vector<ArrayValues> &values) {
  FillFn fill = fill_with(problem, values);
  // One description when every array gets the same kind of values, else one per array.
  const std::vector<std::size_t> arrays = read_arrays(problem);
  std::string description;
  const bool alike = std::all_of(values.begin(), values.end(), [&](const ArrayValues &v) {
    return v.description == values.front().description;
  });
  if (alike && !values.empty())
    description = values.front().description;
  else
    for (std::size_t k = 0; k < values.size(); ++k)
      description += (k ? ", " : "") + problem.params[arrays[k]].name + " " + values[k].description;
  const std::string scalars_text = label_of(problem.params, scalars);
  const std::string separator = scalars_text.empty() || description.empty() ? "" : ", ";
  return {"judge:" + kind + " (" + scalars_text + separator + description + ")", scalars,
          std::move(fill)};
}

void add_judge_functional(Problem &problem, const std::vector<double> &scalars,
                          const std::vector<ArrayValues> &values) {
  const std::string kind = "functional-" + std::to_string(problem.judge.functional.size() + 1);
  problem.judge.functional.push_back(judge_case(problem, kind, scalars, values));
}

} // namespace kit::basics
