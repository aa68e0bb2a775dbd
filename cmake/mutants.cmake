# Mutant schemata (scripts/mutate, the mutation gate): with
# COSIM_MUTANT_SCHEMATA=ON (a separate build folder, e.g. build-mut), every
# named mutant of rtl/<dut>/mutants.yaml is compiled into the Verilated
# libraries at once, each guarded by a run-time switch (COSIM_MUTANT=N, read
# by tb/mutant). scripts/mutant_schemata.py writes the guarded copies of the
# affected RTL files into the build tree at configure time; verilate()
# (cmake/cosim.cmake) then Verilates the copies instead of the originals.
# A stale mutant (its snippet not found exactly once) stops the configure
# step by name; COSIM_MUTANT_SKIP (a ;-list) leaves named mutants out.
option(COSIM_MUTANT_SCHEMATA "Verilate the RTL with every mutant of rtl/*/mutants.yaml behind COSIM_MUTANT" OFF)
set(COSIM_MUTANT_SKIP "" CACHE STRING "Mutants left out of the schemata build (;-list)")

if(COSIM_MUTANT_SCHEMATA)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(COSIM_MUTANT_DIR ${CMAKE_BINARY_DIR}/mutants)
  string(REPLACE ";" "," _skip "${COSIM_MUTANT_SKIP}")
  execute_process(
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/mutant_schemata.py generate
            --repo ${CMAKE_SOURCE_DIR} --out ${COSIM_MUTANT_DIR} --skip "${_skip}"
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "mutant schemata:\n${_err}")
  endif()
  include(${COSIM_MUTANT_DIR}/sources.cmake)
  # Edits of a mutant list or of a mutated RTL file regenerate the copies.
  file(GLOB _lists ${CMAKE_SOURCE_DIR}/rtl/*/mutants.yaml)
  set(_deps ${_lists} ${CMAKE_SOURCE_DIR}/scripts/mutant_schemata.py)
  set(_i 0)
  list(LENGTH COSIM_MUTANT_SUBST _n)
  while(_i LESS _n)
    list(GET COSIM_MUTANT_SUBST ${_i} _orig)
    list(APPEND _deps ${_orig})
    math(EXPR _i "${_i} + 2")
  endwhile()
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_deps})
  message(STATUS "Mutant schemata: guarded copies in ${COSIM_MUTANT_DIR}")
endif()

# cosim_mutant_substitute(<out-var> <path> <pairs>): the copy <pairs> (a
# list original;copy;...) gives for <path>, else <path>; sets
# <out-var>_SUBSTITUTED to TRUE or FALSE.
function(cosim_mutant_substitute out path pairs)
  get_filename_component(abs ${path} ABSOLUTE)
  list(FIND pairs "${abs}" idx)
  set(hit FALSE)
  if(idx GREATER_EQUAL 0)
    math(EXPR idx "${idx} + 1")
    list(GET pairs ${idx} path)
    set(hit TRUE)
  endif()
  set(${out} ${path} PARENT_SCOPE)
  set(${out}_SUBSTITUTED ${hit} PARENT_SCOPE)
endfunction()

# cosim_mutant_variant_sources(<sources-var> <variant> <mutant>)
# A test-only Verilated variant that names one mutant in its manifest
# (`variants: [{name: tf2_rtl_bug, mutant: tf2_wave_single_bit}]`, tests/wave):
# scripts/mutant_schemata.py apply writes, at configure time, a copy of the
# mutant's file with the mutated expression in place, unguarded, and the copy
# replaces the original in <sources-var>. In the schemata build the other
# files of the variant still get their guarded copies (verilate()).
function(cosim_mutant_variant_sources sources_var variant mutant)
  set(dir ${CMAKE_BINARY_DIR}/mutants/applied/${variant})
  execute_process(
    COMMAND ${COSIM_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/mutant_schemata.py apply
            --repo ${CMAKE_SOURCE_DIR} --mutant ${mutant} --out ${dir}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(STRIP "${err}" err)
    message(FATAL_ERROR "variant ${variant}: ${err}")
  endif()
  include(${dir}/sources.cmake)
  list(GET COSIM_MUTANT_APPLIED_SUBST 0 original)
  file(GLOB lists ${CMAKE_SOURCE_DIR}/rtl/*/mutants.yaml)
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${lists} ${original} ${CMAKE_SOURCE_DIR}/scripts/mutant_schemata.py)
  set(result "")
  foreach(f ${${sources_var}})
    cosim_mutant_substitute(f ${f} "${COSIM_MUTANT_APPLIED_SUBST}")
    list(APPEND result ${f})
  endforeach()
  set(${sources_var} ${result} PARENT_SCOPE)
endfunction()

# cosim_mutant_verilate_args(<out-var> <verilate() arguments>...)
# The arguments with every SOURCES entry that has a guarded copy replaced by
# it, the mutant package first among the sources, and -Wno-fatal (a mutated
# expression may widen); unchanged when the option is off or no source of
# this library carries a mutant. Sets <out-var>_MUTATED to TRUE or FALSE.
function(cosim_mutant_verilate_args out)
  set(args ${ARGN})
  set(mutated FALSE)
  if(COSIM_MUTANT_SCHEMATA)
    set(keywords COVERAGE TRACE TRACE_FST SYSTEMC TRACE_STRUCTS PREFIX TOP_MODULE THREADS TRACE_THREADS
                 DIRECTORY SOURCES VERILATOR_ARGS INCLUDE_DIRS OPT_SLOW OPT_FAST OPT_GLOBAL)
    set(result "")
    set(in_sources FALSE)
    foreach(a ${args})
      if(a IN_LIST keywords)
        set(in_sources FALSE)
        if(a STREQUAL "SOURCES")
          set(in_sources TRUE)
        endif()
        list(APPEND result ${a})
        continue()
      endif()
      if(in_sources)
        cosim_mutant_substitute(a ${a} "${COSIM_MUTANT_SUBST}")
        if(a_SUBSTITUTED)
          set(mutated TRUE)
        endif()
      endif()
      list(APPEND result ${a})
    endforeach()
    if(mutated)
      list(FIND result SOURCES s)
      math(EXPR s "${s} + 1")
      list(INSERT result ${s} ${COSIM_MUTANT_DIR}/cosim_mutant_pkg.sv)
      list(FIND result VERILATOR_ARGS v)
      if(v GREATER_EQUAL 0)
        math(EXPR v "${v} + 1")
        list(INSERT result ${v} -Wno-fatal)
      else()
        list(APPEND result VERILATOR_ARGS -Wno-fatal)
      endif()
      set(args ${result})
    endif()
  endif()
  set(${out} ${args} PARENT_SCOPE)
  set(${out}_MUTATED ${mutated} PARENT_SCOPE)
endfunction()
