# Runs the two twins (-DFIRST=<program> -DSECOND=<program>) and fails unless both succeed and
# print the same thing; echoes the output so the test can also match it.
foreach(which FIRST SECOND)
  execute_process(COMMAND ${${which}} RESULT_VARIABLE rc OUTPUT_VARIABLE out_${which})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${${which}} failed (${rc})")
  endif()
endforeach()
if(NOT out_FIRST STREQUAL out_SECOND)
  message(FATAL_ERROR "the twins differ:\n${FIRST}:\n${out_FIRST}\n${SECOND}:\n${out_SECOND}")
endif()
message(STATUS "the twins agree:\n${out_FIRST}")
