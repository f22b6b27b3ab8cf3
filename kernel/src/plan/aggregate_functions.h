// The aggregate function library's catalog: every aggregate laneql knows by name, with its
// signature and a line saying what it does. docs/sql.md lists the same entries (a test compares
// them), the binder looks names up here (binder.cc, bind_aggregates.cc), and "did you mean"
// suggests from here.
//
// count, sum, avg, min and max (and count_if, bool_and, bool_or, which bind to them) have flat
// per-group arrays of their own (exec/aggregate_states.h); the rest are AggKind::kFunction with
// the AggFn below, each kept by a state class of exec/aggregate_function_state.h.
#ifndef LANEQL_PLAN_AGGREGATE_FUNCTIONS_H_
#define LANEQL_PLAN_AGGREGATE_FUNCTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "laneql/types.h"

namespace laneql {
namespace plan {

enum class AggFn : uint8_t {
  kNone,  // count, sum, avg, min, max and the aggregates bound to them
  // Moments, updated row by row as Welford's method (exec/aggregate_moments.cc): DOUBLE.
  kStddevSamp, kStddevPop, kVarSamp, kVarPop,
  kCovarPop, kCovarSamp, kCorr,
  kRegrSlope, kRegrIntercept, kRegrR2, kRegrAvgX, kRegrAvgY, kRegrSxx, kRegrSyy, kRegrSxy,
  kRegrCount,
  // Every value kept per group (exec/aggregate_values.cc).
  kQuantileCont, kQuantileDisc, kApproxQuantile, kMode, kSumDistinct, kAvgDistinct,
  // One value picked or built in row order (exec/aggregate_picks.cc).
  kArgMin, kArgMax, kAnyValue, kFirst, kLast, kStringAgg,
  kBitAnd, kBitOr, kBitXor,
  // HyperLogLog sketches (exec/aggregate_sketches.cc).
  kApproxCountDistinct,
  // avg of INTERVAL, TIMESTAMP and TIME values (the binder's avg, not a catalog name;
  // exec/aggregate_temporal_avg.cc).
  kAvgTemporal,
};

struct AggregateFunctionInfo {
  const char* name;       // lower case
  AggFn fn;
  int min_args, max_args;  // count(*) counts as one argument
  const char* signature;   // as docs/sql.md shows it
  const char* summary;
};

// Every entry, in docs order.
const std::vector<AggregateFunctionInfo>& AggregateFunctionCatalog();
// The entry of a lower-case name, or null.
const AggregateFunctionInfo* FindAggregateFunction(const std::string& lower_name);
// The types of a library aggregate call (the binder's and the window functions'): its
// arguments' types in (`arg2` kInt64 and has_arg2 false without one; a bare NULL literal's as
// it is), what each must be cast to, the function (median of strings becomes quantile_disc)
// and the result type. False with *error (and *error_arg, the argument it is about: 0 or 1)
// when the function does not take those types.
struct AggregateTyping {
  AggFn fn = AggFn::kNone;
  TypeId result = TypeId::kInt64;
  TypeId arg = TypeId::kInt64, arg2 = TypeId::kInt64;  // the types to cast the arguments to
};
// Whether avg of a value of `type` is the temporal average (AggFn::kAvgTemporal: INTERVAL,
// DATE, TIMESTAMP, TIME), in the binder and in window calls alike.
bool AveragesAsTemporal(TypeId type);

bool TypeAggregateFunction(AggFn fn, const std::string& name, TypeId arg, bool has_arg2, TypeId arg2,
                           bool arg_is_null, bool arg2_is_null, AggregateTyping* out, std::string* error,
                           int* error_arg);

// Whether the answer depends on the order the rows are folded in: each group's rows must then
// be folded in row order by one thread (string_agg, mode's ties, float moments, ...; and every
// aggregate with ORDER BY keys). Not the picks (first, last, any_value, arg_min / arg_max),
// which keep the row they picked and merge by it.
bool DependsOnRowOrder(AggFn fn);
// Whether agg(x ORDER BY k) answers differently from agg(x): string_agg, first, last,
// any_value, arg_min / arg_max (which of tied rows) and mode (which of tied values). The others
// ignore the keys, as DuckDB does.
bool OrderedByCallKeys(AggFn fn);

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_AGGREGATE_FUNCTIONS_H_
