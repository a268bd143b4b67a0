# SPDX-License-Identifier: Zlib
# Runs doxygen on DOXYFILE and fails on any of its warnings (an undocumented public symbol, a broken
# reference) but one: a data member without its own comment, whose struct's comment documents it.
execute_process(COMMAND ${DOXYGEN} ${DOXYFILE} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "doxygen failed (${result})")
endif()
file(STRINGS ${WARNINGS} warnings)
list(FILTER warnings EXCLUDE REGEX "^$")
list(FILTER warnings EXCLUDE REGEX ": warning: Member [^ ]+ \\(variable\\) of (struct|class) [^ ]+ is not documented\\.$")
if(warnings)
  list(LENGTH warnings count)
  list(JOIN warnings "\n" text)
  message(FATAL_ERROR "${text}\n${count} doxygen warnings")
endif()
