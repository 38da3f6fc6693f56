// The basics case format: a problem's arguments as text, one record per `solve` parameter.
//
//   # comments run from '#' to the end of the line
//   problem vector_add
//   A f32 4              <- array record: name, element type (f32 f16 i32 u32 u8 i8), count
//   1 2.5 -3 4           <- then exactly `count` values, split into lines at will
//   B f32 4
//   5 6 7 8
//   N = 4                <- scalar record: an int, or a float for a float parameter (lo = -51.24)
//
// A `.in` file holds the scalars and the input and in-place arrays in solve's parameter order
// (scalars may come anywhere in it); a `.out` file holds the output and in-place arrays after
// the call. Floats, in arrays and scalars, are written in the shortest form that reads back to the
// same float, so a file round-trips bit for bit.
#pragma once

#include "problem.h"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace kit::basics {

// Bad input: the message names the file, the line, what was expected and what was found.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The arrays of a `.out` file, whatever their sizes (comparison checks them).
struct OutputFile {
  std::string problem;
  std::vector<std::string> names;
  std::vector<Elem> elems;
  std::vector<std::vector<unsigned char>> arrays;
  std::vector<std::size_t> counts;
};

// Reads and validates a `.in` file: names and types as the problem declares, scalars in range,
// array counts consistent with the scalars. Throws InputError.
Case read_input(const Problem &problem, const std::string &path);
// Reads a `.out` file of any problem (its name is in `problem`). Throws InputError.
OutputFile read_output(const std::string &path);
// Checks that a `.out` file has the problem's output arrays in order; throws InputError.
void check_output_layout(const Problem &problem, const OutputFile &file, const std::string &path);

void write_input(const Problem &problem, const Case &c, std::FILE *out);
void write_output(const Problem &problem, const Case &c, std::FILE *out);

} // namespace kit::basics
