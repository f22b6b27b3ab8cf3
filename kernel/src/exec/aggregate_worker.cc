// One thread's scan of an aggregation: filter -> keys -> group ids -> aggregate states.
#include "src/exec/aggregate_worker.h"

#include <algorithm>

#include "laneql/gather.h"
#include "laneql/hash.h"
#include "laneql/predicate.h"
#include "src/exec/executor.h"
#include "src/exec/group_partitions.h"

namespace laneql {
namespace exec {

using plan::AggKind;
using plan::BoundKind;

namespace {

bool IsKernelColumn(const plan::BoundExpr* arg, const Table& table) {
  if (arg == nullptr || arg->kind != BoundKind::kColumn) return false;
  const TypeId type = table.column(static_cast<size_t>(arg->column)).type();
  return IsFixedWidth(type) && TypeByteWidth(type) <= 8 && type != TypeId::kBool;
}

void CollectColumns(const plan::BoundExpr& expr, std::vector<bool>* used) {
  if (expr.kind == BoundKind::kColumn && static_cast<size_t>(expr.column) < used->size()) {
    (*used)[static_cast<size_t>(expr.column)] = true;
  }
  for (const auto& arg : expr.args) CollectColumns(*arg, used);
}

}  // namespace

uint64_t ScanBytesPerRow(const plan::Plan& plan, const Table& table) {
  std::vector<bool> used(table.num_columns(), false);
  if (plan.where) CollectColumns(*plan.where, &used);
  for (const auto& key : plan.group_keys) CollectColumns(*key, &used);
  for (const auto& aggregate : plan.aggregates) {
    if (aggregate.arg) CollectColumns(*aggregate.arg, &used);
    if (aggregate.arg2) CollectColumns(*aggregate.arg2, &used);
    for (const auto& key : aggregate.order_keys) CollectColumns(*key, &used);
  }
  uint64_t bytes = 0;
  for (size_t c = 0; c < used.size(); ++c) {
    if (!used[c]) continue;
    const Column& column = table.column(c);
    if (!IsString(column.type())) bytes += TypeByteWidth(column.type());
    else if (table.num_rows() != 0) bytes += column.values_buffer().size() / table.num_rows() + 4;
  }
  return bytes;
}

AggregateWorker::AggregateWorker(const plan::Plan& plan, int thread, Profiler* profiler)
    : AggregateWorker(plan, *plan.table, thread, profiler) {}

AggregateWorker::AggregateWorker(const plan::Plan& plan, const Table& table, int thread, Profiler* profiler)
    : plan_(plan), table_(table), ungrouped_(plan.group_keys.empty()), thread_(thread),
      profiler_(profiler), states_(plan.aggregates, plan.group_keys.empty()),
      evaluator_(TableColumns(table)) {}

bool AggregateWorker::Init(size_t group_cap, bool track_first_rows, FloatPartials* partials,
                           bool lookup_table, std::string* error, bool direct_ranges) {
  if (!ungrouped_ && !grouper_.Init(plan_.group_keys, group_cap, lookup_table, error,
                                    direct_ranges ? &table_ : nullptr)) {
    return false;
  }
  if (ungrouped_ && !states_.Resize(1, error)) return false;
  // Over a refilled table, no zone maps: they go with the rows they describe.
  if (plan_.where) filter_ = std::make_unique<Filter>(table_, *plan_.where, &table_ == plan_.table);
  partials_ = partials;
  track_first_rows_ = track_first_rows && !ungrouped_;
  mask_.assign(BitmaskWords(kBatchRows) + 1, 0);
  ids_.assign(kBatchRows, 0);
  group_ids_.assign(kBatchRows, 0);
  bytes_per_row_ = ScanBytesPerRow(plan_, table_);
  return true;
}

bool AggregateWorker::Presize(size_t groups, size_t state_groups, size_t first_row_groups,
                              size_t key_bytes, std::string* error) {
  if (ungrouped_ || !grouper_.Reserve(groups, key_bytes, error) ||
      !states_.Reserve(state_groups, error)) {
    return false;
  }
  // + 1: NoteFirstRows writes one past the groups.
  if (track_first_rows_) first_rows_.reserve(DoublingCapacity(first_row_groups + 1));
  return true;
}

bool AggregateWorker::ScanBatches(size_t first, size_t last, std::string* error) {
  ScopedSpan span(profiler_, thread_, "scan", "scan");
  const ProfileCounters before = counters_;
  for (size_t b = first; b < last; ++b) {
    if (!ScanBatch(b, error)) return false;
  }
  span.counters().rows = counters_.rows - before.rows;
  span.counters().bytes = counters_.bytes - before.bytes;
  span.counters().probes = counters_.probes - before.probes;
  return true;
}

namespace {

// Keeps the rows i of `selection` with keep(i), in order: their ids go to ids[0..kept) and
// carry(kept, i) moves any per-row data along. Every row is written whether kept or not, the
// count moving only for kept rows: which rows another owner takes is random, and a branch on
// it mispredicted every other row (callgrind's branch simulation: 10 M mispredictions for
// GROUP BY UserID over 10 M rows on 2 threads). In place is safe: kept <= i, and row i is read
// before slot kept is written.
template <class Keep, class Carry>
size_t CompactRows(RowSet* selection, uint32_t* ids, const Keep& keep, const Carry& carry) {
  size_t kept = 0;
  const uint32_t begin = static_cast<uint32_t>(selection->begin);
  for (size_t i = 0; i < selection->count; ++i) {
    const bool keep_row = keep(i);
    ids[kept] = selection->ids != nullptr ? selection->ids[i] : begin + static_cast<uint32_t>(i);
    carry(kept, i);
    kept += keep_row;
  }
  selection->ids = ids;
  selection->count = kept;
  selection->mask = nullptr;
  return kept;
}
template <class Keep>
size_t CompactRows(RowSet* selection, uint32_t* ids, const Keep& keep) {
  return CompactRows(selection, ids, keep, [](size_t, size_t) {});
}

}  // namespace

void AggregateWorker::KeepGroupBatchPartials() {
  group_partials_ = std::make_unique<GroupBatchPartials>(states_, plan_.aggregates);
}

bool AggregateWorker::FinishGroupBatchPartials(std::string* error) {
  return group_partials_ == nullptr || group_partials_->Finish(&states_, error);
}

void AggregateWorker::SetOwnership(int owner, int owners) {
  if (ungrouped_) {  // COUNT(DISTINCT)s split by value
    states_.SetDistinctOwnership(static_cast<uint32_t>(owner), static_cast<uint32_t>(owners));
    return;
  }
  owned_ = owners > 1;
  grouper_.SetOwnership(static_cast<uint32_t>(owner), static_cast<uint32_t>(owners));
}

void AggregateWorker::SetValueOwnership(int owner, int owners, size_t distinct) {
  value_split_ = owners > 1 ? static_cast<int>(distinct) : -1;
  value_owners_.Set(static_cast<uint32_t>(owner), static_cast<uint32_t>(owners));
  states_.SetDistinctPairsDisjoint();
}

bool AggregateWorker::HashSplitValues(const RowSet& selection, std::vector<uint64_t>* hashes,
                                      std::string* error) {
  Vec arg;
  if (!evaluator_.Eval(*plan_.aggregates[static_cast<size_t>(value_split_)].arg, selection, &arg,
                       error)) {
    return false;
  }
  const size_t n = selection.count;
  if (value_words_.size() < n) value_words_.resize(n);
  if (hashes->size() < n) hashes->resize(n);
  // A NULL's word is whatever its slot holds: the row goes to some one owner, which is all
  // the other aggregates need (COUNT(DISTINCT) skips it).
  DistinctWords(arg, n, value_words_.data(), 1);
  HashKeys(value_words_.data(), n, nullptr, hashes->data());
  return true;
}

size_t AggregateWorker::KeepOwnedValues(RowSet* selection, const uint64_t* hashes) {
  const size_t n = selection->count;
  if (value_owned_.size() < BitmaskWords(n)) value_owned_.resize(BitmaskWords(n));
  value_owners_.Mark(hashes, n, value_owned_.data(), /*and_into=*/false);
  return CompactRows(selection, ids_.data(), [&](size_t i) {
    return static_cast<bool>((value_owned_[i / 64] >> (i % 64)) & 1);
  });
}

size_t AggregateWorker::KeepOwnedRows(RowSet* selection, bool evaluates_rows) {
  // By the compress kernels over a mask of the rows with a group: the row-at-a-time loop
  // (CompactRows) was 2-3 % of an owned scan's time (GROUP BY WatchID, ClientIP on 2 threads).
  const size_t n = selection->count;
  selection->mask = nullptr;
  owned_mask_.resize(BitmaskWords(n));
  owned_scratch_.resize(group_ids_.size());
  CompareToMask(group_ids_.data(), n, CompareOp::kNe, kNoGroup, nullptr, owned_mask_.data());
  const size_t kept = CompressU32(group_ids_.data(), n, owned_mask_.data(), owned_scratch_.data());
  std::swap(group_ids_, owned_scratch_);
  if (selection->ids == nullptr) {
    MaskToIndices(owned_mask_.data(), n, ids_.data());
    const uint32_t begin = static_cast<uint32_t>(selection->begin);
    for (size_t k = 0; k < kept; ++k) ids_[k] += begin;
    if (begin % 64 == 0) {  // the arguments then compressed, not gathered (RowSet::mask)
      selection->mask = owned_mask_.data();
      selection->mask_begin = begin;
      selection->mask_rows = n;
    }
  } else if (selection->ids != ids_.data()) {
    CompressU32(selection->ids, n, owned_mask_.data(), ids_.data());
    if (evaluates_rows) MaskKeptRows(selection->begin, kept, selection);
  } else {
    CompressU32(selection->ids, n, owned_mask_.data(), owned_scratch_.data());
    std::swap(ids_, owned_scratch_);
  }
  selection->ids = ids_.data();
  selection->count = kept;
  return kept;
}

void AggregateWorker::MaskKeptRows(size_t begin, size_t kept, RowSet* selection) {
  // Behind a WHERE an owner keeps rows all over the batch; where they are dense enough
  // (UseDenseMask), a mask over the batch lets the arguments be compressed instead (GROUP BY
  // WatchID, ClientIP behind SearchPhrase <> '' on 2 threads, 13 % of the rows, half of them
  // an owner's: the 2-byte gathers took 60 % more than one thread's).
  if (kept == 0 || begin % 64 != 0 || ids_[0] < begin) return;  // ids ascend from the batch
  const size_t rows = ids_[kept - 1] - begin + 1;
  if (kept * kDenseMaskShare < rows) return;
  kept_rows_mask_.assign(BitmaskWords(rows), 0);
  uint64_t* mask = kept_rows_mask_.data();
  for (size_t k = 0; k < kept; ++k) {
    const size_t row = ids_[k] - begin;
    mask[row / 64] |= uint64_t{1} << (row % 64);
  }
  selection->mask = mask;
  selection->mask_begin = begin;
  selection->mask_rows = rows;
}

void AggregateWorker::UseDenseMask(const uint64_t* mask, size_t begin, size_t n, RowSet* rows) {
  if (begin % 64 != 0 || rows->count * kDenseMaskShare < n) return;
  rows->mask = mask;
  rows->mask_begin = begin;
  rows->mask_rows = n;
}

void AggregateWorker::NoteFirstRows(const RowSet& rows, size_t groups_before) {
  // A new group's first row is the first of its rows: going backwards, each row of a new group
  // writes its group's slot, the first row last, and the others write a spare slot past the
  // groups. No branch per row (in GROUP BY UserID a row starts a group about every other time,
  // at random), and no chain from row to row (following the next new group's id was one, a
  // load and a compare per row: 2 % of GROUP BY WatchID, ClientIP on 2 threads).
  const size_t groups = grouper_.size();
  // + 1: the spare slot. Not filled (LargeBlockAllocator leaves resize(n)'s numbers unwritten):
  // every new group has a row here, which writes its slot. (The fill took 3.5 ms of CPU of an
  // owned GROUP BY WatchID, ClientIP on 2 threads; the loop's first writes now take ~2.9 of it.)
  first_rows_.resize(groups + 1);
  const uint64_t new_groups = groups - groups_before;
  for (size_t i = rows.count; i-- > 0;) {
    // The slot by arithmetic (a conditional became a branch, mispredicted as often as rows
    // start groups): `offset` is below new_groups for a new group only (an older group's id,
    // and kNoGroup, wrap past it), and the mask keeps it or makes the slot the spare one.
    const uint64_t offset = uint64_t{group_ids_[i]} - groups_before;
    const uint64_t keep = uint64_t{0} - static_cast<uint64_t>(offset < new_groups);
    first_rows_[groups + ((offset - new_groups) & keep)] =
        row_base_ + (rows.ids != nullptr ? rows.ids[i] : rows.begin + i);
  }
  first_rows_.resize(groups);
}

size_t AggregateWorker::FilterBatch(size_t begin, size_t n, std::string* error) {
  if (table_mask_ != nullptr) {
    std::copy_n(table_mask_ + begin / 64, BitmaskWords(n), mask_.data());
  } else if (!filter_->Eval(begin, n, mask_.data(), error)) {
    return kNoRow;
  }
  return CountBits(mask_.data(), n);
}

bool AggregateWorker::ScanBatch(size_t batch, std::string* error) {
  const size_t rows = table_.num_rows();
  const size_t begin = batch * kBatchRows;
  const size_t n = std::min(kBatchRows, rows - begin);
  counters_.rows += n;
  counters_.bytes += n * bytes_per_row_;
  const uint64_t* select = nullptr;
  size_t selected = n;
  RowSet selection;
  selection.begin = begin;
  selection.count = n;
  // The selected rows' ids are made only when something reads rows one by one (keys,
  // evaluated arguments): COUNT(*) and the kernels' masked aggregates take the mask itself.
  bool ids_pending = false;
  auto selected_rows = [&]() -> const RowSet& {
    if (ids_pending) {
      MaskToIndices(mask_.data(), n, ids_.data());
      for (size_t i = 0; i < selection.count; ++i) ids_[i] += static_cast<uint32_t>(begin);
      ids_pending = false;
    }
    return selection;
  };
  if (filter_) {
    selected = FilterBatch(begin, n, error);
    if (selected == kNoRow) return false;
    if (selected == 0) return true;
    if (selected < n) {
      select = mask_.data();
      selection.ids = ids_.data();
      selection.count = selected;
      ids_pending = true;
      UseDenseMask(mask_.data(), begin, n, &selection);
    }
  }
  if (!ungrouped_) {
    const size_t groups_before = grouper_.size();
    if (!grouper_.Assign(&evaluator_, selected_rows(), group_ids_.data(), error)) return false;
    if (group_partials_ != nullptr &&
        !group_partials_->BeginBatch(batch, group_ids_.data(), selection.count, grouper_.size(), &states_,
                                     error)) {
      return false;
    }
    return FoldGrouped(selection, groups_before, error);
  }
  for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
    const plan::Aggregate& aggregate = plan_.aggregates[a];
    if (aggregate.kind == AggKind::kCountStar) {
      states_.AddCount(a, selected);
      continue;
    }
    if (!batch_states_.empty() && batch_states_[a] != nullptr) {
      Vec arg;
      if (!evaluator_.Eval(*aggregate.arg, selected_rows(), &arg, error) ||
          !UpdateBatchFunction(a, selected_rows(), &arg, selected, batch, error)) {
        return false;
      }
      continue;
    }
    bool done = false;
    if (IsKernelColumn(aggregate.arg.get(), table_)) {
      const Column& column = table_.column(static_cast<size_t>(aggregate.arg->column));
      const uint64_t* validity = column.validity() != nullptr ? column.validity() + begin / 64 : nullptr;
      const void* data = column.values_buffer().data() + begin * TypeByteWidth(column.type());
      done = states_.UpdateKernel(a, column.type(), data, n, select, validity);
    }
    if (!done) {  // ungrouped: group_ids_ stay all 0 (the one group)
      Vec arg;
      if (!evaluator_.Eval(*aggregate.arg, selected_rows(), &arg, error)) return false;
      // A computed argument through the SIMD kernels too (sum(i * 3 + 1): its Int128 adds row
      // by row were a third of the query), where the kernels' order of additions does not show:
      // integer sums are exact, MIN / MAX pick the same value; float sums stay in row order.
      const bool order_free = aggregate.kind == AggKind::kMin || aggregate.kind == AggKind::kMax ||
                              ((aggregate.kind == AggKind::kSum || aggregate.kind == AggKind::kAvg) &&
                               IsInteger(arg.type));
      if (order_free && !arg.constant && aggregate.kind != AggKind::kFunction && !aggregate.arg2 &&
          TypeByteWidth(arg.type) <= 8 && arg.count == selected &&
          states_.UpdateKernel(a, arg.type, arg.values, selected, nullptr, arg.validity)) {
        done = true;
      }
      if (!done && !UpdateFunction(a, selected_rows(), &arg, selected, error)) return false;
    }
    if (partials_ != nullptr && states_.IsFloatSum(a)) {
      (*partials_)[a][batch] = states_.TakeFloatSum(a);
    }
  }
  return true;
}

bool AggregateWorker::EvalSecondArg(const plan::Aggregate& aggregate, const RowSet& rows, Vec* out,
                                    std::string* error) {
  if (!aggregate.arg2) return true;
  return evaluator_.Eval(*aggregate.arg2, rows, out, error) && ExpandConstant(out, error);
}

bool AggregateWorker::UpdateFunction(size_t a, const RowSet& rows, Vec* arg, size_t selected, std::string* error) {
  const plan::Aggregate& aggregate = plan_.aggregates[a];
  Vec arg2;
  if (!ExpandConstant(arg, error) || !EvalSecondArg(aggregate, rows, &arg2, error)) return false;
  std::vector<Vec> keys(aggregate.order_keys.size());
  for (size_t k = 0; k < keys.size(); ++k) {
    if (!evaluator_.Eval(*aggregate.order_keys[k], rows, &keys[k], error) || !ExpandConstant(&keys[k], error)) {
      return false;
    }
  }
  AggregateFunctionState* entries = group_partials_ != nullptr ? group_partials_->EntryState(a) : nullptr;
  if (entries != nullptr) {  // grouped by batch partials: into the batch's entries
    entries->SetRows(&rows);
    const bool ok =
        entries->Update(*arg, aggregate.arg2 ? &arg2 : nullptr, group_partials_->entry_ids(), selected, error);
    entries->SetRows(nullptr);
    return ok;
  }
  return states_.Update(a, arg, group_ids_.data(), selected, error, aggregate.arg2 ? &arg2 : nullptr,
                        keys.empty() ? nullptr : &keys, &rows);
}

bool AggregateWorker::KeepBatchFunctionStates(size_t batches, std::string* error) {
  batch_states_.clear();
  batch_states_.resize(plan_.aggregates.size());
  for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
    if (!FoldsByBatches(plan_.aggregates[a], false)) continue;
    batch_states_[a] = MakeAggregateFunctionState(plan_.aggregates[a]);
    if (!batch_states_[a]->Resize(batches, error)) return false;
  }
  batch_ids_.assign(kBatchRows, 0);
  return true;
}

