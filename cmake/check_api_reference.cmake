# SPDX-License-Identifier: Zlib
# Runs doxygen on DOXYFILE and fails on any of its warnings: an undocumented public symbol, a broken
# reference or command.
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
