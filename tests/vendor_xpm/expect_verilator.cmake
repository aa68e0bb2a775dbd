# cmake -DVERILATOR=<verilator> -DSOURCES=<a|b|...> -DTOP=<module> [-DARGS=<arg|arg|...>]
#       [-DEXPECT=<regex>] -P expect_verilator.cmake
# Lints SOURCES (top TOP) with Verilator. Without EXPECT the lint must pass;
# with EXPECT it must fail and its output must match EXPECT (an unsupported
# configuration is one clear elaboration error). Lists are |-separated.
string(REPLACE "|" ";" sources "${SOURCES}")
string(REPLACE "|" ";" args "${ARGS}")
execute_process(
  COMMAND ${VERILATOR} --lint-only ${args} --top-module ${TOP} ${sources}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT DEFINED EXPECT OR EXPECT STREQUAL "")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "Verilator rejected ${TOP} (exit ${rc}):\n${out}")
  endif()
  message(STATUS "${TOP}: lint clean")
else()
  if(rc EQUAL 0)
    message(FATAL_ERROR "Verilator accepted ${TOP} with ${ARGS}; expected an error matching: ${EXPECT}")
  endif()
  if(NOT out MATCHES "${EXPECT}")
    message(FATAL_ERROR "Verilator failed, but not with a line matching '${EXPECT}':\n${out}")
  endif()
  message(STATUS "${TOP}: rejected as expected")
endif()
