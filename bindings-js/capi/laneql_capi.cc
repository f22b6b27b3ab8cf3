// The flat C ABI of the wasm module: every function the TypeScript package calls, in one file.
// Plain C types only (pointers are wasm32 offsets); 64-bit results go through memory, because
// this Emscripten does not pass i64 to JavaScript as BigInt.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "laneql/sum.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"
#include "laneql/version.h"

namespace {

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* laneql_version(void) { return laneql::Version(); }

// Threads a query may use: the calling thread plus the pre-started pool in threaded flavours.
EMSCRIPTEN_KEEPALIVE int laneql_max_threads(void) {
#if defined(__EMSCRIPTEN_PTHREADS__)
  return std::max(1, std::min(laneql::LogicalProcessors(), LANEQL_WASM_POOL_SIZE + 1));
#else
  return 1;
#endif
}

// {"version", "flavour", "target", "compiled_targets", "threads"} as JSON text, valid until the
// next call.
EMSCRIPTEN_KEEPALIVE const char* laneql_info_json(void) {
  static std::string json;
  std::string compiled = "[";
  for (const laneql::SimdTarget& t : laneql::CompiledTargets()) {
    compiled += (compiled.size() > 1 ? ", " : "") + JsonString(t.name);
  }
  compiled += "]";
  json = "{\"version\": " + JsonString(laneql::Version()) +
         ", \"flavour\": " + JsonString(LANEQL_WASM_FLAVOUR_NAME) +
         ", \"target\": " + JsonString(laneql::DispatchedTarget().name) +
         ", \"compiled_targets\": " + compiled +
         ", \"threads\": " + std::to_string(laneql_max_threads()) + "}";
  return json.c_str();
}

// 64-byte aligned, as the column model wants; 0 when memory is exhausted (no abort).
EMSCRIPTEN_KEEPALIVE void* laneql_alloc(size_t bytes) {
  const size_t rounded = (std::max<size_t>(bytes, 1) + 63) & ~size_t{63};
  return std::aligned_alloc(64, rounded);
}

EMSCRIPTEN_KEEPALIVE void laneql_free(void* p) { std::free(p); }

static int ClampThreads(int threads) { return std::max(1, std::min(threads, laneql_max_threads())); }

EMSCRIPTEN_KEEPALIVE double laneql_sum_f64(const double* data, size_t n, int threads) {
  return laneql::SumFloat64Parallel(data, n, ClampThreads(threads));
}

// Writes the exact 128-bit sum as {low 64 bits, high 64 bits} into out[0..1].
EMSCRIPTEN_KEEPALIVE void laneql_sum_i64(const int64_t* data, size_t n, int threads,
                                         uint64_t* out) {
  const laneql::Int128 sum = laneql::SumInt64Parallel(data, n, ClampThreads(threads));
  out[0] = laneql::Int128Low(sum);
  out[1] = static_cast<uint64_t>(laneql::Int128High(sum));
}

}  // extern "C"
