# SPDX-License-Identifier: Apache-2.0
# One place for the warning flags every TrainScope target uses.
function(trainscope_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
endfunction()
