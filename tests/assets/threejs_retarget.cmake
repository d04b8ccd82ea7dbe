# ctest driver: the three.js baseline for retargeting (threejs_retarget.mjs through
# run_npm_check.cmake). For each target ← source pair rigview writes its retarget report and
# poses, three.js's SkeletonUtils.retargetClip retargets the same clips with the same bone map,
# and the script measures both. Fails when rigview cannot retarget a pair, when our direction
# error measured from --export-pose exceeds 1° or the report's maximum by more than 0.05°;
# three.js's numbers are written to OUT/threejs_retarget.json and printed, not asserted.
# Pairs: the mannequin ↔ the generated A-pose humanoid (when assets/humanoid_apose.glb exists)
# and the mannequin ↔ the corpus's humanoids (RIGVIEW_CORPUS, read at test time). Without the
# corpus and without the A-pose asset the test is skipped visibly.
#   cmake -DRIGVIEW=... -DASSETS=... -DOUT=... -DRUNNER=run_npm_check.cmake -DNODE=... -DNPM=...
#         -DPREFIX=... -DPACKAGE=three -DVERSION=... -DSCRIPT=threejs_retarget.mjs -P this
set(mannequin "${ASSETS}/mannequin.glb")
set(pairs "")
if(EXISTS "${ASSETS}/humanoid_apose.glb")
  list(APPEND pairs "${mannequin}" "${ASSETS}/humanoid_apose.glb"
                    "${ASSETS}/humanoid_apose.glb" "${mannequin}")
endif()
# require_corpus.cmake's "SKIPPED" would mark the test skipped even when the asset pair ran.
set(corpus "")
if("$ENV{RIGVIEW_CORPUS}" STREQUAL "")
  message("threejs_retarget: RIGVIEW_CORPUS is not set: the corpus pairs are left out")
else()
  include("${CMAKE_CURRENT_LIST_DIR}/require_corpus.cmake")  # sets corpus
endif()
if(NOT corpus STREQUAL "")
  foreach(relative KayKit_Knight/Knight.glb RobotExpressive/RobotExpressive.glb
                   CesiumMan/CesiumMan.glb RiggedFigure/RiggedFigure.glb)
    set(model "${corpus}/${relative}")
    if(NOT EXISTS "${model}")
      message(FATAL_ERROR "${relative} is missing from the corpus")
    endif()
    list(APPEND pairs "${mannequin}" "${model}" "${model}" "${mannequin}")
  endforeach()
endif()
if(pairs STREQUAL "")
  message("threejs_retarget: SKIPPED: no pair (no RIGVIEW_CORPUS, no assets/humanoid_apose.glb)")
  return()
endif()
file(MAKE_DIRECTORY "${OUT}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" "-DNODE=${NODE}" "-DNPM=${NPM}" "-DPREFIX=${PREFIX}"
          "-DPACKAGE=${PACKAGE}" "-DVERSION=${VERSION}" "-DSCRIPT=${SCRIPT}"
          "-DARGS=${RIGVIEW};${OUT}/threejs_retarget.json;${pairs}" -P "${RUNNER}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "rigview's retargeting failed a pair or disagreed with its report (above)")
endif()
