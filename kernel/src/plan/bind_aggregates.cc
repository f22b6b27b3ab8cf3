// Binding the library aggregates (aggregate_functions.h): arity, argument types, constant
// parameters and result types as DuckDB has them.
#include <cmath>

#include "src/common/decimal.h"
#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {
namespace {

bool IsMoment(AggFn fn) { return fn >= AggFn::kStddevSamp && fn <= AggFn::kRegrCount; }

// A constant's value as DOUBLE (false when it is no numeric constant).
bool ConstantNumber(const BoundExpr& e, double* out) {
  if (!e.IsConstant() || e.constant.is_null) return false;
  if (IsFloat(e.type)) *out = e.constant.real;
  else if (IsDecimal(e.type)) *out = decimal::ToDouble(e.constant.integer, DecimalScale(e.type));
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
  const bool quantile = fn == AggFn::kQuantileCont || fn == AggFn::kQuantileDisc || fn == AggFn::kApproxQuantile;
  if (second && IsList(second->type) && !quantile) {  // the first argument: TypeAggregateFunction
    Fail(second->pos, "binder", ListRefusal(second->type));
    return false;
  }
  out->kind = AggKind::kFunction;
  AggregateTyping typing;
  std::string message;
  int error_arg = 0;
  const bool keeps_second = IsMoment(fn) || fn == AggFn::kArgMin || fn == AggFn::kArgMax;
  if (!TypeAggregateFunction(fn, name, arg->type, keeps_second && second != nullptr,
                             second ? second->type : TypeId::kInt64, IsNullLiteral(*arg),
                             second && IsNullLiteral(*second), &typing, &message, &error_arg)) {
    Fail(expr.args[static_cast<size_t>(error_arg)]->pos, "type", message);
    return false;
  }
  fn = out->function = typing.fn;
  out->type = typing.result;
  if (arg->type != typing.arg) {
    arg = CastTo(std::move(arg), typing.arg, expr.args[0]->pos);
    if (!arg) return false;
  }
  if (keeps_second && second && second->type != typing.arg2) {
    second = CastTo(std::move(second), typing.arg2, expr.args[1]->pos);
    if (!second) return false;
  }
  switch (fn) {
    case AggFn::kQuantileCont:
    case AggFn::kQuantileDisc:
    case AggFn::kApproxQuantile:
      if (second) {
        // One fraction, or a list of them ([0.25, 0.5] binds to list_value of constants): then
        // the result is the list of the quantiles, in the list's order.
        const bool list = IsList(second->type);
        std::vector<const BoundExpr*> fractions;
        if (list) {
          for (const BoundExprPtr& element : second->args) fractions.push_back(element.get());
        } else {
          fractions.push_back(second.get());
        }
        for (const BoundExpr* fraction : fractions) {
          double q = 0;
          if (!ConstantNumber(*fraction, &q)) {
            Fail(fraction->pos, "binder", name + "'s fraction must be a constant number or a list of them");
            return false;
          }
          if (!(q >= -1 && q <= 1)) {
            Fail(fraction->pos, "binder", "QUANTILE can only take parameters in the range [-1, 1]");
            return false;
          }
          out->fraction = q;
          if (list) out->fractions.push_back(q);
        }
        if (list) {
          bool up = false, down = false;
          for (double q : out->fractions) (q < 0 ? down : up) |= q != 0;
          if (up && down) {
            Fail(expr.args[1]->pos, "binder", "QUANTILE parameters must have consistent signs");
            return false;
          }
          if (!IsFixedWidth(out->type)) {
            Fail(expr.args[0]->pos, "type",
                 name + " with a list of fractions needs a fixed-width argument (lists of " +
                     DuckDbTypeName(out->type) + " are not supported)");
            return false;
          }
          out->type = ListType(out->type);
        }
      }
      break;
    case AggFn::kStringAgg:
      out->separator = ",";
      if (second) {
        if (!second->IsConstant() || (!IsString(second->type) && !second->null_literal)) {
          Fail(expr.args[1]->pos, "binder", "The separator of " + name + " must be a constant string");
          return false;
        }
        *always_null = second->constant.is_null;  // a NULL separator: NULL for every group
        if (!*always_null) out->separator = second->constant.text;
      }
      break;
    default: break;
  }
  out->arg = std::move(arg);
  if (keeps_second) out->arg2 = std::move(second);
  return BindOrderKeys(expr, out);
}

bool Binder::BindOrderKeys(const sql::Expr& expr, Aggregate* out) {
  // An answer that does not depend on the order of the rows: nothing to sort.
  if (expr.order_by_args == 0 || !OrderedByCallKeys(out->function)) return true;
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
