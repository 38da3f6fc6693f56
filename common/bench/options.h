// Command-line options of the benchmarks, declared once per program:
//
//   std::vector<std::size_t> sizes = {1000000, 100000000};
//   bool variants = false;
//   kit::bench::Options options("bench_softmax", "measures every method against a copy");
//   options.sizes("--sizes", &sizes, "N,N,... (1e8 notation accepted)")
//       .flag("--variants", &variants, "also time the alternatives the default was chosen from");
//   options.parse(argc, argv);
//
// A bad option prints "<program>: <what is wrong>" and the usage on stderr and exits with 2;
// --help prints the usage and exits with 0. Sizes are decimal integers or exact powers-of-ten
// notation ("1e8", "2.5e6").
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kit::bench {

// "1e8", "2.5e6" or "100000000" as an exact count; false for anything else (a fraction, a sign,
// an overflow).
inline bool parse_size(const std::string &text, std::size_t *value) {
  if (text.empty() || text[0] < '0' || text[0] > '9')
    return false;
  errno = 0;
  char *end = nullptr;
  const long double v = std::strtold(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || v < 0 || v > 1.8e19L ||
      v != static_cast<long double>(static_cast<unsigned long long>(v)))
    return false;
  *value = static_cast<std::size_t>(v);
  return true;
}

class Options {
public:
  Options(std::string program, std::string purpose)
      : program_(std::move(program)), purpose_(std::move(purpose)) {}

  Options &flag(const char *name, bool *target, const char *help) {
    add(name, "", help, false, [target](const std::string &) {
      *target = true;
      return true;
    });
    return *this;
  }
  Options &text(const char *name, std::string *target, const char *metavar, const char *help) {
    add(name, metavar, help, true, [target](const std::string &v) {
      *target = v;
      return true;
    });
    return *this;
  }
  Options &size(const char *name, std::size_t *target, const char *help) {
    add(name, "N", help, true, [target](const std::string &v) { return parse_size(v, target); });
    return *this;
  }
  // A comma-separated list; replaces the default list.
  Options &sizes(const char *name, std::vector<std::size_t> *target, const char *help) {
    add(name, "N,N,...", help, true, [target](const std::string &v) {
      std::vector<std::size_t> list;
      std::size_t start = 0;
      while (start <= v.size()) {
        const std::size_t comma = std::min(v.find(',', start), v.size());
        std::size_t n = 0;
        if (!parse_size(v.substr(start, comma - start), &n))
          return false;
        list.push_back(n);
        start = comma + 1;
      }
      *target = list;
      return true;
    });
    return *this;
  }
  // Arguments that are not options, each checked by `accept` (which stores it); `metavar` names
  // them in the usage.
  Options &positional(const char *metavar, std::function<bool(const std::string &)> accept) {
    positional_metavar_ = metavar;
    positional_ = std::move(accept);
    return *this;
  }

  void parse(int argc, char **argv) const {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        print_usage(stdout);
        std::exit(0);
      }
      const Option *option = find(arg);
      if (!option) {
        if (arg.rfind("-", 0) == 0 || !positional_ || !positional_(arg))
          fail("unexpected argument '" + arg + "'");
        continue;
      }
      std::string value;
      if (option->takes_value) {
        if (i + 1 >= argc)
          fail(arg + " needs a value (" + option->metavar + ")");
        value = argv[++i];
      }
      if (!option->apply(value))
        fail(arg + ": '" + value + "' is not " + option->metavar);
    }
  }

private:
  struct Option {
    std::string name, metavar, help;
    bool takes_value;
    std::function<bool(const std::string &)> apply;
  };

  void add(const char *name, const char *metavar, const char *help, bool takes_value,
           std::function<bool(const std::string &)> apply) {
    options_.push_back({name, metavar, help, takes_value, std::move(apply)});
  }
  const Option *find(const std::string &name) const {
    for (const Option &o : options_)
      if (o.name == name)
        return &o;
    return nullptr;
  }
  [[noreturn]] void fail(const std::string &what) const {
    std::fprintf(stderr, "%s: %s\n", program_.c_str(), what.c_str());
    print_usage(stderr);
    std::exit(2);
  }
  void print_usage(std::FILE *out) const {
    std::fprintf(out, "usage: %s [options]%s%s\n%s\n", program_.c_str(), positional_ ? " " : "",
                 positional_ ? positional_metavar_.c_str() : "", purpose_.c_str());
    for (const Option &o : options_)
      std::fprintf(out, "  %s%s%s\n      %s\n", o.name.c_str(), o.takes_value ? " " : "",
                   o.metavar.c_str(), o.help.c_str());
  }

  std::string program_, purpose_;
  std::vector<Option> options_;
  std::string positional_metavar_;
  std::function<bool(const std::string &)> positional_;
};

} // namespace kit::bench
