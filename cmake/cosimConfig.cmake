# The installed cosim as a CMake package: find_package(cosim CONFIG) in an
# accelerator's own project (`cosim new-dut NAME --out DIR` writes one), then
#   cosim_add_dut(<manifest>)           the Verilated RTL, generated headers, port check
#   cosim_add_plugin(<name> SOURCES ... LIBS ... INCLUDES ...)
#                                       the plugin the installed cosim loads (--dut-path)
# cosim::headers: the testbench's headers (harness, TLM wrapper, backend API);
# their code lives in the program that loads the plugin.
get_filename_component(_cosim_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(COSIM_HOME ${_cosim_prefix}/share/cosim)
set(COSIM_INSTALL_PREFIX ${_cosim_prefix})
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
if(NOT CMAKE_CXX_STANDARD)
  set(CMAKE_CXX_STANDARD 17)
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
endif()

find_package(verilator REQUIRED HINTS /usr/share/verilator $ENV{VERILATOR_ROOT})
find_package(spdlog REQUIRED)
find_package(yaml-cpp REQUIRED)
find_library(SYSTEMC_LIBRARY systemc REQUIRED)
find_path(SYSTEMC_INCLUDE_DIR systemc.h REQUIRED)

if(NOT TARGET cosim::headers)
  add_library(cosim::headers INTERFACE IMPORTED)
  set_target_properties(cosim::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_cosim_prefix}/include/cosim/tb;${_cosim_prefix}/include/cosim/cpp_model"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${SYSTEMC_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "spdlog::spdlog;yaml-cpp")
endif()

# cosim::golden: the golden-model libraries (tensors and .npy, TFLite int8
# quantization and operators) for a project's own tests of its model. A
# plugin does not link them: the program that loads it has them.
if(NOT TARGET cosim::golden)
  add_library(cosim::golden INTERFACE IMPORTED)
  set_target_properties(cosim::golden PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_cosim_prefix}/include/cosim/cpp_model"
    INTERFACE_LINK_LIBRARIES
      "${_cosim_prefix}/lib/cosim/libcosim_ops.a;${_cosim_prefix}/lib/cosim/libcosim_quant.a;${_cosim_prefix}/lib/cosim/libcosim_tensor.a")
endif()

# The harness headers the generated pin binding includes.
add_library(cosim_harness INTERFACE IMPORTED)
set_target_properties(cosim_harness PROPERTIES INTERFACE_LINK_LIBRARIES cosim::headers)

# Every Verilated library prints through cosim's hook (its definition is in
# the program that loads the plugin), knows rtl/common, and takes the default
# timescale the tree's build uses.
function(verilate target)
  _verilate(${target} ${ARGN} INCLUDE_DIRS ${COSIM_HOME}/rtl/common VERILATOR_ARGS --timescale 1ps/1ps)
  target_compile_options(${target} PRIVATE -include ${_cosim_prefix}/include/cosim/tb/rtl_assert/vl_print_hook.h)
  get_target_property(inc ${target} INTERFACE_INCLUDE_DIRECTORIES)
  set_target_properties(${target} PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${inc}")
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/cosim_dut.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/cosim_plugin.cmake)
