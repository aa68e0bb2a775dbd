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
#                     V<variant>: each variant its own model class, so any
#                     variant links with any other in one binary; trace /
#                     defines / -G parameters / assertions / coverage / one
#                     applied mutant as the variant says). Its properties
#                     COSIM_MODEL_CLASS, COSIM_VARIANT_ASSERT and
#                     COSIM_VARIANT_TRACE feed cosim_core_instance_source below.
#   <dut>_regs        INTERFACE library: the generated C++ header (no Verilator)
#   <dut>_gen         the build-time generation step
# Global properties, for tests that Verilate single modules of the DUT:
#   COSIM_DUT_<dut>_PKG_SOURCES   rtl/common/*.sv, the generated package, the DUT's package
#   COSIM_DUT_<dut>_VARIANTS      the manifest's variants (cosim_core_over_variants)
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

# cosim_dutgen_now(<manifest> <outdir> [CHECK_PORTS] [DEPENDS <file>...])
# The generated files of a test's own DUT manifest (not an accelerator:
# never given to cosim_add_dut), written at configure time because
# verilate() reads its sources then. CHECK_PORTS reads the top's ports with
# Verilator as an accelerator's build does. A failure stops the configure
# step with dutgen's line; a change of the manifest, a DEPENDS file or the
# generator configures again.
function(cosim_dutgen_now manifest outdir)
  cmake_parse_arguments(ARG "CHECK_PORTS" "" "DEPENDS" ${ARGN})
  set(check "")
  if(ARG_CHECK_PORTS)
    set(check --verilator ${COSIM_VERILATOR_BIN})
  endif()
  execute_process(COMMAND ${COSIM_PYTHON} ${COSIM_DUTGEN} gen ${manifest} --outdir ${outdir} ${check}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(STRIP "${err}" err)
    message(FATAL_ERROR "${err}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${manifest} ${ARG_DEPENDS} ${COSIM_DUTGEN}
               ${COSIM_DUTGEN_MODULES})
endfunction()

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
  set_property(GLOBAL PROPERTY COSIM_DUT_${dut}_VARIANTS ${COSIM_DUT_VARIANTS})

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
    # --no-timing: the testbench's clock times the DUT; delays that generated
    # RTL carries (HLS's `#0` in initial blocks) are left out, as synthesis
    # leaves them out (Verilator 5 stops without one of --timing / --no-timing,
    # then warns of each delay it leaves out: STMTDLY, said here once).
    set(args ${COSIM_DUT_WAIVERS} --no-timing -Wno-STMTDLY ${COSIM_DUT_VERILATOR_ARGS} ${${p}_ARGS} -I${dut_dir})
    foreach(d ${COSIM_DUT_SOURCE_DIRS})  # the folders of sources kept elsewhere (dutgen: source_dirs)
      list(APPEND args -I${d})
    endforeach()
    if(assert)
      list(APPEND args --assert)
    endif()
    add_library(${v} STATIC)
    add_dependencies(${v} ${dut}_gen)
    # The Verilated C++ lands in build/rtl/<dut>/CMakeFiles/<variant>.dir/V<variant>.dir.
    verilate(${v}
      DIRECTORY ${CMAKE_BINARY_DIR}/rtl/${dut}/CMakeFiles/${v}.dir/${${p}_PREFIX}.dir
      SOURCES ${sources}
      TOP_MODULE ${COSIM_DUT_TOP}
      PREFIX ${${p}_PREFIX}
      ${flags}
      VERILATOR_ARGS ${args})
    target_link_libraries(${v} INTERFACE ${dut}_regs)
    # -march for the accelerators it pays for (cmake/cosim_arch.cmake).
    if(COMMAND cosim_target_arch AND dut IN_LIST COSIM_ARCH_DUTS)
      cosim_target_arch(${v})
    endif()
    set(trace OFF)
    if(${p}_TRACE)
      set(trace ON)
    endif()
    set_target_properties(${v} PROPERTIES COSIM_MODEL_CLASS ${${p}_PREFIX} COSIM_VARIANT_ASSERT ${assert}
                                          COSIM_VARIANT_TRACE ${trace})
  endforeach()
endfunction()

# cosim_write_if_changed(<file> <text>): writes <text> to <file> unless it
# holds it already, so that what compiles it is not rebuilt for nothing.
function(cosim_write_if_changed file text)
  set(old "")
  if(EXISTS ${file})
    file(READ ${file} old)
  endif()
  if(NOT "${old}" STREQUAL "${text}")
    file(WRITE ${file} "${text}")
  endif()
endfunction()

# cosim_core_instance_source(<out-var> VARIANT <variant> HEADER <header>
#                            TEMPLATE <class template> [DIRECTORY <dir>])
# Writes (when its text changes) <dir>/<class template's last name>_<variant>.cpp
# (default dir: the current binary folder) and sets <out-var> to its path:
# a source that includes V<variant>.h, describes the variant to the code
# (harness::VariantOf<V<variant>>: name, assertions, trace;
# harness/variant.hpp), includes <header> and explicitly instantiates
# <class template><V<variant>>. Compile it with <header>'s folder on the
# include path and link the variant's library. For a plug-in's sources
# (cosim_add_plugin); in the tree, cosim_core_over_variants below.
function(cosim_core_instance_source out)
  cmake_parse_arguments(ARG "" "VARIANT;HEADER;TEMPLATE;DIRECTORY" "" ${ARGN})
  set(v ${ARG_VARIANT})
  get_target_property(cls ${v} COSIM_MODEL_CLASS)
  get_target_property(assert ${v} COSIM_VARIANT_ASSERT)
  get_target_property(trace ${v} COSIM_VARIANT_TRACE)
  if(NOT cls)
    message(FATAL_ERROR "cosim_core_instance_source: ${v} is no variant of cosim_add_dut")
  endif()
  set(a false)
  if(assert)
    set(a true)
  endif()
  set(t false)
  if(trace)
    set(t true)
  endif()
  if(NOT ARG_DIRECTORY)
    set(ARG_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  string(REGEX REPLACE "^.*::" "" tname ${ARG_TEMPLATE})
  set(src ${ARG_DIRECTORY}/${tname}_${v}.cpp)
  # The model's root class: a core may read internal signals (rootp).
  set(text "// Generated by cosim_core_instance_source (cmake/cosim_dut.cmake): do not edit.
// ${ARG_TEMPLATE} over the Verilated variant ${v}.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored \"-Wunused-parameter\"  // inside Verilator's headers
#include <verilated.h>

#include \"${cls}.h\"
#include \"${cls}___024root.h\"
#pragma GCC diagnostic pop
#include \"harness/variant.hpp\"

template <>
const cosim::tb::harness::Variant cosim::tb::harness::VariantOf<${cls}>::kVariant = {\"${v}\", ${a}, ${t}};

#include \"${ARG_HEADER}\"

template struct ${ARG_TEMPLATE}<${cls}>;
")
  cosim_write_if_changed(${src} "${text}")
  set(${out} ${src} PARENT_SCOPE)
endfunction()

# cosim_core_over_variants(<core> HEADER <header> TEMPLATE <class template>
#                          DUT <dut> | VARIANTS <variant>...)
# A DUT's core code (its harness binding, clock loop, status decoding), a
# class template over the Verilated model class, instantiated once per
# variant: per variant v a STATIC library <core>_<v> compiled from the
# source cosim_core_instance_source writes for it, linking <core> (the
# variant-independent code) and v. Any of them link together in one binary:
# each variant has its own model class. DUT <dut>: every variant of its
# manifest.
function(cosim_core_over_variants core)
  cmake_parse_arguments(ARG "" "HEADER;TEMPLATE;DUT" "VARIANTS" ${ARGN})
  if(ARG_DUT)
    get_property(ARG_VARIANTS GLOBAL PROPERTY COSIM_DUT_${ARG_DUT}_VARIANTS)
  endif()
  foreach(v ${ARG_VARIANTS})
    cosim_core_instance_source(src VARIANT ${v} HEADER ${ARG_HEADER} TEMPLATE ${ARG_TEMPLATE})
    add_library(${core}_${v} STATIC ${src})
    target_link_libraries(${core}_${v} PUBLIC ${core} PRIVATE ${v})
    if(TARGET cosim_warnings)
      target_link_libraries(${core}_${v} PRIVATE cosim_warnings)
    endif()
  endforeach()
endfunction()

# cosim_verilate_module(<target> TOP <module> PREFIX <class> SOURCES f...
#                       [ARGS <verilator arg>...])
# One module Verilated alone into the STATIC library <target> (model class
# <class>), for tests that drive it cycle by cycle; with coverage in the
# coverage build (COSIM_RTL_COVERAGE).
function(cosim_verilate_module target)
  cmake_parse_arguments(ARG "" "TOP;PREFIX" "SOURCES;ARGS" ${ARGN})
  set(flags "")
  if(COSIM_RTL_COVERAGE)
    set(flags COVERAGE)
  endif()
  add_library(${target} STATIC)
  verilate(${target}
    SOURCES ${ARG_SOURCES}
    TOP_MODULE ${ARG_TOP}
    PREFIX ${ARG_PREFIX}
    ${flags}
    VERILATOR_ARGS ${ARG_ARGS})
endfunction()

# Single modules of a DUT Verilated alone for unit tests:
# cosim_verilate_unit(<target> DUT <dut> TOP <module> [ASSERT] [SOURCES f...])
# Sources come after the DUT's package sources (COSIM_DUT_<dut>_PKG_SOURCES).
function(cosim_verilate_unit target)
  cmake_parse_arguments(ARG "ASSERT" "DUT;TOP" "SOURCES" ${ARGN})
  get_property(pkg GLOBAL PROPERTY COSIM_DUT_${ARG_DUT}_PKG_SOURCES)
  get_property(dut_include GLOBAL PROPERTY COSIM_DUT_${ARG_DUT}_INCLUDE)
  set(args -O3 --x-assign fast --x-initial fast ${dut_include})
  if(ARG_ASSERT)
    list(APPEND args --assert)
  endif()
  cosim_verilate_module(${target} TOP ${ARG_TOP} PREFIX V${ARG_TOP} SOURCES ${pkg} ${ARG_SOURCES} ARGS ${args})
  add_dependencies(${target} ${ARG_DUT}_gen)
endfunction()
