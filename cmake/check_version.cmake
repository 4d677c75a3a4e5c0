# Version check (docs/releasing.md), run as a ctest:
#   cmake [-DROOT=<source dir>] [-DPROJECT_VERSION=<a configured build's>] -P check_version.cmake
# include/weft/version.hpp is the single source of the version. Fails, listing each
# disagreement, unless
# - CMakeLists.txt's project() reads it from version.hpp (or states the same version), and
#   PROJECT_VERSION, when given, is it too;
# - conanfile.py's set_version() reads version.hpp (or its `version = "..."` is the same);
# - CHANGELOG.md's newest release, the first `## [x.y.z] - yyyy-mm-dd` heading, is it, with
#   a link reference `[x.y.z]: ...` at the bottom;
# - README.md and docs/ ask for it wherever they name one: `find_package(weft x.y`,
#   `GIT_TAG vx.y.z`, a Conan reference `weft/x.y.z`, the SONAME `libweft.so.x.y`.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  get_filename_component(ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()

set(found "")
set(hpp "${ROOT}/include/weft/version.hpp")
if(NOT EXISTS "${hpp}")
  message(FATAL_ERROR "check_version: include/weft/version.hpp: no such file")
endif()
file(READ "${hpp}" text)
set(parts "")
foreach(part IN ITEMS MAJOR MINOR PATCH)
  if(NOT text MATCHES "#define WEFT_VERSION_${part} ([0-9]+)")
    message(FATAL_ERROR "check_version: include/weft/version.hpp: no WEFT_VERSION_${part}")
  endif()
  list(APPEND parts ${CMAKE_MATCH_1})
endforeach()
list(GET parts 0 major)
list(GET parts 1 minor)
list(GET parts 2 patch)
set(version "${major}.${minor}.${patch}")
set(version_mm "${major}.${minor}")

# CMakeLists.txt: project(weft VERSION <literal or the values parsed from version.hpp>).
file(READ "${ROOT}/CMakeLists.txt" text)
set(declared "")
if(text MATCHES "project\\(weft[ \t\n]+VERSION[ \t\n]+([^ \t\n)]+)")
  set(declared "${CMAKE_MATCH_1}")
endif()
if(declared STREQUAL "")
  string(APPEND found "  CMakeLists.txt: no project(weft VERSION ...)\n")
elseif(declared MATCHES "^[0-9.]+$")
  if(NOT declared STREQUAL version)
    string(APPEND found "  CMakeLists.txt: project() says ${declared}\n")
  endif()
elseif(NOT text MATCHES "file\\(STRINGS[ \t\n]+include/weft/version\\.hpp")
  string(APPEND found "  CMakeLists.txt: project()'s version is not read from version.hpp\n")
endif()
if(PROJECT_VERSION AND NOT PROJECT_VERSION STREQUAL version)
  string(APPEND found "  the configured build says ${PROJECT_VERSION} (reconfigure it)\n")
endif()

# conanfile.py: set_version() reading version.hpp, or a literal version attribute.
if(EXISTS "${ROOT}/conanfile.py")
  file(READ "${ROOT}/conanfile.py" text)
  if(text MATCHES "\n[ \t]*version[ \t]*=[ \t]*\"([^\"]*)\"")
    if(NOT CMAKE_MATCH_1 STREQUAL version)
      string(APPEND found "  conanfile.py: version = \"${CMAKE_MATCH_1}\"\n")
    endif()
  elseif(NOT text MATCHES "def set_version\\(" OR NOT text MATCHES "\"version\\.hpp\"")
    string(APPEND found "  conanfile.py: no version, and set_version() does not read version.hpp\n")
  endif()
endif()

# CHANGELOG.md: the newest release section and its link reference.
file(READ "${ROOT}/CHANGELOG.md" text)
if(NOT text MATCHES "\n## \\[([0-9]+\\.[0-9]+\\.[0-9]+)\\] - [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]")
  string(APPEND found "  CHANGELOG.md: no release section (## [x.y.z] - yyyy-mm-dd)\n")
