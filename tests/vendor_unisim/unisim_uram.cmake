# The UltraRAM stand-ins URAM288 and URAM288_BASE (group unisim_uram),
# included by CMakeLists.txt: the test top on the group's files and its
# googletest executable, each stand-in alone under -Wall (defaults, and every
# register, external CE, asynchronous reset and inversion), user RTL pasted
# from the vendor's templates, and each unsupported attribute value stopping
# with its line. Label: vendor.
vendor_unisim_verilate(unisim_uram_top unisim_uram)
cosim_gtest(test_vendor_unisim_uram SOURCES unisim_uram_test.cpp LIBS vendor_unisim_uram_top_rtl LABELS vendor)

set(vendor_unisim_uram_registered "-GIREG_PRE_A=\"TRUE\"" "-GIREG_PRE_B=\"TRUE\"" "-GOREG_A=\"TRUE\""
  "-GOREG_B=\"TRUE\"" "-GOREG_ECC_A=\"TRUE\"" "-GOREG_ECC_B=\"TRUE\"" "-GUSE_EXT_CE_A=\"TRUE\""
  "-GRST_MODE_B=\"ASYNC\"" "-GBWE_MODE_A=\"PARITY_INDEPENDENT\"" -GIS_CLK_INVERTED=1 -GIS_RST_B_INVERTED=1)
foreach(prim URAM288 URAM288_BASE)
  vendor_unisim_lint_test(vendor_unisim_lint_${prim} ${prim} "" -Wall)
  vendor_unisim_lint_test(vendor_unisim_lint_${prim}_registered ${prim} "" -Wall ${vendor_unisim_uram_registered})
  vendor_unisim_rejects(${prim} IS_CLK_INVERTED 2)
  vendor_unisim_rejects(${prim} IS_RDB_WR_B_INVERTED 2)
  vendor_unisim_string_rejects(${prim} EN_ECC_RD_A=TRUE EN_ECC_WR_B=TRUE EN_AUTO_SLEEP_MODE=TRUE OREG_A=YES
    IREG_PRE_B=true RST_MODE_A=ASYNCHRONOUS BWE_MODE_B=PARITY)
  vendor_unisim_attribute_rejects(${prim} AUTO_SLEEP_LATENCY 2 2)
endforeach()
vendor_unisim_string_rejects(URAM288 CASCADE_ORDER_A=FIRST CASCADE_ORDER_B=LAST REG_CAS_B=YES)
vendor_unisim_attribute_rejects(URAM288 SELF_MASK_A "11'h7FE" "\"11'h7fe\"")
vendor_unisim_attribute_rejects(URAM288_BASE AVG_CONS_INACTIVE_CYCLES 5 5)
vendor_unisim_lint_test(vendor_unisim_user_uram user_unisim_uram "")
