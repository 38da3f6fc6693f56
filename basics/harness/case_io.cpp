#include "case_io.h"

#include "half.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

namespace kit::basics {

namespace {

// Whole-file tokenizer that tracks line numbers for error messages.
class Tokens {
public:
  explicit Tokens(const std::string &path) : path_(path) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
      throw InputError(path + ": cannot open the file for reading");
    text_.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (file.bad())
      throw InputError(path + ": read error");
  }

  // The next token, or an empty view at the end of the file.
  std::string_view next() {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_]))
      ++pos_;
    token_line_ = line_;
    return std::string_view(text_).substr(start, pos_ - start);
  }

  bool at_end() {
    skip_space();
    return pos_ == text_.size();
  }

  [[noreturn]] void fail(const std::string &expected, std::string_view found) const {
    std::string shown =
        found.empty() ? std::string("end of file") : "'" + std::string(found.substr(0, 40)) + "'";
    throw InputError(where() + ": expected " + expected + ", found " + shown);
  }
  std::string where() const { return path_ + ":" + std::to_string(token_line_); }
  // Upper bound on the values left: each needs a character and a separator.
  std::size_t max_values_left() const { return (text_.size() - pos_) / 2 + 1; }
  int line() const { return token_line_; }

private:
  static bool is_space(char c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
  }
  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n')
          ++pos_;
      } else if (is_space(c)) {
        if (c == '\n')
          ++line_;
        ++pos_;
      } else {
        return;
      }
    }
  }

  std::string path_;
  std::string text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int token_line_ = 1;
};

template <class T> bool parse_number(std::string_view token, T &value) {
  const char *end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, value);
  return ec == std::errc() && ptr == end;
}

// A half written in decimal: any number, rounded to the nearest half (as torch.tensor(...,
// dtype=torch.float16) rounds a literal), "inf", "-inf" and "nan" included; a finite number that
// would round to infinity (65520 and beyond) is rejected as out of range.
bool parse_half(std::string_view token, std::uint16_t &bits) {
  double v;
  if (!parse_number(token, v))
    return false;
  bits = half_from_double(v);
  return !std::isfinite(v) || std::isfinite(half_to_float(bits));
}

// A whole number in full ("65504", not "6.55e+04"), else the shortest decimal (at most 5
// significant digits, enough for every half) that reads back to the same half.
std::string half_text(std::uint16_t bits) {
  const float v = half_to_float(bits);
  char buf[32];
  if (std::isfinite(v) && v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", static_cast<double>(v));
    return buf;
  }
  for (int digits = 1;; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(v));
    std::uint16_t back;
    if (digits == 5 || (parse_half(buf, back) && back == bits) || std::isnan(v))
      return buf;
  }
}

bool parse_elem(std::string_view token, Elem &elem) {
  for (Elem e : {Elem::f32, Elem::f16, Elem::i32, Elem::u32, Elem::u8, Elem::i8})
    if (token == elem_name(e)) {
      elem = e;
      return true;
    }
  return false;
}

void parse_values(Tokens &in, const std::string &name, Elem elem, std::size_t count,
                  std::vector<unsigned char> &bytes) {
  if (count > in.max_values_left())
    throw InputError(in.where() + ": '" + name + "' announces " + std::to_string(count) +
                     " values, more than the rest of the file can hold");
  bytes.assign(count * elem_size(elem), 0);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view token = in.next();
    auto what = [&] {
      return std::string(elem_name(elem)) + " value " + std::to_string(i + 1) + " of " +
             std::to_string(count) + " for '" + name + "'";
    };
    bool ok = false;
    switch (elem) {
    case Elem::f32: {
      float v;
      ok = parse_number(token, v);
      std::memcpy(&bytes[4 * i], &v, 4);
      break;
    }
    case Elem::f16: {
      std::uint16_t v;
      ok = parse_half(token, v);
      std::memcpy(&bytes[2 * i], &v, 2);
      break;
    }
    case Elem::i32: {
      int v;
      ok = parse_number(token, v);
      std::memcpy(&bytes[4 * i], &v, 4);
      break;
    }
    case Elem::u32: {
      unsigned v;
      ok = parse_number(token, v);
      std::memcpy(&bytes[4 * i], &v, 4);
      break;
    }
    case Elem::u8: {
      unsigned v;
      ok = parse_number(token, v) && v <= 255;
      bytes[i] = static_cast<unsigned char>(v);
      break;
    }
    case Elem::i8: {
      int v;
      ok = parse_number(token, v) && v >= -128 && v <= 127;
      const auto s = static_cast<signed char>(v);
      std::memcpy(&bytes[i], &s, 1);
      break;
    }
    }
    if (!ok)
      in.fail(what(), token);
  }
}

