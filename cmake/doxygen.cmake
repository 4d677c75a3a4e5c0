# The API reference (docs/api.md): target `docs` runs Doxygen over the `///` comments of the
# public headers, include/weft/ but detail/, into <build>/docs/html. Added when weft is the
# top-level project and Doxygen is found (Debian: doxygen); WEFT_DOXYFILE_CHECK is then the
# configuration of the ctest hygiene.doxygen, the same run with every warning an error.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  message(STATUS "weft: Doxygen not found (Debian: doxygen); no `docs` target")
  return()
endif()

set(DOXYGEN_PROJECT_NAME weft)
set(DOXYGEN_PROJECT_BRIEF "${PROJECT_DESCRIPTION}")
set(DOXYGEN_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/docs")
set(DOXYGEN_FILE_PATTERNS *.hpp)
set(DOXYGEN_EXCLUDE "${PROJECT_SOURCE_DIR}/include/weft/detail")
set(DOXYGEN_EXCLUDE_SYMBOLS "weft::detail" "weft::detail::*")
set(DOXYGEN_USE_MDFILE_AS_MAINPAGE "${PROJECT_SOURCE_DIR}/docs/api.md")
# Names as users include them: <weft/join.hpp>.
set(DOXYGEN_FULL_PATH_NAMES YES)
set(DOXYGEN_STRIP_FROM_PATH "${PROJECT_SOURCE_DIR}/include")
set(DOXYGEN_STRIP_FROM_INC_PATH "${PROJECT_SOURCE_DIR}/include")
# The comments are STYLE.md §4's: a first sentence, then preconditions, thread safety,
# exceptions, allocation and complexity in prose, not \param or \brief. So every public name
# is listed, and undocumented or prose-only parameters are not warnings.
set(DOXYGEN_JAVADOC_AUTOBRIEF YES)
set(DOXYGEN_EXTRACT_ALL YES)
set(DOXYGEN_WARN_IF_UNDOCUMENTED NO)
set(DOXYGEN_WARN_IF_INCOMPLETE_DOC NO)
set(DOXYGEN_WARN_NO_PARAMDOC NO)
set(DOXYGEN_HAVE_DOT NO)          # no graphs: a few seconds, and no Graphviz to install
set(DOXYGEN_GENERATE_TREEVIEW YES)
set(DOXYGEN_QUIET YES)
doxygen_add_docs(docs "${PROJECT_SOURCE_DIR}/include/weft" "${PROJECT_SOURCE_DIR}/docs/api.md"
  COMMENT "API reference: ${PROJECT_BINARY_DIR}/docs/html/index.html")

# The check: the same configuration, its own output, warnings fail the run.
set(WEFT_DOXYFILE_CHECK "${PROJECT_BINARY_DIR}/Doxyfile.check")
file(WRITE "${WEFT_DOXYFILE_CHECK}" "@INCLUDE = ${PROJECT_BINARY_DIR}/Doxyfile.docs
OUTPUT_DIRECTORY = ${PROJECT_BINARY_DIR}/docs_check
WARN_AS_ERROR = FAIL_ON_WARNINGS
")
