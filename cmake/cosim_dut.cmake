# cosim_add_dut(<manifest>): one accelerator from its manifest
# (rtl/<dut>/<dut>.yaml, see rtl/README.md "Adding your accelerator: the
# manifest").
#
# At configure time scripts/dutgen.py validates the manifest (a bad one stops
# CMake with one line naming the file and the key) and writes, under
# ${COSIM_GEN_DIR}:
#   sv/<dut>_reg_pkg.sv          register package the DUT's own package exports
#   sv/<dut>_isa_pkg.sv          with `isa:` in the manifest: instruction
#                                layouts (scripts/dutgen_isa.py), exported too
#   include/dut/<dut>_isa.hpp    with `isa:`: C++ cosim::<dut>::isa_layout
#   include/dut/<dut>_regs.hpp   C++: cosim::<dut>::regs (offsets, fields,
#                                state names, debug-vector decoder)
#   include/dut/<dut>_pins.hpp   C++: cosim::<dut>::pins, the pin binding the
#                                harness takes every port name from
#   cmake/<dut>.cmake            sources, top, variants (read here)
# and checks the manifest's `ports` against the top's ports (verilator
# --xml-only): a port the manifest names that the top lacks, or a top port no
# interface claims, stops CMake with one line naming both.
# At build time the same generator refreshes the generated sources and
# repeats the port check when the manifest or an RTL source changes (each
# file is rewritten only when its text changes).
#
# Targets:
#   <variant>         one STATIC library per entry of `variants:`, Verilated once
#                     (rtl/common/*.sv + generated package + sources, top, prefix
#                     V<top>, trace / defines / -G parameters / assertions /
#                     coverage / one applied mutant as the variant says)
#   <dut>_regs        INTERFACE library: the generated C++ header (no Verilator)
#   <dut>_gen         the build-time generation step
# Global properties, for tests that Verilate single modules of the DUT:
#   COSIM_DUT_<dut>_PKG_SOURCES   rtl/common/*.sv, the generated package, the DUT's package
#   COSIM_DUTS / COSIM_DUT_MANIFESTS  every DUT added, in order

# COSIM_HOME: where scripts/ and rtl/common are, the source tree here or
# <prefix>/share/cosim in an installation (cmake/cosimConfig.cmake sets it).
if(NOT DEFINED COSIM_HOME)
  set(COSIM_HOME ${CMAKE_SOURCE_DIR})
endif()
set(COSIM_DUTGEN ${COSIM_HOME}/scripts/dutgen.py)
# The generator's modules beside it (ports, register block).
set(COSIM_DUTGEN_MODULES ${COSIM_HOME}/scripts/dutgen_ports.py ${COSIM_HOME}/scripts/dutgen_regtop.py
                         ${COSIM_HOME}/scripts/dutgen_isa.py)
set(COSIM_GEN_DIR ${CMAKE_BINARY_DIR}/generated)
find_program(COSIM_VERILATOR_BIN verilator REQUIRED)

# An interpreter that can `import yaml` (cosim_find_python.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/cosim_find_python.cmake)
cosim_find_python(COSIM_PYTHON yaml "Python 3 with PyYAML, runs scripts/dutgen.py")
if(NOT COSIM_PYTHON)
  message(FATAL_ERROR "cosim: no python3 with PyYAML found (apt-get install python3-yaml, or -DCOSIM_PYTHON=...)")
endif()

# Coverage build (scripts/coverage.sh): every variant gets COVERAGE (line,
# toggle, user cover points) and the manifest's bound cover modules.
option(COSIM_RTL_COVERAGE "Verilate the RTL with --coverage" OFF)

