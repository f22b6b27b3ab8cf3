#include "src/exec/join_aggregate_sink.h"

#include <algorithm>
#include <utility>

#include "src/common/query_budget.h"
#include "src/exec/aggregate_function_state.h"
#include "src/exec/aggregate_worker.h"
#include "src/exec/executor.h"
#include "src/exec/group_merge.h"
#include "src/exec/output_stage.h"
#include "src/exec/profile.h"

namespace laneql {
namespace exec {

namespace {

bool FloatSum(const plan::Aggregate& aggregate) {
  return (aggregate.kind == plan::AggKind::kSum || aggregate.kind == plan::AggKind::kAvg) && aggregate.arg &&
         IsFloat(aggregate.arg->type);
}

// A grouped aggregate that keeps partials per fold unit (GroupBatchPartials).
bool ByUnits(const plan::Aggregate& aggregate) {
  return FloatSum(aggregate) || (FoldsInRowOrder(aggregate) && FoldsByBatches(aggregate, true));
}

}  // namespace

bool JoinAggregateSink::Takes(const plan::Plan& plan) {
  if (!plan.aggregate || plan.table == nullptr) return false;
  const bool grouped = !plan.group_keys.empty();
  for (const plan::Aggregate& aggregate : plan.aggregates) {
    if (FoldsInRowOrder(aggregate) && !(grouped && ByUnits(aggregate))) return false;
  }
  return true;
}

JoinAggregateSink::JoinAggregateSink(const plan::Plan& plan, const ExecContext& ctx, int threads)
    : plan_(plan), ctx_(ctx),
      // One thread takes the parts in order: its groups are numbered in row order already.
      track_first_rows_(threads > 1 && !plan.group_keys.empty()),
      slots_(static_cast<size_t>(threads > 0 ? threads : 1)) {
  const bool grouped = !plan.group_keys.empty();
  for (const plan::Aggregate& aggregate : plan.aggregates) {
    float_sums_ |= !grouped && FloatSum(aggregate);
    group_partials_ |= grouped && ByUnits(aggregate);
  }
}

JoinAggregateSink::~JoinAggregateSink() = default;

bool JoinAggregateSink::MakeWorker(const Table& table, int thread, std::unique_ptr<AggregateWorker>* out,
                                   std::string* error) {
  auto worker = std::make_unique<AggregateWorker>(plan_, table, thread, ctx_.profiler);
  // No group cap (the first groups in row order come from the merge's order instead), and no
  // direct table from a column's range (the range of rows not yet joined is unknown).
  if (!worker->Init(0, track_first_rows_, nullptr, ctx_.small_key_lookup, error, false)) return false;
  if (group_partials_) worker->KeepGroupBatchPartials();
  *out = std::move(worker);
  return true;
}

bool JoinAggregateSink::Consume(int thread, size_t part, std::vector<Column> columns, std::string* error) {
  if (thread < 0 || static_cast<size_t>(thread) >= slots_.size()) {
    *error = "internal error: a pipeline's thread has no aggregate of its own";
    return false;
  }
  if (columns.empty() || columns[0].length() == 0) return true;
  Slot& slot = slots_[static_cast<size_t>(thread)];
  if (slot.table == nullptr) {
    auto table = std::make_unique<Table>();
    for (size_t c = 0; c < plan_.table->num_columns(); ++c) {
      if (c >= columns.size() || !table->AddColumn(plan_.table->column_name(c), std::move(columns[c]), error)) {
        if (c >= columns.size()) *error = "internal error: a pipeline's part lacks columns its aggregate reads";
        return false;
      }
    }
    if (!MakeWorker(*table, thread, &slot.worker, error)) return false;
    slot.table = std::move(table);
  } else if (!slot.table->ReplaceRows(std::move(columns), error)) {
    return false;
  }
  const ScopedMemoryActivity activity("aggregating a join's rows");
  slot.worker->SetRowBase(static_cast<uint64_t>(part) << 32);
  slot.worker->SetUnitBase(static_cast<uint64_t>(part) << 32);
  const size_t batches = (slot.table->num_rows() + kBatchRows - 1) / kBatchRows;
  if (!float_sums_) return slot.worker->ScanBatches(0, batches, error);
  FloatPartials partials(plan_.aggregates.size(), std::vector<double>(batches, 0.0));
  slot.worker->SetFloatPartials(&partials);
  const bool scanned = slot.worker->ScanBatches(0, batches, error);
  slot.worker->SetFloatPartials(nullptr);
  slot.partials.emplace_back(part, std::move(partials));
  return scanned;
}

Result JoinAggregateSink::Finish() {
  // In the trace as the operator the SELECT's clauses were (their parts' folds are the "scan"
  // spans inside the probe morsels).
  ScopedSpan sink_span(ctx_.profiler, 0, "aggregate sink", "operator");
  std::string error;
  std::vector<std::unique_ptr<AggregateWorker>> workers;
  for (Slot& slot : slots_) {
    if (slot.worker != nullptr) workers.push_back(std::move(slot.worker));
  }
  if (workers.empty()) {  // no row joined: the aggregate over none
    workers.emplace_back();
    if (!MakeWorker(*plan_.table, 0, &workers[0], &error)) return Result::Error(error);
  }
  if (ctx_.Interrupted()) return Result::Error(ctx_.StopMessage());
  // Each worker's last fold unit closed: its partial sums taken out of its states.
  for (const auto& worker : workers) {
    if (!worker->FinishGroupBatchPartials(&error)) return Result::Error(error);
  }
  std::vector<std::vector<uint32_t>> targets;  // worker w's group g is merged group targets[w][g]
  {
    const ScopedMemoryActivity activity("merging the threads' groups");
    if (!MergeWorkers(workers, ctx_, ctx_.ThreadsAvailable(), &error, group_partials_ ? &targets : nullptr)) {
      return Result::Error(error);
    }
  }
  if (ctx_.Interrupted()) return Result::Error(ctx_.StopMessage());
  AggregateWorker& result = *workers[0];
  if (group_partials_) GroupBatchPartials::Fold(workers, targets, result.groups(), &result.states());
  if (float_sums_) {
    // Every part's partial sums in (part, batch) order: the same additions on every thread count.
    std::vector<std::pair<size_t, std::vector<std::vector<double>>>> parts;
    for (Slot& slot : slots_) {
      for (auto& part : slot.partials) parts.push_back(std::move(part));
    }
    std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
      if (!result.states().IsFloatSum(a)) continue;
      double sum = 0.0;
      for (const auto& part : parts) {
        for (double partial : part.second[a]) sum += partial;
      }
      result.states().SetFloatSum(a, sum);
    }
  }
  ScopedSpan span(ctx_.profiler, 0, "output", "output");
  StateParts states;
  states.Add(result.states(), result.groups());
  const bool ungrouped = plan_.group_keys.empty();
  return OutputGroups(plan_, ctx_, ungrouped ? nullptr : &result.grouper(), states,
                      track_first_rows_ ? &result.first_rows() : nullptr);
}

}  // namespace exec
}  // namespace laneql
