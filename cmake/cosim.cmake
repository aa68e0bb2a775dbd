# Helpers shared by every concept folder.

# cosim_add_dut(<manifest>): an accelerator from its manifest.
include(${CMAKE_CURRENT_LIST_DIR}/cosim_dut.cmake)

# Adds every immediate subfolder of the current folder that has a CMakeLists.txt.
function(cosim_add_concept_folders)
  file(GLOB children LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(SORT children)
  foreach(child ${children})
    if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${child} AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${child}/CMakeLists.txt)
      add_subdirectory(${child})
    endif()
  endforeach()
endfunction()

# cosim_gtest(NAME src... LIBS lib... [LABELS label...])
# One googletest executable registered with CTest, test by test.
function(cosim_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest_main cosim_warnings)
  target_compile_definitions(${name} PRIVATE COSIM_MODELS_DIR="${COSIM_MODELS_DIR}"
                                             COSIM_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
                                             COSIM_TEST_ARTIFACT_DIR="${CMAKE_BINARY_DIR}/test-artifacts")
  # tests/support: helpers every suite may use (artifact folder, ...).
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  # A list must reach PROPERTIES escaped, or only its first label survives.
  string(REPLACE ";" "\\;" labels "${ARG_LABELS}")
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${labels}")
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/mutants.cmake)

# verilate() is wrapped here once (CMake keeps the original as _verilate), so
# no DUT, test or bench that Verilates RTL has to remember the build-wide
# parts:
#  - every Verilated library prints through tb/rtl_assert's hook, so that a
#    failed SystemVerilog assertion reaches the report by name (label,
#    instance, file:line, text) instead of only as console text;
#  - the mutant schemata build (cmake/mutants.cmake) swaps in the guarded
#    copies of the mutated sources and links the run-time switch;
#  - rtl/common is on the include path (cosim_ports.svh: the shared port lists).
function(verilate target)
  cosim_mutant_verilate_args(args ${ARGN})
  _verilate(${target} ${args} INCLUDE_DIRS ${CMAKE_SOURCE_DIR}/rtl/common)
  target_compile_options(${target} PRIVATE -include ${CMAKE_SOURCE_DIR}/tb/rtl_assert/vl_print_hook.h)
  target_link_libraries(${target} PUBLIC cosim_vl_hook)
  if(args_MUTATED)
    target_link_libraries(${target} PUBLIC cosim_mutant)
  endif()
endfunction()
