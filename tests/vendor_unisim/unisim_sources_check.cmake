# cmake -DNAMES=<a|b|...> -P unisim_sources_check.cmake
# Calls cosim_vendor_sources() (cmake/cosim_vendor.cmake) on the UNISIM
# groups and checks the answer: every primitive of the groups present, each
# file once and existing, each shared body before the primitives using it.
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
include(${root}/cmake/cosim_vendor.cmake)
string(REPLACE "|" ";" names "${NAMES}")
cosim_vendor_sources(files ${names})
set(dir ${root}/rtl/vendor/unisim)
# <file>: whatever must come before it.
foreach(rule "LUT1 LUT2 LUT3 LUT4 LUT5 LUT6 LUT6_2: cosim_unisim_lut"
             "FDRE FDSE FDCE FDPE: cosim_unisim_check cosim_unisim_ff"
             "BUFG BUFGCE SRL16E SRLC32E: cosim_unisim_check"
             "SRL16E SRLC32E: cosim_unisim_srl"
             "CARRY4 CARRY8: cosim_unisim_carry"
             "MUXF7 MUXF8 MUXF9: cosim_unisim_muxf"
             "RAMB18E2 RAMB36E2 RAMB18E1 RAMB36E1: cosim_unisim_check cosim_unisim_reject cosim_unisim_ramb"
             "DSP48E2 DSP48E1 DSP58: cosim_unisim_check cosim_unisim_reject cosim_unisim_dsp_attrs cosim_unisim_dsp_reg cosim_unisim_dsp_ab cosim_unisim_dsp_alu cosim_unisim_dsp_slice"
             "URAM288 URAM288_BASE: cosim_unisim_check cosim_unisim_reject cosim_unisim_choice cosim_unisim_uram")
  string(REGEX MATCHALL "[A-Za-z0-9_]+" words "${rule}")
  string(REGEX MATCH "^[^:]*" users "${rule}")
  string(REGEX MATCHALL "[A-Za-z0-9_]+" users "${users}")
  list(REMOVE_ITEM words ${users})
  foreach(user ${users})
    list(FIND files ${dir}/${user}.sv at_user)
    if(at_user EQUAL -1 OR NOT EXISTS ${dir}/${user}.sv)
      message(FATAL_ERROR "${user}.sv is missing from ${files}")
    endif()
    foreach(body ${words})
      list(FIND files ${dir}/${body}.sv at_body)
      if(at_body EQUAL -1 OR at_body GREATER at_user OR NOT EXISTS ${dir}/${body}.sv)
        message(FATAL_ERROR "${body}.sv is not before ${user}.sv: ${files}")
      endif()
    endforeach()
  endforeach()
endforeach()
set(once ${files})
list(REMOVE_DUPLICATES once)
if(NOT once STREQUAL files)
  message(FATAL_ERROR "a file is listed twice: ${files}")
endif()
message(STATUS "unisim sources: ${files}")