void expect_problem_line(Tokens &in, const std::string &name) {
  std::string_view token = in.next();
  if (token != "problem")
    in.fail("'problem " + name + "'", token);
  token = in.next();
  if (token != name)
    in.fail("problem '" + name + "'", token);
}

// Reads an array header and its values; returns the header's line.
int read_array(Tokens &in, const Param &p, std::vector<unsigned char> &bytes) {
  std::string_view token = in.next();
  const int line = in.line();
  const std::string record = "array '" + p.name + " " + elem_name(p.elem) + " <count>'";
  if (token != p.name)
    in.fail(record, token);
  Elem elem;
  token = in.next();
  if (!parse_elem(token, elem) || elem != p.elem)
    in.fail("element type " + std::string(elem_name(p.elem)) + " for '" + p.name + "'", token);
  std::size_t count;
  token = in.next();
  if (!parse_number(token, count))
    in.fail("an element count for '" + p.name + "'", token);
  parse_values(in, p.name, p.elem, count, bytes);
  return line;
}

std::string format_number(char *buf, std::size_t size, const unsigned char *at, Elem elem) {
  std::to_chars_result r{};
  switch (elem) {
  case Elem::f32: {
    float v;
    std::memcpy(&v, at, 4);
    r = std::to_chars(buf, buf + size, v);
    break;
  }
  case Elem::f16: {
    std::uint16_t v;
    std::memcpy(&v, at, 2);
    return half_text(v);
  }
  case Elem::i32: {
    int v;
    std::memcpy(&v, at, 4);
    r = std::to_chars(buf, buf + size, v);
    break;
  }
  case Elem::u32: {
    unsigned v;
    std::memcpy(&v, at, 4);
    r = std::to_chars(buf, buf + size, v);
    break;
  }
  case Elem::u8:
    r = std::to_chars(buf, buf + size, static_cast<unsigned>(*at));
    break;
  case Elem::i8: {
    signed char v;
    std::memcpy(&v, at, 1);
    r = std::to_chars(buf, buf + size, static_cast<int>(v));
    break;
  }
  }
  return std::string(buf, r.ptr);
}

void write_array(std::FILE *out, const Param &p, const std::vector<unsigned char> &bytes) {
  constexpr std::size_t kPerLine = 10;
  const std::size_t width = elem_size(p.elem);
  const std::size_t count = bytes.size() / width;
  std::string text = p.name + " " + elem_name(p.elem) + " " + std::to_string(count) + "\n";
  char buf[64];
  for (std::size_t i = 0; i < count; ++i) {
    text += format_number(buf, sizeof buf, &bytes[i * width], p.elem);
    text += (i + 1) % kPerLine == 0 || i + 1 == count ? '\n' : ' ';
    if (text.size() > (1u << 20)) {
      std::fwrite(text.data(), 1, text.size(), out);
      text.clear();
    }
  }
  std::fwrite(text.data(), 1, text.size(), out);
}

} // namespace

