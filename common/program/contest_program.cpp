#include "program/contest_program.h"

#include "io/host_memory.h"
#include "io/input_error.h"
#include "program/small_input.h"

#include <cstdio>
#include <new>
#include <string>

namespace kit::io {

int run_contest_program(int argc, char **argv, const std::function<void(MappedFile &)> &body) {
  if (argc != 2) {
    std::fprintf(stderr, "Usage: %s <input_file>\n", argc > 0 ? argv[0] : "program");
    return kExitUsage;
  }
  const std::string path = argv[1];
  try {
    MappedFile file(path);
    try {
      body(file);
    } catch (const InputError &error) {
      std::fprintf(
          stderr, "%s\n",
          locate_message(path, file.data(), file.size(), error.offset(), error.what()).c_str());
      return kExitBadInput;
    }
  } catch (const FileError &error) {
    std::fprintf(stderr, "%s\n", error.what());
    return kExitBadInput;
  } catch (const SettingError &error) {
    std::fprintf(stderr, "%s\n", error.what());
    return kExitBadInput;
  } catch (const OutputError &error) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.what());
    return kExitSystemFailure;
  } catch (const kit::HostMemoryError &error) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.what());
    return kExitSystemFailure;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "%s: out of host memory\n", path.c_str());
    return kExitSystemFailure;
  }
  return 0;
}

void warn_trailing_tokens(const MappedFile &file, const TrailingTokens &trailing,
                          std::size_t announced, const std::string &what) {
  if (trailing.count == 0)
    return;
  const std::string message = "warning: ignored " + std::to_string(trailing.count) +
                              (trailing.count == 1 ? " token" : " tokens") + " after the " +
                              std::to_string(announced) + " " + what + "s, from " + trailing.first +
                              " on";
  std::fprintf(
      stderr, "%s\n",
      locate_message(file.path(), file.data(), file.size(), trailing.offset, message).c_str());
}

} // namespace kit::io
