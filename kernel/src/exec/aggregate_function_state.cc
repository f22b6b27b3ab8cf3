#include "src/exec/aggregate_function_state.h"

#include "src/common/query_budget.h"

namespace laneql {
namespace exec {

using plan::AggFn;

std::unique_ptr<AggregateFunctionState> MakeAggregateFunctionState(const plan::Aggregate& aggregate) {
  if (!aggregate.order_keys.empty()) return MakeOrderedState(aggregate);
  switch (aggregate.function) {
    case AggFn::kNone: return nullptr;
    case AggFn::kStddevSamp:
    case AggFn::kStddevPop:
    case AggFn::kVarSamp:
    case AggFn::kVarPop:
    case AggFn::kCovarPop:
    case AggFn::kCovarSamp:
    case AggFn::kCorr:
    case AggFn::kRegrSlope:
    case AggFn::kRegrIntercept:
    case AggFn::kRegrR2:
    case AggFn::kRegrAvgX:
    case AggFn::kRegrAvgY:
    case AggFn::kRegrSxx:
    case AggFn::kRegrSyy:
    case AggFn::kRegrSxy:
    case AggFn::kRegrCount: return MakeMomentsState(aggregate);
    case AggFn::kQuantileCont:
    case AggFn::kQuantileDisc:
    case AggFn::kApproxQuantile:
    case AggFn::kMode:
    case AggFn::kSumDistinct:
    case AggFn::kAvgDistinct: return MakeValuesState(aggregate);
    case AggFn::kApproxCountDistinct: return MakeSketchState(aggregate);
    case AggFn::kAvgTemporal: return MakeTemporalAvgState(aggregate);
    default: return MakePickState(aggregate);
  }
}

bool FoldsInRowOrder(const plan::Aggregate& aggregate) {
  if (aggregate.kind != plan::AggKind::kFunction) return false;
  if (!aggregate.order_keys.empty()) return true;
  if (aggregate.function == AggFn::kMode && ModeCountsValues(aggregate.arg->type)) return false;
  return plan::DependsOnRowOrder(aggregate.function);
}

bool FoldsByBatches(const plan::Aggregate& aggregate, bool grouped) {
  if (aggregate.kind != plan::AggKind::kFunction || !aggregate.order_keys.empty() ||
      !plan::DependsOnRowOrder(aggregate.function)) {
    return false;  // with ORDER BY keys: every row kept; order-free ones need no batches
  }
  switch (aggregate.function) {
    case AggFn::kNone:
    case AggFn::kQuantileCont:
    case AggFn::kQuantileDisc:
    case AggFn::kApproxQuantile:
    case AggFn::kMode:
    case AggFn::kSumDistinct:
    case AggFn::kAvgDistinct:
    case AggFn::kApproxCountDistinct:
    case AggFn::kAvgTemporal: return false;
    case AggFn::kStringAgg: return !aggregate.distinct && !grouped;
    default: return true;
  }
}

bool ChargeAggregateMemory(size_t bytes, std::string* error) {
  if (bytes == 0) return true;
  const ScopedMemoryActivity activity("growing the aggregate states");
  return ChargeQueryMemory(bytes, error);
}

}  // namespace exec
}  // namespace laneql
