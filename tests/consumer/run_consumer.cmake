# SPDX-License-Identifier: Zlib
# Installs the build in BUILD_DIR into a private prefix and builds and runs the consumer against it.
set(prefix ${BUILD_DIR}/consumer/prefix)
set(consumer_build ${BUILD_DIR}/consumer/build)
file(REMOVE_RECURSE ${prefix} ${consumer_build})

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGV}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${consumer_build} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
run(${CMAKE_COMMAND} --build ${consumer_build})
run(${consumer_build}/consumer)
run(${consumer_build}/geometry_consumer)
