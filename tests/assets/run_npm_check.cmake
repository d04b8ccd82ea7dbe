# ctest driver: installs a pinned npm package (the Khronos gltf-validator, three.js) into the
# build tree (once), then runs `node SCRIPT <package dir> ARGS...`. Without node/npm or a reachable
# registry the test is skipped visibly ("<package>: SKIPPED", ctest's SKIP_REGULAR_EXPRESSION) so
# that `make test` passes offline; in CI (CI=true) the same failures fail the test, so the check
# always runs there. A non-zero exit of the script always fails.
#   cmake -DNODE=... -DNPM=... -DPREFIX=... -DPACKAGE=... -DVERSION=... -DSCRIPT=... -DARGS=a;b -P this
macro(unavailable why)
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "${why} (CI=true: ${PACKAGE} must run)")
  endif()
  message("${PACKAGE}: SKIPPED: ${why}")
  return()
endmacro()
foreach(var PACKAGE PREFIX VERSION SCRIPT ARGS)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_npm_check.cmake needs -D${var}")
  endif()
endforeach()
foreach(var NODE NPM)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "" OR "${${var}}" MATCHES "NOTFOUND$")
    unavailable("this check needs node and npm")
  endif()
endforeach()

set(module "${PREFIX}/node_modules/${PACKAGE}")
set(installed_version "")
if(EXISTS "${module}/package.json")
  file(READ "${module}/package.json" package_json)
  string(JSON installed_version ERROR_VARIABLE json_error GET "${package_json}" version)
endif()
if(NOT installed_version STREQUAL VERSION)
  file(MAKE_DIRECTORY "${PREFIX}")
  execute_process(
    COMMAND "${NPM}" install --prefix "${PREFIX}" --no-audit --no-fund --no-save
            "${PACKAGE}@${VERSION}"
    RESULT_VARIABLE npm_result)
  if(NOT npm_result EQUAL 0)
    unavailable("npm could not install ${PACKAGE}@${VERSION} (no registry reachable?)")
  endif()
endif()

execute_process(COMMAND "${NODE}" "${SCRIPT}" "${module}" ${ARGS} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} failed (see above)")
endif()