# rtl/common/*.sv, packages first: every DUT gets the shared primitives.
# CONFIGURE_DEPENDS: a primitive added to rtl/common reconfigures the build.
file(GLOB _cosim_common_sv CONFIGURE_DEPENDS ${COSIM_HOME}/rtl/common/*.sv)
list(SORT _cosim_common_sv)
set(COSIM_COMMON_SV "")
foreach(_f ${_cosim_common_sv})
  if(_f MATCHES "_pkg\\.sv$")
    list(APPEND COSIM_COMMON_SV ${_f})
  endif()
endforeach()
foreach(_f ${_cosim_common_sv})
  if(NOT _f MATCHES "_pkg\\.sv$")
    list(APPEND COSIM_COMMON_SV ${_f})
  endif()
endforeach()

function(cosim_add_dut manifest)
  get_filename_component(manifest ${manifest} ABSOLUTE)
  get_filename_component(dut ${manifest} NAME_WE)
  # The DUT's own folder is on its include path, for headers shared by its
  # modules (rtl/common is on every one: cmake/cosim.cmake).
  get_filename_component(dut_dir ${manifest} DIRECTORY)
  set_property(GLOBAL PROPERTY COSIM_DUT_${dut}_INCLUDE -I${dut_dir})
  execute_process(COMMAND ${COSIM_PYTHON} ${COSIM_DUTGEN} configure ${manifest} --outdir ${COSIM_GEN_DIR}
                          --verilator ${COSIM_VERILATOR_BIN}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(rc)
    string(STRIP "${err}" err)
    message(FATAL_ERROR "${err}")
  endif()
  include(${COSIM_GEN_DIR}/cmake/${dut}.cmake)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${manifest} ${COSIM_DUT_ISA} ${COSIM_DUTGEN}
                                                                 ${COSIM_DUTGEN_MODULES})

  set(pkg_sv ${COSIM_GEN_DIR}/sv/${dut}_reg_pkg.sv)
  # The instruction-encoding package and header, when the manifest has an ISA file.
  set(isa_gen "")
  if(COSIM_DUT_ISA)
    list(APPEND pkg_sv ${COSIM_GEN_DIR}/sv/${dut}_isa_pkg.sv)
    set(isa_gen ${COSIM_GEN_DIR}/include/dut/${dut}_isa.hpp)
  endif()
  set(regs_hpp ${COSIM_GEN_DIR}/include/dut/${dut}_regs.hpp)
  set(pins_hpp ${COSIM_GEN_DIR}/include/dut/${dut}_pins.hpp)
  # The register block, when the manifest has it generated (register_block: generated).
  set(reg_top_sv "")
  if(COSIM_DUT_REG_TOP)
    set(reg_top_sv ${COSIM_GEN_DIR}/sv/${dut}_reg_top.sv)
  endif()
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${dut}_gen.stamp)
  add_custom_command(OUTPUT ${stamp}
                     BYPRODUCTS ${pkg_sv} ${regs_hpp} ${pins_hpp} ${reg_top_sv} ${isa_gen}
                     COMMAND ${COSIM_PYTHON} ${COSIM_DUTGEN} gen ${manifest} --outdir ${COSIM_GEN_DIR} --stamp ${stamp}
                             --verilator ${COSIM_VERILATOR_BIN}
                     DEPENDS ${manifest} ${COSIM_DUT_ISA} ${COSIM_DUTGEN} ${COSIM_DUTGEN_MODULES} ${COSIM_DUT_SOURCES}
                     COMMENT "dutgen: ${dut} register package, headers, port check"
                     VERBATIM)
  add_custom_target(${dut}_gen DEPENDS ${stamp})

  add_library(${dut}_regs INTERFACE)
  target_include_directories(${dut}_regs INTERFACE ${COSIM_GEN_DIR}/include)
  add_dependencies(${dut}_regs ${dut}_gen)

  # Assertions: a CMake option when the manifest names one, else its default.
  set(assert_default ${COSIM_DUT_ASSERT_DEFAULT})
  if(COSIM_DUT_ASSERT_OPTION)
    option(${COSIM_DUT_ASSERT_OPTION} "${COSIM_DUT_ASSERT_DESC}" ${COSIM_DUT_ASSERT_DEFAULT})
    set(assert_default ${${COSIM_DUT_ASSERT_OPTION}})
  endif()

  set(pkg_sources ${COSIM_COMMON_SV} ${pkg_sv} ${COSIM_DUT_PACKAGE})
  set_property(GLOBAL PROPERTY COSIM_DUT_${dut}_PKG_SOURCES ${pkg_sources})
  set_property(GLOBAL APPEND PROPERTY COSIM_DUTS ${dut})
  set_property(GLOBAL APPEND PROPERTY COSIM_DUT_MANIFESTS ${manifest})

  foreach(v ${COSIM_DUT_VARIANTS})
    set(p COSIM_DUT_VARIANT_${v})
    set(flags "")
    if(${p}_TRACE)
      list(APPEND flags TRACE_FST)
    endif()
    # The vendor stand-ins the manifest selects (`vendor`, rtl/vendor) before its own sources.
    set(sources ${COSIM_COMMON_SV} ${pkg_sv} ${COSIM_DUT_VENDOR_SOURCES} ${reg_top_sv} ${COSIM_DUT_SOURCES})
    if(${p}_MUTANT)
      # A test-only variant with one named mutant applied (cmake/mutants.cmake).
      if(NOT COMMAND cosim_mutant_variant_sources)
        message(FATAL_ERROR "${manifest}: variant ${v} names mutant ${${p}_MUTANT}: "
                            "variants with a mutant are built in the cosim source tree only")
      endif()
      cosim_mutant_variant_sources(sources ${v} ${${p}_MUTANT})
    endif()
    if(COSIM_RTL_COVERAGE AND ${p}_COVERAGE)
      list(APPEND flags COVERAGE)
      list(APPEND sources ${COSIM_DUT_BIND_SOURCES})
    endif()
    set(assert ${${p}_ASSERT})
    if(assert STREQUAL "DEFAULT")
      set(assert ${assert_default})
    endif()
    # Waiver files (manifest `waivers`) go first: they configure what follows.
    set(args ${COSIM_DUT_WAIVERS} ${COSIM_DUT_VERILATOR_ARGS} ${${p}_ARGS} -I${dut_dir})
    if(assert)
      list(APPEND args --assert)
    endif()
    add_library(${v} STATIC)
    add_dependencies(${v} ${dut}_gen)
    # The Verilated C++ lands where a per-folder verilate() used to put it
    # (build/rtl/<dut>/CMakeFiles/<variant>.dir/V<top>.dir), so ccache keeps hitting.
    verilate(${v}
      DIRECTORY ${CMAKE_BINARY_DIR}/rtl/${dut}/CMakeFiles/${v}.dir/${COSIM_DUT_PREFIX}.dir
      SOURCES ${sources}
      TOP_MODULE ${COSIM_DUT_TOP}
      PREFIX ${COSIM_DUT_PREFIX}
      ${flags}
      VERILATOR_ARGS ${args})
    target_link_libraries(${v} INTERFACE ${dut}_regs)
    # -march for the accelerators it pays for (cmake/cosim_arch.cmake).
    if(COMMAND cosim_target_arch AND dut IN_LIST COSIM_ARCH_DUTS)
      cosim_target_arch(${v})
    endif()
  endforeach()
endfunction()

# Single modules of a DUT Verilated alone for unit tests:
# cosim_verilate_unit(<target> DUT <dut> TOP <module> [ASSERT] [SOURCES f...])
# Sources come after the DUT's package sources (COSIM_DUT_<dut>_PKG_SOURCES).
function(cosim_verilate_unit target)
  cmake_parse_arguments(ARG "ASSERT" "DUT;TOP" "SOURCES" ${ARGN})
  get_property(pkg GLOBAL PROPERTY COSIM_DUT_${ARG_DUT}_PKG_SOURCES)
  get_property(dut_include GLOBAL PROPERTY COSIM_DUT_${ARG_DUT}_INCLUDE)
  set(flags "")
  if(COSIM_RTL_COVERAGE)
    set(flags COVERAGE)
  endif()
  set(args -O3 --x-assign fast --x-initial fast ${dut_include})
  if(ARG_ASSERT)
    list(APPEND args --assert)
  endif()
  add_library(${target} STATIC)
  add_dependencies(${target} ${ARG_DUT}_gen)
  verilate(${target}
    SOURCES ${pkg} ${ARG_SOURCES}
    TOP_MODULE ${ARG_TOP}
    PREFIX V${ARG_TOP}
    ${flags}
    VERILATOR_ARGS ${args})
endfunction()
