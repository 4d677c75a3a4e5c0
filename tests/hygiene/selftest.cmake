# The controls of the hygiene checks: each check must reject a small tree with known faults,
# naming every fault and nothing else (the ctest hygiene.<check> runs it on the real tree).
#   cmake -DCHECK=<layers|doc_links|narrative|version> -DCMAKE_DIR=<weft>/cmake -DWORK=<scratch dir> -P selftest.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")

if(CHECK STREQUAL "layers")
  file(WRITE "${WORK}/include/weft/detail/sync/ok.hpp" "#include \"weft/detail/config.hpp\"\n")
  file(WRITE "${WORK}/include/weft/detail/sync/bad.hpp"
    "#include <atomic>\n#include \"weft/detail/sched/worker.hpp\"\n")
  file(WRITE "${WORK}/src/sched/bad.cpp" "#include \"weft/detail/fork/join_impl.hpp\"\n")
  file(WRITE "${WORK}/src/plumbing/bad.cpp" "#include \"weft/plumbing/blocks.hpp\"\n#include \"weft/iter/node.hpp\"\n")
  file(WRITE "${WORK}/src/stray.cpp" "\n")
  file(WRITE "${WORK}/include/weft/plumbing/bad.hpp"
    "#include \"weft/join.hpp\"\n  #  include <weft/detail/sched/runtime.hpp>\n")
  file(WRITE "${WORK}/include/weft/iter/bad.hpp"
    "#include \"weft/plumbing/bridge.hpp\"\n#include \"weft/scope.hpp\"\n")
  file(WRITE "${WORK}/include/weft/kernels/bad.hpp"
    "#include \"weft/execution.hpp\"\n#include \"weft/plumbing/bridge.hpp\"\n#include \"weft/iter/node.hpp\"\n")
  file(WRITE "${WORK}/include/weft/weft.hpp"
    "#include \"weft/iter.hpp\"\n#include \"weft/detail/config.hpp\"\n")
  file(WRITE "${WORK}/include/weft/detail/unplaced.hpp" "\n")
  file(WRITE "${WORK}/tests/api/ok_test.cpp" "#include <weft/weft.hpp>\n// weft::plumbing::split_options\n")
  file(WRITE "${WORK}/tests/api/bad_test.cpp" "#include <weft/weft.hpp>\nauto* w = weft::detail::current_worker;\n")
  set(expect
    "detail/sync/bad.hpp: L0 sync .detail/sync/. includes weft/detail/sched/worker.hpp"
    "src/sched/bad.cpp: L1 sched .detail/sched/, src/sched/. includes weft/detail/fork/join_impl.hpp"
    "src/plumbing/bad.cpp: L3 plumbing .plumbing/, src/plumbing/. includes weft/iter/node.hpp"
    "src/stray.cpp: not in the layering table"
    "plumbing/bad.hpp: L3 plumbing .plumbing/, src/plumbing/. includes weft/detail/sched/runtime.hpp"
    "iter/bad.hpp: L4 api .iter.hpp, iter/, algorithm.hpp, algorithm/, try_traits.hpp, text.hpp, slice.hpp, par_bridge.hpp. includes weft/scope.hpp"
    "kernels/bad.hpp: L4 kernels .kernels/, src/kernels/. includes weft/iter/node.hpp"
    "weft.hpp: umbrella .weft.hpp. includes weft/detail/config.hpp"
    "detail/unplaced.hpp: not in the layering table"
    "tests/api/bad_test.cpp: the black-box tests name weft's internals: auto. w = weft::detail::current_worker;")
  set(unexpected "ok.hpp" "weft/join.hpp," "bridge.hpp," "blocks.hpp," "weft/iter.hpp," "ok_test.cpp"
    "weft/execution.hpp,")
