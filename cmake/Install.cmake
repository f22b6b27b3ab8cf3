# `cmake --install build/native --prefix PREFIX` (make install PREFIX=...): native builds only.
#
#   PREFIX/bin/laneql                      the program
#   PREFIX/include/laneql/*.h              the public headers
#   PREFIX/lib/liblaneql.a                 the kernel (static)
#   PREFIX/lib/liblaneql_parquet.a         Parquet input, when the build has it
#   PREFIX/lib/laneql/                     what those need that no system package provides:
#                                          Highway (libhwy.a, built here) and Arrow's libarrow /
#                                          libparquet shared libraries copied from the pyarrow wheel
#   PREFIX/lib/cmake/laneql/               find_package(laneql): laneql::laneql, laneql::parquet
#
# The private folder lib/laneql keeps those copies from shadowing (or being shadowed by) a
# Highway or Arrow that the system installs into PREFIX/lib. Every path is relative to PREFIX,
# so the tree can be moved: the program finds Arrow through $ORIGIN, consumers through
# laneqlConfig.cmake's own location. tests/install/test_install.sh checks all of this.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LANEQL_INSTALL_PRIVATE_LIBDIR "${CMAKE_INSTALL_LIBDIR}/laneql")
set(LANEQL_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/laneql")

# The kernel and the Highway library it calls into: laneql's public headers never include
# Highway's, but liblaneql.a's objects need libhwy.a at link time. Highway's own install rules
# are off (cmake/Highway.cmake); its archive is copied here and laneqlConfig.cmake makes it the
# link-only target laneql::hwy, so consumers get none of Highway's compile definitions.
install(TARGETS laneql EXPORT laneqlTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(FILES "$<TARGET_FILE:hwy>" DESTINATION "${LANEQL_INSTALL_PRIVATE_LIBDIR}")
set(excluded_headers)
if(NOT TARGET laneql_parquet)
  # Nothing to implement it with in this build.
  set(excluded_headers PATTERN parquet.h EXCLUDE)
endif()
install(DIRECTORY "${CMAKE_SOURCE_DIR}/kernel/include/laneql" DESTINATION include
        FILES_MATCHING PATTERN "*.h" ${excluded_headers})

set(LANEQL_INSTALL_HAS_PARQUET OFF)
if(TARGET laneql_parquet)
  set(LANEQL_INSTALL_HAS_PARQUET ON)
  set_target_properties(laneql_parquet PROPERTIES EXPORT_NAME parquet)
  install(TARGETS laneql_parquet EXPORT laneqlTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
  # The wheel's libarrow.so.N / libparquet.so.N (versioned names only; their RUNPATH is $ORIGIN,
  # so libparquet finds libarrow beside it). Nothing else from the wheel is needed: both list
  # only system libraries besides each other (readelf -d).
  get_target_property(arrow_so laneql_libarrow IMPORTED_LOCATION)
  get_target_property(parquet_so laneql_libparquet IMPORTED_LOCATION)
  install(FILES "${arrow_so}" "${parquet_so}" DESTINATION "${LANEQL_INSTALL_PRIVATE_LIBDIR}")
  get_filename_component(LANEQL_ARROW_SO_NAME "${arrow_so}" NAME)
  get_filename_component(LANEQL_PARQUET_SO_NAME "${parquet_so}" NAME)
endif()
set(LANEQL_HWY_ARCHIVE_NAME "${CMAKE_STATIC_LIBRARY_PREFIX}hwy${CMAKE_STATIC_LIBRARY_SUFFIX}")

if(TARGET laneql_cli)
  install(TARGETS laneql_cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  if(TARGET laneql_parquet)
    # The installed program loads Arrow from PREFIX/lib/laneql wherever PREFIX is; the build-tree
    # program keeps its BUILD_RPATH into the venv (kernel/parquet/CMakeLists.txt).
    file(RELATIVE_PATH bin_to_private
         "/${CMAKE_INSTALL_BINDIR}" "/${LANEQL_INSTALL_PRIVATE_LIBDIR}")
    set_target_properties(laneql_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${bin_to_private}")
  endif()
endif()

install(EXPORT laneqlTargets NAMESPACE laneql:: DESTINATION "${LANEQL_INSTALL_CMAKEDIR}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/laneqlConfig.cmake.in"
  "${CMAKE_BINARY_DIR}/laneqlConfig.cmake"
  INSTALL_DESTINATION "${LANEQL_INSTALL_CMAKEDIR}"
  PATH_VARS LANEQL_INSTALL_PRIVATE_LIBDIR)
# 0.x: a new minor version may change the API, so only the same major.minor is compatible.
write_basic_package_version_file("${CMAKE_BINARY_DIR}/laneqlConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/laneqlConfig.cmake"
              "${CMAKE_BINARY_DIR}/laneqlConfigVersion.cmake"
        DESTINATION "${LANEQL_INSTALL_CMAKEDIR}")
