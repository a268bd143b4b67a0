# SPDX-License-Identifier: Zlib
# Our own code builds warning-free; Bullet, GLM and GoogleTest come in as system headers.
function(analytic_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  if(ANALYTIC_NATIVE)
    target_compile_options(${target} PRIVATE -march=native)
  endif()
endfunction()
