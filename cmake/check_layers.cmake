# Layering check (STYLE.md §2), run as a ctest:  cmake [-DROOT=<source dir>] -P check_layers.cmake
# Reads every `#include "weft/..."` (or <weft/...>) in include/weft and src and fails, listing
# each one that the layering table forbids. A file the table does not place is an error too:
# new folders must be given a layer here and in STYLE.md. The black-box tests (tests/api/)
# must not name weft::detail or include a detail/ header.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  get_filename_component(ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()

# weft_layer_of(<path relative to include/ or ROOT> <out>): the file's layer, or "".
function(weft_layer_of path out)
  set(layer "")
  if(path MATCHES "^weft/detail/(config|assert)\\.hpp$")
    set(layer config)          # anyone may include these
  elseif(path STREQUAL "weft/version.hpp")
    set(layer version)
  elseif(path MATCHES "^weft/detail/sync/")
    set(layer L0)
  elseif(path MATCHES "^(weft/detail/sched/|src/sched/)")
    set(layer L1)              # src/sched/: the scheduler's cold paths and the singleton
  elseif(path MATCHES "^weft/detail/fork/")
    set(layer L2)
  elseif(path MATCHES "^weft/(join|pool)\\.hpp$")
    set(layer L2-waist)        # the narrow waist: all that L3 and L4 may see of L2
  elseif(path MATCHES "^weft/(broadcast|future|isolate|scope|spawn|stop|task_group|thread_limit|yield)\\.hpp$")
    set(layer L2-api)
  elseif(path MATCHES "^(weft/plumbing/|src/plumbing/)")
    set(layer L3)              # src/plumbing/: the block engine's compiled instances
  elseif(path MATCHES "^weft/(execution\\.hpp|algorithm/invalid_comparator\\.hpp)$")
    set(layer L4-vocab)        # the policies and the exception type: no weft include
  elseif(path MATCHES "^weft/(iter\\.hpp|iter/|algorithm\\.hpp|algorithm/|try_traits\\.hpp|text\\.hpp|slice\\.hpp|par_bridge\\.hpp)")
    set(layer L4)
  elseif(path MATCHES "^(weft/kernels/|src/kernels/)")
    set(layer L4-kernels)      # src/kernels/: the kernels' compiled parts
  elseif(path STREQUAL "weft/weft.hpp")
    set(layer umbrella)
  endif()
  set(${out} "${layer}" PARENT_SCOPE)
endfunction()

# What each layer may include (STYLE.md §2, "may include" column).
set(allowed_config config)
set(allowed_version "")
set(allowed_L0 config L0)
set(allowed_L1 config L0 L1)
set(allowed_L2 config version L0 L1 L2 L2-waist L2-api)
set(allowed_L2-waist ${allowed_L2})
set(allowed_L2-api ${allowed_L2})
set(allowed_L3 config version L2-waist L3)
set(allowed_L4-vocab "")
set(allowed_L4 config version L2-waist L3 L4 L4-vocab L4-kernels)
# The kernels (sorts, scans, compaction, streamed stores) and the compiled engine see the
# engine and the vocabulary, never the pipelines: iter/ may include them, not the reverse.
set(allowed_L4-kernels config version L2-waist L3 L4-vocab L4-kernels)
set(allowed_umbrella version L2-waist L2-api L3 L4 L4-vocab)
set(names_config "detail/config.hpp, detail/assert.hpp")
set(names_version "version.hpp")
set(names_L0 "L0 sync (detail/sync/)")
set(names_L1 "L1 sched (detail/sched/, src/sched/)")
set(names_L2 "L2 fork-join (detail/fork/)")
set(names_L2-waist "L2 public (join.hpp, pool.hpp)")
set(names_L2-api "L2 public (broadcast.hpp, future.hpp, isolate.hpp, scope.hpp, spawn.hpp, stop.hpp, task_group.hpp, thread_limit.hpp, yield.hpp)")
set(names_L3 "L3 plumbing (plumbing/, src/plumbing/)")
set(names_L4-vocab "L4 vocabulary (execution.hpp, algorithm/invalid_comparator.hpp)")
set(names_L4 "L4 api (iter.hpp, iter/, algorithm.hpp, algorithm/, try_traits.hpp, text.hpp, slice.hpp, par_bridge.hpp)")
set(names_L4-kernels "L4 kernels (kernels/, src/kernels/)")
set(names_umbrella "umbrella (weft.hpp)")

file(GLOB_RECURSE files RELATIVE "${ROOT}"
  "${ROOT}/include/weft/*.hpp" "${ROOT}/include/weft/*.h"
  "${ROOT}/src/*.hpp" "${ROOT}/src/*.h" "${ROOT}/src/*.cpp")
list(SORT files)
set(violations "")
set(count 0)
foreach(file IN LISTS files)
  string(REGEX REPLACE "^include/" "" path "${file}")
  weft_layer_of("${path}" from)
  if(from STREQUAL "")
    string(APPEND violations "  ${file}: not in the layering table (give its folder a layer)\n")
    continue()
  endif()
  file(STRINGS "${ROOT}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]weft/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]*)[\">].*$" "\\1" target "${line}")
    math(EXPR count "${count} + 1")
    weft_layer_of("${target}" to)
    if(to STREQUAL "")
      string(APPEND violations "  ${file}: includes ${target}, which the layering table does not place\n")
    elseif(NOT to IN_LIST allowed_${from})
      set(may "")
      foreach(layer IN LISTS allowed_${from})
        list(APPEND may "${names_${layer}}")
      endforeach()
      list(JOIN may "; " may)
      if(may STREQUAL "")
        set(may "nothing in weft")
      endif()
      string(APPEND violations "  ${file}: ${names_${from}} includes ${target}, "
        "which is ${names_${to}}\n      (${names_${from}} may include only: ${may})\n")
    endif()
  endforeach()
endforeach()

# tests/api/ is black-box: it reaches weft through the public API only. White-box tests
# (naming weft::detail or including a detail/ header) belong under tests/unit/.
file(GLOB_RECURSE api_tests RELATIVE "${ROOT}" "${ROOT}/tests/api/*.cpp" "${ROOT}/tests/api/*.hpp")
list(SORT api_tests)
foreach(file IN LISTS api_tests)
  file(STRINGS "${ROOT}/${file}" lines REGEX "detail::|weft/detail/")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    string(APPEND violations "  ${file}: the black-box tests name weft's internals: ${line}\n"
      "      (white-box tests go under tests/unit/)\n")
  endforeach()
endforeach()

list(LENGTH files nfiles)
if(violations)
  message(FATAL_ERROR "Layering violations (STYLE.md §2):\n${violations}")
endif()
message(STATUS "check_layers: ${nfiles} files, ${count} weft includes, no violations")
