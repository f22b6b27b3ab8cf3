#include "src/plan/aggregate_functions.h"
#include "src/plan/bound_expr.h"

#include <unordered_map>

namespace laneql {
namespace plan {

const std::vector<AggregateFunctionInfo>& AggregateFunctionCatalog() {
  using A = AggFn;
  static const std::vector<AggregateFunctionInfo> kCatalog = {
      {"count", A::kNone, 0, 1, "count(*), count(x), count(DISTINCT x)", "rows; rows where x is not NULL; distinct non-NULL values (BIGINT)"},
      {"sum", A::kNone, 1, 1, "sum([DISTINCT] x)", "sum of a number: HUGEINT for integers (exact), DOUBLE for floats"},
      {"avg", A::kNone, 1, 1, "avg([DISTINCT] x)", "mean as DOUBLE"},
      {"mean", A::kNone, 1, 1, "mean(x)", "avg(x)"},
      {"min", A::kNone, 1, 1, "min(x)", "the least value (strings byte-wise, floats with NaN largest)"},
      {"max", A::kNone, 1, 1, "max(x)", "the greatest value"},
      {"count_if", A::kNone, 1, 1, "count_if(c)", "rows where c is true (HUGEINT; NULL over no non-NULL c)"},
      {"countif", A::kNone, 1, 1, "countif(c)", "count_if(c)"},
      {"bool_and", A::kNone, 1, 1, "bool_and(c)", "true when c is true on every non-NULL row"},
      {"bool_or", A::kNone, 1, 1, "bool_or(c)", "true when c is true on some row"},
      {"stddev_samp", A::kStddevSamp, 1, 1, "stddev_samp(x)", "sample standard deviation (DOUBLE; NULL for fewer than 2 values)"},
      {"stddev", A::kStddevSamp, 1, 1, "stddev(x)", "stddev_samp(x)"},
      {"stddev_pop", A::kStddevPop, 1, 1, "stddev_pop(x)", "population standard deviation"},
      {"var_samp", A::kVarSamp, 1, 1, "var_samp(x)", "sample variance (NULL for fewer than 2 values)"},
      {"variance", A::kVarSamp, 1, 1, "variance(x)", "var_samp(x)"},
      {"var_pop", A::kVarPop, 1, 1, "var_pop(x)", "population variance"},
      {"covar_pop", A::kCovarPop, 2, 2, "covar_pop(y, x)", "population covariance of the rows where both are not NULL"},
      {"covar_samp", A::kCovarSamp, 2, 2, "covar_samp(y, x)", "sample covariance"},
      {"corr", A::kCorr, 2, 2, "corr(y, x)", "Pearson's correlation coefficient"},
      {"regr_slope", A::kRegrSlope, 2, 2, "regr_slope(y, x)", "slope of the least-squares line of y on x"},
      {"regr_intercept", A::kRegrIntercept, 2, 2, "regr_intercept(y, x)", "its y-intercept"},
      {"regr_r2", A::kRegrR2, 2, 2, "regr_r2(y, x)", "its coefficient of determination"},
      {"regr_count", A::kRegrCount, 2, 2, "regr_count(y, x)", "rows where both are not NULL (UINTEGER)"},
      {"regr_avgx", A::kRegrAvgX, 2, 2, "regr_avgx(y, x)", "mean of x over those rows"},
      {"regr_avgy", A::kRegrAvgY, 2, 2, "regr_avgy(y, x)", "mean of y over those rows"},
      {"regr_sxx", A::kRegrSxx, 2, 2, "regr_sxx(y, x)", "regr_count · var_pop(x)"},
      {"regr_syy", A::kRegrSyy, 2, 2, "regr_syy(y, x)", "regr_count · var_pop(y)"},
      {"regr_sxy", A::kRegrSxy, 2, 2, "regr_sxy(y, x)", "regr_count · covar_pop(y, x)"},
      {"median", A::kQuantileCont, 1, 1, "median(x)", "quantile_cont(x, 0.5) for numbers and times, quantile_disc(x, 0.5) for other types"},
      {"quantile_cont", A::kQuantileCont, 2, 2, "quantile_cont(x, q)",
       "the q-quantile interpolated between the two nearest values (DOUBLE for numbers, TIMESTAMP for dates); q a constant in [-1, 1], negative counting from the top; q a list of them ([0.25, 0.5]): the list of those quantiles"},
      {"quantile_disc", A::kQuantileDisc, 2, 2, "quantile_disc(x, q)", "the value at the q-quantile's position, of x's type (a list for a list of fractions)"},
      {"quantile", A::kQuantileDisc, 2, 2, "quantile(x, q)", "quantile_disc(x, q)"},
      {"approx_quantile", A::kApproxQuantile, 2, 2, "approx_quantile(x, q)",
       "the q-quantile in x's type; laneql computes it exactly (interpolated, then rounded for integers)"},
      {"mode", A::kMode, 1, 1, "mode(x)", "the most frequent value (ties: the one seen first in row order)"},
      {"arg_min", A::kArgMin, 2, 2, "arg_min(arg, val)", "arg of the row with the least val (rows with a NULL skipped; ties: the first row)"},
      {"argmin", A::kArgMin, 2, 2, "argmin(arg, val)", "arg_min(arg, val)"},
      {"min_by", A::kArgMin, 2, 2, "min_by(arg, val)", "arg_min(arg, val)"},
      {"arg_max", A::kArgMax, 2, 2, "arg_max(arg, val)", "arg of the row with the greatest val"},
      {"argmax", A::kArgMax, 2, 2, "argmax(arg, val)", "arg_max(arg, val)"},
      {"max_by", A::kArgMax, 2, 2, "max_by(arg, val)", "arg_max(arg, val)"},
      {"any_value", A::kAnyValue, 1, 1, "any_value(x)", "the first non-NULL x in row order"},
      {"first", A::kFirst, 1, 1, "first(x)", "x of the first row (NULL included)"},
      {"arbitrary", A::kFirst, 1, 1, "arbitrary(x)", "first(x)"},
      {"last", A::kLast, 1, 1, "last(x)", "x of the last row (NULL included)"},
      {"string_agg", A::kStringAgg, 1, 2, "string_agg(s [, sep])",
       "the non-NULL strings in row order joined by the constant sep (',' by default)"},
      {"group_concat", A::kStringAgg, 1, 2, "group_concat(s [, sep])", "string_agg(s, sep)"},
      {"listagg", A::kStringAgg, 1, 2, "listagg(s [, sep])", "string_agg(s, sep)"},
      {"bit_and", A::kBitAnd, 1, 1, "bit_and(x)", "bitwise and of the integers, in x's type"},
      {"bit_or", A::kBitOr, 1, 1, "bit_or(x)", "bitwise or"},
      {"bit_xor", A::kBitXor, 1, 1, "bit_xor(x)", "bitwise exclusive or"},
      {"approx_count_distinct", A::kApproxCountDistinct, 1, 1, "approx_count_distinct(x)",
       "distinct non-NULL values estimated by a HyperLogLog sketch (BIGINT; exact up to a few hundred, within about 2 % beyond)"},
  };
  return kCatalog;
}

const AggregateFunctionInfo* FindAggregateFunction(const std::string& lower_name) {
  static const std::unordered_map<std::string, const AggregateFunctionInfo*> kByName = [] {
    std::unordered_map<std::string, const AggregateFunctionInfo*> map;
    for (const AggregateFunctionInfo& info : AggregateFunctionCatalog()) map.emplace(info.name, &info);
    return map;
  }();
  const auto it = kByName.find(lower_name);
  return it == kByName.end() ? nullptr : it->second;
}

bool AveragesAsTemporal(TypeId type) { return type == TypeId::kInterval || IsTemporal(type) || IsTime(type); }

bool TypeAggregateFunction(AggFn fn, const std::string& name, TypeId arg, bool has_arg2, TypeId arg2,
                           bool arg_is_null, bool arg2_is_null, AggregateTyping* out, std::string* error,
                           int* error_arg) {
  // A list is stored as a string is: no aggregate of a value may read its bytes (bind_lists.cc).
  if (IsList(arg) || (has_arg2 && IsList(arg2))) {
    *error_arg = IsList(arg) ? 0 : 1;
    *error = ListRefusal(IsList(arg) ? arg : arg2);
    return false;
  }
  // A DECIMAL counts as a number: cast to DOUBLE where the aggregate computes in doubles.
  const auto numeric = [](TypeId t) { return (IsInteger(t) || IsFloat(t) || IsDecimal(t)) && t != TypeId::kBool; };
  const auto fail = [&](int which, const std::string& needs) {
    *error_arg = which;
    const TypeId type = which == 0 ? arg : arg2;
    *error = name + "(" + DuckDbTypeName(type) + ") is not supported: " + name + " needs " + needs;
    return false;
  };
  out->fn = fn;
  out->arg = arg;
  out->arg2 = arg2;
  switch (fn) {
    case AggFn::kStddevSamp: case AggFn::kStddevPop: case AggFn::kVarSamp: case AggFn::kVarPop:
    case AggFn::kCovarPop: case AggFn::kCovarSamp: case AggFn::kCorr: case AggFn::kRegrSlope:
    case AggFn::kRegrIntercept: case AggFn::kRegrR2: case AggFn::kRegrAvgX: case AggFn::kRegrAvgY:
    case AggFn::kRegrSxx: case AggFn::kRegrSyy: case AggFn::kRegrSxy: case AggFn::kRegrCount:
      // Both arguments as DOUBLE (DuckDB's only signature for these).
      if (!numeric(arg) && !arg_is_null) return fail(0, "numeric arguments");
      if (has_arg2 && !numeric(arg2) && !arg2_is_null) return fail(1, "numeric arguments");
      out->arg = out->arg2 = TypeId::kFloat64;
      out->result = fn == AggFn::kRegrCount ? TypeId::kUInt32 : TypeId::kFloat64;
      return true;
    case AggFn::kQuantileCont:
    case AggFn::kQuantileDisc:
    case AggFn::kApproxQuantile:
      if (fn == AggFn::kQuantileCont && !numeric(arg) && !IsTemporal(arg)) {
        if (name != "median") return fail(0, "a numeric, DATE or TIMESTAMP argument");
        out->fn = fn = AggFn::kQuantileDisc;  // median of strings: the discrete middle
      }
      if (fn == AggFn::kApproxQuantile && !numeric(arg)) return fail(0, "a numeric argument");
      out->result = fn != AggFn::kQuantileCont || IsDecimal(arg) ? arg
                    : IsTemporal(arg)            ? (arg == TypeId::kDate32 ? TypeId::kTimestampMicros : arg)
                                                 : TypeId::kFloat64;
      return true;
    case AggFn::kSumDistinct:
    case AggFn::kAvgDistinct:
      if (!numeric(arg)) return fail(0, "a numeric argument");
      if (IsDecimal(arg) && fn == AggFn::kAvgDistinct) out->arg = TypeId::kFloat64;
      out->result = fn == AggFn::kAvgDistinct || IsFloat(arg) ? TypeId::kFloat64
                    : IsDecimal(arg)                          ? DecimalType(kMaxDecimalPrecision, DecimalScale(arg))
                                                              : TypeId::kInt128;
      return true;
    case AggFn::kBitAnd:
    case AggFn::kBitOr:
    case AggFn::kBitXor:
      if (!IsInteger(arg) || arg == TypeId::kInt128) return fail(0, "an integer argument of at most 64 bits");
      out->result = arg;
      return true;
    case AggFn::kStringAgg:
      out->arg = TypeId::kString;
      out->result = TypeId::kString;
      return true;
    case AggFn::kApproxCountDistinct: out->result = TypeId::kInt64; return true;
    case AggFn::kAvgTemporal:
      // avg of times, in their type: a DATE or TIMESTAMP_S as a TIMESTAMP, as DuckDB.
      if (!AveragesAsTemporal(arg)) {
        return fail(0, "an INTERVAL, DATE, TIMESTAMP or TIME argument");
      }
      out->arg = out->result = arg == TypeId::kDate32 || arg == TypeId::kTimestampSeconds ? TypeId::kTimestampMicros : arg;
      return true;
    default:  // arg_min / arg_max, any_value, first, last, mode: the argument's type
      out->result = IsString(arg) ? TypeId::kString : arg;
      return true;
  }
}

bool OrderedByCallKeys(AggFn fn) {
  switch (fn) {
    case AggFn::kStringAgg:
    case AggFn::kFirst:
    case AggFn::kLast:
    case AggFn::kAnyValue:
    case AggFn::kArgMin:
    case AggFn::kArgMax:
    case AggFn::kMode: return true;
    default: return false;
  }
}

bool DependsOnRowOrder(AggFn fn) {
  switch (fn) {
    case AggFn::kNone:
    case AggFn::kRegrCount:
    case AggFn::kQuantileCont:
    case AggFn::kQuantileDisc:
    case AggFn::kApproxQuantile:
    case AggFn::kSumDistinct:
    case AggFn::kAvgDistinct:
    case AggFn::kBitAnd:
    case AggFn::kBitOr:
    case AggFn::kBitXor:
    case AggFn::kApproxCountDistinct:
    case AggFn::kAvgTemporal:  // exact integer sums
    // Picks keep the row of what they picked and merge by it (exec/aggregate_picks.cc).
    case AggFn::kArgMin:
    case AggFn::kArgMax:
    case AggFn::kAnyValue:
    case AggFn::kFirst:
    case AggFn::kLast: return false;
    default: return true;
  }
}

}  // namespace plan
}  // namespace laneql
