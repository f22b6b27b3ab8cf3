// The executor: batch scan with filter, grouping and aggregate states; then the output stage.
#include "src/exec/executor.h"

#include <algorithm>
#include <limits>

#include "laneql/predicate.h"
#include "src/exec/aggregate_states.h"
#include "src/exec/expr_eval.h"
#include "src/exec/filter.h"
#include "src/exec/group_stage.h"
#include "src/exec/sort_rows.h"

namespace laneql {
namespace exec {

using plan::AggKind;
using plan::BoundKind;
using plan::Plan;

namespace {


// ORDER BY, OFFSET / LIMIT over `candidates` rows of the relation the evaluator reads: the rows
// to output, in order (ids in *storage, or a contiguous range).
bool ChooseRows(const Plan& plan, Evaluator* evaluator, const RowSet& candidates,
                std::vector<uint32_t>* storage, RowSet* chosen, std::string* error) {
  const size_t m = candidates.count;
  const size_t offset = static_cast<size_t>(std::min<int64_t>(plan.offset, static_cast<int64_t>(m)));
  const size_t limit = plan.limit < 0 ? m : static_cast<size_t>(plan.limit);
  const size_t end = std::min(m, offset + std::min(limit, m));
  *chosen = RowSet();
  if (!plan.order.empty()) {
    std::vector<Vec> keys(plan.order.size());
    std::vector<SortColumn> columns;
    for (size_t k = 0; k < plan.order.size(); ++k) {
      if (!evaluator->Eval(*plan.outputs[static_cast<size_t>(plan.order[k].output)], candidates, &keys[k], error)) {
        return false;
      }
      columns.push_back(SortColumn{&keys[k], plan.order[k].descending, plan.order[k].nulls_first});
    }
    std::vector<uint32_t> positions = SortPositions(columns, m, end);
    storage->clear();
    for (size_t p = offset; p < positions.size(); ++p) {
      const uint32_t at = positions[p];
      storage->push_back(candidates.ids ? candidates.ids[at] : static_cast<uint32_t>(candidates.begin + at));
    }
    chosen->ids = storage->data();
    chosen->count = storage->size();
  } else if (candidates.ids != nullptr) {
    chosen->ids = candidates.ids + offset;
    chosen->count = end - offset;
  } else {
    chosen->begin = candidates.begin + offset;
    chosen->count = end - offset;
  }
  return true;
}

// The visible outputs over `rows`.
Result Project(const Plan& plan, Evaluator* evaluator, const RowSet& rows) {
  std::string error;
  Result result;
  for (size_t o = 0; o < plan.num_visible; ++o) {
    Vec vec;
    Column column;
    if (!evaluator->Eval(*plan.outputs[o], rows, &vec, &error) ||
        !VecToColumn(vec, &column, &error) || !result.AddColumn(plan.names[o], std::move(column), &error)) {
      return Result::Error(error);
    }
  }
  return result;
}

void CollectColumns(const plan::BoundExpr& expr, std::vector<bool>* used) {
  if (expr.kind == BoundKind::kColumn && static_cast<size_t>(expr.column) < used->size()) {
    (*used)[static_cast<size_t>(expr.column)] = true;
  }
  for (const auto& arg : expr.args) CollectColumns(*arg, used);
}

bool IsKernelColumn(const plan::BoundExpr* arg, const Table& table) {
  if (arg == nullptr || arg->kind != BoundKind::kColumn) return false;
  const TypeId type = table.column(static_cast<size_t>(arg->column)).type();
  return IsFixedWidth(type) && type != TypeId::kInt128 && type != TypeId::kBool;
}

Result ExecuteAggregate(const Plan& plan) {
  const Table& table = *plan.table;
  const size_t rows = table.num_rows();
  const bool ungrouped = plan.group_keys.empty();
  std::string error;
  AggregateStates states(plan.aggregates, ungrouped);
  GroupStage grouper;
  // GROUP BY ... LIMIT n without ORDER BY / HAVING: any n complete groups answer it.
  size_t group_cap = 0;
  if (plan.order.empty() && !plan.having && plan.limit >= 0 &&
      plan.offset + plan.limit <= static_cast<int64_t>(kBatchRows)) {
    group_cap = static_cast<size_t>(std::max<int64_t>(1, plan.offset + plan.limit));
  }
  if (!ungrouped && !grouper.Init(plan.group_keys, group_cap, &error)) return Result::Error(error);
  if (ungrouped && !states.Resize(1, &error)) return Result::Error(error);

  // COUNT(*) (and COUNT of a column without NULLs) with no WHERE: the answer is metadata.
  bool metadata_only = ungrouped && !plan.where;
  for (const auto& aggregate : plan.aggregates) {
    const bool from_metadata =
        aggregate.kind == AggKind::kCountStar ||
        (aggregate.kind == AggKind::kCount && aggregate.arg->kind == BoundKind::kColumn &&
         table.column(static_cast<size_t>(aggregate.arg->column)).null_count() == 0);
    metadata_only &= from_metadata;
  }
  if (metadata_only) {
    for (size_t a = 0; a < plan.aggregates.size(); ++a) states.AddCount(a, rows);
  } else {
    Evaluator evaluator(TableColumns(table));
    std::unique_ptr<Filter> filter;
    if (plan.where) filter = std::make_unique<Filter>(table, *plan.where);
    std::vector<uint64_t> mask(BitmaskWords(kBatchRows) + 1);
    std::vector<uint32_t> ids(kBatchRows), group_ids(kBatchRows, 0);
    // The selected rows' ids are made only when something reads rows one by one (keys,
    // evaluated arguments): COUNT(*) and the kernels' masked aggregates take the mask itself.
    bool ids_pending = false;
    auto selected_rows = [&](const RowSet& batch, size_t n, size_t begin) -> const RowSet& {
      if (ids_pending) {
        MaskToIndices(mask.data(), n, ids.data());
        for (size_t i = 0; i < batch.count; ++i) ids[i] += static_cast<uint32_t>(begin);
        ids_pending = false;
      }
      return batch;
    };
    for (size_t begin = 0; begin < rows; begin += kBatchRows) {
      const size_t n = std::min(kBatchRows, rows - begin);
      const uint64_t* select = nullptr;
      size_t selected = n;
      ids_pending = false;
      RowSet batch;
      batch.begin = begin;
      batch.count = n;
      if (filter) {
        if (!filter->Eval(begin, n, mask.data(), &error)) return Result::Error(error);
        selected = CountBits(mask.data(), n);
        if (selected == 0) continue;
        if (selected < n) {
          select = mask.data();
          batch.ids = ids.data();
          batch.count = selected;
          ids_pending = true;
        }
      }
      // Ungrouped: group_ids stay all 0 (the one group).
      if (!ungrouped && (!grouper.Assign(&evaluator, selected_rows(batch, n, begin), group_ids.data(), &error) ||
                         !states.Resize(grouper.size(), &error))) {
        return Result::Error(error);
      }
      for (size_t a = 0; a < plan.aggregates.size(); ++a) {
        const plan::Aggregate& aggregate = plan.aggregates[a];
        if (aggregate.kind == AggKind::kCountStar) {
          if (ungrouped) states.AddCount(a, selected);
          else if (!states.Update(a, nullptr, group_ids.data(), selected, &error)) return Result::Error(error);
          continue;
        }
        if (ungrouped && IsKernelColumn(aggregate.arg.get(), table)) {
          const Column& column = table.column(static_cast<size_t>(aggregate.arg->column));
          const uint64_t* validity = column.validity() != nullptr ? column.validity() + begin / 64 : nullptr;
          const void* data = column.values_buffer().data() + begin * TypeByteWidth(column.type());
          if (states.UpdateKernel(a, column.type(), data, n, select, validity)) continue;
        }
        Vec arg;
        if (!evaluator.Eval(*aggregate.arg, selected_rows(batch, n, begin), &arg, &error) ||
            !ExpandConstant(&arg, &error) ||
            !states.Update(a, &arg, group_ids.data(), selected, &error)) {
          return Result::Error(error);
        }
      }
    }
  }

  // The group relation: keys, then aggregates. Keys are copied out of the hash tables only
  // where HAVING or ORDER BY reads them (then for every group); the outputs read them for the
  // chosen groups alone.
  const size_t groups = ungrouped ? 1 : grouper.size();
  const size_t num_keys = plan.group_keys.size();
  std::vector<bool> key_needed(num_keys, false);
  if (plan.having) CollectColumns(*plan.having, &key_needed);
  for (const auto& key : plan.order) CollectColumns(*plan.outputs[static_cast<size_t>(key.output)], &key_needed);
  bool any_key_needed = false;
  for (bool needed : key_needed) any_key_needed |= needed;
  std::vector<Column> relation;
  if (any_key_needed) {
    if (!grouper.KeyColumns(nullptr, &relation, &error)) return Result::Error(error);
  } else {
    for (const auto& key : plan.group_keys) relation.emplace_back(key->type);  // never read
  }
  for (size_t a = 0; a < plan.aggregates.size(); ++a) {
    Column column;
    if (!states.Finish(a, groups, &column, &error)) return Result::Error(error);
    relation.push_back(std::move(column));
  }
  std::vector<const Column*> pointers;
  for (const Column& column : relation) pointers.push_back(&column);
  Evaluator evaluator(pointers);
  RowSet candidates;
  candidates.count = groups;
  std::vector<uint32_t> kept;
  if (plan.having) {
    Vec having;
    if (!evaluator.Eval(*plan.having, candidates, &having, &error)) return Result::Error(error);
    for (size_t g = 0; g < groups; ++g) {
      if (!having.IsNull(g) && having.Get<uint8_t>(g) != 0) kept.push_back(static_cast<uint32_t>(g));
    }
    candidates.ids = kept.data();
    candidates.count = kept.size();
  }
  std::vector<uint32_t> storage;
  RowSet chosen;
  if (!ChooseRows(plan, &evaluator, candidates, &storage, &chosen, &error)) return Result::Error(error);
  if (any_key_needed || ungrouped) return Project(plan, &evaluator, chosen);
  // The chosen groups' keys and aggregates as a small relation of their own.
  std::vector<uint32_t> ids(chosen.count);
  for (size_t i = 0; i < chosen.count; ++i) {
    ids[i] = chosen.ids ? chosen.ids[i] : static_cast<uint32_t>(chosen.begin + i);
  }
  std::vector<Column> small;
  if (!grouper.KeyColumns(&ids, &small, &error)) return Result::Error(error);
  RowSet id_rows;
  id_rows.ids = ids.data();
  id_rows.count = ids.size();
  for (size_t a = 0; a < plan.aggregates.size(); ++a) {
    plan::BoundExprPtr ref = plan::MakeColumn(static_cast<int>(num_keys + a), relation[num_keys + a].type(), true, {});
    Vec vec;
    Column column;
    if (!evaluator.Eval(*ref, id_rows, &vec, &error) || !VecToColumn(vec, &column, &error)) {
      return Result::Error(error);
    }
    small.push_back(std::move(column));
  }
  std::vector<const Column*> small_pointers;
  for (const Column& column : small) small_pointers.push_back(&column);
  Evaluator small_evaluator(small_pointers);
  RowSet all;
  all.count = ids.size();
  return Project(plan, &small_evaluator, all);
}

Result ExecutePlain(const Plan& plan) {
  const Table& table = *plan.table;
  const size_t rows = table.num_rows();
  Evaluator evaluator(TableColumns(table));
  // Without ORDER BY, LIMIT bounds how many qualifying rows are needed: stop there.
  size_t needed = rows;
  if (plan.order.empty() && plan.limit >= 0) {
    needed = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(rows), plan.offset + plan.limit));
  }
  RowSet candidates;
  std::vector<uint32_t> ids, storage;
  RowSet chosen;
  std::string error;
  if (!plan.where) {
    candidates.count = needed;
    if (!ChooseRows(plan, &evaluator, candidates, &storage, &chosen, &error)) return Result::Error(error);
    return Project(plan, &evaluator, chosen);
  }
  Filter filter(table, *plan.where);
  std::vector<uint64_t> mask(BitmaskWords(kBatchRows) + 1);
  std::vector<uint32_t> batch_ids(kBatchRows);
  for (size_t begin = 0; begin < rows && ids.size() < needed; begin += kBatchRows) {
    const size_t n = std::min(kBatchRows, rows - begin);
    if (!filter.Eval(begin, n, mask.data(), &error)) return Result::Error(error);
    const size_t selected = MaskToIndices(mask.data(), n, batch_ids.data());
    for (size_t i = 0; i < selected; ++i) ids.push_back(static_cast<uint32_t>(begin + batch_ids[i]));
  }
  if (ids.size() > needed) ids.resize(needed);
  candidates.ids = ids.data();
  candidates.count = ids.size();
  if (!ChooseRows(plan, &evaluator, candidates, &storage, &chosen, &error)) return Result::Error(error);
  return Project(plan, &evaluator, chosen);
}

}  // namespace

Result Execute(const Plan& plan) {
  return plan.aggregate ? ExecuteAggregate(plan) : ExecutePlain(plan);
}

}  // namespace exec
}  // namespace laneql
