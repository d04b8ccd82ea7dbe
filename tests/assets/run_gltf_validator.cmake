# ctest driver: installs the pinned gltf-validator from the npm registry into the build tree
# (once), then validates FILES. Without node/npm or a reachable registry the test is skipped
# visibly ("gltf-validator: SKIPPED", ctest's SKIP_REGULAR_EXPRESSION) so that `make test`
# passes offline; in CI (CI=true) the same failures fail the test, so the validator always runs
# there. Validation errors or warnings always fail.
#   cmake -DNODE=... -DNPM=... -DPREFIX=... -DVERSION=... -DSCRIPT=... -DFILES=a;b -P this
macro(unavailable why)
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "${why} (CI=true: the validator must run)")
  endif()
  message("gltf-validator: SKIPPED: ${why}")
  return()
endmacro()
foreach(var NODE NPM)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "" OR "${${var}}" MATCHES "NOTFOUND$")
    unavailable("glTF validation needs node and npm")
  endif()
endforeach()
foreach(var PREFIX VERSION SCRIPT FILES)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_gltf_validator.cmake needs -D${var}")
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
    unavailable("npm could not install gltf-validator@${VERSION} (no registry reachable?)")
  endif()
endif()

execute_process(COMMAND "${NODE}" "${SCRIPT}" "${module}" ${FILES} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the glTF validator reported errors or warnings (see above)")
endif()
