// prefix_sum: `./prefix_sum <input_file>` prints the inclusive scan of N int32 values (two's
// complement wrap-around), one line, like the official skeleton.
#include "io/text_format.h"
#include "program/values_program.h"
#include "reference.h"
#include "small_input_limits.h"
#include "solve.h"

int main(int argc, char **argv) {
  kit::io::ValuesProgram<kit::io::Int32Values> program;
  program.max_count = 1000000000; // N <= 1e9 (CONTEST.md)
  program.solve = solve;
  program.preload_gpu_code = preload_gpu_code;
  program.reference = prefix_sum_reference;
  program.small_input = kSmallInputLimits; // small_input_limits.h
  program.format = kit::io::format_int32;
  program.max_value_chars = kit::io::kMaxInt32Chars;
  return kit::io::run_values_program(argc, argv, program);
}
