// Dispatch for the calendar kernels: foreach_target.h compiles this file once per SIMD target,
// HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the one ForceTarget chose).
#include "laneql/calendar.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/calendar.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/calendar-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

void CalendarPartOfDaysTarget(int part, const int32_t* days, size_t n, int64_t* out) {
  CalendarPartOfDaysOp(part, days, n, out);
}
void CalendarPartOfMicrosTarget(int part, const int64_t* micros, size_t n, int64_t* out) {
  CalendarPartOfMicrosOp(part, micros, n, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace laneql {

HWY_EXPORT(CalendarPartOfDaysTarget);
HWY_EXPORT(CalendarPartOfMicrosTarget);

void CalendarPartOfDays(CalendarPart part, const int32_t* days, size_t n, int64_t* out) {
  HWY_DYNAMIC_DISPATCH(CalendarPartOfDaysTarget)(static_cast<int>(part), days, n, out);
}
void CalendarPartOfMicros(CalendarPart part, const int64_t* micros, size_t n, int64_t* out) {
  HWY_DYNAMIC_DISPATCH(CalendarPartOfMicrosTarget)(static_cast<int>(part), micros, n, out);
}

}  // namespace laneql
#endif  // HWY_ONCE
