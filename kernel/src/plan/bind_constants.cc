// Constant work the binder does: a DATE column compared with a TIMESTAMP constant.
#include <cstdlib>
#include <string>

#include "src/common/civil_time.h"
#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {

BoundExprPtr Binder::CompareDateWithTimestamp(Fn fn, std::vector<BoundExprPtr>* children, SourcePos pos) {
  std::vector<BoundExprPtr>& c = *children;
  const auto is_timestamp_constant = [](const BoundExpr& e) {
    return e.IsConstant() && !e.constant.is_null &&
           (e.type == TypeId::kTimestampMicros || e.type == TypeId::kTimestampSeconds);
  };
  size_t date = 0;
  if (c[0]->type == TypeId::kDate32 && !c[0]->IsConstant() && is_timestamp_constant(*c[1])) {
    date = 0;
  } else if (c[1]->type == TypeId::kDate32 && !c[1]->IsConstant() && is_timestamp_constant(*c[0])) {
    date = 1;
    // constant op date is date flip(op) constant.
    switch (fn) {
      case Fn::kLess: fn = Fn::kGreater; break;
      case Fn::kLessEquals: fn = Fn::kGreaterEquals; break;
      case Fn::kGreater: fn = Fn::kLess; break;
      case Fn::kGreaterEquals: fn = Fn::kLessEquals; break;
      default: break;
    }
  } else {
    return nullptr;
  }
  const BoundExpr& constant = *c[1 - date];
  const int64_t per_day = constant.type == TypeId::kTimestampMicros ? civil::kMicrosPerDay : civil::kSecondsPerDay;
  int64_t day = 0, time = 0;
  civil::SplitTimestamp(static_cast<int64_t>(constant.constant.integer), per_day, &day, &time);
  if (day < INT32_MIN + 1 || day > INT32_MAX - 1) return nullptr;
  // A date is its midnight: d < c is d < day when c is a midnight, else d <= day; d >= c is
  // d >= day, else d > day; <= and > compare with day either way.
  const bool midnight = time == 0;
  switch (fn) {
    case Fn::kLess: if (!midnight) fn = Fn::kLessEquals; break;
    case Fn::kGreaterEquals: if (!midnight) fn = Fn::kGreater; break;
    case Fn::kLessEquals:
    case Fn::kGreater: break;
    case Fn::kEquals:
    case Fn::kNotEquals: if (!midnight) return nullptr; break;
    default: return nullptr;
  }
  BoundExprPtr day_constant = MakeConstant(Value::Integer(TypeId::kDate32, day), constant.pos);
  return MakeCall2(fn, TypeId::kBool, pos, std::move(c[date]), std::move(day_constant));
}

}  // namespace plan
}  // namespace laneql
