# SPDX-License-Identifier: Apache-2.0
# One place for the warning flags every TrainScope target uses.
function(trainscope_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  # In a unity build every file is an included one, and there GCC warns of a class whose member
  # or base is of the file's anonymous namespace (-Wsubobject-linkage): in a file compiled on
  # its own, as each of ours is written to be, that is what the anonymous namespace is for.
  if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()
