# Install rules (WEFT_INSTALL): headers, libweft, the CMake package (export set weftTargets,
# weftConfig.cmake, weftConfigVersion.cmake) and weft.pc; plus a build-tree export so that
# find_package(weft) also works with weft_DIR=<build dir>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(WEFT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/weft"
    CACHE STRING "Where weftConfig.cmake is installed, relative to the prefix")

install(TARGETS weft EXPORT weftTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT weftTargets NAMESPACE weft:: DESTINATION ${WEFT_INSTALL_CMAKEDIR})

# One config file serves both trees: it only includes weftTargets.cmake next to itself.
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/weftConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/weftConfig.cmake"
  INSTALL_DESTINATION ${WEFT_INSTALL_CMAKEDIR})
# The API may change between minor versions while weft is 0.x.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/weftConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/weftConfig.cmake"
  "${PROJECT_BINARY_DIR}/weftConfigVersion.cmake" DESTINATION ${WEFT_INSTALL_CMAKEDIR})
export(EXPORT weftTargets NAMESPACE weft:: FILE "${PROJECT_BINARY_DIR}/weftTargets.cmake")

# weft.pc: relocatable (paths relative to ${pcfiledir}) unless the install dirs are absolute.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_weft_pc_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _weft_pc_up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" _weft_pc_up "${_weft_pc_up}")
  set(_weft_pc_prefix "\${pcfiledir}/${_weft_pc_up}")
endif()
foreach(_dir IN ITEMS LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(_weft_pc_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(_weft_pc_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
# A shared libweft is found at run time through the rpath the program was linked with: the
# prefix is rarely on the loader's path.
get_target_property(_weft_type weft TYPE)
set(_weft_pc_rpath "")
if(_weft_type STREQUAL "SHARED_LIBRARY")
  set(_weft_pc_rpath " -Wl,-rpath,\${libdir}")
endif()
configure_file("${PROJECT_SOURCE_DIR}/cmake/weft.pc.in" "${PROJECT_BINARY_DIR}/weft.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/weft.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
