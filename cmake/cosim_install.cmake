# make install PREFIX=...: what an accelerator kept in its own repository
# needs (docs/adding-an-accelerator.md, "Your accelerator in your own repository"):
#   bin/cosim                                 the CLI (exports its symbols for plugins)
#   lib/cosim/python/cosim*.so                the Python module
#   include/cosim/{tb,cpp_model}/...          the testbench's and library's headers
#   share/cosim/{scripts,rtl/common,rtl/vendor,templates}
#                                             dutgen, shared RTL, vendor stand-ins, templates
#   lib/cosim/libcosim_{tensor,quant,ops}.a   the golden-model libraries (cosim::golden) for a project's own tests
#   lib/cmake/cosim/cosimConfig.cmake         find_package(cosim CONFIG): cosim_add_dut(), cosim_add_plugin()
install(TARGETS cosim RUNTIME DESTINATION bin)
install(TARGETS cosim_tensor cosim_quant cosim_ops ARCHIVE DESTINATION lib/cosim)
if(TARGET cosim_python)
  install(TARGETS cosim_python LIBRARY DESTINATION lib/cosim/python)
endif()
foreach(part tb cpp_model)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${part}/ DESTINATION include/cosim/${part}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.inc")
endforeach()
install(FILES ${CMAKE_SOURCE_DIR}/scripts/dutgen.py ${CMAKE_SOURCE_DIR}/scripts/dutgen_ports.py
              ${CMAKE_SOURCE_DIR}/scripts/dutgen_regtop.py ${CMAKE_SOURCE_DIR}/scripts/dutgen_isa.py
              ${CMAKE_SOURCE_DIR}/scripts/hls_import.py
              ${CMAKE_SOURCE_DIR}/scripts/rtl_import.py
        DESTINATION share/cosim/scripts)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/scripts/new-dut DESTINATION share/cosim/scripts)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/rtl/common ${CMAKE_SOURCE_DIR}/rtl/vendor DESTINATION share/cosim/rtl)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/templates DESTINATION share/cosim)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/cosimConfig.cmake ${CMAKE_SOURCE_DIR}/cmake/cosim_dut.cmake
              ${CMAKE_SOURCE_DIR}/cmake/cosim_plugin.cmake ${CMAKE_SOURCE_DIR}/cmake/cosim_find_python.cmake
        DESTINATION lib/cmake/cosim)
