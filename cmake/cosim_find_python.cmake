# cosim_find_python(<var> <module> <doc>): sets the cache variable <var> to a
# python3 that can `import <module>`, unless <var> is already set: Debian's
# /usr/bin/python3 (its python3-* packages come from scripts/bootstrap.sh)
# before whatever python3 is first on PATH (pyenv, a venv...). <var> stays
# unset when none can.
function(cosim_find_python var module doc)
  if(${var})
    return()
  endif()
  find_program(_cosim_path_python3 python3)
  foreach(py /usr/bin/python3 ${_cosim_path_python3})
    if(EXISTS ${py})
      execute_process(COMMAND ${py} -c "import ${module}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
      if(rc EQUAL 0)
        set(${var} ${py} CACHE FILEPATH "${doc}")
        return()
      endif()
    endif()
  endforeach()
endfunction()
