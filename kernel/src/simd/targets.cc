// Target introspection and control. The dispatched target is asked of the dispatched code
// itself (a function compiled per target that returns its own HWY_TARGET), so what we report is
// what really runs, not what we expect to run.
#include "laneql/targets.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/targets.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
int64_t TargetOfThisCode() { return HWY_TARGET; }
}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <strings.h>

#include "hwy/targets.h"

namespace laneql {
namespace {

SimdTarget Describe(int64_t bits) { return SimdTarget{bits, hwy::TargetName(bits)}; }

std::vector<SimdTarget> Split(int64_t mask) {
  std::vector<SimdTarget> out;
  // Lower bits are better targets in Highway, so lowest-first is best-first.
  for (int64_t rest = mask; rest != 0; rest &= rest - 1) out.push_back(Describe(rest & -rest));
  return out;
}

// hwy::SupportedTargets() re-points dispatch at every detected target as a side effect and
// leaves it to the caller to apply the final mask (disabled targets), as HWY_DYNAMIC_DISPATCH
// does. Without the Update, asking what is supported would undo ForceTarget.
int64_t SupportedMask() {
  const int64_t targets = hwy::SupportedTargets();
  hwy::GetChosenTarget().Update(targets);
  return targets;
}

std::string Names(const std::vector<SimdTarget>& targets) {
  std::string out;
  for (const SimdTarget& t : targets) out += (out.empty() ? "" : ", ") + t.name;
  return out;
}

}  // namespace

HWY_EXPORT(TargetOfThisCode);

std::vector<SimdTarget> CompiledTargets() { return Split(HWY_TARGETS); }

std::vector<SimdTarget> SupportedTargets() {
  return Split(SupportedMask() & HWY_TARGETS);
}

SimdTarget DispatchedTarget() { return Describe(HWY_DYNAMIC_DISPATCH(TargetOfThisCode)()); }

bool ForceTarget(const std::string& name, std::string* error) {
  const std::vector<SimdTarget> compiled = CompiledTargets();
  const SimdTarget* wanted = nullptr;
  for (const SimdTarget& t : compiled) {
    if (strcasecmp(t.name.c_str(), name.c_str()) == 0) wanted = &t;
  }
  if (wanted == nullptr) {
    *error = "unknown SIMD target '" + name + "'; this build has: " + Names(compiled);
    return false;
  }
  ResetTarget();  // judge support against the CPU, not against an earlier forcing
  if ((SupportedMask() & wanted->bits) == 0) {
    *error = "SIMD target " + wanted->name + " is not supported by this CPU; supported: " +
             Names(SupportedTargets());
    return false;
  }
  // Disabling every better target (all lower bits) leaves `wanted` the best one.
  hwy::DisableTargets(wanted->bits - 1);
  const SimdTarget now = DispatchedTarget();
  if (now.bits != wanted->bits) {
    ResetTarget();
    *error = "could not force SIMD target " + wanted->name + " (dispatch chose " + now.name + ")";
    return false;
  }
  return true;
}

void ResetTarget() { hwy::DisableTargets(0); }

}  // namespace laneql
#endif  // HWY_ONCE
