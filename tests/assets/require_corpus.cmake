# Included by the corpus ctest drivers: sets `corpus` from RIGVIEW_CORPUS (read at test time).
# Unset: prints "corpus: SKIPPED" (ctest's SKIP_REGULAR_EXPRESSION) and leaves `corpus` empty,
# for the driver to return (an included file's return() ends only the include); naming a
# missing folder: fails. A relative value is taken from the repository root, as the C++ tests
# take it (tests/support/test_support.h).
set(corpus "$ENV{RIGVIEW_CORPUS}")
if(corpus STREQUAL "")
  message("corpus: SKIPPED: RIGVIEW_CORPUS is not set")
elseif(NOT IS_ABSOLUTE "${corpus}")
  get_filename_component(corpus "${CMAKE_CURRENT_LIST_DIR}/../../${corpus}" ABSOLUTE)
endif()
if(NOT corpus STREQUAL "" AND NOT IS_DIRECTORY "${corpus}")
  message(FATAL_ERROR "RIGVIEW_CORPUS=${corpus} is not a folder")
endif()
