# Test declarations shared by the problem folders (included from <problem>/tests/CMakeLists.txt).
include_guard(GLOBAL)

# Every committed testcases/<problem>/<n>.in through the program and `verify <mode>`.
function(kit_add_committed_case_tests problem mode)
  file(GLOB inputs ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${problem}/*.in)
  foreach(input ${inputs})
    get_filename_component(number ${input} NAME_WE)
    add_test(NAME ${problem}_case_${number}
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${problem}> -DINPUT=${input}
                     -DEXPECTED=${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${problem}/${number}.out -DMODE=${mode}
                     -DVERIFY=$<TARGET_FILE:verify>
                     -DOUTPUT=${CMAKE_CURRENT_BINARY_DIR}/case_${number}.got
                     -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/run_case.cmake)
    set_tests_properties(${problem}_case_${number} PROPERTIES LABELS cases)
  endforeach()
endfunction()

# A case generated into the build tree by `gen` (a fixture), then run with each thread count.
#   kit_add_generated_case_test(<problem> <mode> <name> THREADS 1 2 ... GEN <gen arguments>)
function(kit_add_generated_case_test problem mode name)
  cmake_parse_arguments(G "" "" "THREADS;GEN" ${ARGN})
  set(prefix ${CMAKE_CURRENT_BINARY_DIR}/generated_${name})
  add_test(NAME ${problem}_gen_${name} COMMAND gen ${problem} ${G_GEN} ${prefix})
  set_tests_properties(${problem}_gen_${name} PROPERTIES FIXTURES_SETUP ${problem}_${name}
                       LABELS cases TIMEOUT 300)
  if(NOT G_THREADS)
    set(G_THREADS default)
  endif()
  foreach(threads ${G_THREADS})
    set(test ${problem}_generated_${name}_threads_${threads})
    set(env_arg "")
    if(NOT threads STREQUAL "default")
      set(env_arg -DENV_THREADS=${threads})
    endif()
    add_test(NAME ${test}
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${problem}> -DINPUT=${prefix}.in
                     -DEXPECTED=${prefix}.out -DMODE=${mode} -DVERIFY=$<TARGET_FILE:verify>
                     -DOUTPUT=${prefix}.got_${threads} ${env_arg}
                     -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/run_case.cmake)
    set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED ${problem}_${name} LABELS cases
                         TIMEOUT 300)
  endforeach()
endfunction()

# kit_read_small_input_limits(<header> <contest_var> <fastest_var>): the limits a problem's
# small_input_limits.h defines (`SmallInputLimits kSmallInputLimits{<contest>, <fastest>};`, the
# one place they are written), checked 0 < contest < fastest; editing the header reconfigures.
function(kit_read_small_input_limits header contest_var fastest_var)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${header})
  file(STRINGS ${header} definitions REGEX "kSmallInputLimits")
  list(LENGTH definitions lines)
  set(number "([0-9][0-9']*)[uUlL]*")
  if(NOT lines EQUAL 1 OR NOT definitions MATCHES
     "SmallInputLimits kSmallInputLimits *{ *${number} *, *${number} *}")
    message(FATAL_ERROR "${header}: expected one line defining "
                        "`SmallInputLimits kSmallInputLimits{<contest>, <fastest>};`")
  endif()
  string(REPLACE "'" "" contest "${CMAKE_MATCH_1}")
  string(REPLACE "'" "" fastest "${CMAKE_MATCH_2}")
  if(contest EQUAL 0 OR NOT contest LESS fastest)
    message(FATAL_ERROR "${header}: the limits ${contest}, ${fastest}: expected "
                        "0 < contest < fastest")
  endif()
  set(${contest_var} ${contest} PARENT_SCOPE)
  set(${fastest_var} ${fastest} PARENT_SCOPE)
endfunction()

# The small-input policy (common/program/small_input.h), on cases generated at the limits that
# <problem>/small_input_limits.h (next to the program's main.cpp) defines:
#   kit_add_small_input_tests(<problem> <mode> GEN <family> [EDGES_PER_VERTEX <k>])
# Three sizes: the contest-mode limit (N, or V for apsp), one above it, and a mid size above it
# that the fastest mode answers on the CPU (ten times the contest limit, or the fastest limit where
# that is lower: large enough to tell the modes apart, small enough to generate quickly). GPU
# builds run the programs with every GPU hidden from the runtimes, so a case answered on the CPU
# passes only if the runtime was never started, and a case sent to the GPU must fail with exit 3
# naming the start-up call: the tests mean the same on machines with and without a GPU. On every
# backend a malformed KIT_SMALL_INPUT is an error.
function(kit_add_small_input_tests problem mode)
  cmake_parse_arguments(S "" "GEN;EDGES_PER_VERTEX" "" ${ARGN})
  set(here ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  get_target_property(program_dir ${problem} SOURCE_DIR)
  kit_read_small_input_limits(${program_dir}/small_input_limits.h contest fastest)
  add_test(NAME ${problem}_small_input_bad_setting
           COMMAND ${CMAKE_COMMAND}
                   "-DCOMMAND=${CMAKE_COMMAND};-E;env;KIT_SMALL_INPUT=fast;$<TARGET_FILE:${problem}>;${here}/${problem}/1.in"
                   -DEXIT_CODE=2 "-DSTDERR_REGEX=^KIT_SMALL_INPUT='fast': expected contest, fastest or off\n$"
                   -P ${here}/cmake/expect_run.cmake)
  set_tests_properties(${problem}_small_input_bad_setting PROPERTIES LABELS small_input)
  if(NOT KIT_GPU)
    return()
  endif()

  math(EXPR above "${contest} + 1")
  math(EXPR mid "${contest} * 10")
  if(mid GREATER fastest)
    set(mid ${fastest})
  endif()
  set(sizes at_limit ${contest} above_limit ${above} mid_size ${mid})
  while(sizes)
    list(POP_FRONT sizes name size)
    set(prefix_${name} ${CMAKE_CURRENT_BINARY_DIR}/small_input_${name})
    set(gen_args ${problem} ${S_GEN} ${size})
    if(S_EDGES_PER_VERTEX)
      math(EXPR edges "${size} * ${S_EDGES_PER_VERTEX}")
      list(APPEND gen_args ${edges})
    endif()
    add_test(NAME ${problem}_small_input_gen_${name} COMMAND gen ${gen_args} 7 ${prefix_${name}})
    set_tests_properties(${problem}_small_input_gen_${name} PROPERTIES
                         FIXTURES_SETUP ${problem}_small_input_${name} LABELS small_input)
  endwhile()

  set(hidden ${CMAKE_COMMAND} -E env CUDA_VISIBLE_DEVICES=-1 HIP_VISIBLE_DEVICES=-1
             ROCR_VISIBLE_DEVICES=-1)
  set(gpu_start_failed "(CUDA error: cuda|HIP error: hip)Free\\(nullptr\\) \\(GPU runtime start-up")
  # answered_on_cpu(<test> <case> <env...>): the right answer, with no GPU to start.
  # starts_gpu(<test> <case> <env...>): exit 3 from the runtime's start-up.
  macro(answered_on_cpu test case)
    add_test(NAME ${test}
             COMMAND ${CMAKE_COMMAND} "-DPROGRAM=${hidden};${ARGN};$<TARGET_FILE:${problem}>"
                     -DINPUT=${prefix_${case}}.in -DEXPECTED=${prefix_${case}}.out -DMODE=${mode}
                     -DVERIFY=$<TARGET_FILE:verify> -DOUTPUT=${prefix_${case}}.${test}.got
                     -P ${here}/cmake/run_case.cmake)
    set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED ${problem}_small_input_${case}
                         LABELS small_input)
  endmacro()
  macro(starts_gpu test case)
    add_test(NAME ${test}
             COMMAND ${CMAKE_COMMAND}
                     "-DCOMMAND=${hidden};${ARGN};$<TARGET_FILE:${problem}>;${prefix_${case}}.in"
                     -DEXIT_CODE=3 "-DSTDERR_REGEX=${gpu_start_failed}"
                     -P ${here}/cmake/expect_run.cmake)
    set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED ${problem}_small_input_${case}
                         LABELS small_input)
  endmacro()

  # The build's own mode, with no setting in the environment.
  if(KIT_SMALL_INPUT STREQUAL "off")
    starts_gpu(${problem}_small_input_default_mode_at_limit at_limit)
  else()
    answered_on_cpu(${problem}_small_input_default_mode_at_limit at_limit)
  endif()
  if(KIT_SMALL_INPUT STREQUAL "fastest")
    answered_on_cpu(${problem}_small_input_default_mode_above_limit above_limit)
  else()
    starts_gpu(${problem}_small_input_default_mode_above_limit above_limit)
  endif()
  # Each mode chosen at run time, whatever the build's.
  answered_on_cpu(${problem}_small_input_contest_at_limit at_limit KIT_SMALL_INPUT=contest)
  starts_gpu(${problem}_small_input_contest_above_limit above_limit KIT_SMALL_INPUT=contest)
  answered_on_cpu(${problem}_small_input_fastest_mid_size mid_size KIT_SMALL_INPUT=fastest)
  starts_gpu(${problem}_small_input_off_at_limit at_limit KIT_SMALL_INPUT=off)
  starts_gpu(${problem}_small_input_force_gpu_at_limit at_limit KIT_SMALL_INPUT=fastest
             KIT_FORCE_GPU=1)
  answered_on_cpu(${problem}_small_input_max_override mid_size KIT_SMALL_INPUT=contest
                  KIT_SMALL_INPUT_MAX=${mid})
endfunction()

# A bad input: the program must exit 2 with one line on stderr matching `regex` (the message
# names the file and position) and print nothing on stdout. CONTENT is written verbatim.
function(kit_add_bad_input_test problem name content regex)
  set(input ${CMAKE_CURRENT_BINARY_DIR}/bad_${name}.in)
  file(WRITE ${input} "${content}")
  add_test(NAME ${problem}_bad_${name}
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:${problem}>;${input}" -DEXIT_CODE=2
                   "-DSTDERR_REGEX=${regex}" -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/expect_run.cmake)
  set_tests_properties(${problem}_bad_${name} PROPERTIES LABELS bad_input)
endfunction()

# A bad header announcing far more than the file holds: the program must reject `content` with
# exit 2 and one line matching `regex`, in under a second and under 64 MB of peak resident memory
# (measured by run_timed), whatever count the header announces. CPU backend only: a GPU build starts
# the GPU runtime for such a count, whose own footprint is far larger.
function(kit_add_bad_header_footprint_test problem name content regex)
  if(KIT_GPU)
    return()
  endif()
  set(input ${CMAKE_CURRENT_BINARY_DIR}/footprint_${name}.in)
  file(WRITE ${input} "${content}")
  add_test(NAME ${problem}_footprint_${name}
           COMMAND ${CMAKE_COMMAND} -DRUN_TIMED=$<TARGET_FILE:run_timed>
                   -DPROGRAM=$<TARGET_FILE:${problem}> -DINPUT=${input}
                   -DOUTPUT=${CMAKE_CURRENT_BINARY_DIR}/footprint_${name}.got -DEXIT_CODE=2
                   "-DSTDERR_REGEX=${regex}" -DMAX_SECONDS=1 -DMAX_RSS_MB=64
                   -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/expect_footprint.cmake)
  set_tests_properties(${problem}_footprint_${name} PROPERTIES LABELS "bad_input;memory")
endfunction()

# Usage errors and unusable files, common to the three programs.
function(kit_add_program_usage_tests problem)
  add_test(NAME ${problem}_usage_no_argument
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:${problem}>" -DEXIT_CODE=1
                   "-DSTDERR_REGEX=^Usage: .*${problem} <input_file>"
                   -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/expect_run.cmake)
  add_test(NAME ${problem}_usage_two_arguments
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:${problem}>;a;b" -DEXIT_CODE=1
                   "-DSTDERR_REGEX=^Usage: " -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/expect_run.cmake)
  set(missing ${CMAKE_CURRENT_BINARY_DIR}/does_not_exist.in)
  add_test(NAME ${problem}_bad_missing_file
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:${problem}>;${missing}"
                   -DEXIT_CODE=2 "-DSTDERR_REGEX=does_not_exist.in: cannot open: No such file"
                   -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/expect_run.cmake)
  add_test(NAME ${problem}_bad_directory
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:${problem}>;${CMAKE_CURRENT_BINARY_DIR}"
                   -DEXIT_CODE=2 "-DSTDERR_REGEX=cannot read: Is a directory"
                   -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/expect_run.cmake)
  set_tests_properties(${problem}_usage_no_argument ${problem}_usage_two_arguments
                       ${problem}_bad_missing_file ${problem}_bad_directory
                       PROPERTIES LABELS bad_input)
  kit_add_bad_input_test(${problem} empty_file "" "bad_empty_file.in: the file is empty")
  kit_add_bad_input_test(${problem} blank_file "  \n\n" "bad_blank_file.in:3:1 \\(byte 4\\): expected the (value|vertex) count .*, found end of file")
endfunction()

# An input the program must accept: exit 0, stdout matching `stdout_regex`, and stderr empty or,
# with STDERR_REGEX, matching it (a warning such as the one for tokens after the announced ones).
#   kit_add_accepted_input_test(<problem> <name> <content> <stdout_regex> [STDERR_REGEX <regex>])
function(kit_add_accepted_input_test problem name content stdout_regex)
  cmake_parse_arguments(A "" "STDERR_REGEX" "" ${ARGN})
  if(NOT DEFINED A_STDERR_REGEX)
    set(A_STDERR_REGEX "^$")
  endif()
  set(input ${CMAKE_CURRENT_BINARY_DIR}/ok_${name}.in)
  file(WRITE ${input} "${content}")
  add_test(NAME ${problem}_accepts_${name}
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:${problem}>;${input}" -DEXIT_CODE=0
                   "-DSTDOUT_REGEX=${stdout_regex}" "-DSTDERR_REGEX=${A_STDERR_REGEX}"
                   -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cmake/expect_run.cmake)
  set_tests_properties(${problem}_accepts_${name} PROPERTIES LABELS bad_input)
endfunction()
