// The whole of a "N, then N numbers in, N numbers out" contest program (prefix_sum, softmax):
// read the header, start the GPU runtime in the background (unless the input is small enough for
// the CPU reference, small_input.h), read the values in parallel, call the contest's solve() (or
// the reference), write one line.
#pragma once

#include "io/text_parse.h"
#include "io/text_writer.h"
#include "program/contest_program.h"
#include "program/gpu_warmup.h"
#include "program/phase_timer.h"
#include "program/small_input.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <unistd.h>

namespace kit::io {

// How a program reads, solves and prints its values.
template <class Kind> struct ValuesProgram {
  using T = typename Kind::value_type;
  std::int64_t max_count; // the contest's limit on N
  // Both are called in place (input == output), which every implementation must allow.
  void (*solve)(const T *input, T *output, int n);
  // The CPU reference: the whole answer on the CPU backend, and in GPU builds for inputs within
  // the small-input limits (small_input.h; each problem's README, "Small inputs").
  void (*reference)(const T *input, T *output, std::size_t n);
  // Loads the GPU code solve() runs, on the warm-up thread (gpu_warmup.h); null: nothing.
  void (*preload_gpu_code)() = nullptr;
  SmallInputLimits small_input;
  char *(*format)(char *out, T value);
  int max_value_chars; // longest formatted value
};

// Writes the values like the official skeleton: each one followed by a space, then a newline.
template <class T, class Format>
void write_values_line(OrderedWriter &writer, const T *values, std::size_t count, int max_chars,
                       Format format) {
  writer.write_items(count, static_cast<std::size_t>(max_chars) + 2,
                     [&](std::size_t first, std::size_t last, char *out) {
                       for (std::size_t i = first; i < last; ++i) {
                         out = format(out, values[i]);
                         *out++ = ' ';
                       }
                       if (last == count)
                         *out++ = '\n';
                       return out;
                     });
}

template <class Kind>
int run_values_program(int argc, char **argv, const ValuesProgram<Kind> &program) {
  using T = typename Kind::value_type;
  return run_contest_program(argc, argv, [&](MappedFile &file) {
    PhaseTimer timer;
    const char *cursor = file.data();
    const std::size_t n = static_cast<std::size_t>(parse_header_integer(
        file.data(), file.end(), &cursor, "the value count N", 1, program.max_count));
    const bool on_cpu = answer_small_input_on_cpu(n, program.small_input);
    timer.path(on_cpu || !built_for_gpu() ? "cpu" : "gpu");
    GpuWarmup warmup;
    if (!on_cpu)
      warmup.start(program.preload_gpu_code);
    timer.mark("header");
    ThreadPool &pool = default_pool();
    // Uninitialised on purpose: the parse threads touch (and so place) the pages first. Sized by
    // what the file can hold as well as by N: a parse that succeeds has found N values, so then
    // the buffer holds N; an N beyond the file fails in parse_values without reserving N values.
    std::unique_ptr<T[]> input(new T[std::min(n, max_tokens_after(cursor, file.end()))]);
    StoreInto<T> store{input.get(), n};
    const TrailingTokens trailing =
        parse_values<Kind>(file.data(), cursor, file.end(), n, "value", store, pool);
    warn_trailing_tokens(file, trailing, n, "value");
    file.release();
    timer.mark("parse");
    // Answered in place (solve/reference allow input == output): the process holds one binary
    // copy of the data, and no fresh output pages are faulted in while the answer is written.
    if (on_cpu) {
      program.reference(input.get(), input.get(), n);
      timer.mark("CPU reference (small input)");
    } else {
      warmup.finish();
      if (built_for_gpu()) {
        timer.add("GPU start-up (on its own thread)", warmup.startup_ms());
        timer.mark("GPU start-up wait");
      }
      program.solve(input.get(), input.get(), static_cast<int>(n));
      timer.mark("solve");
    }
    OrderedWriter writer(STDOUT_FILENO, pool);
    write_values_line(writer, input.get(), n, program.max_value_chars, program.format);
    timer.mark("output");
  });
}

} // namespace kit::io
