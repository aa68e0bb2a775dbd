# Helpers shared by every concept folder.

# cosim_add_dut(<manifest>): an accelerator from its manifest.
include(${CMAKE_CURRENT_LIST_DIR}/cosim_dut.cmake)

# Adds every immediate subfolder of the current folder that has a CMakeLists.txt.
# COSIM_ONLY_DUTS (a ;-list; empty = every accelerator): a build of only these
# accelerators and of the code that names no other. The folders named after
# an accelerator left out (rtl/<dut>, tb/<dut>, cpp_model/<dut>, tests/<dut>)
# are not added, so `cosim` links only the accelerators kept. For a quick
# build of one accelerator (tests/newdut builds its new one alone); CI and
# `make` build them all.
set(COSIM_ONLY_DUTS "" CACHE STRING "Build only these accelerators (;-list, empty = all)")
set(COSIM_LEFT_OUT_DUTS "")
if(COSIM_ONLY_DUTS)
  file(GLOB _dut_dirs LIST_DIRECTORIES true RELATIVE ${CMAKE_SOURCE_DIR}/rtl ${CMAKE_SOURCE_DIR}/rtl/*)
  foreach(_dut ${COSIM_ONLY_DUTS})
    if(NOT EXISTS ${CMAKE_SOURCE_DIR}/rtl/${_dut}/${_dut}.yaml)
      message(FATAL_ERROR "COSIM_ONLY_DUTS: ${_dut} is no accelerator (no rtl/${_dut}/${_dut}.yaml)")
    endif()
  endforeach()
  foreach(_dir ${_dut_dirs})
    if(EXISTS ${CMAKE_SOURCE_DIR}/rtl/${_dir}/${_dir}.yaml AND NOT _dir IN_LIST COSIM_ONLY_DUTS)
      list(APPEND COSIM_LEFT_OUT_DUTS ${_dir})
    endif()
  endforeach()
  message(STATUS "Only the accelerators ${COSIM_ONLY_DUTS} (left out: ${COSIM_LEFT_OUT_DUTS})")
endif()

function(cosim_add_concept_folders)
  file(GLOB children LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(SORT children)
  foreach(child ${children})
    if(child IN_LIST COSIM_LEFT_OUT_DUTS)
      continue()
    endif()
    if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${child} AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${child}/CMakeLists.txt)
      add_subdirectory(${child})
    endif()
  endforeach()
endfunction()

# cosim_gtest(NAME src... LIBS lib... [LABELS label...] [FAULTS regex])
# One googletest executable registered with CTest, test by test. The tests
# whose names match FAULTS (e.g. "^CliFaults[.]") also get the label `faults`
# (issue 31's fault-injection suite: ctest -L faults).
function(cosim_gtest name)
  cmake_parse_arguments(ARG "RUNS_COSIM" "FAULTS" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest_main cosim_warnings)
  target_compile_definitions(${name} PRIVATE COSIM_MODELS_DIR="${COSIM_MODELS_DIR}"
                                             COSIM_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
                                             COSIM_TEST_ARTIFACT_DIR="${CMAKE_BINARY_DIR}/test-artifacts")
  # tests/support: helpers every suite may use (artifact folder, ...).
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  if(ARG_RUNS_COSIM)  # the test runs the cosim binary: COSIM_BIN, built first
    target_compile_definitions(${name} PRIVATE COSIM_BIN="$<TARGET_FILE:cosim>")
    add_dependencies(${name} cosim)
  endif()
  # A list must reach PROPERTIES escaped, or only its first label survives.
  string(REPLACE ";" "\\;" labels "${ARG_LABELS}")
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${labels}")
  if(ARG_FAULTS)
    # Relabelled after discovery (PROPERTIES cannot carry a second label
    # through gtest_discover_tests): runs after the discovered list is read.
    set(relabel "${CMAKE_CURRENT_BINARY_DIR}/${name}_faults_labels.cmake")
    file(WRITE "${relabel}" "foreach(t IN LISTS ${name}_TESTS)\n"
                            "  if(t MATCHES [==[${ARG_FAULTS}]==])\n"
                            "    set_tests_properties(\"\${t}\" PROPERTIES LABELS [==[${ARG_LABELS};faults]==])\n"
                            "  endif()\n"
                            "endforeach()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${relabel}")
  endif()
endfunction()

# cosim_test_top_models(<out-var> RTL <file.sv> TOP <module> MANIFESTS <name>...)
# A binder's test top under several manifests beside it (<name>.yaml): per
# manifest the pin binding, generated now with the port check an accelerator
# gets, and the top Verilated as V<name> with the manifest's -G parameters.
# Not accelerators (never added with cosim_add_dut). <out-var>: the models' libraries.
function(cosim_test_top_models out)
  cmake_parse_arguments(ARG "" "RTL;TOP" "MANIFESTS" ${ARGN})
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/generated)
  set(models "")
  foreach(dut ${ARG_MANIFESTS})
    set(manifest ${CMAKE_CURRENT_SOURCE_DIR}/${dut}.yaml)
    cosim_dutgen_now(${manifest} ${gen} CHECK_PORTS DEPENDS ${ARG_RTL})
    file(STRINGS ${manifest} params REGEX "^verilator_args:")
    string(REGEX MATCHALL "-G[A-Za-z_]+=[0-9]+" params "${params}")
    add_library(${dut}_rtl STATIC)
    verilate(${dut}_rtl
      SOURCES ${ARG_RTL}
      TOP_MODULE ${ARG_TOP}
      PREFIX V${dut}
      VERILATOR_ARGS -O3 --x-assign fast --x-initial fast ${params})
    target_include_directories(${dut}_rtl INTERFACE ${gen}/include)
    list(APPEND models ${dut}_rtl)
  endforeach()
  set(${out} ${models} PARENT_SCOPE)
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/mutants.cmake)

# cosim_relative_verilate_args(<out-var> <verilate() arguments>...)
# The arguments with every path after SOURCES and INCLUDE_DIRS, and every
# -I<path> / -y <path> / -v <path> of VERILATOR_ARGS, made relative to
# CMAKE_CURRENT_SOURCE_DIR: the folder verilate() runs Verilator in.
function(cosim_relative_verilate_args out)
  set(keywords COVERAGE TRACE TRACE_FST SYSTEMC TRACE_STRUCTS PREFIX TOP_MODULE THREADS TRACE_THREADS
               DIRECTORY SOURCES VERILATOR_ARGS INCLUDE_DIRS OPT_SLOW OPT_FAST OPT_GLOBAL)
  set(result "")
  set(section "")
  set(path_next FALSE)
  foreach(a ${ARGN})
    if(a IN_LIST keywords)
      set(section ${a})
      list(APPEND result ${a})
      continue()
    endif()
    if(section STREQUAL "SOURCES" OR section STREQUAL "INCLUDE_DIRS" OR path_next)
      if(IS_ABSOLUTE "${a}")
        file(RELATIVE_PATH a "${CMAKE_CURRENT_SOURCE_DIR}" "${a}")
      endif()
      set(path_next FALSE)
    elseif(section STREQUAL "VERILATOR_ARGS")
      if(a MATCHES "^-I(/.*)$")
        file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${CMAKE_MATCH_1}")
        set(a "-I${rel}")
      elseif(a STREQUAL "-y" OR a STREQUAL "-v")
        set(path_next TRUE)
      endif()
    endif()
    list(APPEND result "${a}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# verilate() is wrapped here once (CMake keeps the original as _verilate), so
# no DUT, test or bench that Verilates RTL has to remember the build-wide
# parts:
#  - every Verilated library prints through tb/rtl_assert's hook, so that a
#    failed SystemVerilog assertion reaches the report by name (label,
#    instance, file:line, text) instead of only as console text;
#  - the mutant schemata build (cmake/mutants.cmake) swaps in the guarded
#    copies of the mutated sources and links the run-time switch;
#  - rtl/common is on the include path (cosim_ports.svh: the shared port lists);
#  - a default timescale for modules without one (--timescale), since vendor
#    RTL and rtl/common carry `timescale and Verilator wants all to agree;
#  - clang gets the warning switches Verilator's makefiles give generated code;
#  - the Verilated headers are system headers to whoever links the model:
#    users compile with -Wall -Wextra, and Verilator's headers are not ours
#    to fix.
#  - every RTL path reaches Verilator relative to the folder it runs in:
#    Verilator writes source paths into the C++ it generates (assertion and
#    $finish sites), so absolute ones would make each clone, scratch tree
#    (tests/newdut, tests/install) and build folder compile its own copy of
#    the same model instead of sharing ccache's.
function(verilate target)
  cosim_mutant_verilate_args(args ${ARGN})
  cosim_relative_verilate_args(args ${args} INCLUDE_DIRS ${CMAKE_SOURCE_DIR}/rtl/common)
  _verilate(${target} ${args} VERILATOR_ARGS --timescale 1ps/1ps)
  target_compile_options(${target} PRIVATE -include ${CMAKE_SOURCE_DIR}/tb/rtl_assert/vl_print_hook.h)
  # clang: the warnings Verilator's own build turns off for its generated code
  # (verilator-config.cmake of 5.006 computes VERILATOR_CFLAGS but never applies
  # them; verilated.mk does), so that a clang build is as quiet as a g++ one.
  # Warning switches only: the code generated does not change.
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE -Wno-parentheses-equality -Wno-tautological-bitwise-compare
                                             -Wno-bool-operation -Wno-sign-compare -Wno-uninitialized
                                             -Wno-unused-but-set-variable -Wno-unused-parameter -Wno-unused-variable
                                             -Wno-shadow)
  endif()
  target_link_libraries(${target} PUBLIC cosim_vl_hook)
  get_target_property(inc ${target} INTERFACE_INCLUDE_DIRECTORIES)
  set_target_properties(${target} PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${inc}")
  if(args_MUTATED)
    target_link_libraries(${target} PUBLIC cosim_mutant)
  endif()
endfunction()

# cosim_write_backend_registry(<out.cpp> <name>...): a source defining
# cosim::tb::register_builtin_backends() over cosim::backends::make_<name>()
# (each from library cosim_backend_<name>); written only when it changes.
# Used for the product's `cosim` (tb/cosim); the test and bench binaries
# that run a backend over other Verilated variants register it by hand
# (make_<name>(builds): tests/wave, bench/wave).
function(cosim_write_backend_registry out)
  set(decls "")
  set(calls "")
  foreach(n ${ARGN})
    string(APPEND decls "std::unique_ptr<cosim::tb::TargetBackend> make_${n}();\n")
    string(APPEND calls "  registry.add(cosim::backends::make_${n}());\n")
  endforeach()
  set(text "// Generated by cosim_write_backend_registry (cmake/cosim.cmake): ${ARGN}\n#include \"cosim/backend.hpp\"\n\nnamespace cosim::backends {\n${decls}}\n\nvoid cosim::tb::register_builtin_backends(BackendRegistry& registry) {\n  (void)registry;\n${calls}}\n")
  cosim_write_if_changed(${out} "${text}")
endfunction()

# cosim_add_target_tb(<name>): the tb folder of an accelerator scaffolded by
# scripts/new-dut (templates/*/tb/@NAME@), from its CMakeLists.txt:
#   cosim_tb_<name>          the wrapper (<name>_wrapper.cpp, on the harness
#                            core), and its model half (<name>_wrapper_model.hpp)
#                            over each variant of the manifest:
#                            cosim_tb_<name>_<variant>, any together;
#   cosim_backend_<name>     the `<name>` backend and its operators, one file
#                            each (<name>_<op>_op.cpp, listed in
#                            <name>_ops.def), over the variant <name>_rtl.
# The folder above the calling one (tb/ in the tree, or the build's instance
# of the template) is on the include path.
function(cosim_add_target_tb name)
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  add_library(cosim_tb_${name} STATIC ${dir}/${name}_wrapper.cpp)
  target_include_directories(cosim_tb_${name} PUBLIC ${dir}/.. ${CMAKE_SOURCE_DIR}/tb)
  target_link_libraries(cosim_tb_${name} PUBLIC cosim_tlm ${name}_regs cosim_harness PRIVATE cosim_warnings)
  cosim_core_over_variants(cosim_tb_${name} HEADER ${name}/${name}_wrapper_model.hpp
                           TEMPLATE cosim::tb::${name}::Over DUT ${name})

  file(GLOB ops CONFIGURE_DEPENDS ${dir}/${name}_*_op.cpp)
  add_library(cosim_backend_${name} STATIC ${dir}/${name}_backend.cpp ${ops})
  target_link_libraries(cosim_backend_${name} PUBLIC cosim_tb_${name} cosim_tb_${name}_${name}_rtl cosim_backend
                        PRIVATE cosim_${name} ${name}_regs cosim_warnings)
  set_property(GLOBAL APPEND PROPERTY COSIM_BACKENDS ${name})
endfunction()
