// ORDER BY / LIMIT and the SELECT list, over table rows or over groups.
#include "src/exec/output_stage.h"

#include <algorithm>

#include "src/common/query_budget.h"
#include "src/exec/order_chunks.h"
#include "src/exec/parallel_project.h"
#include "src/exec/top_groups.h"

namespace laneql {
namespace exec {

using plan::BoundKind;
using plan::Plan;

namespace {

void CollectColumns(const plan::BoundExpr& expr, std::vector<bool>* used) {
  if (expr.kind == BoundKind::kColumn && static_cast<size_t>(expr.column) < used->size()) {
    (*used)[static_cast<size_t>(expr.column)] = true;
  }
  for (const auto& arg : expr.args) CollectColumns(*arg, used);
}

bool ReadsColumns(const plan::BoundExpr& expr) {
  if (expr.kind == BoundKind::kColumn) return true;
  for (const auto& arg : expr.args) {
    if (ReadsColumns(*arg)) return true;
  }
  return false;
}

}  // namespace

bool EvalOrderKeys(const Plan& plan, Evaluator* evaluator, const RowSet& rows,
                   std::vector<Vec>* keys, std::vector<SortColumn>* columns, std::string* error) {
  keys->clear();
  keys->resize(plan.order.size());
  columns->clear();
  for (size_t k = 0; k < plan.order.size(); ++k) {
    if (!evaluator->Eval(*plan.outputs[static_cast<size_t>(plan.order[k].output)], rows, &(*keys)[k], error)) {
      return false;
    }
    columns->push_back(SortColumn{&(*keys)[k], plan.order[k].descending, plan.order[k].nulls_first});
  }
  return true;
}

bool ChooseRows(const Plan& plan, const ExecContext& ctx, Evaluator* evaluator,
                const RowSet& candidates, const uint64_t* tiebreak, bool order_by_tiebreak,
                std::vector<uint32_t>* storage, RowSet* chosen, std::string* error) {
  const size_t m = candidates.count;
  if (!plan.order.empty() && m > 2 * kMaxChunkRows) {
    const size_t keep = static_cast<size_t>(std::min<int64_t>(
        plan.limit < 0 ? static_cast<int64_t>(m) : plan.offset + plan.limit, static_cast<int64_t>(m)));
    if (keep <= kMaxChunkRows / 16) {
      // Few of many: each chunk's first rows, then the rows chosen among those alone, so the
      // keys of all candidates are never held at once.
      std::vector<uint32_t> positions, ids;
      std::vector<uint64_t> ties;
      if (!TopCandidatesByChunks(plan, ctx, evaluator, candidates, tiebreak, keep, &positions, error)) return false;
      for (uint32_t p : positions) {
        ids.push_back(candidates.ids ? candidates.ids[p] : static_cast<uint32_t>(candidates.begin + p));
        if (tiebreak != nullptr) ties.push_back(tiebreak[p]);
      }
      RowSet few;
      few.ids = ids.data();
      few.count = ids.size();
      return ChooseRows(plan, ctx, evaluator, few, tiebreak ? ties.data() : nullptr, order_by_tiebreak, storage,
                        chosen, error);
    }
  }
  const size_t offset = static_cast<size_t>(std::min<int64_t>(plan.offset, static_cast<int64_t>(m)));
  const size_t limit = plan.limit < 0 ? m : static_cast<size_t>(plan.limit);
  const size_t end = std::min(m, offset + std::min(limit, m));
  *chosen = RowSet();
  if (!plan.order.empty() || (order_by_tiebreak && tiebreak != nullptr)) {
    const ScopedMemoryActivity activity("sorting");
    std::vector<Vec> keys;
    std::vector<SortColumn> columns;
    std::vector<uint32_t> positions;
    if (EvalOrderKeys(plan, evaluator, candidates, &keys, &columns, error)) {
      positions = SortPositions(columns, m, end, tiebreak, &ctx);
    } else {
      // Many candidates whose string keys pass 2 GiB of text at once are sorted a chunk at a
      // time; any other failure (out of memory, a bad value) is the query's.
      if (m <= kMaxChunkRows || error->find(kStringBatchTooLarge) == std::string::npos) return false;
      columns.clear();
      keys.clear();
      if (!SortByChunks(plan, ctx, evaluator, candidates, tiebreak, end, &positions, error)) return false;
    }
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

Result Project(const Plan& plan, Evaluator* evaluator, const RowSet& rows) {
  const ScopedMemoryActivity activity("building the result");
  std::string error;
  Result result;
  for (size_t o = 0; o < plan.num_visible; ++o) {
    // A stopped query stops between output columns (and at each column's allocations).
    ThrowIfQueryStopped();
    Vec vec;
    Column column;
    if (!evaluator->Eval(*plan.outputs[o], rows, &vec, &error) ||
        !VecToColumn(vec, &column, &error) || !result.AddColumn(plan.names[o], std::move(column), &error)) {
      return Result::Error(error);
    }
  }
  return result;
}

namespace {

// Inserts the derived keys' columns, computed on all `groups` groups from the hashed keys'
// columns *keys, at their places among them.
bool AddDerivedKeys(const Plan& plan, size_t groups, std::vector<Column>* keys, std::string* error) {
  if (plan.derived_keys.empty()) return true;
  std::vector<Column> derived(plan.derived_keys.size());
  {
    std::vector<const Column*> pointers;
    for (const Column& column : *keys) pointers.push_back(&column);
    Evaluator evaluator(pointers);
    RowSet all;
    all.count = groups;
    for (size_t d = 0; d < plan.derived_keys.size(); ++d) {
      Vec vec;
      if (!evaluator.Eval(*plan.derived_keys[d].expr, all, &vec, error) ||
          !VecToColumn(vec, &derived[d], error)) {
        return false;
      }
    }
  }
  std::vector<Column> merged;
  size_t hashed = 0, next = 0;
  for (size_t k = 0; k < plan.scope_keys(); ++k) {
    if (next < derived.size() && plan.derived_keys[next].position == k) {
      merged.push_back(std::move(derived[next++]));
    } else {
      merged.push_back(std::move((*keys)[hashed++]));
    }
  }
  *keys = std::move(merged);
  return true;
}

// LIMITs up to this many rows (OFFSET included) take the top of the count arrays in place.
constexpr size_t kMaxTopGroups = size_t{1} << 16;

// ORDER BY one count LIMIT n (no HAVING, nothing that needs every group's key): the chosen
// groups into *ids, read from the count arrays in place (top_groups.h). False when the query
// is not of that form, or the top would not be much smaller than the groups.
bool ChooseTopGroupsByCount(const Plan& plan, const ExecContext& ctx, const StateParts& states,
                            const FirstRows* first_rows, std::vector<uint32_t>* ids) {
  const size_t groups = states.groups();
  if (plan.having || plan.order.size() != 1 || plan.limit < 0 || groups == 0) return false;
  const plan::BoundExpr& key = *plan.outputs[static_cast<size_t>(plan.order[0].output)];
  const size_t num_keys = plan.scope_keys();
  if (key.kind != BoundKind::kColumn || key.column < 0 ||
      static_cast<size_t>(key.column) < num_keys ||
      static_cast<size_t>(key.column) >= num_keys + plan.aggregates.size()) {
    return false;
  }
  const size_t offset = static_cast<size_t>(std::min<int64_t>(plan.offset, static_cast<int64_t>(groups)));
  const size_t keep = std::min(groups, offset + std::min(static_cast<size_t>(plan.limit), groups));
  if (keep > kMaxTopGroups || 4 * keep > groups) return false;
  if (first_rows != nullptr && first_rows->size() < groups) return false;
  CountParts counts;
  const size_t a = static_cast<size_t>(key.column) - num_keys;
  for (size_t p = 0; p < states.num_parts(); ++p) {
    const int64_t* data = nullptr;
    size_t stored = 0;
    if (!states.PartCounts(a, p, &data, &stored)) return false;
    counts.data.push_back(data);
    counts.stored.push_back(stored);
    counts.begin.push_back(p + 1 < states.num_parts() ? states.part_begin(p + 1) : groups);
  }
  const ScopedMemoryActivity activity("sorting");
  std::vector<uint32_t> top = TopGroupsByCount(counts, plan.order[0].descending, keep,
                                               first_rows != nullptr ? first_rows->data() : nullptr,
                                               states.parts_in_first_row_order(), &ctx);
  ids->assign(top.begin() + static_cast<std::ptrdiff_t>(std::min(offset, top.size())), top.end());
  return true;
}

// The output of the groups `ids` alone, in that order: their keys and aggregates as a small
// relation of their own. The aggregates ORDER BY or HAVING read are taken from `relation`
// through `evaluator` where given (already finished for every group), else all from `states`.
Result OutputChosenGroups(const Plan& plan, const ExecContext& ctx, const GroupStage& grouper,
                          const StateParts& states, const std::vector<bool>& needed,
                          const std::vector<Column>* relation, Evaluator* evaluator,
                          const std::vector<uint32_t>& ids) {
  std::string error;
  const size_t num_keys = plan.scope_keys();
  std::vector<Column> small;
  if (!grouper.KeyColumns(&ids, &small, &error, &ctx) ||
      !AddDerivedKeys(plan, ids.size(), &small, &error)) {
    return Result::Error(error);
  }
  RowSet id_rows;
  id_rows.ids = ids.data();
  id_rows.count = ids.size();
  for (size_t a = 0; a < plan.aggregates.size(); ++a) {
    Column column;
    if (relation == nullptr || !needed[num_keys + a]) {
      if (!states.Finish(a, &ids, &column, &error, &ctx)) return Result::Error(error);
    } else {
      plan::BoundExprPtr ref = plan::MakeColumn(static_cast<int>(num_keys + a),
                                                (*relation)[num_keys + a].type(), true, {});
      Vec vec;
      if (!evaluator->Eval(*ref, id_rows, &vec, &error) || !VecToColumn(vec, &column, &error)) {
        return Result::Error(error);
      }
    }
    small.push_back(std::move(column));
  }
  std::vector<const Column*> small_pointers;
  for (const Column& column : small) small_pointers.push_back(&column);
  Evaluator small_evaluator(small_pointers);
  RowSet all;
  all.count = ids.size();
  return ProjectOnThreads(plan, ctx, small_evaluator, all);
}

}  // namespace

Result OutputGroups(const Plan& plan, const ExecContext& ctx, const GroupStage* grouper, const StateParts& states,
                    const FirstRows* first_rows) {
  const ScopedMemoryActivity activity("building the result");
  const size_t groups = states.groups();
  std::string error;
  // The group relation: keys, then aggregates. Keys are copied out of the hash tables, and
  // aggregates finished, for every group only where HAVING or ORDER BY reads them; the outputs
  // read the rest for the chosen groups alone.
  const size_t num_keys = plan.scope_keys();
  std::vector<bool> needed(num_keys + plan.aggregates.size(), false);
  if (plan.having) CollectColumns(*plan.having, &needed);
  for (const auto& key : plan.order) CollectColumns(*plan.outputs[static_cast<size_t>(key.output)], &needed);
  // Derived keys that read keys are computed on every group (src/plan/derived_keys.h), so every
  // key is. A constant one (SELECT 1, URL ... GROUP BY 1, URL) is computed for the chosen
  // groups alone: copying out every URL of millions of groups for it was most of the output.
  // (Constants are folded when bound, so one that fails has failed there already.)
  bool any_key_needed = false;
  for (const auto& derived : plan.derived_keys) any_key_needed |= ReadsColumns(*derived.expr);
  for (size_t k = 0; k < num_keys; ++k) any_key_needed |= needed[k];
  if (grouper != nullptr && !any_key_needed) {
    std::vector<uint32_t> ids;
    if (ChooseTopGroupsByCount(plan, ctx, states, first_rows, &ids)) {
      return OutputChosenGroups(plan, ctx, *grouper, states, needed, nullptr, nullptr, ids);
    }
  }
  std::vector<Column> relation;
  if (any_key_needed) {
    if (!grouper->KeyColumns(nullptr, &relation, &error, &ctx) ||
        !AddDerivedKeys(plan, groups, &relation, &error)) {
      return Result::Error(error);
    }
  } else {
    // Never read; in the scope's order, so that the aggregates keep their column numbers.
    size_t hashed = 0, next = 0;
    for (size_t k = 0; k < num_keys; ++k) {
      const bool derived = next < plan.derived_keys.size() && plan.derived_keys[next].position == k;
      relation.emplace_back(derived ? plan.derived_keys[next++].expr->type
                                    : plan.group_keys[hashed++]->type);
    }
  }
  for (size_t a = 0; a < plan.aggregates.size(); ++a) {
    ThrowIfQueryStopped();
    Column column(plan.aggregates[a].type);  // never read unless needed
    if ((any_key_needed || grouper == nullptr || needed[num_keys + a]) &&
        !states.Finish(a, nullptr, &column, &error, &ctx)) {
      return Result::Error(error);
    }
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
  // Tie order: the first row of each candidate group. Every group a candidate (no HAVING): the
  // first rows as they are, not a copy (80 MB for 10 M groups, on one thread).
  std::vector<uint64_t> tiebreak;
  const uint64_t* tie_rows = nullptr;
  if (first_rows != nullptr && candidates.ids == nullptr && candidates.begin == 0 &&
      first_rows->size() >= candidates.count) {
    tie_rows = first_rows->data();
  } else if (first_rows != nullptr) {
    tiebreak.resize(candidates.count);
    for (size_t i = 0; i < candidates.count; ++i) {
      tiebreak[i] = (*first_rows)[candidates.ids ? candidates.ids[i] : candidates.begin + i];
    }
    tie_rows = tiebreak.data();
  }
  std::vector<uint32_t> storage;
  RowSet chosen;
  if (!ChooseRows(plan, ctx, &evaluator, candidates, tie_rows, true, &storage, &chosen, &error)) {
    return Result::Error(error);
  }
  if (any_key_needed || grouper == nullptr) return ProjectOnThreads(plan, ctx, evaluator, chosen);
  std::vector<uint32_t> ids(chosen.count);
  for (size_t i = 0; i < chosen.count; ++i) {
    ids[i] = chosen.ids ? chosen.ids[i] : static_cast<uint32_t>(chosen.begin + i);
  }
  return OutputChosenGroups(plan, ctx, *grouper, states, needed, &relation, &evaluator, ids);
}

}  // namespace exec
}  // namespace laneql
