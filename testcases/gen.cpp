// gen: writes a test case <prefix>.in and its expected output <prefix>.out (from the CPU
// reference, printed exactly as the programs print), deterministically from a seed.
//
//   gen prefix_sum <family> <N> <seed> <prefix>     families: random small zeros wrap max
//   gen softmax    <family> <N> <seed> <prefix>     families: random large outlier equal wide
//   gen apsp       <family> <V> <E> <seed> <prefix> families: random empty zero complete chain
//                                                   cycle grid two_parts duplicates
// For apsp, E is the edge count of `random`, `zero`, `two_parts` and `duplicates`; `grid` makes a
// V = R*R grid with right/down edges (E ignored, V must be a square); the others ignore E.
#include "../apsp/graph.h"
#include "../apsp/reference.h"
#include "../prefix_sum/reference.h"
#include "../softmax/reference.h"
#include "io/input_error.h"
#include "io/text_format.h"
#include "io/text_writer.h"
#include "io/threads.h"
#include "testing/random.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <unordered_set>
#include <vector>

namespace {


// A file written through the kit's ordered writer.
class OutputFile {
public:
  explicit OutputFile(const std::string &path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw std::runtime_error("cannot create " + path);
  }
  ~OutputFile() { ::close(fd_); }
  kit::io::OrderedWriter writer() { return kit::io::OrderedWriter(fd_, kit::default_pool()); }
  void text(const std::string &s) { kit::io::write_fully(fd_, s.data(), s.size()); }

private:
  std::string path_;
  int fd_ = -1;
};

template <class T, class Format>
void write_line(OutputFile &file, const std::vector<T> &values, int max_chars, Format format,
                bool trailing_space) {
  file.writer().write_items(values.size(), static_cast<std::size_t>(max_chars) + 2,
                            [&](std::size_t first, std::size_t last, char *out) {
                              for (std::size_t i = first; i < last; ++i) {
                                out = format(out, values[i]);
                                if (trailing_space || i + 1 < values.size())
                                  *out++ = ' ';
                              }
                              if (last == values.size())
                                *out++ = '\n';
                              return out;
                            });
}

std::int64_t to_integer(const char *text, const char *what) {
  std::int64_t v = 0;
  const char *end = text + std::char_traits<char>::length(text);
  auto [stop, ec] = std::from_chars(text, end, v);
  if (ec != std::errc() || stop != end)
    throw std::invalid_argument(std::string(what) + " must be an integer, got '" + text + "'");
  return v;
}

void gen_prefix_sum(const std::string &family, std::int64_t n, kit::Rng &rng,
                    const std::string &prefix) {
  if (n < 1)
    throw std::invalid_argument("N must be >= 1");
  std::vector<int> input(static_cast<std::size_t>(n));
  for (auto &x : input) {
    if (family == "random")
      x = static_cast<int>(rng.uniform_int(-1000, 1000));
    else if (family == "small")
      x = static_cast<int>(rng.uniform_int(-10, 10));
    else if (family == "zeros")
      x = 0;
    else if (family == "max")
      x = 1000;
    else if (family == "wrap") // large values: the running sum wraps past int32 many times
      x = static_cast<int>(rng.uniform_int(-2147483647LL - 1, 2147483647LL) / 2 + 1000000000LL);
    else
      throw std::invalid_argument("unknown prefix_sum family '" + family + "'");
  }
  std::vector<int> output(input.size());
  prefix_sum_reference(input.data(), output.data(), output.size());
  OutputFile in(prefix + ".in");
  in.text(std::to_string(n) + "\n");
  write_line(in, input, kit::io::kMaxInt32Chars, kit::io::format_int32, false);
  OutputFile out(prefix + ".out");
  write_line(out, output, kit::io::kMaxInt32Chars, kit::io::format_int32, true);
}

void gen_softmax(const std::string &family, std::int64_t n, kit::Rng &rng,
                 const std::string &prefix) {
  if (n < 1)
    throw std::invalid_argument("N must be >= 1");
  // Values are k / 1000 printed with 3 decimals, as in the samples; the float is what reading
  // that text gives, so the expected output is computed from exactly what the program reads.
  std::vector<std::int64_t> thousandths(static_cast<std::size_t>(n));
  const std::int64_t outlier_at = rng.uniform_int(0, n - 1);
  const std::int64_t equal_value = rng.uniform_int(-50000, 50000);
  for (std::size_t i = 0; i < thousandths.size(); ++i) {
    std::int64_t &k = thousandths[i];
    if (family == "random")
      k = rng.uniform_int(-50000, 50000);
    else if (family == "large") // exp(1000) overflows float and double: max must be subtracted
      k = rng.uniform_int(900000, 1100000);
    else if (family == "outlier") // one huge value: every other output underflows towards 0
      k = static_cast<std::int64_t>(i) == outlier_at ? 95000 : rng.uniform_int(-5000, 5000);
    else if (family == "equal")
      k = equal_value;
    else if (family == "wide") // differences up to 2000: outputs span normals, denormals, zeros
      k = rng.uniform_int(-1000000, 1000000);
    else
      throw std::invalid_argument("unknown softmax family '" + family + "'");
  }
  std::string text = std::to_string(n) + "\n";
  std::vector<float> input(thousandths.size());
  for (std::size_t i = 0; i < thousandths.size(); ++i) {
    std::int64_t k = thousandths[i];
    char token[32];
    std::snprintf(token, sizeof token, "%s%lld.%03lld", k < 0 ? "-" : "",
                  static_cast<long long>(std::llabs(k) / 1000),
                  static_cast<long long>(std::llabs(k) % 1000));
    std::from_chars(token, token + std::char_traits<char>::length(token), input[i]);
    text += token;
    text += i + 1 < thousandths.size() ? ' ' : '\n';
  }
  std::vector<float> output(input.size());
  softmax_reference(input.data(), output.data(), output.size());
  OutputFile in(prefix + ".in");
  in.text(text);
  OutputFile out(prefix + ".out");
  write_line(out, output, kit::io::kMaxFloatChars, kit::io::format_float_g6, true);
}

Graph make_graph(const std::string &family, std::int64_t v, std::int64_t e, kit::Rng &rng) {
  if (v < 1 || v > kApspMaxVertices)
    throw std::invalid_argument("V must be in [1, 40000]");
  Graph g;
  g.vertices = static_cast<int>(v);
  auto weight = [&] { return static_cast<int>(rng.uniform_int(0, kApspMaxWeight)); };
  auto vertex = [&](std::int64_t lo, std::int64_t hi) {
    return static_cast<int>(rng.uniform_int(lo, hi));
  };
  // E distinct random edges (no self-loops) with sources and destinations in [lo, hi].
  auto distinct_edges = [&](std::int64_t lo, std::int64_t hi, std::int64_t count, bool zero) {
    const std::int64_t n = hi - lo + 1;
    if (count > n * (n - 1))
      throw std::invalid_argument("E exceeds V*(V-1) for this family");
    std::unordered_set<std::uint64_t> used;
    while (count > 0) {
      int s = vertex(lo, hi), d = vertex(lo, hi);
      if (s == d ||
          !used.insert(static_cast<std::uint64_t>(s) << 32 | static_cast<unsigned>(d)).second)
        continue;
      g.edges.push_back(Edge{s, d, zero ? 0 : weight()});
      --count;
    }
  };
  if (family == "random" || family == "zero") {
    distinct_edges(0, v - 1, e, family == "zero");
  } else if (family == "empty") {
  } else if (family == "complete") {
    for (int s = 0; s < v; ++s)
      for (int d = 0; d < v; ++d)
        if (s != d)
          g.edges.push_back(Edge{s, d, weight()});
  } else if (family == "chain" || family == "cycle") {
    for (int s = 0; s + 1 < v; ++s)
      g.edges.push_back(Edge{s, s + 1, weight()});
    if (family == "cycle" && v > 1)
      g.edges.push_back(Edge{static_cast<int>(v - 1), 0, weight()});
  } else if (family == "grid") {
    int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(v))));
    if (static_cast<std::int64_t>(side) * side != v)
      throw std::invalid_argument("grid needs V = R*R");
    for (int r = 0; r < side; ++r)
      for (int c = 0; c < side; ++c) {
        int id = r * side + c;
        if (c + 1 < side)
          g.edges.push_back(Edge{id, id + 1, weight()});
        if (r + 1 < side)
          g.edges.push_back(Edge{id, id + side, weight()});
      }
  } else if (family == "two_parts") { // no edge between the halves: half the pairs unreachable
    std::int64_t half = v / 2;
    distinct_edges(0, half - 1, e / 2, false);
    distinct_edges(half, v - 1, e - e / 2, false);
  } else if (family == "duplicates") { // repeated pairs with different weights, self-loops
    for (std::int64_t i = 0; i < e; ++i) {
      int s = vertex(0, v - 1);
      int d = rng.uniform_int(0, 9) == 0 ? s : vertex(0, v - 1);
      g.edges.push_back(Edge{s, d, weight()});
      if (rng.uniform_int(0, 2) == 0)
        g.edges.push_back(Edge{s, d, weight()});
    }
  } else {
    throw std::invalid_argument("unknown apsp family '" + family + "'");
  }
  return g;
}

