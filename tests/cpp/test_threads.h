// Tests that start threads of their own, or need a pool of more than one thread, skip in a
// build that cannot start any: the wasm scalar flavour has no pthreads (its module runs in
// engines without wasm SIMD, threads or not), and its kernel tests are built with it, so that
// its Highway target (EMU128) is tested without a second build of the kernel. The parallel
// drivers are tested natively and in the simd128-mt flavour.
#ifndef LANEQL_TESTS_CPP_TEST_THREADS_H_
#define LANEQL_TESTS_CPP_TEST_THREADS_H_

#include <gtest/gtest.h>

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define LANEQL_SKIP_WITHOUT_THREADS() GTEST_SKIP() << "no threads in this build"
#else
#define LANEQL_SKIP_WITHOUT_THREADS() static_cast<void>(0)
#endif

#endif  // LANEQL_TESTS_CPP_TEST_THREADS_H_
