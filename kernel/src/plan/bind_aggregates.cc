// Binding the library aggregates (aggregate_functions.h): arity, argument types, constant
// parameters and result types as DuckDB has them.
#include <cmath>

#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {
namespace {

bool IsMoment(AggFn fn) { return fn >= AggFn::kStddevSamp && fn <= AggFn::kRegrCount; }

// A constant's value as DOUBLE (false when it is no numeric constant).
bool ConstantNumber(const BoundExpr& e, double* out) {
  if (!e.IsConstant() || e.constant.is_null) return false;
  if (IsFloat(e.type)) *out = e.constant.real;
  else if (IsNumeric(e.type)) *out = static_cast<double>(e.constant.integer);
  else return false;
  return true;
}

}  // namespace

bool Binder::BindFunctionAggregate(const sql::Expr& expr, const AggregateFunctionInfo& info,
                                   Aggregate* out, bool* always_null) {
  *always_null = false;
  const std::string name = info.name;
  const int given = static_cast<int>(expr.args.size()) - expr.order_by_args;
  if (expr.star_argument) {
    Fail(expr.pos, "binder", name + "(*) is not a function; only count(*) is");
    return false;
  }
  if (given < info.min_args || given > info.max_args) {
    const std::string wanted = info.min_args == info.max_args
                                   ? std::to_string(info.min_args)
                                   : std::to_string(info.min_args) + " or " + std::to_string(info.max_args);
    Fail(expr.pos, "binder", name + " takes " + wanted + " argument" + (info.max_args == 1 ? "" : "s") +
                                 ", got " + std::to_string(given));
    return false;
  }
  AggFn fn = info.fn;
  if (fn == AggFn::kNone) fn = name == "sum" ? AggFn::kSumDistinct : AggFn::kAvgDistinct;  // DISTINCT
  if (expr.distinct && fn != AggFn::kSumDistinct && fn != AggFn::kAvgDistinct && fn != AggFn::kStringAgg) {
    Fail(expr.pos, "binder",
         "DISTINCT is not supported in " + name + "; it is in count, sum, avg, min, max and string_agg");
    return false;
  }
  out->distinct = expr.distinct && fn == AggFn::kStringAgg;
  if (expr.filtered && (fn == AggFn::kFirst || fn == AggFn::kLast)) {
    // FILTER makes the argument NULL on the rows it drops, and first / last keep NULLs.
    Fail(expr.pos, "binder", "FILTER is not supported with " + name);
    return false;
  }
  in_aggregate_ = true;
  BoundExprPtr arg = Bind(*expr.args[0], Scope::kBase);
  BoundExprPtr second = arg && given > 1 ? Bind(*expr.args[1], Scope::kBase) : nullptr;
  in_aggregate_ = false;
  if (!arg || (given > 1 && !second)) return false;
  const TypeId type = arg->type;
  const SourcePos arg_pos = expr.args[0]->pos;
  const auto type_error = [&](const std::string& needs) {
    Fail(arg_pos, "type", name + "(" + DuckDbTypeName(type) + ") is not supported: " + name + " needs " + needs);
    return false;
  };
  out->kind = AggKind::kFunction;
  out->function = fn;
  if (IsMoment(fn)) {
    // Both arguments as DOUBLE (DuckDB's only signature for these).
    const auto numeric = [&](BoundExprPtr* e, SourcePos pos) {
      if (!IsNumeric((*e)->type) && !IsNullLiteral(**e)) {
        Fail(pos, "type", name + " needs numeric arguments, not " + DuckDbTypeName((*e)->type));
        return false;
      }
      *e = CastTo(std::move(*e), TypeId::kFloat64, pos);
      return *e != nullptr;
    };
    if (!numeric(&arg, arg_pos) || (second && !numeric(&second, expr.args[1]->pos))) return false;
    out->arg = std::move(arg);
    out->arg2 = std::move(second);
    out->type = fn == AggFn::kRegrCount ? TypeId::kUInt32 : TypeId::kFloat64;
    return true;
  }
  switch (fn) {
    case AggFn::kQuantileCont:
    case AggFn::kQuantileDisc:
    case AggFn::kApproxQuantile: {
      if (second) {
        double q = 0;
        if (!ConstantNumber(*second, &q)) {
          Fail(expr.args[1]->pos, "binder",
               name + "'s fraction must be a constant number (a list of fractions is not supported)");
          return false;
        }
        if (!(q >= -1 && q <= 1)) {
          Fail(expr.args[1]->pos, "binder", "QUANTILE can only take parameters in the range [-1, 1]");
          return false;
        }
        out->fraction = q;
      }
      const bool numeric = IsNumeric(type) && type != TypeId::kBool;
      if (fn == AggFn::kQuantileCont && !numeric && !IsTemporal(type)) {
        if (name != "median") return type_error("a numeric, DATE or TIMESTAMP argument");
        fn = out->function = AggFn::kQuantileDisc;  // median of strings: the discrete middle
      }
      if (fn == AggFn::kApproxQuantile && !numeric) return type_error("a numeric argument");
      if (fn == AggFn::kQuantileCont) {
        out->type = IsTemporal(type) ? (type == TypeId::kDate32 ? TypeId::kTimestampMicros : type)
                                     : TypeId::kFloat64;
      } else {
        out->type = type;
      }
      break;
    }
    case AggFn::kSumDistinct:
    case AggFn::kAvgDistinct:
      if (!IsNumeric(type) || type == TypeId::kBool) return type_error("a numeric argument");
      out->type = fn == AggFn::kAvgDistinct || IsFloat(type) ? TypeId::kFloat64 : TypeId::kInt128;
      break;
    case AggFn::kBitAnd:
    case AggFn::kBitOr:
    case AggFn::kBitXor:
      if (!IsNumeric(type) || IsFloat(type) || type == TypeId::kBool || type == TypeId::kInt128) {
        return type_error("an integer argument of at most 64 bits");
      }
      out->type = type;
      break;
    case AggFn::kStringAgg: {
      if (!IsString(type)) {
        arg = CastTo(std::move(arg), TypeId::kString, arg_pos);
        if (!arg) return false;
      }
      out->separator = ",";
      if (second) {
        if (!second->IsConstant() || (!IsString(second->type) && !second->null_literal)) {
          Fail(expr.args[1]->pos, "binder", "The separator of " + name + " must be a constant string");
          return false;
        }
        *always_null = second->constant.is_null;  // a NULL separator: NULL for every group
        if (!*always_null) out->separator = second->constant.text;
      }
      second.reset();
      out->type = TypeId::kString;
      break;
    }
    case AggFn::kArgMin:
    case AggFn::kArgMax:
    case AggFn::kAnyValue:
    case AggFn::kFirst:
    case AggFn::kLast:
    case AggFn::kMode:
      out->type = IsString(type) ? TypeId::kString : type;
      break;
    case AggFn::kApproxCountDistinct: out->type = TypeId::kInt64; break;
    default: break;
  }
  out->arg = std::move(arg);
  if (fn == AggFn::kArgMin || fn == AggFn::kArgMax) out->arg2 = std::move(second);
  return BindOrderKeys(expr, out);
}

