# ctest driver: installs the pinned gltf-validator from the npm registry into the build tree
# (once), then validates the committed assets. Any failure, including an unreachable registry
# or a missing node/npm, fails the test: nothing here skips.
#   cmake -DNODE=... -DNPM=... -DPREFIX=... -DVERSION=... -DSCRIPT=... -DFILES=a;b -P this
foreach(var NODE NPM PREFIX VERSION SCRIPT FILES)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "" OR "${${var}}" MATCHES "NOTFOUND$")
    message(FATAL_ERROR "glTF validation needs ${var} (node and npm must be installed)")
  endif()
endforeach()

set(module "${PREFIX}/node_modules/gltf-validator")
set(installed_version "")
if(EXISTS "${module}/package.json")
  file(READ "${module}/package.json" package_json)
  string(JSON installed_version ERROR_VARIABLE json_error GET "${package_json}" version)
endif()
if(NOT installed_version STREQUAL VERSION)
  file(MAKE_DIRECTORY "${PREFIX}")
  execute_process(
    COMMAND "${NPM}" install --prefix "${PREFIX}" --no-audit --no-fund --no-save
            "gltf-validator@${VERSION}"
    RESULT_VARIABLE npm_result)
  if(NOT npm_result EQUAL 0)
    message(FATAL_ERROR "npm could not install gltf-validator@${VERSION} "
                        "(is the npm registry reachable?)")
  endif()
endif()

execute_process(COMMAND "${NODE}" "${SCRIPT}" "${module}" ${FILES} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the glTF validator reported errors or warnings (see above)")
endif()
