# libFuzzer targets: built with clang++ explicitly (whatever the project compiler), with
# AddressSanitizer, and run for a bounded time as CTest tests (label fuzz), when clang's libFuzzer
# is available; otherwise they are left out with one configure message.
#
#   kit_add_fuzz_test(<name> SOURCES <files...> INCLUDES <dirs...> [ARGS <libFuzzer flags...>])
#       Builds <build>/bin/<name> from SOURCES (absolute paths, or relative to the current source
#       folder) and adds test <name>: 30 s of fuzzing from an empty corpus plus ARGS. A crash,
#       a sanitizer report, a hang (-timeout) or an allocation above -malloc_limit_mb fails it;
#       libFuzzer then writes the input as crash-<hash> in the test's working folder, and that
#       input belongs in a regression test.
include_guard(GLOBAL)

find_program(KIT_FUZZ_CLANG NAMES clang++ clang++-15 clang++-14)
set(KIT_FUZZ_AVAILABLE OFF)
if(KIT_FUZZ_CLANG)
  set(_kit_fuzz_probe ${CMAKE_BINARY_DIR}/fuzz_probe.cpp)
  file(WRITE ${_kit_fuzz_probe}
       "#include <cstdint>\n#include <cstddef>\nextern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND ${KIT_FUZZ_CLANG} -fsanitize=fuzzer,address ${_kit_fuzz_probe} -o
                          ${CMAKE_BINARY_DIR}/fuzz_probe
                  RESULT_VARIABLE _kit_fuzz_rc OUTPUT_QUIET ERROR_QUIET)
  if(_kit_fuzz_rc EQUAL 0)
    set(KIT_FUZZ_AVAILABLE ON)
  endif()
endif()
if(NOT KIT_FUZZ_AVAILABLE)
  message(STATUS "clang++ with libFuzzer not found: the fuzz tests are not built")
endif()

function(kit_add_fuzz_test name)
  cmake_parse_arguments(F "" "" "SOURCES;INCLUDES;ARGS" ${ARGN})
  if(NOT KIT_FUZZ_AVAILABLE)
    return()
  endif()
  set(sources "")
  foreach(source IN LISTS F_SOURCES)
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND sources "${path}")
  endforeach()
  list(TRANSFORM F_INCLUDES PREPEND -I OUTPUT_VARIABLE include_flags)
  set(binary ${CMAKE_BINARY_DIR}/bin/${name})
  add_custom_command(OUTPUT ${binary}
                     COMMAND ${KIT_FUZZ_CLANG} -std=c++17 -O1 -g -fsanitize=fuzzer,address
                             ${include_flags} ${sources} -lpthread -o ${binary}
                     DEPENDS ${sources} COMMENT "Building the fuzz target ${name} with clang")
  add_custom_target(${name} ALL DEPENDS ${binary})
  add_test(NAME ${name} COMMAND ${binary} -max_total_time=30 ${F_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS fuzz TIMEOUT 120)
endfunction()
