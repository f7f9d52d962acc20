# SPDX-License-Identifier: Apache-2.0
# TRAINSCOPE_FIXTURE_PYTHON: the Python whose torch the build serves. The Python host
# (python/) is built for it, and the tests run it (fixtures, the Python host's tests).
# The first Python with torch of: the python3 on the PATH (on a GPU server, the one whose
# PyTorch the build uses, a virtual environment's), then Debian's (with python3-torch).
if(NOT TRAINSCOPE_FIXTURE_PYTHON)
  find_program(path_python3 NAMES python3)
  foreach(candidate ${path_python3} /usr/bin/python3)
    execute_process(COMMAND ${candidate} -c "import torch"
                    RESULT_VARIABLE candidate_status OUTPUT_QUIET ERROR_QUIET)
    if(candidate_status EQUAL 0)
      set(TRAINSCOPE_FIXTURE_PYTHON ${candidate} CACHE FILEPATH
          "A Python with torch, to script the test fixtures")
      break()
    endif()
  endforeach()
endif()
execute_process(COMMAND ${TRAINSCOPE_FIXTURE_PYTHON} -c "import torch"
                RESULT_VARIABLE fixture_python_status OUTPUT_QUIET ERROR_QUIET)
if(NOT TRAINSCOPE_FIXTURE_PYTHON OR NOT fixture_python_status EQUAL 0)
  message(FATAL_ERROR "The tests and the Python host need a Python with torch: "
          "install python3-torch, or set TRAINSCOPE_FIXTURE_PYTHON.")
endif()

