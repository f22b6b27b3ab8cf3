// Dispatch for the SUM kernels: foreach_target.h compiles this file once per SIMD target, and
// HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the one ForceTarget chose).
// The kernels are the aggregate family's (aggregate_sum-inl.h) without masks; this file keeps
// its own dispatch table so that the SUM entry points link even in builds that leave the
// aggregate family out (LANEQL_FAMILIES).
#include "laneql/sum.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/sum.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/aggregate_sum-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

double SumFloat64Target(const double* HWY_RESTRICT x, size_t n) {
  return SumFloatImpl(x, n, nullptr, nullptr).value;
}
void SumFloat64BlocksTarget(const double* HWY_RESTRICT x, size_t n, double* HWY_RESTRICT out) {
  SumFloatBlocksImpl(x, n, nullptr, nullptr, out);
}
Int128 SumInt64Target(const int64_t* HWY_RESTRICT x, size_t n) {
  return SumIntImpl(x, n, nullptr, nullptr).value;
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace laneql {

HWY_EXPORT(SumFloat64Target);
HWY_EXPORT(SumFloat64BlocksTarget);
HWY_EXPORT(SumInt64Target);

double SumFloat64(const double* data, size_t n) {
  return HWY_DYNAMIC_DISPATCH(SumFloat64Target)(data, n);
}
void SumFloat64Blocks(const double* data, size_t n, double* block_sums) {
  HWY_DYNAMIC_DISPATCH(SumFloat64BlocksTarget)(data, n, block_sums);
}
Int128 SumInt64(const int64_t* data, size_t n) {
  return HWY_DYNAMIC_DISPATCH(SumInt64Target)(data, n);
}

}  // namespace laneql
#endif  // HWY_ONCE
