# Helpers shared by every concept folder.

# Adds every immediate subfolder of the current folder that has a CMakeLists.txt.
function(cosim_add_concept_folders)
  file(GLOB children LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(SORT children)
  foreach(child ${children})
    if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${child} AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${child}/CMakeLists.txt)
      add_subdirectory(${child})
    endif()
  endforeach()
endfunction()

# cosim_gtest(NAME src... LIBS lib... [LABELS label...])
# One googletest executable registered with CTest, test by test.
function(cosim_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest_main cosim_warnings)
  target_compile_definitions(${name} PRIVATE COSIM_MODELS_DIR="${COSIM_MODELS_DIR}"
                                             COSIM_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  # A list must reach PROPERTIES escaped, or only its first label survives.
  string(REPLACE ";" "\\;" labels "${ARG_LABELS}")
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${labels}")
endfunction()
