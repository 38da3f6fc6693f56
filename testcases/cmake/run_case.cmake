# ctest helper: runs PROGRAM on INPUT with stdout to OUTPUT, then `VERIFY MODE OUTPUT EXPECTED`.
# Optional ENV_THREADS sets KIT_THREADS for the program.
if(DEFINED ENV_THREADS)
  set(ENV{KIT_THREADS} ${ENV_THREADS})
endif()
execute_process(COMMAND ${PROGRAM} ${INPUT} OUTPUT_FILE ${OUTPUT} ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} ${INPUT} exited with ${rc}: ${err}")
endif()
execute_process(COMMAND ${VERIFY} ${MODE} ${OUTPUT} ${EXPECTED} OUTPUT_VARIABLE out
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "verify ${MODE} failed (${rc}): ${out}${err}")
endif()
file(REMOVE ${OUTPUT})
