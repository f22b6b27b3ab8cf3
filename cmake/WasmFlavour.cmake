# One Emscripten build per wasm flavour (Highway has no run-time dispatch on wasm: a browser
# rejects a module with SIMD instructions where SIMD is unsupported, so each flavour is its own
# module and JavaScript picks one at load time).
#
#   simd128          wasm SIMD, one thread; ES module for browsers (and Node, given the bytes)
#   simd128-mt       wasm SIMD + pthreads, compiled once and linked twice:
#                    simd128-mt-web, an ES module for a browser Worker (cross-origin isolated),
#                    and simd128-mt-node, a CommonJS module for Node (worker_threads)
#   scalar           no SIMD (Highway's EMU128), one thread: engines without wasm SIMD
# simd128-mt and scalar also link the C++ kernel tests (GoogleTest, run under Node by `make
# test-wasm-kernels`) from their own objects: the WASM target with pthreads, EMU128 without
# (tests that start threads skip there, tests/cpp/test_threads.h). The scalar tests had a
# build of the kernel of their own, with pthreads: a whole wasm compile (the simd128 flavour's
# is about 760 s of CPU here) for tests alone.
set(LANEQL_WASM_FLAVOUR "simd128" CACHE STRING "simd128 | simd128-mt | scalar")
set(_flavours simd128 simd128-mt scalar)
if(NOT LANEQL_WASM_FLAVOUR IN_LIST _flavours)
  message(FATAL_ERROR "LANEQL_WASM_FLAVOUR must be one of ${_flavours}, got '${LANEQL_WASM_FLAVOUR}'")
endif()

# Workers started with the module. A synchronous join on a thread whose Worker is not running
# yet would wait forever, so no call may need more threads than the pool has. A database keeps
# threads - 1 of them for its queries while the hits generator and the CSV reader start up to
# threads - 1 more of their own, so the bindings use at most POOL_SIZE / 2 + 1 threads (5).
set(LANEQL_WASM_POOL_SIZE 8)

# Wasm exceptions (zero-cost unwinding, in Node 17+ and every current browser): a failed
# allocation deep in a query throws std::bad_alloc, which must unwind to the C ABI and become an
# error instead of aborting the module (bindings-js/capi/laneql_capi.cc).
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)

set(LANEQL_WASM_THREADS OFF)
if(LANEQL_WASM_FLAVOUR STREQUAL "simd128-mt")
  set(LANEQL_WASM_THREADS ON)
endif()

if(LANEQL_WASM_FLAVOUR STREQUAL "scalar")
  set(LANEQL_WASM_FLAVOUR_NAME scalar)
else()
  add_compile_options(-msimd128)
  set(LANEQL_WASM_FLAVOUR_NAME simd128)
endif()
if(LANEQL_WASM_THREADS)
  add_compile_options(-pthread)
  set(LANEQL_WASM_FLAVOUR_NAME simd128-mt)
endif()