else()
  set(newest "${CMAKE_MATCH_1}")
  if(NOT newest STREQUAL version)
    string(APPEND found "  CHANGELOG.md: the newest release is ${newest}\n")
  endif()
  string(REPLACE "." "\\." newest_re "${newest}")
  if(NOT text MATCHES "\n\\[${newest_re}\\]: [^\n]")
    string(APPEND found "  CHANGELOG.md: no link reference [${newest}]: ...\n")
  endif()
endif()

# README.md and docs/: every version they ask for.
file(GLOB_RECURSE docs RELATIVE "${ROOT}" LIST_DIRECTORIES false "${ROOT}/docs/*.md")
set(files README.md ${docs})
list(SORT files)
string(REPLACE "." "\\." version_re "${version}")
string(REPLACE "." "\\." version_mm_re "${version_mm}")
# Each form: what it is, " = ", what finds it, " = ", what it must be.
set(forms
  "find_package = find_package\\(weft [0-9]+\\.[0-9]+[.0-9]* = ^find_package\\(weft ${version_mm_re}(\\.|$)"
  "a tag = GIT_TAG v[0-9]+\\.[0-9]+\\.[0-9]+ = ^GIT_TAG v${version_re}$"
  "a Conan reference = weft/[0-9]+\\.[0-9]+\\.[0-9]+ = ^weft/${version_re}$"
  "a SONAME = libweft\\.so\\.[0-9]+\\.[0-9]+ = ^libweft\\.so\\.${version_mm_re}$")
# weft_form(<form> <what> <regex> <expect>): splits a form at its two " = " (a function, not
# a macro: a macro's arguments would lose a level of backslashes).
function(weft_form form what_var regex_var expect_var)
  string(FIND "${form}" " = " at)
  string(SUBSTRING "${form}" 0 ${at} what)
  math(EXPR at "${at} + 3")
  string(SUBSTRING "${form}" ${at} -1 rest)
  string(FIND "${rest}" " = " at)
  string(SUBSTRING "${rest}" 0 ${at} regex)
  math(EXPR at "${at} + 3")
  string(SUBSTRING "${rest}" ${at} -1 expect)
  set(${what_var} "${what}" PARENT_SCOPE)
  set(${regex_var} "${regex}" PARENT_SCOPE)
  set(${expect_var} "${expect}" PARENT_SCOPE)
endfunction()
foreach(file IN LISTS files)
  if(NOT EXISTS "${ROOT}/${file}")
    continue()
  endif()
  # Safe for CMake lists: ';', '\' and brackets go (no form uses them).
  file(READ "${ROOT}/${file}" text)
  string(REGEX REPLACE "[;\\\\]" "," text "${text}")
  string(REGEX REPLACE "[][]" "," text "${text}")
  set(suspect FALSE)          # line by line only in a file that names a version
  foreach(form IN LISTS forms)
    weft_form("${form}" what regex expect)
    if(text MATCHES "${regex}")
      set(suspect TRUE)
    endif()
  endforeach()
  if(NOT suspect)
    continue()
  endif()
  string(REPLACE "\n" ";" lines "${text}")
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    foreach(form IN LISTS forms)
      weft_form("${form}" what regex expect)
      string(REGEX MATCHALL "${regex}" hits "${line}")
      foreach(hit IN LISTS hits)
        if(NOT hit MATCHES "${expect}")
          string(APPEND found "  ${file}:${n}: ${what} \"${hit}\"\n")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()

if(found)
  message(FATAL_ERROR "Versions that disagree with include/weft/version.hpp (${version}; "
    "docs/releasing.md says what to change):\n${found}")
endif()
message(STATUS "check_version: ${version} in version.hpp, CMake, conanfile.py, CHANGELOG.md "
  "and the docs")
