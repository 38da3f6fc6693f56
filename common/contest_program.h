// The frame every contest program shares: argument check, input mapping, and the conversion of
// failures into one line on stderr and the kit's exit codes. Nothing reaches stdout before the
// input has been read completely, so a rejected input leaves stdout empty.
#pragma once

#include "mapped_file.h"

#include <functional>

namespace kit::io {

constexpr int kExitUsage = 1;
constexpr int kExitBadInput = 2;
// 3 is kit::gpu::kGpuFailureExitCode (gpu.h).
constexpr int kExitSystemFailure = 4;

// Checks `argc == 2` (otherwise prints "Usage: <argv0> <input_file>" and returns kExitUsage),
// maps argv[1] and calls body(file). Returns the process exit code: 0, or the code of the
// failure after printing it (InputError with file:line:column, FileError, OutputError).
int run_contest_program(int argc, char **argv, const std::function<void(const MappedFile &)> &body);

} // namespace kit::io
