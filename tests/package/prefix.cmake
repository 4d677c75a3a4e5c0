# Makes a fresh install prefix for the package tests:
#   cmake -DBUILD_DIR=<weft build> -DPREFIX=<dir> [-DCONFIG=<cfg>] -P prefix.cmake
# installs that build. With -DSOURCE_DIR=<weft source> -DCXX=<compiler> it first configures
# and builds weft as a shared library in BUILD_DIR (library only: no tests, benchmarks or
# examples).
foreach(var IN ITEMS BUILD_DIR PREFIX)
  if(NOT ${var})
    message(FATAL_ERROR "prefix.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()

if(SOURCE_DIR)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BUILD_DIR}"
      -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${CONFIG} -DBUILD_SHARED_LIBS=ON
      -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCHMARKS=OFF -DWEFT_BUILD_EXAMPLES=OFF -DWEFT_INSTALL=ON
    COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --config ${CONFIG}
    COMMAND_ERROR_IS_FATAL ANY)
endif()

file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
    --config ${CONFIG}
  COMMAND_ERROR_IS_FATAL ANY)
