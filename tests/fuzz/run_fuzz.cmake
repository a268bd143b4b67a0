# SPDX-License-Identifier: Zlib
# Runs one fuzz target as a test: its corpus and a fixed number of mutated inputs from a fixed seed,
# new inputs into an emptied scratch folder (so a run is the same on every machine, and nothing is
# written into the repository). -D TARGET, CORPUS, SCRATCH, RUNS.
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
if(NOT IS_DIRECTORY ${CORPUS})
  message(FATAL_ERROR "${TARGET} has no corpus at ${CORPUS}: add a few inputs (scripts/fuzz.sh's header says how)")
endif()
execute_process(COMMAND ${TARGET} ${SCRATCH} ${CORPUS} -seed=1 -runs=${RUNS} -max_total_time=300 -timeout=10
                        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=${SCRATCH}/
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${TARGET} found a failing input (exit ${result}): see above; it is in ${SCRATCH}")
endif()
