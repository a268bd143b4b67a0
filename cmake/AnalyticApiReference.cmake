# SPDX-License-Identifier: Zlib
# The API reference, HTML from the public headers' contracts (Debian's doxygen): target api_reference,
# written to <build>/api_reference/html. It fails on an undocumented public symbol.
find_package(Doxygen)
find_package(Perl)
if(ANALYTIC_TEST_API_REFERENCE AND NOT (DOXYGEN_FOUND AND PERL_FOUND))
  message(FATAL_ERROR "ANALYTIC_TEST_API_REFERENCE needs doxygen and perl (scripts/install-deps.sh installs them)")
endif()
if(DOXYGEN_FOUND AND PERL_FOUND)
  set(ANALYTIC_API_REFERENCE_DIR ${PROJECT_BINARY_DIR}/api_reference)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/Doxyfile.in ${PROJECT_BINARY_DIR}/Doxyfile @ONLY)
  set(api_reference_command
      ${CMAKE_COMMAND} -DDOXYGEN=$<TARGET_FILE:Doxygen::doxygen> -DDOXYFILE=${PROJECT_BINARY_DIR}/Doxyfile
      -DWARNINGS=${ANALYTIC_API_REFERENCE_DIR}/warnings.txt -P ${PROJECT_SOURCE_DIR}/cmake/check_api_reference.cmake)
  add_custom_target(api_reference COMMAND ${api_reference_command} VERBATIM
                    COMMENT "API reference: ${ANALYTIC_API_REFERENCE_DIR}/html/index.html")
endif()
