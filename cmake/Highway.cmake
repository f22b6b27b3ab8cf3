# Google Highway 1.2.0, built from source as part of this build (native and wasm alike).
#
# The normal route is the pinned GitHub release below. tools/setup/setup.sh provides the same
# source locally (from crates.io, the only reachable registry that carries it) and the Makefile
# passes -DFETCHCONTENT_SOURCE_DIR_HWY=.deps/highway-1.2.0, so nothing is downloaded at build time.
include(FetchContent)
FetchContent_Declare(hwy
  URL https://github.com/google/highway/archive/refs/tags/1.2.0.tar.gz
  URL_HASH SHA256=7e0be78b8318e8bdbf6fa545d2ecb4c90f947df03f7aadc42c1967f019e63343
  DOWNLOAD_EXTRACT_TIMESTAMP ON)

set(HWY_ENABLE_TESTS OFF CACHE BOOL "" FORCE)
set(HWY_ENABLE_EXAMPLES OFF CACHE BOOL "" FORCE)
set(HWY_ENABLE_INSTALL OFF CACHE BOOL "" FORCE)
# contrib/ would build vqsort for every target (minutes); the pieces we use are added by hand.
set(HWY_ENABLE_CONTRIB OFF CACHE BOOL "" FORCE)
set(HWY_FORCE_STATIC_LIBS ON CACHE BOOL "" FORCE)
FetchContent_MakeAvailable(hwy)

# Which targets every translation unit compiles for. HWY_TARGETS is a macro evaluated in each
# TU, so the same definitions go to Highway's own library (PUBLIC: they reach us through it).
# - Native x86-64: AVX3_SPR, AVX3_ZEN4, AVX3, AVX2, SSE4, plus the portable fallback (SCALAR
#   with g++, EMU128 with clang), which is also what our scalar-reference comparisons run on.
#   SSE2/SSSE3 are left out: every x86-64 CPU without SSE4 is >15 years old, and each target
#   costs compile time for every kernel.
# - aarch64: NEON, SVE, SVE2 (+ fixed-width variants) and the fallback.
# - wasm: one static target per build (WASM with -msimd128, EMU128 without).
if(EMSCRIPTEN)
  # No run-time dispatch on wasm: the flavour's static target only.
  set(LANEQL_HWY_DEFINITIONS HWY_COMPILE_ONLY_STATIC)
else()
  set(LANEQL_HWY_DEFINITIONS HWY_COMPILE_ALL_ATTAINABLE)
  # More targets to leave out, as Highway target bits joined by |: the sanitizer build keeps one
  # target per vector width (instrumented code for six targets takes many minutes to compile).
  set(LANEQL_EXTRA_DISABLED_TARGETS "" CACHE STRING
      "Highway targets to leave out besides SSE2/SSSE3, e.g. HWY_AVX3|HWY_AVX3_ZEN4")
  # (On aarch64 nothing is left out by default; the extra list applies there too.)
  set(_disabled "")
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    set(_disabled "HWY_SSE2|HWY_SSSE3")
  endif()
  if(LANEQL_EXTRA_DISABLED_TARGETS)
    if(_disabled)
      string(APPEND _disabled "|")
    endif()
    string(APPEND _disabled "${LANEQL_EXTRA_DISABLED_TARGETS}")
  endif()
  if(_disabled)
    list(APPEND LANEQL_HWY_DEFINITIONS "HWY_DISABLED_TARGETS=(${_disabled})")
  endif()
endif()
target_compile_definitions(hwy PUBLIC ${LANEQL_HWY_DEFINITIONS})
# Highway's public headers are not ours to warn about.
get_target_property(_hwy_inc hwy INTERFACE_INCLUDE_DIRECTORIES)
set_target_properties(hwy PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${_hwy_inc}")
# Highway builds a tool that prints its targets after every build; it is noise here (and under
# Emscripten it would need an emulator), so it is built only on request.
if(TARGET hwy_list_targets)
  set_target_properties(hwy_list_targets PROPERTIES EXCLUDE_FROM_ALL TRUE)
endif()
