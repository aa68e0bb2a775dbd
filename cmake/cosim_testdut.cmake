# The accelerator template (templates/dut) instantiated in the build tree as
# `testdut`: the DUT the testbench's own tests run on (tests/tlm, tests/trace,
# scenarios/selftest_vadd.yaml), and so a template that every build compiles
# and tests. It is written by `scripts/new-dut --into` at configure time;
# nothing of it is committed. cosim_add_testdut_part(<top>) adds its folder of
# <top> (cpp_model, rtl, tb, tests) next to the tree's own.
set(COSIM_TESTDUT_DIR ${CMAKE_BINARY_DIR}/testdut)
execute_process(COMMAND ${COSIM_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/new-dut --into ${COSIM_TESTDUT_DIR} testdut
                RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "scripts/new-dut --into ${COSIM_TESTDUT_DIR} testdut failed:\n${_err}")
endif()
file(GLOB_RECURSE _template_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/templates/dut/*)
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${_template_files} ${CMAKE_SOURCE_DIR}/scripts/new-dut)

function(cosim_add_testdut_part top)
  set(dir ${COSIM_TESTDUT_DIR}/${top}/testdut)
  if(top STREQUAL "rtl")
    cosim_add_dut(${dir}/testdut.yaml)
  elseif(EXISTS ${dir}/CMakeLists.txt)
    add_subdirectory(${dir} ${CMAKE_BINARY_DIR}/testdut-build/${top})
  endif()
endfunction()
