#include "src/exec/group_float_partials.h"

#include "src/common/query_budget.h"
#include "src/exec/aggregate_worker.h"

namespace laneql {
namespace exec {

GroupFloatPartials::GroupFloatPartials(const AggregateStates& states) {
  for (size_t a = 0; a < states.num_aggregates(); ++a) {
    if (states.IsFloatSum(a)) aggregates_.push_back(a);
  }
}

size_t GroupFloatPartials::Bytes() const {
  return (batches_.capacity() + groups_.capacity() + stamp_.capacity()) * sizeof(uint32_t) +
         sums_.capacity() * sizeof(double);
}

bool GroupFloatPartials::TakeBatch(size_t batch, const uint32_t* group_ids, size_t count,
                                   size_t groups, AggregateStates* states, std::string* error) {
  const size_t first = groups_.size();
  if (groups <= kEveryGroupEntries) {
    // Every group: an untouched one's partial is +0.0, which changes no sum (they start at
    // +0.0 and so are never -0.0). Cheaper than finding the touched ones row by row.
    for (size_t g = 0; g < groups; ++g) groups_.push_back(static_cast<uint32_t>(g));
  } else {
    if (stamp_.size() < groups) stamp_.resize(groups, 0);
    const uint32_t mark = static_cast<uint32_t>(batch) + 1;
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup || stamp_[g] == mark) continue;
      stamp_[g] = mark;
      groups_.push_back(g);
    }
  }
  batches_.resize(groups_.size(), static_cast<uint32_t>(batch));
  for (size_t e = first; e < groups_.size(); ++e) {
    for (size_t a : aggregates_) sums_.push_back(states->TakeGroupFloatSum(a, groups_[e]));
  }
  const size_t bytes = Bytes();
  if (bytes > charged_) {
    const ScopedMemoryActivity activity("keeping grouped float sums per batch");
    if (!ChargeQueryMemory(bytes - charged_, error)) return false;
    charged_ = bytes;
  }
  return true;
}

void GroupFloatPartials::Fold(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                              const std::vector<std::vector<uint32_t>>& targets, size_t batches,
                              size_t result_groups, AggregateStates* result) {
  const std::vector<size_t>& aggregates = workers[0]->group_float_partials()->aggregates_;
  const size_t k = aggregates.size();
  std::vector<double> sums(result_groups * k, 0.0);
  std::vector<size_t> next(workers.size(), 0);
  // Each batch was scanned by one worker, and each worker's entries are in batch order.
  for (size_t b = 0; b < batches; ++b) {
    for (size_t w = 0; w < workers.size(); ++w) {
      const GroupFloatPartials& p = *workers[w]->group_float_partials();
      for (size_t& e = next[w]; e < p.batches_.size() && p.batches_[e] == b; ++e) {
        const size_t g = targets[w][p.groups_[e]];
        for (size_t j = 0; j < k; ++j) sums[g * k + j] += p.sums_[e * k + j];
      }
    }
  }
  for (size_t g = 0; g < result_groups; ++g) {
    for (size_t j = 0; j < k; ++j) result->SetGroupFloatSum(aggregates[j], g, sums[g * k + j]);
  }
}

}  // namespace exec
}  // namespace laneql
