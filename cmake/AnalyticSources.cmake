# SPDX-License-Identifier: Zlib
# Sources are listed by hand, so the build says what it builds; a file left out of its list would silently
# not be built, so the configure fails on one instead.
# analytic_check_listed(DIRECTORY dir PATTERN glob FILES listed...): every file under dir whose name
# matches glob (in any subfolder) is among the listed ones (paths relative to dir).
function(analytic_check_listed)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "DIRECTORY;PATTERN" "FILES")
  file(GLOB_RECURSE present RELATIVE ${arg_DIRECTORY} ${arg_DIRECTORY}/${arg_PATTERN})
  list(REMOVE_ITEM present ${arg_FILES})
  if(present)
    list(JOIN present ", " unlisted)
    message(FATAL_ERROR "${arg_DIRECTORY}: ${unlisted} not listed in ${CMAKE_CURRENT_LIST_FILE}")
  endif()
endfunction()
