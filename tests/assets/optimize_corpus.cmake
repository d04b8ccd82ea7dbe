# ctest driver: `rigview --optimize-animations` on every model of the corpus (RIGVIEW_CORPUS, read
# at test time), then the Khronos validator on every output and its original through
# run_npm_check.cmake: a copy may have no error its original does not have (a corpus file's own
# errors, such as unnormalized weights, stay in its copy: everything but the clips is kept).
# Without RIGVIEW_CORPUS the test is skipped visibly; with it naming a missing folder it fails.
# Models the importer refuses (the corpus's traps) write nothing and are listed.
#   cmake -DRIGVIEW=... -DOUT=... -DRUNNER=run_npm_check.cmake -DNODE=... -DNPM=... -DPREFIX=...
#         -DPACKAGE=... -DVERSION=... -DSCRIPT=... -P this
include("${CMAKE_CURRENT_LIST_DIR}/require_corpus.cmake")  # sets corpus
if(corpus STREQUAL "")
  return()  # skipped
endif()
file(GLOB_RECURSE models "${corpus}/*.glb" "${corpus}/*.gltf")
list(SORT models)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(outputs "")
foreach(model IN LISTS models)
  file(RELATIVE_PATH relative "${corpus}" "${model}")
  string(REGEX REPLACE "[/.]" "_" name "${relative}")
  set(output "${OUT}/${name}.glb")
  execute_process(COMMAND "${RIGVIEW}" "${model}" --optimize-animations "${output}"
                  RESULT_VARIABLE result OUTPUT_QUIET ERROR_VARIABLE error)
  if(result EQUAL 0)
    list(APPEND outputs "${model}" "${output}")
  else()
    string(STRIP "${error}" error)
    message("${relative}: not written: ${error}")
  endif()
endforeach()
list(LENGTH models model_count)
list(LENGTH outputs output_count)
math(EXPR output_count "${output_count} / 2")
message("${output_count} of ${model_count} corpus models optimized")
if(output_count EQUAL 0)
  message(FATAL_ERROR "no corpus model was optimized")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" "-DNODE=${NODE}" "-DNPM=${NPM}" "-DPREFIX=${PREFIX}"
          "-DPACKAGE=${PACKAGE}" "-DVERSION=${VERSION}" "-DSCRIPT=${SCRIPT}"
          "-DARGS=--no-new-errors;${outputs}" -P "${RUNNER}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the validator reported errors on an optimized corpus file (see above)")
endif()