elseif(CHECK STREQUAL "doc_links")
  set(D docs)  # never the literal: check_doc_links.cmake reads this file too
  file(WRITE "${WORK}/${D}/a.md" [[
# Title
## Life of `join` (fast path)
## Repeated
## Repeated
```cpp
# not a heading
```
<a name="explicit"></a>
]])
  file(WRITE "${WORK}/${D}/b.md" [[
See [a](a.md#title), [join](a.md#life-of-join-fast-path), [again](a.md#repeated-1),
[explicit](a.md#explicit), [the web](https://example.org/x.md#y), [dir](../src/).
Dead: [nope](a.md#nope), [fenced](a.md#not-a-heading), [here](#here), [gone](c.md).
]])
  file(WRITE "${WORK}/src/x.cpp"
    "// Protocol: ${D}/a.md#repeated, ${D}/a.md and ${D}/a.md#life-of-join-fast-path.\n"
    "// Dead: ${D}/a.md#missing, ${D}/missing.md.\n")
  set(expect
    "${D}/b.md: a.md#nope: no heading with that anchor"
    "${D}/b.md: a.md#not-a-heading: no heading with that anchor"
    "${D}/b.md: #here: no heading with that anchor"
    "${D}/b.md: c.md: no such file"
    "src/x.cpp: ${D}/a.md#missing: no heading with that anchor"
    "src/x.cpp: ${D}/missing.md: no such file")
  set(unexpected "#title" "fast-path:" "repeated-1" "explicit" "example.org" "src/:"
    "${D}/a.md#repeated:" "${D}/a.md:")
elseif(CHECK STREQUAL "narrative")
  set(D docs)
  file(WRITE "${WORK}/include/weft/ok.hpp" [[
// An eighth of the input, then a fifth; the counter is used to size the leaves. W is no
// longer blocked. A ghost reading of the localhost's hostname under a hypervisor.
inline int host_bytes_ = 0, vmax = 1, vm_page = 2;
]])
  file(WRITE "${WORK}/include/weft/bad.hpp" [[
// Streamed stores cost a fifth on the Zen 5 host.
// (the diary, twenty-fourth SESSION)
inline int fine = 0;
// measured on the reference VM
]])
  file(WRITE "${WORK}/src/bad.cpp" "int x;
// It used to wait for the whole leaf.
")
  file(WRITE "${WORK}/${D}/ok.md" [[
# Scaling
Raw rows: [data](data/scaling-16t-2026-11-27b.csv), charts in img/bars_16t-2026-11-27a.svg.
Measured on an AMD EPYC family 26 with 2 vCPUs.
]])
  file(WRITE "${WORK}/${D}/bad.md" [[
# Benchmarks

Run on 2026-11-27 on a shared machine.
The twenty-first run, at 14:49 UTC.
Two VMs agree.
]])
  file(WRITE "${WORK}/${D}/decisions/0001-x.md" "In the twenty-first session, on the VM.
")
  file(WRITE "${WORK}/CHANGELOG.md" "The eleventh session's VM, 2026-11-26.
")
  file(WRITE "${WORK}/README.md" "# x

On its Zen 4 host.
")
  set(expect
    "include/weft/bad.hpp:1: a CPU generation"
    "include/weft/bad.hpp:2: a period of work"
    "include/weft/bad.hpp:4: a VM"
    "src/bad.cpp:2: what the code used to do"
    "${D}/bad.md:3: a date"
    "${D}/bad.md:4: an ordinal period"
    "${D}/bad.md:5: a VM"
    "README.md:3: a CPU generation")
  set(unexpected "ok.hpp" "ok.md" "decisions/0001" "CHANGELOG.md:" "bad.hpp:3:" "bad.cpp:1:"
    "bad.md:1:")
elseif(CHECK STREQUAL "version")
  set(D docs)
  file(WRITE "${WORK}/include/weft/version.hpp" "#define WEFT_VERSION_MAJOR 1
#define WEFT_VERSION_MINOR 2
#define WEFT_VERSION_PATCH 3
")
  file(WRITE "${WORK}/CMakeLists.txt" "project(weft VERSION 1.2.4 LANGUAGES CXX)\n")
  file(WRITE "${WORK}/conanfile.py" "class WeftConan:\n    name = \"weft\"\n    version = \"1.3.0\"\n")
  file(WRITE "${WORK}/CHANGELOG.md" [[
# Changelog

## [Unreleased]

## [1.2.2] - 2026-01-02

## [1.2.1] - 2026-01-01

[1.2.1]: ../../releases/tag/v1.2.1
]])
  file(WRITE "${WORK}/README.md" [[
find_package(weft 1.2 CONFIG REQUIRED); SONAME `libweft.so.1.2`
FetchContent_Declare(weft GIT_TAG v1.2.3) or GIT_TAG v1.2.2
]])
  file(WRITE "${WORK}/${D}/guide.md" [[
# Guide
Require `weft/1.2.0`, or find_package(weft 1.1.0 CONFIG), or find_package(weft 1.2.3).
]])
  set(expect
    "CMakeLists.txt: project.. says 1.2.4"
    "conanfile.py: version = .1.3.0."
    "CHANGELOG.md: the newest release is 1.2.2"
    "CHANGELOG.md: no link reference .1.2.2.: "
    "README.md:2: a tag .GIT_TAG v1.2.2."
    "${D}/guide.md:2: a Conan reference .weft/1.2.0."
    "${D}/guide.md:2: find_package .find_package.weft 1.1.0.")
  set(unexpected "README.md:1:" "v1.2.3" "weft 1.2.3" "1.2.1")
else()
  message(FATAL_ERROR "selftest.cmake: -DCHECK=layers|doc_links|narrative|version")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${WORK} -P "${CMAKE_DIR}/check_${CHECK}.cmake"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
set(problems "")
if(rc EQUAL 0)
  string(APPEND problems "  the check passed a tree with known faults\n")
endif()
foreach(line IN LISTS expect)
  if(NOT out MATCHES "${line}")
    string(APPEND problems "  not reported: ${line}\n")
  endif()
endforeach()
foreach(text IN LISTS unexpected)
  string(FIND "${out}" "${text}" at)
  if(NOT at EQUAL -1)
    string(APPEND problems "  reported but correct: ...${text}\n")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "check_${CHECK}.cmake self-test failed:\n${problems}Its output:\n${out}")
endif()
message(STATUS "check_${CHECK}.cmake rejects the faulty tree, naming each fault")
