// The frame every contest program shares: argument check, input mapping, and the conversion of
// failures into one line on stderr and the kit's exit codes. Nothing reaches stdout before the
// input has been read completely, so a rejected input leaves stdout empty.
#pragma once

#include "io/mapped_file.h"
#include "io/text_parse.h"

#include <functional>

namespace kit::io {

constexpr int kExitUsage = 1;
// The input is not a valid instance: InputError (with file:line:column) or FileError (missing,
// unreadable, empty).
constexpr int kExitBadInput = 2;
// 3 is kit::gpu::kGpuFailureExitCode (gpu/check.h): a GPU runtime call failed.
// The input is valid but the machine failed: writing the output (OutputError), or host memory
// (HostMemoryError, host_memory.h, or std::bad_alloc).
constexpr int kExitSystemFailure = 4;

// Checks `argc == 2` (otherwise prints "Usage: <argv0> <input_file>" and returns kExitUsage),
// maps argv[1] and calls body(file) (which may release() the file once it is parsed). Returns the
// process exit code: 0, or the code of the failure after printing it on one line (InputError with
// file:line:column, FileError and a malformed setting (SettingError): kExitBadInput; OutputError,
// HostMemoryError and std::bad_alloc: kExitSystemFailure).
int run_contest_program(int argc, char **argv, const std::function<void(MappedFile &)> &body);

// One warning line on stderr for tokens after the `announced` ones (nothing when there are none):
// "<path>:<line>:<column> (byte <offset>): warning: ignored <k> token(s) after the <announced>
// <what>s, from '<first>' on". The answer is still printed and the exit code stays 0.
void warn_trailing_tokens(const MappedFile &file, const TrailingTokens &trailing,
                          std::size_t announced, const std::string &what);

} // namespace kit::io