void gen_apsp(const std::string &family, std::int64_t v, std::int64_t e, kit::Rng &rng,
              const std::string &prefix) {
  Graph g = make_graph(family, v, e, rng);
  OutputFile in(prefix + ".in");
  in.text(std::to_string(g.vertices) + " " + std::to_string(g.edges.size()) + "\n");
  in.writer().write_items(g.edges.size(), 3 * (kit::io::kMaxInt32Chars + 1),
                          [&](std::size_t first, std::size_t last, char *out) {
                            for (std::size_t i = first; i < last; ++i) {
                              out = kit::io::format_int32(out, g.edges[i].src);
                              *out++ = ' ';
                              out = kit::io::format_int32(out, g.edges[i].dst);
                              *out++ = ' ';
                              out = kit::io::format_int32(out, g.edges[i].weight);
                              *out++ = '\n';
                            }
                            return out;
                          });
  OutputFile out(prefix + ".out");
  kit::io::OrderedWriter writer = out.writer();
  const std::size_t n = static_cast<std::size_t>(g.vertices);
  apsp_reference(g, [&](int, int row_count, const int *rows) {
    writer.write_items(static_cast<std::size_t>(row_count), n * (kit::io::kMaxInt32Chars + 1),
                       [&](std::size_t first, std::size_t last, char *p) {
                         for (std::size_t r = first; r < last; ++r)
                           for (std::size_t j = 0; j < n; ++j) {
                             p = kit::io::format_int32(p, rows[r * n + j]);
                             *p++ = j + 1 < n ? ' ' : '\n';
                           }
                         return p;
                       });
  });
}

int usage(const char *argv0) {
  std::fprintf(stderr,
               "Usage: %s prefix_sum|softmax <family> <N> <seed> <prefix>\n"
               "       %s apsp <family> <V> <E> <seed> <prefix>\n",
               argv0, argv0);
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage(argv[0]);
  const std::string problem = argv[1];
  try {
    if ((problem == "prefix_sum" || problem == "softmax") && argc == 6) {
      kit::Rng rng(static_cast<std::uint64_t>(to_integer(argv[4], "seed")));
      std::int64_t n = to_integer(argv[3], "N");
      if (problem == "prefix_sum")
        gen_prefix_sum(argv[2], n, rng, argv[5]);
      else
        gen_softmax(argv[2], n, rng, argv[5]);
    } else if (problem == "apsp" && argc == 7) {
      kit::Rng rng(static_cast<std::uint64_t>(to_integer(argv[5], "seed")));
      gen_apsp(argv[2], to_integer(argv[3], "V"), to_integer(argv[4], "E"), rng, argv[6]);
    } else {
      return usage(argv[0]);
    }
  } catch (const std::exception &error) {
    std::fprintf(stderr, "gen: %s\n", error.what());
    return 2;
  }
  return 0;
}