bool AggregateWorker::UpdateBatchFunction(size_t a, const RowSet& rows, Vec* arg, size_t selected, size_t batch,
                                          std::string* error) {
  const plan::Aggregate& aggregate = plan_.aggregates[a];
  Vec arg2;
  if (!ExpandConstant(arg, error) || !EvalSecondArg(aggregate, rows, &arg2, error)) return false;
  std::fill_n(batch_ids_.data(), selected, static_cast<uint32_t>(batch));
  batch_states_[a]->SetRows(&rows);
  const bool ok = batch_states_[a]->Update(*arg, aggregate.arg2 ? &arg2 : nullptr, batch_ids_.data(), selected, error);
  batch_states_[a]->SetRows(nullptr);
  return ok;
}

void MergeBatchFunctionStates(const std::vector<std::unique_ptr<AggregateWorker>>& workers, size_t batches) {
  AggregateWorker& result = *workers[0];
  for (size_t a = 0; a < result.batch_states_.size(); ++a) {
    if (result.batch_states_[a] == nullptr) continue;
    AggregateFunctionState* target = result.states().function_state(a);
    size_t bytes = 0;
    for (size_t b = 0; b < batches; ++b) {
      for (const auto& worker : workers) bytes += worker->batch_states_[a]->MergeBytes(b);
    }
    target->ReserveMerge(0, bytes);
    // A batch was folded by one worker; the others' group b is empty, and merging an empty
    // group changes nothing.
    for (size_t b = 0; b < batches; ++b) {
      for (const auto& worker : workers) target->Merge(*worker->batch_states_[a], b, 0);
    }
  }
}

