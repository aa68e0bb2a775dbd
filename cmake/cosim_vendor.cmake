# Vendor primitive stand-ins (rtl/vendor; what they cover: rtl/vendor/README.md).
#
# cosim_vendor_sources(<out-var> <name>... [CONTEXT <text>])
#   Sets <out-var> to the SystemVerilog files, in compile order (packages
#   first, each file once), that provide the named primitives, e.g.
#     cosim_vendor_sources(srcs xpm_fifo_sync xpm_memory_sdpram)
#   A manifest's `vendor: [xpm_fifo_sync, ...]` maps onto the names. An
#   unknown name stops the configure step with one line:
#     <CONTEXT>: vendor[<i>]: unknown primitive 'xpm_fifo_async' (known: ...)
#   (CONTEXT, e.g. the manifest's path, defaults to "vendor").
#
# COSIM_VENDOR_PRIMITIVES: the known names.
# COSIM_VENDOR_RTL_DIR: the folder the files are in (rtl/vendor), which a
#   build may set before including this file (an installed copy).

if(NOT DEFINED COSIM_VENDOR_RTL_DIR)
  get_filename_component(COSIM_VENDOR_RTL_DIR "${CMAKE_CURRENT_LIST_DIR}/../rtl/vendor" ABSOLUTE)
endif()

# Per primitive: its files relative to COSIM_VENDOR_RTL_DIR, dependencies
# first, from rtl/vendor/primitives.txt (the list scripts/dutgen.py reads too).
set(COSIM_VENDOR_PRIMITIVES "")
file(STRINGS ${COSIM_VENDOR_RTL_DIR}/primitives.txt _cosim_vendor_lines REGEX "^[a-z_0-9]+:")
foreach(_line ${_cosim_vendor_lines})
  string(REGEX REPLACE "^([a-z_0-9]+):.*$" "\\1" _name "${_line}")
  string(REGEX REPLACE "^[a-z_0-9]+:[ ]*" "" _files "${_line}")
  separate_arguments(_files UNIX_COMMAND "${_files}")
  set(_cosim_vendor_${_name} ${_files})
  list(APPEND COSIM_VENDOR_PRIMITIVES ${_name})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${COSIM_VENDOR_RTL_DIR}/primitives.txt)

function(cosim_vendor_sources out)
  cmake_parse_arguments(ARG "" "CONTEXT" "" ${ARGN})
  if(NOT ARG_CONTEXT)
    set(ARG_CONTEXT "vendor")
  endif()
  set(files "")
  set(i 0)
  foreach(name ${ARG_UNPARSED_ARGUMENTS})
    list(FIND COSIM_VENDOR_PRIMITIVES "${name}" known_at)
    if(known_at EQUAL -1)
      string(REPLACE ";" ", " known "${COSIM_VENDOR_PRIMITIVES}")
      # The leading space keeps CMake from wrapping the line.
      message(FATAL_ERROR " ${ARG_CONTEXT}: vendor[${i}]: unknown primitive '${name}' (known: ${known})")
    endif()
    foreach(f ${_cosim_vendor_${name}})
      list(APPEND files ${COSIM_VENDOR_RTL_DIR}/${f})
    endforeach()
    math(EXPR i "${i} + 1")
  endforeach()
  list(REMOVE_DUPLICATES files)  # keeps the first occurrence: packages stay first
  set(${out} ${files} PARENT_SCOPE)
endfunction()
