# Runs one command and checks its exit status and output (cmake -P script for CTest).
#   -DCOMMAND=<program> -DARGS=<a|b|c>   the command; arguments separated by '|'
#   -DEXPECT_EXIT=<n>                   required exit status
#   -DSTDOUT_FILE=<path>                stdout goes to this file instead of being captured
#   -DEXPECT_STDOUT=<regex> -DEXPECT_STDERR=<regex> -DEXPECT_EMPTY_STDOUT=ON
#   -DTHEN_COMMAND=<program> -DTHEN_ARGS=<a|b>  a second command that must exit 0 afterwards
# A program that finds no GPU prints "no usable GPU"; this script then prints "SKIP" (the GPU
# tests set SKIP_REGULAR_EXPRESSION on it).
string(REPLACE "|" ";" args "${ARGS}")
if(STDOUT_FILE)
  execute_process(COMMAND ${COMMAND} ${args} RESULT_VARIABLE rc OUTPUT_FILE ${STDOUT_FILE}
                  ERROR_VARIABLE err)
  file(READ ${STDOUT_FILE} out)
else()
  execute_process(COMMAND ${COMMAND} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
endif()
if(err MATCHES "no usable GPU")
  message("SKIP: ${err}")
  return()
endif()
set(report "command: ${COMMAND} ${args}\nexit: ${rc}\nstdout: ${out}\nstderr: ${err}")
if(NOT rc STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit status ${EXPECT_EXIT}\n${report}")
endif()
if(DEFINED EXPECT_STDOUT AND NOT out MATCHES "${EXPECT_STDOUT}")
  message(FATAL_ERROR "stdout does not match '${EXPECT_STDOUT}'\n${report}")
endif()
if(DEFINED EXPECT_STDERR AND NOT err MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "stderr does not match '${EXPECT_STDERR}'\n${report}")
endif()
if(EXPECT_EMPTY_STDOUT AND NOT out STREQUAL "")
  message(FATAL_ERROR "stdout should be empty\n${report}")
endif()
if(THEN_COMMAND)
  string(REPLACE "|" ";" then_args "${THEN_ARGS}")
  execute_process(COMMAND ${THEN_COMMAND} ${then_args} RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2
                  ERROR_VARIABLE err2)
  if(NOT rc2 EQUAL 0)
    message(FATAL_ERROR "${THEN_COMMAND} ${then_args} failed (${rc2}):\n${out2}${err2}")
  endif()
  message("${out2}")
endif()
