# ctest driver: files saved with edits pass the Khronos glTF validator with 0 errors and 0
# warnings, as their originals (the bundled assets) do:
#   * `rigview --repair-ibm=all --save` of both assets, as GLB and as .gltf (new inverse bind
#     matrices), and
#   * the engine's skin-layer save tests' files (rig_engine_tests --gtest_filter=SkinLayerSave.*
#     with RIGVIEW_SAVE_OUTPUT_DIR): edited weights over two influence sets, FLOAT and normalized
#     UNSIGNED_BYTE / UNSIGNED_SHORT.
# Then run_npm_check.cmake (skipped visibly without npm's registry, required in CI).
#   cmake -DRIGVIEW=... -DENGINE_TESTS=... -DASSETS=... -DOUT=... -DRUNNER=run_npm_check.cmake
#         -DNODE=... -DNPM=... -DPREFIX=... -DPACKAGE=... -DVERSION=... -DSCRIPT=... -P this
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(files "")
foreach(asset mannequin twist_arm)
  foreach(ext glb gltf)
    set(saved "${OUT}/${asset}_repaired.${ext}")
    execute_process(COMMAND "${RIGVIEW}" "${ASSETS}/${asset}.glb" --repair-ibm=all --save "${saved}"
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE error)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "rigview --save ${saved} failed: ${error}")
    endif()
    list(APPEND files "${saved}")
  endforeach()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "RIGVIEW_SAVE_OUTPUT_DIR=${OUT}"
                        "${ENGINE_TESTS}" --gtest_filter=SkinLayerSave.*
                RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the skin-layer save tests failed:\n${log}")
endif()
file(GLOB engine_files "${OUT}/float_weights.glb" "${OUT}/quantized_*.glb" "${OUT}/saved_*.glb")
list(LENGTH engine_files count)
if(count LESS 5)
  message(FATAL_ERROR "the skin-layer save tests left ${count} files in ${OUT}, not 5")
endif()
list(APPEND files ${engine_files})
execute_process(
  COMMAND "${CMAKE_COMMAND}" "-DNODE=${NODE}" "-DNPM=${NPM}" "-DPREFIX=${PREFIX}"
          "-DPACKAGE=${PACKAGE}" "-DVERSION=${VERSION}" "-DSCRIPT=${SCRIPT}" "-DARGS=${files}"
          -P "${RUNNER}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "a saved file has validator errors or warnings (see above)")
endif()
