# RE2 for the wasm builds, compiled from source with the flavour's flags (-msimd128, -pthread,
# -fwasm-exceptions reach it through add_compile_options). The native builds link Debian's
# libre2-dev instead, which Debian builds from this same release, so both answer alike.
# tools/setup/setup.sh fetches the source (Debian's archive, sha256-pinned) to .deps/.
set(LANEQL_RE2_SOURCE "${CMAKE_SOURCE_DIR}/.deps/re2-2022-06-01" CACHE PATH "RE2 2022-06-01 source tree (wasm builds)")
if(NOT EXISTS "${LANEQL_RE2_SOURCE}/re2/re2.h")
  message(FATAL_ERROR "RE2 source not found at ${LANEQL_RE2_SOURCE}: run `make setup` (tools/setup/setup.sh)")
endif()
# The sources re2::RE2 needs, of those RE2's own CMakeLists.txt lists: RE2::Set, FilteredRE2 and
# MimicsPCRE (set.cc, filtered_re2.cc, prefilter*.cc, mimics_pcre.cc) are left out, as nothing
# here calls them and each flavour compiles this list again.
set(_re2_files
  re2/bitstate.cc re2/compile.cc re2/dfa.cc re2/nfa.cc re2/onepass.cc re2/parse.cc
  re2/perl_groups.cc re2/prog.cc re2/re2.cc re2/regexp.cc re2/simplify.cc re2/stringpiece.cc
  re2/tostring.cc re2/unicode_casefold.cc re2/unicode_groups.cc util/rune.cc util/strutil.cc)
list(TRANSFORM _re2_files PREPEND "${LANEQL_RE2_SOURCE}/")
add_library(laneql_re2 STATIC ${_re2_files})
target_include_directories(laneql_re2 SYSTEM PUBLIC "${LANEQL_RE2_SOURCE}")
# Third-party code: its warnings are not ours to fix.
target_compile_options(laneql_re2 PRIVATE -w)
