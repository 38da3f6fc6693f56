// softmax: `./softmax <input_file>` prints the softmax of N floats, one line, each value printed
// like `std::cout << float` (6 significant digits), as the official skeleton does.
#include "io/text_format.h"
#include "program/values_program.h"
#include "reference.h"
#include "small_input_limits.h"
#include "solve.h"

int main(int argc, char **argv) {
  kit::io::ValuesProgram<kit::io::FloatValues> program;
  program.max_count = 100000000; // N <= 1e8 (CONTEST.md)
  program.solve = solve;
  program.preload_gpu_code = preload_gpu_code;
  program.reference = softmax_reference;
  program.small_input = kSmallInputLimits; // small_input_limits.h
  program.format = kit::io::format_float_g6;
  program.max_value_chars = kit::io::kMaxFloatChars;
  return kit::io::run_values_program(argc, argv, program);
}
