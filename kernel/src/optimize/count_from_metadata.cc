#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {

void AnswerCountsFromMetadata(plan::Plan* plan) {
  plan->answer_from_metadata = false;
  if (!plan->aggregate || !plan->group_keys.empty() || !plan->derived_keys.empty() || plan->where ||
      plan->table == nullptr) {
    return;
  }
  for (const plan::Aggregate& aggregate : plan->aggregates) {
    const bool from_metadata =
        aggregate.kind == plan::AggKind::kCountStar ||
        (aggregate.kind == plan::AggKind::kCount && aggregate.arg->kind == plan::BoundKind::kColumn &&
         plan->table->column(static_cast<size_t>(aggregate.arg->column)).null_count() == 0);
    if (!from_metadata) return;
  }
  plan->answer_from_metadata = true;
}

}  // namespace optimize
}  // namespace laneql
