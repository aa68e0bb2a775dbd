# The accelerator templates instantiated in the build tree: templates/dut as
# `testdut` (the register-bus style; the DUT the testbench's own tests run on:
# tests/tlm, tests/trace, scenarios/selftest_vadd.yaml) and templates/vitis as
# `vitisdut` (a Vitis RTL kernel's interface), so both templates are compiled
# and tested by every build. They are written by `scripts/new-dut --into` at
# configure time; nothing of them is committed. cosim_add_testdut_part(<top>)
# adds their folders of <top> (cpp_model, rtl, tb, tests) next to the tree's own.
set(COSIM_TESTDUT_DIR ${CMAKE_BINARY_DIR}/testdut)
foreach(_inst "reg:testdut" "vitis:vitisdut")
  string(REPLACE ":" ";" _inst ${_inst})
  list(GET _inst 0 _style)
  list(GET _inst 1 _name)
  execute_process(COMMAND ${COSIM_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/new-dut --style ${_style}
                          --into ${COSIM_TESTDUT_DIR} ${_name}
                  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "scripts/new-dut --style ${_style} --into ${COSIM_TESTDUT_DIR} ${_name} failed:\n${_err}")
  endif()
endforeach()
file(GLOB_RECURSE _template_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/templates/*)
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${_template_files} ${CMAKE_SOURCE_DIR}/scripts/new-dut)

function(cosim_add_testdut_part top)
  foreach(name testdut vitisdut)
    set(dir ${COSIM_TESTDUT_DIR}/${top}/${name})
    if(top STREQUAL "rtl")
      cosim_add_dut(${dir}/${name}.yaml)
    elseif(EXISTS ${dir}/CMakeLists.txt)
      add_subdirectory(${dir} ${CMAKE_BINARY_DIR}/${name}-build/${top})
    endif()
  endforeach()
endfunction()
