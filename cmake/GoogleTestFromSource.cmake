# GoogleTest compiled from source for builds that cannot link the host's prebuilt libgtest (it is
# x86-64 code): the wasm test builds (Emscripten) and the aarch64 cross build. Debian's googletest
# package ships the source. Provides GTest::gtest(_main) as find_package(GTest) does natively, so
# the tests' CMakeLists.txt files are the same for every build.
set(LANEQL_GTEST_SOURCE /usr/src/googletest/googletest CACHE PATH "GoogleTest source (Debian: googletest)")
if(NOT EXISTS ${LANEQL_GTEST_SOURCE}/CMakeLists.txt)
  message(FATAL_ERROR "GoogleTest source not found at ${LANEQL_GTEST_SOURCE} (apt-get install googletest)")
endif()
set(gtest_disable_pthreads OFF CACHE BOOL "" FORCE)
add_subdirectory(${LANEQL_GTEST_SOURCE} ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
# googletest >= 1.11 defines the GTest:: aliases itself; older ones do not.
if(NOT TARGET GTest::gtest)
  add_library(GTest::gtest ALIAS gtest)
  add_library(GTest::gtest_main ALIAS gtest_main)
endif()