bool AggregateWorker::FoldGrouped(RowSet selection, size_t groups_before, std::string* error,
                                  const PreparedBatch* prepared) {
  if (!states_.Resize(grouper_.size(), error)) return false;
  size_t selected = selection.count;
  counters_.probes += selected;
  // Whether an argument is evaluated over the rows, rather than compressed out of the
  // prepared batch (PreparedBatch::args) or not needed (COUNT(*)).
  const auto ready = [&](size_t a) {
    return owned_ && prepared != nullptr && a < prepared->arg_ready.size() && prepared->arg_ready[a] != 0;
  };
  bool evaluates_rows = false;
  for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
    evaluates_rows |= plan_.aggregates[a].kind != AggKind::kCountStar && !ready(a);
  }
  if (owned_) {
    // Only this worker's rows go on: the aggregates' arguments are evaluated for them alone.
    selected = KeepOwnedRows(&selection, evaluates_rows);
    if (selected == 0) return true;
  }
  if (track_first_rows_ && grouper_.size() != groups_before) NoteFirstRows(selection, groups_before);
  // Float SUM / AVG of DOUBLE values without NULLs, and COUNT(*), over few groups: folded
  // together, after the others (UpdateFloatSums).
  const bool fuse = grouper_.size() <= AggregateStates::kFusedFloatSumGroups;
  fused_aggs_.clear();
  fused_count_stars_.clear();
  fused_args_.resize(plan_.aggregates.size());
  for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
    const plan::Aggregate& aggregate = plan_.aggregates[a];
    if (aggregate.kind == AggKind::kCountStar) {
      if (fuse) {
        fused_count_stars_.push_back(a);
      } else if (!states_.Update(a, nullptr, group_ids_.data(), selected, error)) {
        return false;
      }
      continue;
    }
    Vec& arg = fused_args_[a];
    arg = Vec();
    if (!(ready(a) ? CompressVec(prepared->args[a], owned_mask_.data(), selected, &arg, error)
                   : evaluator_.Eval(*aggregate.arg, selection, &arg, error))) {
      return false;
    }
    if (fuse && states_.IsFloatSum(a) && !aggregate.arg2 && aggregate.order_keys.empty() &&
        arg.type == TypeId::kFloat64 && !arg.constant && arg.validity == nullptr) {
      fused_aggs_.push_back(a);
      continue;
    }
    if (!UpdateFunction(a, selection, &arg, selected, error)) return false;
  }
  if (!fused_aggs_.empty() || !fused_count_stars_.empty()) {
    fused_values_.clear();
    for (size_t a : fused_aggs_) fused_values_.push_back(fused_args_[a].Data<double>());
    states_.UpdateFloatSums(fused_aggs_, fused_values_, fused_count_stars_, group_ids_.data(), selected,
                            grouper_.size());
  }
  return true;
}

