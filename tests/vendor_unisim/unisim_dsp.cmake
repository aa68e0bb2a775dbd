# The DSP48E2, DSP48E1 and DSP58 stand-ins (group unisim_dsp), included by
# CMakeLists.txt: the test tops on the group's files and their googletest
# executables (DSP48E2; DSP48E1 and DSP58), each stand-in alone under -Wall,
# user modules pasted from the vendor's templates, and each unsupported
# attribute value stopping with its line. Label: vendor.
vendor_unisim_verilate(unisim_dsp_top unisim_dsp)
cosim_gtest(test_vendor_unisim_dsp SOURCES unisim_dsp_test.cpp LIBS vendor_unisim_dsp_top_rtl LABELS vendor)
vendor_unisim_verilate(unisim_dsp_e1_58_top unisim_dsp)
cosim_gtest(test_vendor_unisim_dsp_e1_58 SOURCES unisim_dsp_e1_58_test.cpp LIBS vendor_unisim_dsp_e1_58_top_rtl
  LABELS vendor)

vendor_unisim_lint_test(vendor_unisim_lint_DSP48E2 DSP48E2 "" -Wall)
vendor_unisim_lint_test(vendor_unisim_lint_DSP48E2_unregistered DSP48E2 "" -Wall -GAREG=0 -GACASCREG=0
  -GBREG=0 -GBCASCREG=0 -GCREG=0 -GDREG=0 -GADREG=0 -GMREG=0 -GPREG=0 -GINMODEREG=0 -GOPMODEREG=0
  -GALUMODEREG=0 -GCARRYINREG=0 -GCARRYINSELREG=0)
vendor_unisim_lint_test(vendor_unisim_user_dsp user_unisim_dsp "")

vendor_unisim_rejects(DSP48E2 IS_CLK_INVERTED 2)
vendor_unisim_rejects(DSP48E2 IS_RSTP_INVERTED 2)
# vendor_unisim_dsp_rejects: vendor_unisim_attribute_rejects (CMakeLists.txt) for DSP48E2.
function(vendor_unisim_dsp_rejects attribute value shown)
  vendor_unisim_attribute_rejects(DSP48E2 ${attribute} ${value} ${shown} ${ARGN})
endfunction()
vendor_unisim_string_rejects(DSP48E2 USE_SIMD=TWO24 USE_WIDEXOR=TRUE USE_PATTERN_DETECT=PATDET
  AUTORESET_PATDET=RESET_MATCH AMULTSEL=B PREADDINSEL=D A_INPUT=ACIN USE_MULT=SQUARE)
vendor_unisim_dsp_rejects(AREG 3 3)
vendor_unisim_dsp_rejects(MREG 2 2)
vendor_unisim_dsp_rejects(ACASCREG 2 2)  # with AREG 1
vendor_unisim_dsp_rejects(BCASCREG 0 0 -GBREG=2)

# DSP48E1 and DSP58: alone under -Wall (defaults, unregistered, USE_DPORT,
# INT8), the templates' user modules, and each unsupported value.
set(vendor_unisim_dsp_unregistered -GAREG=0 -GACASCREG=0 -GBREG=0 -GBCASCREG=0 -GCREG=0 -GDREG=0 -GADREG=0
  -GMREG=0 -GPREG=0 -GINMODEREG=0 -GOPMODEREG=0 -GALUMODEREG=0 -GCARRYINREG=0 -GCARRYINSELREG=0)
foreach(prim DSP48E1 DSP58)
  vendor_unisim_lint_test(vendor_unisim_lint_${prim} ${prim} "" -Wall)
  vendor_unisim_lint_test(vendor_unisim_lint_${prim}_unregistered ${prim} "" -Wall ${vendor_unisim_dsp_unregistered})
  vendor_unisim_rejects(${prim} IS_CLK_INVERTED 2)
  vendor_unisim_rejects(${prim} IS_CARRYIN_INVERTED 2)
  vendor_unisim_string_rejects(${prim} USE_PATTERN_DETECT=PATDET AUTORESET_PATDET=RESET_NOT_MATCH USE_SIMD=FOUR12
    B_INPUT=BCIN USE_MULT=SQUARE)
  vendor_unisim_attribute_rejects(${prim} BREG 3 3)
  vendor_unisim_attribute_rejects(${prim} PREG 2 2)
  vendor_unisim_attribute_rejects(${prim} ACASCREG 0 0 -GAREG=2)
endforeach()
vendor_unisim_lint_test(vendor_unisim_lint_DSP48E1_dport DSP48E1 "" -Wall "-GUSE_DPORT=\"TRUE\"")
vendor_unisim_lint_test(vendor_unisim_lint_DSP58_int8 DSP58 "" -Wall "-GDSP_MODE=\"INT8\"")
vendor_unisim_lint_test(vendor_unisim_user_dsp48e1 user_unisim_dsp48e1 "")
vendor_unisim_lint_test(vendor_unisim_user_dsp58 user_unisim_dsp58 "")
vendor_unisim_string_rejects(DSP48E1 USE_DPORT=YES USE_SIMD=ONE58)
vendor_unisim_string_rejects(DSP58 USE_SIMD=ONE48 USE_WIDEXOR=TRUE DSP_MODE=FP32 DSP_MODE=CINT18 RESET_MODE=ASYNC)
vendor_unisim_attribute_rejects(DSP58 AMULTSEL "\"AD\"" "\"AD\"" "-GDSP_MODE=\"INT8\"")
vendor_unisim_attribute_rejects(DSP58 BMULTSEL "\"AD\"" "\"AD\"" "-GDSP_MODE=\"INT8\"")
vendor_unisim_string_rejects(DSP58 PREADDINSEL=D)
vendor_unisim_rejects(DSP58 IS_ASYNC_RST_INVERTED 2)
vendor_unisim_rejects(DSP58 IS_RSTP_INVERTED 2)
