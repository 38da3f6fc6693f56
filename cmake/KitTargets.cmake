# Helpers that every folder uses to declare programs and tests, so that backend handling
# (which sources are compiled, in which language, with which labels) is written once.
#
#   kit_add_program(<name> HOST_SOURCES ... CPU_SOURCES ... GPU_SOURCES ... [LIBRARIES ...])
#       A contest/benchmark executable in <build>/bin. HOST_SOURCES are always compiled (C++);
#       the CPU backend adds CPU_SOURCES, a GPU backend adds GPU_SOURCES (kernel files, compiled
#       as CUDA or HIP, once, into the object library <name>_gpu_objects that the problem's
#       tests and benchmarks link as well). Without GPU_SOURCES a GPU backend does not build the
#       program at all: there are no placeholder kernels.
#   kit_add_gpu_test(<name> SOURCES ... [HOST_SOURCES ...] [LIBRARIES ...] [ARGS ...] [TIMEOUT s])
#       A GPU test (label `gpu`), built only by GPU backends. SOURCES are compiled as CUDA or HIP;
#       HOST_SOURCES as C++, for a test whose GPU code is all in its LIBRARIES (a host main is
#       several times cheaper to compile as C++, once per test). It exits 77 to SKIP when no GPU
#       is present (kit::test::begin_gpu_test()).
#   kit_add_benchmark(<name> SOURCES ... [LIBRARIES ...])
#       A benchmark (not a test) in <build>/bin, built by GPU backends, SOURCES compiled as CUDA or
#       HIP. Not under the MI100 persona, where what it would time is the NVIDIA GPU.
#   kit_add_host_test(<name> SOURCES ... [LIBRARIES ...])
#       A host unit test on GoogleTest, built when GoogleTest is found (label `host`).
#   kit_gpu_sources(<files...>)
#       Marks kernel files for the selected GPU language.

include(CMakeParseArguments)

find_package(GTest QUIET)
if(GTest_FOUND)
  message(STATUS "GoogleTest found: host unit tests enabled")
else()
  message(STATUS "GoogleTest not found: host unit tests are not built")
endif()

function(kit_gpu_sources)
  if(KIT_GPU_LANGUAGE STREQUAL "HIP")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE HIP)
  elseif(KIT_GPU_LANGUAGE STREQUAL "CUDA")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()

function(kit_add_program name)
  cmake_parse_arguments(P "" "" "HOST_SOURCES;CPU_SOURCES;GPU_SOURCES;LIBRARIES" ${ARGN})
  # The submission exporter (cmake/KitExport.cmake) inlines what a program is made of; record it
  # on every backend, before the GPU-without-kernel early return below.
  if(COMMAND _kit_export_record_program)
    _kit_export_record_program(${name} "${CMAKE_CURRENT_SOURCE_DIR}" "${P_HOST_SOURCES}"
                               "${P_CPU_SOURCES}" "${P_GPU_SOURCES}" "${P_LIBRARIES}")
  endif()
  set(sources ${P_HOST_SOURCES})
  set(libraries kit::common ${P_LIBRARIES})
  if(KIT_GPU)
    if(NOT P_GPU_SOURCES)
      message(STATUS "${name}: no GPU kernel yet, not built for ${KIT_BACKEND}")
      return()
    endif()
    # The kernels are compiled once, as <name>_gpu_objects, which the problem's GPU test and
    # benchmark link too.
    kit_gpu_sources(${P_GPU_SOURCES})
    add_library(${name}_gpu_objects OBJECT ${P_GPU_SOURCES})
    target_link_libraries(${name}_gpu_objects PRIVATE kit::common)
    list(APPEND libraries ${name}_gpu_objects)
  else()
    list(APPEND sources ${P_CPU_SOURCES})
  endif()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE ${libraries})
endfunction()

# COOPERATIVE_FALLBACK: the code under test launches cooperatively; two more tests run the same
# binary with every cooperative launch failing (gpu/launch.h): <name>_cooperative_refused with
# KIT_FAIL_COOPERATIVE_LAUNCH=1 (the runtime refuses each launch), <name>_cooperative_silent with
# KIT_FAIL_COOPERATIVE_LAUNCH=silent (each launch reports success and never runs, as on an older
# ROCm runtime: the start-up probe must see it). The non-cooperative fallbacks must give the same
# answers.
function(kit_add_gpu_test name)
  cmake_parse_arguments(T "COOPERATIVE_FALLBACK" "TIMEOUT" "SOURCES;HOST_SOURCES;LIBRARIES;ARGS"
                        ${ARGN})
  if(NOT KIT_GPU)
    return()
  endif()
  kit_gpu_sources(${T_SOURCES})
  add_executable(${name} ${T_SOURCES} ${T_HOST_SOURCES})
  target_link_libraries(${name} PRIVATE kit::common ${T_LIBRARIES})
  add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT ${T_TIMEOUT})
  if(T_COOPERATIVE_FALLBACK)
    foreach(fault refused:1 silent:silent)
      string(REPLACE ":" ";" fault "${fault}")
      list(GET fault 0 how)
      list(GET fault 1 value)
      add_test(NAME ${name}_cooperative_${how} COMMAND ${name} ${T_ARGS})
      set_tests_properties(${name}_cooperative_${how} PROPERTIES
        LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT ${T_TIMEOUT}
        ENVIRONMENT KIT_FAIL_COOPERATIVE_LAUNCH=${value})
    endforeach()
  endif()
endfunction()

function(kit_add_benchmark name)
  cmake_parse_arguments(B "" "" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT KIT_GPU OR KIT_PERSONA)
    return()
  endif()
  kit_gpu_sources(${B_SOURCES})
  add_executable(${name} ${B_SOURCES})
  target_link_libraries(${name} PRIVATE kit::common ${B_LIBRARIES})
endfunction()

function(kit_add_host_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT GTest_FOUND)
    return()
  endif()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE kit::common ${T_LIBRARIES} GTest::gtest_main)
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS host TIMEOUT ${T_TIMEOUT})
endfunction()