bool AggregateWorker::PrepareBatch(size_t batch, PreparedBatch* out, std::string* error) {
  const size_t begin = batch * kBatchRows;
  const size_t n = std::min(kBatchRows, table_.num_rows() - begin);
  out->table_rows = n;
  out->rows = RowSet();
  out->rows.begin = begin;
  out->rows.count = n;
  if (filter_) {
    const size_t selected = FilterBatch(begin, n, error);
    if (selected == kNoRow) return false;
    if (selected == 0) {
      out->rows.count = 0;
      out->prepared.count = 0;
      return true;
    }
    if (selected < n) {
      out->ids.resize(kBatchRows);
      MaskToIndices(mask_.data(), n, out->ids.data());
      for (size_t i = 0; i < selected; ++i) out->ids[i] += static_cast<uint32_t>(begin);
      out->rows.ids = out->ids.data();
      out->rows.count = selected;
    }
  }
  // The keys evaluated through the WHERE's mask where it is dense (the batch's stored rows
  // keep ids alone: the mask is this worker's and changes with its next batch).
  RowSet rows = out->rows;
  if (rows.ids != nullptr) UseDenseMask(mask_.data(), begin, n, &rows);
  if (value_split_ >= 0) return HashSplitValues(rows, &out->value_hashes, error);
  if (!grouper_.Prepare(&evaluator_, rows, &out->keys, &out->prepared, error)) return false;
  out->arg_ready.assign(plan_.aggregates.size(), 0);
  if (!owned_ || rows.ids == nullptr) return true;  // no WHERE: each owner compresses its rows
  out->args.resize(plan_.aggregates.size());
  for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
    const plan::Aggregate& aggregate = plan_.aggregates[a];
    // (A second argument is evaluated by the owner: arg2 of covar_pop, arg_min, ...)
    if (aggregate.kind == AggKind::kCountStar || aggregate.arg2 || !aggregate.order_keys.empty() ||
        !CanCompressVec(aggregate.arg->type)) {
      continue;
    }
    if (!evaluator_.Eval(*aggregate.arg, rows, &out->args[a], error)) return false;
    out->arg_ready[a] = out->args[a].type == aggregate.arg->type ? 1 : 0;
  }
  return true;
}