Case read_input(const Problem &problem, const std::string &path) {
  Tokens in(path);
  expect_problem_line(in, problem.name);
  Case c = problem.make_case(
      std::vector<double>(std::count_if(problem.params.begin(), problem.params.end(),
                                        [](const Param &p) { return p.role == Role::scalar; }),
                          0.0));
  std::vector<int> header_line(problem.params.size(), 0);
  for (std::size_t i = 0; i < problem.params.size(); ++i) {
    const Param &p = problem.params[i];
    if (p.role == Role::out)
      continue;
    if (p.role == Role::scalar) {
      std::string_view token = in.next();
      header_line[i] = in.line();
      const std::string type = p.elem == Elem::f32 ? "float" : "int";
      if (token != p.name)
        in.fail("scalar '" + p.name + " = <" + type + ">'", token);
      token = in.next();
      if (token != "=")
        in.fail("'=' after '" + p.name + "'", token);
      token = in.next();
      if (!parse_scalar(p, token, c.scalars[i]))
        in.fail(std::string(p.elem == Elem::f32 ? "a float" : "an int") + " value for '" + p.name +
                    "'",
                token);
    } else {
      header_line[i] = read_array(in, p, c.arrays[i]);
    }
  }
  if (!in.at_end())
    in.fail("end of file after the last argument", in.next());

  auto fail_at = [&](std::size_t i, const std::string &what) {
    throw InputError(path + ":" + std::to_string(header_line[i]) + ": " + what);
  };
  const std::string invalid = problem.validate(c);
  if (!invalid.empty()) {
    std::size_t first_scalar = 0;
    while (problem.params[first_scalar].role != Role::scalar)
      ++first_scalar;
    fail_at(first_scalar, "invalid arguments: " + invalid);
  }
  for (std::size_t i = 0; i < problem.params.size(); ++i) {
    const Param &p = problem.params[i];
    if (p.role == Role::in || p.role == Role::inout) {
      const std::size_t want = p.count(c);
      if (c.count(i) != want)
        fail_at(i, "expected " + std::to_string(want) + " elements for '" + p.name +
                       "' (from the scalars), found " + std::to_string(c.count(i)));
    }
  }
  return c;
}

OutputFile read_output(const std::string &path) {
  Tokens in(path);
  OutputFile file;
  std::string_view token = in.next();
  if (token != "problem")
    in.fail("'problem <name>'", token);
  token = in.next();
  if (token.empty())
    in.fail("a problem name", token);
  file.problem = std::string(token);
  while (!in.at_end()) {
    Param p;
    p.name = std::string(in.next());
    token = in.next();
    if (!parse_elem(token, p.elem))
      in.fail("an element type (f32, f16, i32, u32, u8, i8) for '" + p.name + "'", token);
    std::size_t count;
    token = in.next();
    if (!parse_number(token, count))
      in.fail("an element count for '" + p.name + "'", token);
    file.arrays.emplace_back();
    parse_values(in, p.name, p.elem, count, file.arrays.back());
    file.names.push_back(p.name);
    file.elems.push_back(p.elem);
    file.counts.push_back(count);
  }
  return file;
}

void check_output_layout(const Problem &problem, const OutputFile &file, const std::string &path) {
  if (file.problem != problem.name)
    throw InputError(path + ": expected problem '" + problem.name + "', found '" + file.problem +
                     "'");
  std::size_t k = 0;
  for (const Param &p : problem.params) {
    if (p.role != Role::out && p.role != Role::inout)
      continue;
    if (k == file.names.size() || file.names[k] != p.name || file.elems[k] != p.elem)
      throw InputError(
          path + ": expected array '" + p.name + " " + elem_name(p.elem) + "' as output " +
          std::to_string(k + 1) +
          (k < file.names.size() ? ", found '" + file.names[k] + "'" : ", found end of file"));
    ++k;
  }
  if (k != file.names.size())
    throw InputError(path + ": unexpected extra array '" + file.names[k] + "'");
}

void write_input(const Problem &problem, const Case &c, std::FILE *out) {
  std::fprintf(out, "problem %s\n", problem.name.c_str());
  for (std::size_t i = 0; i < problem.params.size(); ++i) {
    const Param &p = problem.params[i];
    if (p.role == Role::scalar)
      std::fprintf(out, "%s = %s\n", p.name.c_str(), scalar_text(p, c.scalars[i]).c_str());
    else if (p.role != Role::out)
      write_array(out, p, c.arrays[i]);
  }
}

void write_output(const Problem &problem, const Case &c, std::FILE *out) {
  std::fprintf(out, "problem %s\n", problem.name.c_str());
  for (std::size_t i = 0; i < problem.params.size(); ++i) {
    const Param &p = problem.params[i];
    if (p.role == Role::out || p.role == Role::inout)
      write_array(out, p, c.arrays[i]);
  }
}

} // namespace kit::basics
