// GroupStage: constant keys set aside, and the group cap for GROUP BY ... LIMIT.
#include "src/exec/group_stage.h"

#include <algorithm>

#include "src/exec/morsel.h"
#include "src/exec/parallel_project.h"

namespace laneql {
namespace exec {

bool GroupStage::Init(const std::vector<plan::BoundExprPtr>& keys, size_t group_cap,
                      bool lookup_table, std::string* error, const Table* table) {
  keys_ = &keys;
  cap_ = group_cap;
  lookup_table_ = lookup_table;
  for (size_t k = 0; k < keys.size(); ++k) {
    if (keys[k]->IsConstant()) continue;
    varying_.push_back(k);
    types_.push_back(keys[k]->type);
    nullable_.push_back(keys[k]->nullable);
  }
  if (varying_.empty()) return true;
  // GROUP BY g of a column of 1,000 values: a slot per value instead of the hash table's
  // probe, on any width (the 8/16-bit keys have theirs by type).
  if (lookup_table && table != nullptr && varying_.size() == 1) {
    const plan::BoundExpr& key = *keys[varying_[0]];
    const bool column_key = key.kind == plan::BoundKind::kColumn && key.column >= 0 &&
                            static_cast<size_t>(key.column) < table->num_columns();
    const Column* column = column_key ? &table->column(static_cast<size_t>(key.column)) : nullptr;
    int64_t min = 0, max = 0;
    if (column != nullptr && column->type() == key.type && TypeByteWidth(key.type) >= 4 &&
        column->IntegerRange(&min, &max) &&
        static_cast<uint64_t>(max) - static_cast<uint64_t>(min) < Grouper::kDirectSlots) {
      direct_range_ = true;
      direct_min_ = min;
    }
  }
  grouper_ = std::make_unique<Grouper>();
  if (!grouper_->Init(types_, nullable_, lookup_table_, error, DirectMin())) return false;
  if (cap_ != 0) grouper_->set_max_groups(cap_);
  return true;
}

size_t GroupStage::size() const {
  if (!parts_.empty()) return part_offsets_.back();
  if (!grouper_) return any_row_ ? 1 : 0;
  return grouper_->size();
}

bool GroupStage::Merge(const GroupStage& other, std::vector<uint32_t>* mapping, std::string* error) {
  if (!grouper_) {
    mapping->assign(other.any_row_ ? 1 : 0, 0);
    any_row_ |= other.any_row_;
    return true;
  }
  return grouper_->Merge(*other.grouper_, mapping, error);
}

bool GroupStage::CanMergeByPartition() const {
  return grouper_ && !frozen_ && cap_ == 0 && parts_.empty() &&
         grouper_->strategy() != Grouper::Strategy::kDirect;
}

bool GroupStage::NewGrouper(std::unique_ptr<Grouper>* out, std::string* error) const {
  *out = std::make_unique<Grouper>();
  return (*out)->Init(types_, nullable_, lookup_table_, error, DirectMin());
}

void GroupStage::AdoptPartitions(std::vector<std::unique_ptr<Grouper>> parts) {
  parts_ = std::move(parts);
  part_offsets_.assign(1, 0);
  for (const auto& part : parts_) part_offsets_.push_back(part_offsets_.back() + part->size());
  grouper_.reset();
}

bool GroupStage::FreezeAs(const GroupStage& other, std::string* error) {
  if (!other.frozen_) return true;
  // other's grouper holds exactly its first cap_ groups, ids 0 .. cap_ - 1: a fresh grouper
  // given those keys in that order numbers them the same.
  std::vector<Column> frozen_keys;
  if (!other.grouper_->KeyColumns(nullptr, &frozen_keys, error)) return false;
  grouper_ = std::make_unique<Grouper>();
  if (!grouper_->Init(types_, nullable_, lookup_table_, error, DirectMin())) return false;
  grouper_->set_max_groups(cap_);
  std::vector<const Column*> pointers;
  for (const Column& column : frozen_keys) pointers.push_back(&column);
  Evaluator evaluator(pointers);
  std::vector<Vec> keys(frozen_keys.size());
  RowSet rows;
  rows.count = cap_;
  for (size_t k = 0; k < frozen_keys.size(); ++k) {
    plan::BoundExprPtr ref = plan::MakeColumn(static_cast<int>(k), types_[k], nullable_[k], {});
    if (!evaluator.Eval(*ref, rows, &keys[k], error)) return false;
  }
  std::vector<uint32_t> ids(cap_);
  if (!grouper_->Assign(keys, cap_, ids.data(), error)) return false;
  frozen_ = true;
  return true;
}

bool GroupStage::Assign(Evaluator* evaluator, const RowSet& rows, uint32_t* group_ids,
                        std::string* error) {
  if (!grouper_) {
    for (size_t i = 0; i < rows.count; ++i) group_ids[i] = 0;
    any_row_ |= rows.count != 0;
    return true;
  }
  if (!EvalKeys(evaluator, rows, &batch_keys_, error) ||
      !grouper_->Assign(batch_keys_, rows.count, group_ids, error)) {
    return false;
  }
  // The grouper admits no group past the cap (Grouper::set_max_groups): rows of other keys
  // already got kNoGroup, so the table stays at cap_ groups instead of growing to every key.
  frozen_ = cap_ != 0 && grouper_->size() >= cap_;
  return true;
}

bool GroupStage::EvalKeys(Evaluator* evaluator, const RowSet& rows, std::vector<Vec>* keys,
                          std::string* error) const {
  keys->resize(varying_.size());
  for (size_t k = 0; k < varying_.size(); ++k) {
    const plan::BoundExpr& expr = *(*keys_)[varying_[k]];
    Vec& key = (*keys)[k];
    // A plain column's rows overwrite every byte of the values and offsets they use, so those
    // two buffers are kept from the batch before. Made afresh, they were allocated and freed
    // for every batch, and in an owned scan, whose prepared batches go round between the
    // threads, freed by another thread than the one that allocated them (GROUP BY URL behind
    // a WHERE on 2 threads: 0.75 ms of CPU in malloc and free). Everything else starts anew.
    AlignedBuffer values, offsets;
    if (expr.kind == plan::BoundKind::kColumn) {
      values = std::move(key.own_values);
      offsets = std::move(key.own_offsets);
    }
    key = Vec();
    key.own_values = std::move(values);
    key.own_offsets = std::move(offsets);
    if (!evaluator->Eval(expr, rows, &key, error) ||
        !ExpandConstant(&key, error)) {
      return false;
    }
  }
  return true;
}

bool GroupStage::Prepare(Evaluator* evaluator, const RowSet& rows, std::vector<Vec>* keys,
                         PreparedKeys* prepared, std::string* error) const {
  return EvalKeys(evaluator, rows, keys, error) &&
         grouper_->Prepare(*keys, rows.count, prepared, error);
}

bool GroupStage::AssignPrepared(const std::vector<Vec>& keys, const PreparedKeys& prepared,
                                uint32_t* group_ids, std::string* error) {
  return grouper_->Insert(keys, prepared, group_ids, error);
}

bool GroupStage::AppendKeys(const std::vector<uint32_t>* ids, size_t begin, size_t end, std::vector<Column>* out,
                            std::string* error) const {
  const Grouper& first = parts_.empty() ? *grouper_ : *parts_[0];
  if (!first.StartKeyColumns(end - begin, 0, out, error)) return false;
  for (size_t i = begin; i < end; ++i) {
    const size_t g = ids != nullptr ? (*ids)[i] : i;
    if (parts_.empty()) {
      if (!grouper_->AppendKey(g, out, error)) return false;
      continue;
    }
    const size_t p = static_cast<size_t>(std::upper_bound(part_offsets_.begin(), part_offsets_.end(), g) -
                                         part_offsets_.begin()) - 1;
    if (!parts_[p]->AppendKey(g - part_offsets_[p], out, error)) return false;
  }
  return true;
}

bool GroupStage::KeyColumnsOnThreads(const std::vector<uint32_t>* ids, size_t groups, const ExecContext& ctx,
                                     std::vector<Column>* varying, bool* done, std::string* error) const {
  *done = false;
  const int threads = TaskThreads(ThreadsFor(groups, ctx.ThreadsAvailable(), ctx.min_parallel_rows), groups);
  if (threads <= 1) return true;
  std::vector<Column> probe;
  if (!AppendKeys(ids, 0, 0, &probe, error)) return false;
  for (const Column& column : probe) {
    if (column.type() == TypeId::kLargeString) return true;  // ConcatColumns takes int32 offsets
  }
  // Slices of whole 64-row words (so the pieces' validity words line up), about 4 per thread.
  const size_t slice = std::max<size_t>((groups / (static_cast<size_t>(threads) * 4) + 63) / 64 * 64, 16384);
  std::vector<std::vector<Column>> pieces((groups + slice - 1) / slice);
  auto copy_slice = [&](size_t k, int, std::string* task_error) {
    return AppendKeys(ids, k * slice, std::min(groups, (k + 1) * slice), &pieces[k], task_error);
  };
  if (!RunTasks(ctx, threads, pieces.size(), copy_slice, error)) return false;
  varying->clear();
  varying->resize(probe.size());
  for (size_t k = 0; k < probe.size(); ++k) {
    std::vector<Column> parts;
    for (std::vector<Column>& piece : pieces) parts.push_back(std::move(piece[k]));
    if (!ConcatColumns(parts, ctx, threads, &(*varying)[k], error)) return false;
  }
  *done = true;
  return true;
}

bool GroupStage::KeyColumns(const std::vector<uint32_t>* ids, std::vector<Column>* out,
                            std::string* error, const ExecContext* ctx) const {
  std::vector<Column> varying;
  const size_t groups = ids != nullptr ? ids->size() : size();
  const bool packed_whole = !parts_.empty() && ids == nullptr && parts_[0]->packed();
  // Row by row (a search among the parts per group) the copy is long on one thread: TPC-H
  // Q13's subquery outputs all its 1.5 M groups at SF 10. So it goes in slices on the threads,
  // except where the packed keys are copied column by column.
  const bool packed_copy = packed_whole || (parts_.empty() && grouper_ && grouper_->packed());
  bool done = false;
  if (!packed_copy && (!parts_.empty() || grouper_) && ctx != nullptr &&
      !KeyColumnsOnThreads(ids, groups, *ctx, &varying, &done, error)) {
    return false;
  }
  if (done) {
    // made on the threads
  } else if (packed_whole) {
    // Every group, part after part: each part's keys copied into its slice of the columns.
    std::vector<AlignedBuffer> values;
    if (!parts_[0]->StartPackedKeys(groups, &values, error)) return false;
    for (size_t p = 0; p < parts_.size(); ++p) {
      std::vector<uint8_t*> outs;
      for (size_t k = 0; k < values.size(); ++k) {
        outs.push_back(values[k].data() + part_offsets_[p] * TypeByteWidth(parts_[0]->types()[k]));
      }
      parts_[p]->CopyPackedKeys(nullptr, parts_[p]->size(), outs);
    }
    if (!parts_[0]->FinishPackedKeys(groups, &values, &varying, error)) return false;
  } else if (!parts_.empty()) {
    if (!AppendKeys(ids, 0, groups, &varying, error)) return false;
  } else if (grouper_) {
    if (!grouper_->KeyColumns(ids, &varying, error)) return false;
  }
  out->clear();
  size_t next = 0;
  for (size_t k = 0; k < keys_->size(); ++k) {
    const plan::BoundExpr& key = *(*keys_)[k];
    if (!key.IsConstant()) {
      out->push_back(std::move(varying[next++]));
      continue;
    }
    Column column(key.type);
    for (size_t g = 0; g < groups; ++g) {
      if (!plan::AppendValueTo(key.constant, &column, error)) return false;
    }
    out->push_back(std::move(column));
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
