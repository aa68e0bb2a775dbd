# The DSP48E2 stand-in (group unisim_dsp), included by CMakeLists.txt: the
# test top on the group's files and its googletest executable, the stand-in
# alone under -Wall, a user module pasted from the vendor's template, and each
# unsupported attribute value stopping with its line. Label: vendor.
vendor_unisim_verilate(unisim_dsp_top unisim_dsp)
cosim_gtest(test_vendor_unisim_dsp SOURCES unisim_dsp_test.cpp LIBS vendor_unisim_dsp_top_rtl LABELS vendor)

vendor_unisim_lint_test(vendor_unisim_lint_DSP48E2 DSP48E2 "" -Wall)
vendor_unisim_lint_test(vendor_unisim_lint_DSP48E2_unregistered DSP48E2 "" -Wall -GAREG=0 -GACASCREG=0
  -GBREG=0 -GBCASCREG=0 -GCREG=0 -GDREG=0 -GADREG=0 -GMREG=0 -GPREG=0 -GINMODEREG=0 -GOPMODEREG=0
  -GALUMODEREG=0 -GCARRYINREG=0 -GCARRYINSELREG=0)
vendor_unisim_lint_test(vendor_unisim_user_dsp user_unisim_dsp "")

vendor_unisim_rejects(DSP48E2 IS_CLK_INVERTED 2)
vendor_unisim_rejects(DSP48E2 IS_RSTP_INVERTED 2)
# vendor_unisim_dsp_rejects(<attribute> <value> <shown> [<-G...>...]): DSP48E2
# with <attribute>=<value> stops with "DSP48E2 stand-in: <attribute> <shown>
# is not supported".
function(vendor_unisim_dsp_rejects attribute value shown)
  string(REGEX REPLACE "[^A-Za-z0-9_]" "" tag "${value}")
  string(TOLOWER "dsp48e2_${attribute}_${tag}" name)
  vendor_unisim_lint_test(vendor_unisim_rejects_${name} DSP48E2
    "DSP48E2 stand-in: ${attribute} ${shown} is not supported" -G${attribute}=${value} ${ARGN})
endfunction()
vendor_unisim_dsp_rejects(USE_SIMD "\"TWO24\"" "\"TWO24\"")
vendor_unisim_dsp_rejects(USE_WIDEXOR "\"TRUE\"" "\"TRUE\"")
vendor_unisim_dsp_rejects(USE_PATTERN_DETECT "\"PATDET\"" "\"PATDET\"")
vendor_unisim_dsp_rejects(AUTORESET_PATDET "\"RESET_MATCH\"" "\"RESET_MATCH\"")
vendor_unisim_dsp_rejects(AMULTSEL "\"B\"" "\"B\"")
vendor_unisim_dsp_rejects(PREADDINSEL "\"D\"" "\"D\"")
vendor_unisim_dsp_rejects(A_INPUT "\"ACIN\"" "\"ACIN\"")
vendor_unisim_dsp_rejects(USE_MULT "\"SQUARE\"" "\"SQUARE\"")
vendor_unisim_dsp_rejects(AREG 3 3)
vendor_unisim_dsp_rejects(MREG 2 2)
vendor_unisim_dsp_rejects(ACASCREG 2 2)  # with AREG 1
vendor_unisim_dsp_rejects(BCASCREG 0 0 -GBREG=2)
