# Builds consumer.cpp with nothing but the compiler and `pkg-config --cflags --libs weft`,
# as a Makefile user would, then runs it with no LD_LIBRARY_PATH (a shared libweft is found
# through the rpath that weft.pc's Libs carry):
#   cmake -DPKG_CONFIG=<exe> -DPKG_CONFIG_DIR=<prefix>/<libdir>/pkgconfig -DCXX=<compiler>
#         -DSOURCE=<consumer.cpp> -DBINARY=<output> -P pkg_config.cmake
set(ENV{PKG_CONFIG_PATH} "${PKG_CONFIG_DIR}")
unset(ENV{LD_LIBRARY_PATH})
execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs weft
  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "pkg-config --cflags --libs weft: ${flags}")
separate_arguments(flags UNIX_COMMAND "${flags}")
execute_process(COMMAND "${CXX}" -O2 "${SOURCE}" -o "${BINARY}" ${flags} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND "${BINARY}" COMMAND_ERROR_IS_FATAL ANY)
