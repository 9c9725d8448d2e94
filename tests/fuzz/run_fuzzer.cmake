# Runs one libFuzzer target for SECONDS on a fresh corpus in WORK, starting
# from the directories in CORPORA ("|"-separated). Fails when the fuzzer finds
# a crash, a leak, undefined behaviour or an uncaught exception (it then
# exits non-zero and leaves the input in WORK/artifacts/).
string(REPLACE "|" ";" corpora "${CORPORA}")
set(existing)
foreach(dir IN LISTS corpora)
  if(IS_DIRECTORY ${dir})
    list(APPEND existing ${dir})
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -print_final_stats=1 -timeout=20 -rss_limit_mb=2048
          -artifact_prefix=${WORK}/artifacts/ ${WORK}/corpus ${existing}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" executions "${output}")
message(STATUS "${executions}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the fuzzer failed (exit ${result}); inputs in ${WORK}/artifacts/\n${output}")
endif()