bool AggregateWorker::ScanPreparedBatch(const PreparedBatch& batch, std::string* error) {
  counters_.rows += batch.table_rows;
  counters_.bytes += batch.table_rows * bytes_per_row_;
  if (batch.rows.count == 0) return true;
  const size_t groups_before = grouper_.size();
  if (value_split_ >= 0) {
    // Only this worker's values go on, to the grouping as well: each thread groups its rows alone.
    RowSet selection = batch.rows;
    if (KeepOwnedValues(&selection, batch.value_hashes.data()) == 0) return true;
    if (!grouper_.Assign(&evaluator_, selection, group_ids_.data(), error)) return false;
    return FoldGrouped(selection, groups_before, error);
  }
  if (!grouper_.AssignPrepared(batch.keys, batch.prepared, group_ids_.data(), error)) return false;
  return FoldGrouped(batch.rows, groups_before, error, &batch);
}

bool AggregateWorker::PartitionBatches(size_t first, size_t last, const GroupRecordLayout& layout,
                                       GroupPartitions* out, std::string* error) {
  ScopedSpan span(profiler_, thread_, "partition", "scan");
  const ProfileCounters before = counters_;
  partition_args_.resize(layout.arg_types.size());
  for (size_t b = first; b < last; ++b) {
    PreparedBatch& batch = partition_batch_;
    if (!PrepareBatch(b, &batch, error)) return false;
    counters_.rows += batch.table_rows;
    counters_.bytes += batch.table_rows * bytes_per_row_;
    if (batch.rows.count == 0) continue;
    for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
      if (layout.arg_of[a] < 0) continue;
      Vec& arg = partition_args_[static_cast<size_t>(layout.arg_of[a])];
      if (!evaluator_.Eval(*plan_.aggregates[a].arg, batch.rows, &arg, error) || !ExpandConstant(&arg, error)) {
        return false;
      }
    }
    if (!out->AppendBatch(batch, partition_args_, error)) return false;
  }
  span.counters().rows = counters_.rows - before.rows;
  span.counters().bytes = counters_.bytes - before.bytes;
  return true;
}

