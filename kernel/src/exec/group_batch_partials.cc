#include "src/exec/group_batch_partials.h"

#include <algorithm>

#include "src/common/query_budget.h"
#include "src/exec/aggregate_worker.h"

namespace laneql {
namespace exec {

GroupBatchPartials::GroupBatchPartials(const AggregateStates& states, const std::vector<plan::Aggregate>& aggregates) {
  entry_states_.resize(aggregates.size());
  for (size_t a = 0; a < states.num_aggregates(); ++a) {
    if (states.IsFloatSum(a)) aggregates_.push_back(a);
    if (FoldsByBatches(aggregates[a], true)) {
      entry_states_[a] = MakeAggregateFunctionState(aggregates[a]);
      has_entry_states_ = true;
    }
  }
}

size_t GroupBatchPartials::Bytes() const {
  return units_.capacity() * sizeof(uint64_t) +
         (groups_.capacity() + stamp_.capacity() + entry_of_.capacity()) * sizeof(uint32_t) +
         sums_.capacity() * sizeof(double);
}

bool GroupBatchPartials::BeginBatch(size_t batch, const uint32_t* group_ids, size_t count, size_t groups,
                                    AggregateStates* states, std::string* error) {
  const uint64_t unit = unit_base_ + batch / kUnitBatches;
  if (!open_ || unit != unit_) {
    if (open_ && !CloseUnit(states, error)) return false;
    open_ = true;
    unit_ = unit;
    ++opened_;
    unit_first_ = groups_.size();
    // Chosen once per unit: a group the unit touches has exactly one entry in it either way.
    every_group_ = groups <= kEveryGroupEntries;
    unit_groups_ = 0;
  }
  const size_t first = unit_first_;
  if (every_group_) {
    // Every group: an untouched one's partial is +0.0, which changes no sum (they start at
    // +0.0 and so are never -0.0), and its entry state stays empty, which merges as nothing.
    // Groups new in a later batch of the unit get their entries then, after the others.
    for (size_t g = unit_groups_; g < groups; ++g) groups_.push_back(static_cast<uint32_t>(g));
    unit_groups_ = std::max(unit_groups_, groups);
    if (has_entry_states_) {
      entry_ids_.resize(count);
      for (size_t i = 0; i < count; ++i) {
        entry_ids_[i] = group_ids[i] == kNoGroup ? kNoGroup : static_cast<uint32_t>(first + group_ids[i]);
      }
    }
  } else {
    if (stamp_.size() < groups) {
      stamp_.resize(groups, 0);
      entry_of_.resize(groups, 0);
    }
    const uint32_t mark = opened_;
    entry_ids_.resize(has_entry_states_ ? count : 0);
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup) {
        if (has_entry_states_) entry_ids_[i] = kNoGroup;
        continue;
      }
      if (stamp_[g] != mark) {
        stamp_[g] = mark;
        entry_of_[g] = static_cast<uint32_t>(groups_.size());
        groups_.push_back(g);
      }
      if (has_entry_states_) entry_ids_[i] = entry_of_[g];
    }
  }
  units_.resize(groups_.size(), unit);
  for (const auto& state : entry_states_) {  // each charges its own growth
    if (state != nullptr && !state->Resize(groups_.size(), error)) return false;
  }
  return true;
}

bool GroupBatchPartials::CloseUnit(AggregateStates* states, std::string* error) {
  open_ = false;
  for (size_t e = unit_first_; e < groups_.size(); ++e) {
    for (size_t a : aggregates_) sums_.push_back(states->TakeGroupFloatSum(a, groups_[e]));
  }
  const size_t bytes = Bytes();
  if (bytes > charged_) {
    const ScopedMemoryActivity activity("keeping grouped partial aggregates per batch");
    if (!ChargeQueryMemory(bytes - charged_, error)) return false;
    charged_ = bytes;
  }
  return true;
}

void GroupBatchPartials::Fold(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                              const std::vector<std::vector<uint32_t>>& targets, size_t result_groups,
                              AggregateStates* result) {
  const GroupBatchPartials& first = *workers[0]->group_batch_partials();
  const std::vector<size_t>& aggregates = first.aggregates_;
  std::vector<size_t> functions;
  for (size_t a = 0; a < first.entry_states_.size(); ++a) {
    if (first.entry_states_[a] != nullptr) functions.push_back(a);
  }
  const size_t k = aggregates.size();
  std::vector<double> sums(result_groups * k, 0.0);
  std::vector<size_t> next(workers.size(), 0);
  // Each unit was scanned by one worker, and each worker's entries are in unit order: the
  // workers' entries merged by unit, the lowest unit left first.
  while (true) {
    size_t w = workers.size();
    for (size_t v = 0; v < workers.size(); ++v) {
      const GroupBatchPartials& p = *workers[v]->group_batch_partials();
      if (next[v] < p.units_.size() &&
          (w == workers.size() || p.units_[next[v]] < workers[w]->group_batch_partials()->units_[next[w]])) {
        w = v;
      }
    }
    if (w == workers.size()) break;
    const GroupBatchPartials& p = *workers[w]->group_batch_partials();
    const uint64_t u = p.units_[next[w]];
    for (size_t& e = next[w]; e < p.units_.size() && p.units_[e] == u; ++e) {
      const size_t g = targets[w][p.groups_[e]];
      for (size_t j = 0; j < k; ++j) sums[g * k + j] += p.sums_[e * k + j];
      for (size_t a : functions) result->function_state(a)->Merge(*p.entry_states_[a], e, g);
    }
  }
  for (size_t g = 0; g < result_groups; ++g) {
    for (size_t j = 0; j < k; ++j) result->SetGroupFloatSum(aggregates[j], g, sums[g * k + j]);
  }
}

}  // namespace exec
}  // namespace laneql
