# Narrative check (STYLE.md §4, "present tense, no diary"), run as a ctest:
#   cmake [-DROOT=<source dir>] -P check_narrative.cmake
# Fails, listing each <file>:<line>, when include/, src/, the Markdown of docs/ (but
# docs/decisions/, whose ADRs may say when and where) or README.md narrates history instead
# of stating what weft is: CHANGELOG.md and git history hold that. Case-insensitive markers:
# - `session`, `zen 4`, `zen 5`, `the vm` anywhere (the project's bar: git grep finds none);
# - `vm`, `vms`, `host`, `hosts` as words (not inside identifiers: `host_`, `vmax` pass);
# - `zen` and a digit as a word, and the ordinals from eleventh to the thirties as words
#   (periods of work; `an eighth of the input` passes);
# - an ISO date (2026-11-27) outside a .csv/.svg/.png file name, and a time of day in UTC;
# - "it / this / that / which / we / weft / code / the loop / the engine used to".
# State a figure as a fact about the design with the command that reproduces it, and name a
# machine by what it is ("an AMD EPYC family 26", "the 2-core reference machine").
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  get_filename_component(ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()

set(B "(^|[^a-z0-9_])")   # word start: not inside an identifier
set(E "([^a-z0-9_]|$)")   # word end
# Each marker: what it is, " = ", the regular expression (on the lowercased line).
set(markers
  "a period of work = session"
  "a CPU generation = zen [45]"
  "a CPU generation = ${B}zen ?[0-9]"
  "a VM = the vm"
  "a VM = ${B}vms?${E}"
  "a host = ${B}hosts?${E}"
  "an ordinal period = ${B}(eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)${E}"
  "an ordinal period = ${B}(twenty|thirty)-(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)${E}"
  "a date = 20[0-9][0-9]-[01][0-9]-[0-3][0-9]"
  "a time of day = [0-9]:[0-5][0-9] ?utc"
  "what the code used to do = ${B}(it|they|this|that|which|we|weft|code|loop|engine) used to ")
# weft_marker(<marker> <what> <regex>): splits a marker at its first " = ".
macro(weft_marker marker what_var regex_var)
  string(FIND "${marker}" " = " _at)
  string(SUBSTRING "${marker}" 0 ${_at} ${what_var})
  math(EXPR _at "${_at} + 3")
  string(SUBSTRING "${marker}" ${_at} -1 ${regex_var})
endmacro()
set(regexes "")
foreach(marker IN LISTS markers)
  weft_marker("${marker}" what regex)
  list(APPEND regexes "${regex}")
endforeach()

file(GLOB_RECURSE files RELATIVE "${ROOT}" LIST_DIRECTORIES false
  "${ROOT}/include/*" "${ROOT}/src/*" "${ROOT}/docs/*.md")
list(FILTER files EXCLUDE REGEX "^docs/decisions/")
if(EXISTS "${ROOT}/README.md")
  list(APPEND files README.md)
endif()
list(SORT files)

set(found "")
set(count 0)
foreach(file IN LISTS files)
  file(READ "${ROOT}/${file}" text)
  string(TOLOWER "${text}" text)
  # Safe for CMake lists: ';', '\' and brackets go (no marker uses them); a file name's
  # date is a name, not history.
  string(REGEX REPLACE "[;\\\\]" "," text "${text}")
  string(REGEX REPLACE "[][]" "," text "${text}")
  string(REGEX REPLACE "[a-z0-9_./-]*\\.(csv|svg|png)" "<file>" text "${text}")
  # CMake's expressions hold at most 9 groups, so the markers are tried one at a time: on the
  # whole file first, then line by line in a file that has one.
  set(suspect FALSE)
  foreach(regex IN LISTS regexes)
    if(text MATCHES "${regex}")
      set(suspect TRUE)
      break()
    endif()
  endforeach()
  if(NOT suspect)
    continue()
  endif()
  string(REPLACE "\n" ";" lines "${text}")
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    foreach(marker IN LISTS markers)
      weft_marker("${marker}" what regex)
      if(line MATCHES "${regex}")
        string(REGEX MATCH "${regex}" hit "${line}")
        string(STRIP "${hit}" hit)
        string(APPEND found "  ${file}:${n}: ${what}: \"${hit}\"\n")
        math(EXPR count "${count} + 1")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()

list(LENGTH files nfiles)
if(found)
  message(FATAL_ERROR "Narrative in the reference tree (STYLE.md §4: present tense, no diary; "
    "history belongs to git log, CHANGELOG.md and docs/decisions/), ${count} line(s):\n${found}")
endif()
message(STATUS "check_narrative: ${nfiles} files, no narrative")