bool AggregateWorker::Merge(const AggregateWorker& other, std::string* error, std::vector<uint32_t>* mapping) {
  if (ungrouped_) return states_.Merge(other.states_, std::vector<uint32_t>{0}, 1, error);
  std::vector<uint32_t> own;
  return MergeGroupsAndStates(other, mapping != nullptr ? mapping : &own, true, error);
}

bool AggregateWorker::MergeLeavingPairs(const AggregateWorker& other, std::vector<uint32_t>* mapping,
                                        std::string* error) {
  return MergeGroupsAndStates(other, mapping, false, error);
}

bool AggregateWorker::MergeGroupsAndStates(const AggregateWorker& other, std::vector<uint32_t>* mapping,
                                           bool insert_pairs, std::string* error) {
  if (!grouper_.Merge(other.grouper_, mapping, error) ||
      !states_.Merge(other.states_, *mapping, grouper_.size(), error, insert_pairs)) {
    return false;
  }
  if (track_first_rows_) {
    first_rows_.resize(grouper_.size(), kNoRow);
    for (size_t g = 0; g < mapping->size() && g < other.first_rows_.size(); ++g) {
      uint64_t& first = first_rows_[(*mapping)[g]];
      first = std::min(first, other.first_rows_[g]);
    }
  }
  return true;
}

void AggregateWorker::AdoptMerged(std::vector<std::unique_ptr<Grouper>> parts, AggregateStates states,
                                  FirstRows first_rows) {
  grouper_.AdoptPartitions(std::move(parts));
  states_ = std::move(states);
  first_rows_ = std::move(first_rows);
}

void AggregateWorker::AdoptMergedGroups(std::vector<std::unique_ptr<Grouper>> parts, FirstRows first_rows) {
  grouper_.AdoptPartitions(std::move(parts));
  first_rows_ = std::move(first_rows);
}

}  // namespace exec
}  // namespace laneql
