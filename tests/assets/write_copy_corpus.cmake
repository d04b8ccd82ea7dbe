# ctest driver: `rigview MODEL --write-copy` (the document writer without edits) of every corpus
# model (RIGVIEW_CORPUS, read at test time), as GLB and as a self-contained .gltf. Each copy must
#   * reopen with the same `--info` as its original (all but the "file" member), and
#   * have exactly its original's Khronos validator error and warning codes, each as many times
#     (run_npm_check.cmake: skipped visibly without npm's registry, required in CI).
# A model the importer refuses (the corpus's traps) must be refused by --write-copy too, with
# nothing written. Without RIGVIEW_CORPUS the test is skipped visibly; naming a missing folder
# fails.
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

# --info without its "file" member ("" when rigview refuses the file).
function(info_of path result)
  execute_process(COMMAND "${RIGVIEW}" "${path}" --info RESULT_VARIABLE rc OUTPUT_VARIABLE info
                  ERROR_QUIET)
  if(NOT rc EQUAL 0)
    set(${result} "" PARENT_SCOPE)
    return()
  endif()
  string(JSON info REMOVE "${info}" file)
  set(${result} "${info}" PARENT_SCOPE)
endfunction()

set(pairs "")
set(problems "")
set(refused 0)
foreach(model IN LISTS models)
  file(RELATIVE_PATH relative "${corpus}" "${model}")
  string(REGEX REPLACE "[/.]" "_" name "${relative}")
  info_of("${model}" original)
  foreach(ext glb gltf)
    set(copy "${OUT}/${name}.${ext}")
    execute_process(COMMAND "${RIGVIEW}" "${model}" --write-copy "${copy}"
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE error)
    if(original STREQUAL "")
      if(rc EQUAL 0 OR EXISTS "${copy}")
        string(APPEND problems "${relative}: refused by --info but copied to ${copy}\n")
      endif()
      continue()
    endif()
    if(NOT rc EQUAL 0)
      string(STRIP "${error}" error)
      string(APPEND problems "${relative}: not copied: ${error}\n")
      continue()
    endif()
    info_of("${copy}" again)
    if(NOT again STREQUAL original)
      string(APPEND problems "${relative}: the .${ext} copy's --info differs:\n  ${original}\n  ${again}\n")
    endif()
    list(APPEND pairs "${model}" "${copy}")
  endforeach()
  if(original STREQUAL "")
    math(EXPR refused "${refused} + 1")
  endif()
endforeach()
list(LENGTH models model_count)
list(LENGTH pairs copies)
math(EXPR copies "${copies} / 2")
message("${copies} copies of ${model_count} corpus models (${refused} refused, as --info refuses them)")
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
if(copies EQUAL 0)
  message(FATAL_ERROR "no corpus model was copied")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" "-DNODE=${NODE}" "-DNPM=${NPM}" "-DPREFIX=${PREFIX}"
          "-DPACKAGE=${PACKAGE}" "-DVERSION=${VERSION}" "-DSCRIPT=${SCRIPT}"
          "-DARGS=--same-codes;${pairs}" -P "${RUNNER}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "a copy's validator codes differ from its original's (see above)")
endif()
