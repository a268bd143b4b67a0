# SPDX-License-Identifier: Zlib
# Runs doxygen on DOXYFILE and fails on any of its warnings: an undocumented public symbol, a broken
# reference or command.
# doxygen opens its warning log before it makes its output folder: on a fresh build the log's folder
# must exist, and an old log must not be read as this run's.
get_filename_component(warnings_dir ${WARNINGS} DIRECTORY)
file(MAKE_DIRECTORY ${warnings_dir})
file(REMOVE ${WARNINGS})
execute_process(COMMAND ${DOXYGEN} ${DOXYFILE} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "doxygen failed (${result})")
endif()
file(STRINGS ${WARNINGS} warnings)
list(FILTER warnings EXCLUDE REGEX "^$")
if(warnings)
  list(LENGTH warnings count)
  list(JOIN warnings "\n" text)
  message(FATAL_ERROR "${text}\n${count} doxygen warnings")
endif()
