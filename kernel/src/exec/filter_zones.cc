#include "src/exec/filter_zones.h"

#include <algorithm>

#include "src/exec/expr_eval.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;
using plan::BoundKind;
using plan::Fn;

namespace {

bool IsConstantValue(const BoundExpr& e) { return e.kind == BoundKind::kConstant && !e.constant.is_null; }

bool IsComparison(Fn fn) {
  return fn == Fn::kEquals || fn == Fn::kNotEquals || fn == Fn::kLess || fn == Fn::kLessEquals ||
         fn == Fn::kGreater || fn == Fn::kGreaterEquals;
}

}  // namespace

bool MakeZoneTest(const BoundExpr& conjunct, const Table& table, ZoneTest* test) {
  if (conjunct.kind != BoundKind::kCall || conjunct.args.size() < 2 ||
      conjunct.args[0]->kind != BoundKind::kColumn) {
    return false;
  }
  // The shapes Filter::EvalOne hands to the predicate kernels, no others.
  const Fn fn = conjunct.fn;
  bool shape = false;
  if (IsComparison(fn)) {
    shape = IsConstantValue(*conjunct.args[1]);
  } else if (fn == Fn::kBetween && !conjunct.negated && conjunct.args.size() == 3) {
    shape = IsConstantValue(*conjunct.args[1]) && IsConstantValue(*conjunct.args[2]);
  } else if (fn == Fn::kInList && !conjunct.negated) {
    shape = true;
    for (size_t i = 1; i < conjunct.args.size(); ++i) shape &= IsConstantValue(*conjunct.args[i]);
  }
  if (!shape) return false;
  const size_t c = static_cast<size_t>(conjunct.args[0]->column);
  const Column& column = table.column(c);
  internal::ZoneMap* zones = column.Zones();  // null for types without zone maps
  if (zones == nullptr) return false;
  ZoneTest made;
  made.column = c;
  made.zones = zones;
  made.fn = fn;
  VisitFixed(column.type(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T> && (sizeof(T) < 8 || std::is_signed_v<T>)) {
      const auto key = [](const plan::Value& v) { return internal::ZoneKey(ConstantAs<T>(v)); };
      if (fn == Fn::kInList) {
        for (size_t i = 1; i < conjunct.args.size(); ++i) made.list.push_back(key(conjunct.args[i]->constant));
        std::sort(made.list.begin(), made.list.end());
      } else {
        made.low = key(conjunct.args[1]->constant);
        made.high = fn == Fn::kBetween ? key(conjunct.args[2]->constant) : made.low;
      }
    }
  });
  *test = std::move(made);
  return true;
}

ZoneVerdict JudgeZone(const ZoneTest& test, const internal::Zone& zone) {
  if (!zone.any_value) return ZoneVerdict::kNone;  // all NULL: no comparison is TRUE
  const int64_t lo = zone.min, hi = zone.max, c = test.low;
  const auto verdict = [](bool some, bool all) {
    return all ? ZoneVerdict::kAll : some ? ZoneVerdict::kSome : ZoneVerdict::kNone;
  };
  switch (test.fn) {
    case Fn::kEquals: return verdict(lo <= c && c <= hi, lo == c && hi == c);
    case Fn::kNotEquals: return verdict(!(lo == c && hi == c), c < lo || c > hi);
    case Fn::kLess: return verdict(lo < c, hi < c);
    case Fn::kLessEquals: return verdict(lo <= c, hi <= c);
    case Fn::kGreater: return verdict(hi > c, lo > c);
    case Fn::kGreaterEquals: return verdict(hi >= c, lo >= c);
    case Fn::kBetween: return verdict(hi >= test.low && lo <= test.high, lo >= test.low && hi <= test.high);
    default: {  // kInList
      const auto first = std::lower_bound(test.list.begin(), test.list.end(), lo);
      const bool some = first != test.list.end() && *first <= hi;
      return verdict(some, some && lo == hi);
    }
  }
}

}  // namespace exec
}  // namespace laneql
