// DECIMAL typing (DuckDB's rules): the common type of a comparison and the result types of
// + - * / %, with the casts that bring each operand to the scale its operation needs.
#include <algorithm>

#include "src/common/decimal.h"
#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {
namespace {

TypeId AsDecimal(TypeId type) { return decimal::AsDecimal(type); }

bool DecimalOperand(TypeId type) { return IsDecimal(type) || IsInteger(type) || IsBool(type); }

}  // namespace

BoundExprPtr Binder::BindDecimalArithmetic(Fn fn, std::vector<BoundExprPtr>* children, SourcePos pos) {
  BoundExprPtr& a = (*children)[0];
  BoundExprPtr& b = (*children)[1];
  if (!IsDecimal(a->type) && !IsDecimal(b->type)) return nullptr;
  const auto cast_both = [&](TypeId to_a, TypeId to_b) {
    a = CastToAtOwnPos(std::move(a), to_a);
    if (!a) return false;
    b = CastToAtOwnPos(std::move(b), to_b);
    return b != nullptr;
  };
  const bool null_a = IsNullLiteral(*a), null_b = IsNullLiteral(*b);
  const TypeId ta = null_a ? b->type : a->type, tb = null_b ? a->type : b->type;
  if (!(DecimalOperand(ta) || IsFloat(ta)) || !(DecimalOperand(tb) || IsFloat(tb))) {
    const char* symbol = fn == Fn::kAdd ? "+" : fn == Fn::kSubtract ? "-" : fn == Fn::kMultiply ? "*"
                         : fn == Fn::kDivide ? "/" : "%";
    return Fail(pos, "type", std::string("cannot apply ") + symbol + " to " + DuckDbTypeName(a->type) + " and " +
                                 DuckDbTypeName(b->type));
  }
  // With a float, and for every division, DuckDB computes in DOUBLE.
  if (IsFloat(ta) || IsFloat(tb) || fn == Fn::kDivide) {
    if (!cast_both(TypeId::kFloat64, TypeId::kFloat64)) return nullptr;
    return MakeCall(fn, TypeId::kFloat64, pos, std::move(*children));
  }
  const TypeId x = AsDecimal(ta), y = AsDecimal(tb);
  const int px = DecimalPrecision(x), sx = DecimalScale(x), py = DecimalPrecision(y), sy = DecimalScale(y);
  if (fn == Fn::kMultiply) {
    // The scales add up; the operands keep theirs (both are int128 underneath).
    if (sx + sy > kMaxDecimalPrecision) {
      return Fail(pos, "binder", std::string("the product of ") + DuckDbTypeName(x) + " and " + DuckDbTypeName(y) +
                                     " needs a scale above 38");
    }
    if (!cast_both(x, y)) return nullptr;
    return MakeCall(fn, decimal::CappedDecimal(px + py, sx + sy), pos, std::move(*children));
  }
  // + and - carry one more digit than the wider operand; % keeps the common type. The operands
  // are brought to the result's scale first.
  const int scale = std::max(sx, sy);
  const int whole = std::max(px - sx, py - sy);
  const TypeId result = decimal::CappedDecimal(whole + scale + (fn == Fn::kModulo ? 0 : 1), scale);
  if (!cast_both(result, result)) return nullptr;
  return MakeCall(fn, result, pos, std::move(*children));
}

}  // namespace plan
}  // namespace laneql
