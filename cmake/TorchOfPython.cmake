# SPDX-License-Identifier: Apache-2.0
# Where TRAINSCOPE_FIXTURE_PYTHON is named before configuring, its torch's CMake files
# (torch.utils.cmake_prefix_path) come first in the search for LibTorch, and its pybind11's
# where it has one: a PyTorch 2.x from pip brings both. Without it, the system's LibTorch
# (Debian's libtorch-dev) is used, and cmake/TorchPython.cmake finds a Python for it.
# Under pip (scikit-build-core), the Python that builds is the one the package is for.
if(SKBUILD AND NOT TRAINSCOPE_FIXTURE_PYTHON)
  set(TRAINSCOPE_FIXTURE_PYTHON ${Python_EXECUTABLE} CACHE FILEPATH "The Python of the build")
  set(torch_missing_hint ": install with `pip install --no-build-isolation .` into the "
                         "environment whose torch trainscope is for")
endif()
if(TRAINSCOPE_FIXTURE_PYTHON)
  execute_process(COMMAND ${TRAINSCOPE_FIXTURE_PYTHON} -c
                          "import torch; print(torch.utils.cmake_prefix_path); print(torch.__version__)"
                  OUTPUT_VARIABLE torch_of_python RESULT_VARIABLE torch_of_python_status
                  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT torch_of_python_status EQUAL 0)
    message(FATAL_ERROR "${TRAINSCOPE_FIXTURE_PYTHON} cannot import torch "
            "(the build is for the torch of that Python)${torch_missing_hint}")
  endif()
  string(REPLACE "\n" ";" torch_of_python "${torch_of_python}")
  list(GET torch_of_python 0 torch_cmake_prefix)
  list(GET torch_of_python 1 TRAINSCOPE_PYTHON_TORCH_VERSION)
  # The package's own folder too: TorchConfig finds libtorch.so and the others with
  # find_library, which would take a system LibTorch (Debian's) before the paths it names.
  get_filename_component(torch_package_dir ${torch_cmake_prefix}/../.. ABSOLUTE)
  list(PREPEND CMAKE_PREFIX_PATH ${torch_cmake_prefix} ${torch_package_dir})
  # A CUDA PyTorch from pip brings its CUDA libraries (nvidia/*/lib beside it), which its own
  # libraries find at run time; the linker, resolving their dependencies, would take a CUDA
  # toolkit's older ones (an older NCCL lacks symbols libtorch_cuda.so needs).
  file(GLOB nvidia_library_dirs LIST_DIRECTORIES true "${torch_package_dir}/../nvidia/*/lib")
  foreach(dir ${nvidia_library_dirs})
    add_link_options("LINKER:-rpath-link,${dir}")
  endforeach()
  if(NOT pybind11_DIR)
    execute_process(COMMAND ${TRAINSCOPE_FIXTURE_PYTHON} -m pybind11 --cmakedir
                    OUTPUT_VARIABLE pybind11_of_python RESULT_VARIABLE pybind11_status
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(pybind11_status EQUAL 0)
      set(pybind11_DIR ${pybind11_of_python} CACHE PATH "pybind11's CMake files")
    endif()
  endif()
endif()

# The LibTorch found must be the one that Python imports (the Python host refuses to load
# otherwise): their releases (major.minor) agree.
function(trainscope_check_torch_of_python)
  if(NOT TRAINSCOPE_PYTHON_TORCH_VERSION)
    return()
  endif()
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" python_release "${TRAINSCOPE_PYTHON_TORCH_VERSION}")
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" libtorch_release "${Torch_VERSION}")
  if(NOT python_release STREQUAL libtorch_release)
    message(FATAL_ERROR "LibTorch ${Torch_VERSION} was found, but ${TRAINSCOPE_FIXTURE_PYTHON} "
            "imports torch ${TRAINSCOPE_PYTHON_TORCH_VERSION}")
  endif()
  message(STATUS "LibTorch ${Torch_VERSION}, the torch of ${TRAINSCOPE_FIXTURE_PYTHON}")
endfunction()
