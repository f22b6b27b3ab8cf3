// An outer, semi or anti join whose ON holds a correlated subquery that reads both sides
// (`a LEFT JOIN b ON a.k = b.k AND b.x > (SELECT avg(c.x) FROM c WHERE c.g = a.g AND c.h = b.h)`):
// which rows such a join keeps depends on the pairs that pass the whole ON, and those are an
// inner join's rows, where a correlated condition is a condition on the joined rows like WHERE.
// So: both sides are made and numbered; an inner join of them on the ON's other conditions,
// with the correlated ones unnested above it as in WHERE, gives the passing pairs; the join's
// rows are then made from the pairs: every pair, plus (LEFT, FULL) each left row in no pair
// and (RIGHT, FULL) each right row in no pair with NULLs on the other side; SEMI / ANTI keep
// the left rows in some / no pair.
#include <algorithm>
#include <tuple>
#include <utility>

#include "src/exec/decorrelate.h"
#include "src/exec/query_tree.h"

namespace laneql {
namespace exec {
namespace {

// `relation` with a hidden column numbering its rows, named qualifier.__rid.
bool Numbered(Relation* relation, const std::string& qualifier, std::string* error) {
  const size_t n = relation->table->num_rows();
  std::vector<uint32_t> numbers(n);
  for (size_t r = 0; r < n; ++r) numbers[r] = static_cast<uint32_t>(r);
  Column column;
  return Column::FromFixed(TypeId::kUInt32, numbers.data(), n, nullptr, &column, error) &&
         AddRelationColumn(relation, std::move(column), plan::ScopeColumn{qualifier, "__rid", true}, error);
}

// The row numbers in column qualifier.__rid of `relation`.
bool RowNumbers(const Relation& relation, const std::string& qualifier, std::vector<uint32_t>* out,
                std::string* error) {
  for (size_t c = 0; c < relation.scope.size(); ++c) {
    if (relation.scope[c].qualifier == qualifier && relation.scope[c].name == "__rid") {
      const Column& column = relation.table->column(c);
      const uint32_t* values = column.Values<uint32_t>();
      out->assign(values, values + column.length());
      return true;
    }
  }
  *error = "internal error: a join lost the numbers of its rows";
  return false;
}

}  // namespace

bool QueryTreeRunner::JoinOnCorrelated(plan::LogicalPtr* join, std::vector<sql::ExprPtr> correlated, Result* error) {
  plan::LogicalOperator& op = **join;
  const sql::JoinType type = op.join_type;
  Relation left, right;
  std::string subplan_left, subplan_right, message;
  if (!MakeOuterRows(&op.children[0], &left, &subplan_left, error) ||
      !MakeOuterRows(&op.children[1], &right, &subplan_right, error)) {
    return false;
  }
  const size_t left_width = left.scope.size(), right_width = right.scope.size();
  const std::string lq = "__jl" + std::to_string(++derived_count_), rq = "__jr" + std::to_string(derived_count_);
  if (!Numbered(&left, lq, &message) || !Numbered(&right, rq, &message)) {
    *error = Result::Error(message);
    return false;
  }
  // The pairs passing the whole ON.
  plan::LogicalPtr pairs = plan::MakeLogical(plan::LogicalKind::kJoin);
  pairs->join_type = sql::JoinType::kInner;
  pairs->pos = op.pos;
  pairs->left_keys = std::move(op.left_keys);
  pairs->right_keys = std::move(op.right_keys);
  pairs->conditions = std::move(op.conditions);
  pairs->scope = left.scope;
  pairs->scope.insert(pairs->scope.end(), right.scope.begin(), right.scope.end());
  pairs->children.push_back(GetOver(left, "left side"));
  pairs->children.push_back(GetOver(right, "right side"));
  if (!ApplyCorrelated(&pairs, std::move(correlated), error)) return false;
  Relation passing;
  std::string subplan_pairs;
  if (!MakeOuterRows(&pairs, &passing, &subplan_pairs, error)) return false;
  std::vector<uint32_t> pair_left, pair_right;
  if (!RowNumbers(passing, lq, &pair_left, &message) || !RowNumbers(passing, rq, &pair_right, &message)) {
    *error = Result::Error(message);
    return false;
  }
  // The join's rows from the pairs, in left-row order (right rows in no pair last).
  const size_t left_rows = left.table->num_rows(), right_rows = right.table->num_rows();
  std::vector<uint32_t> order(pair_left.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return pair_left[a] < pair_left[b]; });
  std::vector<uint8_t> left_paired(left_rows, 0), right_paired(right_rows, 0);
  for (size_t i = 0; i < pair_left.size(); ++i) {
    left_paired[pair_left[i]] = 1;
    right_paired[pair_right[i]] = 1;
  }
  std::vector<uint32_t> take_left, take_right;
  const bool semi = type == sql::JoinType::kSemi || type == sql::JoinType::kAnti;
  if (semi) {
    for (size_t l = 0; l < left_rows; ++l) {
      if ((left_paired[l] != 0) == (type == sql::JoinType::kSemi)) take_left.push_back(static_cast<uint32_t>(l));
    }
  } else {
    const bool keep_left = type == sql::JoinType::kLeft || type == sql::JoinType::kFull;
    const bool keep_right = type == sql::JoinType::kRight || type == sql::JoinType::kFull;
    size_t next = 0;
    for (size_t l = 0; l < left_rows; ++l) {
      for (; next < order.size() && pair_left[order[next]] == l; ++next) {
        take_left.push_back(static_cast<uint32_t>(l));
        take_right.push_back(pair_right[order[next]]);
      }
      if (keep_left && left_paired[l] == 0) {
        take_left.push_back(static_cast<uint32_t>(l));
        take_right.push_back(kMissingRow);
      }
    }
    for (size_t r = 0; keep_right && r < right_rows; ++r) {
      if (right_paired[r] == 0) {
        take_left.push_back(kMissingRow);
        take_right.push_back(static_cast<uint32_t>(r));
      }
    }
  }
  auto table = std::make_shared<Table>();
  size_t k = 0;
  for (const auto& [side, width, rows] : {std::make_tuple(&left, left_width, &take_left),
                                          std::make_tuple(&right, semi ? size_t{0} : right_width, &take_right)}) {
    for (size_t c = 0; c < width; ++c) {
      Column column;
      if (!TakeRows(side->table->column(c), *rows, &column, &message) ||
          !table->AddColumn(RelationColumnName(k++), std::move(column), &message)) {
        *error = Result::Error(message);
        return false;
      }
    }
  }
  Relation result{std::move(table), op.scope};
  if (result.scope.size() != k) {
    *error = Result::Error("internal error: a join's columns do not match its plan");
    return false;
  }
  plan::LogicalPtr get = GetOver(result, "join whose ON reads both sides in a correlated subquery");
  if (explaining_) get->subplan = subplan_pairs;
  *join = std::move(get);
  return true;
}

}  // namespace exec
}  // namespace laneql
