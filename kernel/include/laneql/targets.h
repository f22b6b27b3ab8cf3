// Which SIMD targets were compiled in, which this CPU supports, which one dispatch uses now, and
// how to force one (for side-by-side comparisons such as `laneql info --target AVX2`).
#ifndef LANEQL_TARGETS_H_
#define LANEQL_TARGETS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace laneql {

struct SimdTarget {
  int64_t bits;      // Highway's HWY_* bit
  std::string name;  // Highway's name: "AVX3_SPR", "AVX2", "NEON", "WASM", "EMU128", ...
};

// Targets this build generated code for, best first.
std::vector<SimdTarget> CompiledTargets();
// Compiled targets this CPU can run (after any ForceTarget), best first.
std::vector<SimdTarget> SupportedTargets();
// The target dynamic dispatch calls now: asked of the dispatched code itself.
SimdTarget DispatchedTarget();

// Makes dispatch use the named target (case-insensitive). Returns false and sets *error (listing
// the valid names) if it was not compiled in or this CPU cannot run it.
bool ForceTarget(const std::string& name, std::string* error);
// Back to the best supported target.
void ResetTarget();

}  // namespace laneql

#endif  // LANEQL_TARGETS_H_
