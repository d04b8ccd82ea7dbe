# ctest driver of benchmarks_smoke: every benchmark of rig_benchmarks runs briefly once.
#   cmake -DBENCHMARK=<rig_benchmarks> -DSOURCE_DIR=<repo> -DOUT=<file.json> -P smoke.cmake
# RIGVIEW_CORPUS unset → prints "benchmarks_smoke: SKIPPED" (ctest's SKIP_REGULAR_EXPRESSION
# reports the test as skipped); set to a missing folder → fails. Fails when the binary fails,
# when it ran no benchmark, or when any benchmark reports an error (SkipWithError).
cmake_minimum_required(VERSION 3.25)
foreach(var BENCHMARK SOURCE_DIR OUT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "benchmarks_smoke: ${var} is not set")
  endif()
endforeach()

if("$ENV{RIGVIEW_CORPUS}" STREQUAL "")
  message("benchmarks_smoke: SKIPPED: RIGVIEW_CORPUS is not set (the benchmarks read the corpus)")
  return()
endif()
set(corpus "$ENV{RIGVIEW_CORPUS}")
if(NOT IS_ABSOLUTE "${corpus}")
  set(corpus "${SOURCE_DIR}/${corpus}")
endif()
if(NOT IS_DIRECTORY "${corpus}")
  message(FATAL_ERROR "benchmarks_smoke: RIGVIEW_CORPUS points at a missing folder: ${corpus}")
endif()

file(REMOVE "${OUT}")
execute_process(
  COMMAND "${BENCHMARK}" --benchmark_min_time=0.001 "--benchmark_out=${OUT}"
          --benchmark_out_format=json
  OUTPUT_VARIABLE console ERROR_VARIABLE console
  RESULT_VARIABLE result)
message("${console}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "benchmarks_smoke: ${BENCHMARK} exited with ${result}")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "benchmarks_smoke: no JSON report was written to ${OUT}")
endif()

file(READ "${OUT}" report)
string(JSON count ERROR_VARIABLE json_error LENGTH "${report}" benchmarks)
if(json_error)
  message(FATAL_ERROR "benchmarks_smoke: unreadable JSON report ${OUT}: ${json_error}")
endif()
if(count EQUAL 0)
  message(FATAL_ERROR "benchmarks_smoke: no benchmark ran")
endif()
set(errors "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${report}" benchmarks ${i} name)
  string(JSON failed ERROR_VARIABLE no_flag GET "${report}" benchmarks ${i} error_occurred)
  if(NOT no_flag AND failed)
    string(JSON why ERROR_VARIABLE no_message GET "${report}" benchmarks ${i} error_message)
    list(APPEND errors "${name}: ${why}")
  endif()
endforeach()
# The console reporter's marker too, in case a reporter version leaves the JSON flag out.
if(console MATCHES "ERROR OCCURRED" AND NOT errors)
  list(APPEND errors "the console output reports ERROR OCCURRED")
endif()
if(errors)
  list(JOIN errors "\n  " lines)
  message(FATAL_ERROR "benchmarks_smoke: benchmarks reported errors:\n  ${lines}")
endif()
message("benchmarks_smoke: ${count} benchmarks ran without errors")
