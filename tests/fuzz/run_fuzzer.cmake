# cmake -DFUZZER=<binary> -DCORPUS=<seed dir> -DWORK=<scratch dir> -DSECONDS=<n> -P run_fuzzer.cmake
# Runs a libFuzzer target for SECONDS on a fresh copy of its seed corpus (the checked-in
# seeds stay as they are); crash and timeout inputs are written to WORK/.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus)
file(GLOB _seeds ${CORPUS}/*)
file(COPY ${_seeds} DESTINATION ${WORK}/corpus)
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=20 -rss_limit_mb=4096
    -print_final_stats=1 -artifact_prefix=${WORK}/ ${WORK}/corpus
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB _found ${WORK}/crash-* ${WORK}/timeout-* ${WORK}/oom-* ${WORK}/leak-*)
  message(FATAL_ERROR "fuzz: ${FUZZER} failed (${rc}); reproduce with: ${FUZZER} ${_found}")
endif()
