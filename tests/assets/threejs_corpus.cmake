# ctest driver: `rigview --optimize-animations` on the animated characters of the corpus
# (RIGVIEW_CORPUS, read at test time), then three.js (threejs_check.mjs through
# run_npm_check.cmake) opens every copy and plays it against rigview playing the original, with
# the issue's metric at 7 times per clip between the keys. three.js builds its matrices from the
# SHORT keys as stored (it does not renormalize them), so this checks the writer's guarantee for
# such a player, and its shared accessors (RecursiveSkeletons). Without RIGVIEW_CORPUS the test
# is skipped visibly; with it naming a missing folder it fails.
#   cmake -DRIGVIEW=... -DOUT=... -DRUNNER=run_npm_check.cmake -DNODE=... -DNPM=... -DPREFIX=...
#         -DPACKAGE=three -DVERSION=... -DSCRIPT=threejs_check.mjs -DLIMIT=... -P this
include("${CMAKE_CURRENT_LIST_DIR}/require_corpus.cmake")  # sets corpus
if(corpus STREQUAL "")
  return()  # skipped
endif()
set(models
  Fox/Fox.glb
  CesiumMan/CesiumMan.glb
  RiggedFigure/RiggedFigure.glb
  RecursiveSkeletons/RecursiveSkeletons.glb
  RobotExpressive/RobotExpressive.glb
  QuaterniusRobot/robot.glb
  girl/girl.glb
  greenman/greenman.glb
  MorphStressTest/MorphStressTest.gltf)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(pairs "")
foreach(relative IN LISTS models)
  set(model "${corpus}/${relative}")
  if(NOT EXISTS "${model}")
    message(FATAL_ERROR "${relative} is missing from the corpus")
  endif()
  string(REGEX REPLACE "[/.]" "_" name "${relative}")
  set(output "${OUT}/${name}.glb")
  execute_process(COMMAND "${RIGVIEW}" "${model}" --optimize-animations "${output}"
                  RESULT_VARIABLE result OUTPUT_VARIABLE summary ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${relative}: not written: ${error}")
  endif()
  string(STRIP "${summary}" summary)
  message("${summary}")
  list(APPEND pairs "${model}" "${output}")
endforeach()
execute_process(
  COMMAND "${CMAKE_COMMAND}" "-DNODE=${NODE}" "-DNPM=${NPM}" "-DPREFIX=${PREFIX}"
          "-DPACKAGE=${PACKAGE}" "-DVERSION=${VERSION}" "-DSCRIPT=${SCRIPT}"
          "-DARGS=${RIGVIEW};${LIMIT};${pairs}" -P "${RUNNER}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "three.js did not open or play an optimized corpus file within the limit")
endif()
