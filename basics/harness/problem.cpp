#include "problem.h"

#include "random.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace kit::basics {

std::size_t elem_size(Elem elem) {
  switch (elem) {
  case Elem::f32:
  case Elem::i32:
  case Elem::u32:
    return 4;
  case Elem::f16:
    return 2;
  case Elem::u8:
  case Elem::i8:
    return 1;
  }
  return 0;
}

const char *elem_name(Elem elem) {
  switch (elem) {
  case Elem::f32:
    return "f32";
  case Elem::f16:
    return "f16";
  case Elem::i32:
    return "i32";
  case Elem::u32:
    return "u32";
  case Elem::u8:
    return "u8";
  case Elem::i8:
    return "i8";
  }
  return "?";
}

const char *role_name(Role role) {
  switch (role) {
  case Role::in:
    return "input";
  case Role::out:
    return "output";
  case Role::inout:
    return "in-place";
  case Role::scalar:
    return "scalar";
  }
  return "?";
}

namespace {
Param array_param(const char *name, Role role, Elem elem, CountFn count) {
  Param p;
  p.name = name;
  p.role = role;
  p.elem = elem;
  p.count = std::move(count);
  return p;
}
} // namespace

Param input(const char *name, Elem elem, CountFn count) {
  return array_param(name, Role::in, elem, std::move(count));
}
Param output(const char *name, Elem elem, CountFn count) {
  return array_param(name, Role::out, elem, std::move(count));
}
Param inout(const char *name, Elem elem, CountFn count) {
  return array_param(name, Role::inout, elem, std::move(count));
}
Param output_from_zeros(const char *name, Elem elem, CountFn count) {
  Param p = array_param(name, Role::out, elem, std::move(count));
  p.starts_zeroed = true;
  return p;
}

namespace {
Param scalar_param(const char *name, Elem elem, double min, double max) {
  Param p;
  p.name = name;
  p.role = Role::scalar;
  p.elem = elem;
  p.min = min;
  p.max = max;
  return p;
}

// The value of scalar `name` in `c`, which must have type `elem`.
double scalar_value(const Case &c, const char *name, Elem elem) {
  for (std::size_t i = 0; i < c.params->size(); ++i) {
    const Param &p = (*c.params)[i];
    if (p.role != Role::scalar || p.name != name)
      continue;
    if (p.elem != elem)
      throw std::logic_error(std::string("scalar parameter ") + name + " is not " +
                             (elem == Elem::f32 ? "a float" : "an int"));
    return c.scalars[i];
  }
  throw std::logic_error(std::string("no scalar parameter named ") + name);
}
} // namespace

Param scalar(const char *name, long long min, long long max) {
  return scalar_param(name, Elem::i32, static_cast<double>(min), static_cast<double>(max));
}
Param float_scalar(const char *name, float min, float max) {
  return scalar_param(name, Elem::f32, min, max);
}

std::string scalar_text(const Param &param, double value) {
  char buf[64];
  std::to_chars_result r;
  if (param.elem == Elem::f32)
    r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(value));
  else
    r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(value));
  return std::string(buf, r.ptr);
}

bool parse_scalar(const Param &param, std::string_view text, double &value) {
  const char *end = text.data() + text.size();
  if (param.elem == Elem::f32) {
    float v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    value = v;
    return ec == std::errc() && ptr == end && !text.empty();
  }
  int v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  value = v;
  return ec == std::errc() && ptr == end && !text.empty();
}

long long Case::operator[](const char *name) const {
  return static_cast<long long>(scalar_value(*this, name, Elem::i32));
}

float Case::real(const char *name) const {
  return static_cast<float>(scalar_value(*this, name, Elem::f32));
}

std::size_t Case::count(std::size_t index) const {
  return arrays[index].size() / elem_size((*params)[index].elem);
}

std::size_t Problem::index_of(const std::string &param_name) const {
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].name == param_name)
      return i;
  throw std::logic_error(name + " has no parameter " + param_name);
}

Case Problem::make_case(const std::vector<double> &scalar_values) const {
  Case c;
  c.params = &params;
  c.scalars.assign(params.size(), 0);
  c.arrays.resize(params.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].role != Role::scalar)
      continue;
    if (next == scalar_values.size())
      throw std::logic_error(name + ": too few scalars for a case");
    const double value = scalar_values[next++];
    if (params[i].elem == Elem::f32)
      c.scalars[i] = static_cast<float>(value);
    else if (value == std::floor(value))
      c.scalars[i] = value;
    else
      throw std::logic_error(name + ": int scalar " + params[i].name + " given a fraction");
  }
  if (next != scalar_values.size())
    throw std::logic_error(name + ": too many scalars for a case");
  return c;
}

std::string Problem::validate(const Case &c) const {
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Param &p = params[i];
    // Written so that NaN fails too.
    if (p.role == Role::scalar && !(c.scalars[i] >= p.min && c.scalars[i] <= p.max))
      return p.name + " = " + scalar_text(p, c.scalars[i]) + " is outside [" +
             scalar_text(p, p.min) + ", " + scalar_text(p, p.max) + "]";
  }
  return check ? check(c) : std::string();
}

void Problem::generate(Case &c, Rng &rng, const FillFn &custom_fill) const {
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].role != Role::scalar)
      c.arrays[i].assign(params[i].count(c) * elem_size(params[i].elem), 0);
  (custom_fill ? custom_fill : fill)(c, rng);
}

Case Problem::solve_reference(const Case &inputs) const {
  Case result = inputs;
  std::vector<Slot> slots(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].role == Role::scalar) {
      slots[i].value = result.scalars[i];
    } else {
      if (params[i].role == Role::out)
        result.arrays[i].assign(params[i].count(result) * elem_size(params[i].elem), 0);
      // Give empty arrays a valid address: solve never reads them, but the pointer must exist.
      if (result.arrays[i].empty())
        result.arrays[i].reserve(1);
      slots[i].pointer = result.arrays[i].data();
    }
  }
  reference(slots);
  return result;
}

std::vector<const Recipe *> JudgeCases::all() const {
  std::vector<const Recipe *> recipes = {&example};
  for (const Recipe &r : functional)
    recipes.push_back(&r);
  recipes.push_back(&performance);
  return recipes;
}

bool Problem::needs_sampled_check(const Case &c) const {
  return sampled_reference && reference_work && reference_work(c) > full_reference_limit;
}

void check_signature(const Problem &problem, const std::vector<Shape> &shape, const char *what) {
  auto fail = [&](const std::string &why) {
    throw std::logic_error(problem.name + ": " + what + " does not match the problem: " + why);
  };
  if (shape.size() != problem.params.size())
    fail(std::to_string(shape.size()) + " parameters, expected " +
         std::to_string(problem.params.size()));
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const Param &p = problem.params[i];
    const bool want_pointer = p.role != Role::scalar;
    const bool want_const = p.role == Role::in;
    if (shape[i].is_pointer != want_pointer || shape[i].elem != p.elem ||
        (want_pointer && shape[i].is_const != want_const))
      fail("parameter " + std::to_string(i + 1) + " (" + p.name + ") should be " +
           (want_pointer ? std::string(want_const ? "const " : "") + elem_name(p.elem) + "*"
                         : std::string(p.elem == Elem::f32 ? "float" : "int")));
  }
}

} // namespace kit::basics