bool Binder::BindOrderKeys(const sql::Expr& expr, Aggregate* out) {
  if (expr.order_by_args == 0) return true;
  switch (out->function) {
    case AggFn::kStringAgg:
    case AggFn::kFirst:
    case AggFn::kLast:
    case AggFn::kAnyValue:
    case AggFn::kArgMin:
    case AggFn::kArgMax:
    case AggFn::kMode: break;
    default: return true;  // the answer does not depend on the order of the rows: nothing to sort
  }
  if (out->distinct) {
    Fail(expr.pos, "binder", "string_agg with both DISTINCT and ORDER BY is not supported");
    return false;
  }
  const size_t first_key = expr.args.size() - static_cast<size_t>(expr.order_by_args);
  in_aggregate_ = true;
  for (size_t k = first_key; k < expr.args.size(); ++k) {
    BoundExprPtr key = Bind(*expr.args[k], Scope::kBase);
    if (!key) {
      in_aggregate_ = false;
      return false;
    }
    SortKey order;
    order.descending = expr.order_descending[k - first_key];
    order.nulls_first = expr.order_nulls[k - first_key] == static_cast<uint8_t>(sql::NullsOrder::kFirst);
    out->order_keys.push_back(std::move(key));
    out->order.push_back(order);
  }
  in_aggregate_ = false;
  return true;
}

}  // namespace plan
}  // namespace laneql
