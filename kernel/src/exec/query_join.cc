// Joins: explicit JOIN ... ON / USING / NATURAL of every kind, and FROM lists of inner and
// cross joins, which are flattened and joined greedily along the equalities WHERE and ON give
// (each source filtered first by the conjuncts that read it alone). Equi-joins hash the build
// side's keys; rows with a NULL key never match. Output rows follow the probe side's order, then
// the build side's, whatever the thread count.
#include <algorithm>
#include <utility>

#include "src/common/ascii.h"
#include "src/exec/hash_join.h"
#include "src/exec/query_ast.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {

// A cross product larger than this is refused rather than built.
constexpr double kMaxCrossRows = 5e7;

// Which of the sources a column reference can name (a bit per source), 0 when none.
uint64_t SourcesOf(const sql::Expr& ref, const std::vector<Relation>& sources) {
  uint64_t mask = 0;
  for (size_t s = 0; s < sources.size(); ++s) {
    for (const plan::ScopeColumn& column : sources[s].scope) {
      if (!ref.qualifier.empty() ? ascii::EqualsIgnoreCase(column.qualifier, ref.qualifier)
                                 : column.hidden) {
        if (ref.qualifier.empty()) continue;
      } else if (!ref.qualifier.empty()) {
        continue;
      }
      if (ascii::EqualsIgnoreCase(column.name, ref.text)) {
        mask |= uint64_t{1} << s;
        break;
      }
    }
  }
  return mask;
}

// The sources an expression reads; all bits when a name is unknown or ambiguous (such a
// conjunct waits for the final WHERE, where the binder reports it), or when it holds an
// aggregate-free subquery remnant we cannot see through.
uint64_t Mask(const sql::Expr* expr, const std::vector<Relation>& sources, bool* unknown) {
  if (expr == nullptr) return 0;
  uint64_t mask = 0;
  if (expr->kind == sql::ExprKind::kColumnRef) {
    mask = SourcesOf(*expr, sources);
    if (mask == 0 || (mask & (mask - 1)) != 0) *unknown = true;
    return mask;
  }
  if (expr->kind == sql::ExprKind::kStar || expr->subquery) *unknown = true;
  mask |= Mask(expr->operand.get(), sources, unknown) | Mask(expr->left.get(), sources, unknown) |
          Mask(expr->right.get(), sources, unknown) | Mask(expr->else_result.get(), sources, unknown);
  for (const sql::ExprPtr& arg : expr->args) mask |= Mask(arg.get(), sources, unknown);
  for (const sql::CaseBranch& branch : expr->branches) {
    mask |= Mask(branch.when.get(), sources, unknown) | Mask(branch.then.get(), sources, unknown);
  }
  return mask;
}

void Flatten(sql::TableRef* ref, std::vector<sql::TableRef*>* leaves, std::vector<sql::ExprPtr>* conjuncts) {
  const bool inner = ref->kind == sql::TableRefKind::kJoin && !ref->natural &&
                     ref->using_columns.empty() &&
                     (ref->join_type == sql::JoinType::kCross || ref->join_type == sql::JoinType::kInner);
  if (!inner) {
    leaves->push_back(ref);
    return;
  }
  Flatten(ref->left.get(), leaves, conjuncts);
  Flatten(ref->right.get(), leaves, conjuncts);
  SplitAnd(std::move(ref->on), conjuncts);
}

void SplitOr(sql::ExprPtr expr, std::vector<sql::ExprPtr>* out) {
  if (expr->kind == sql::ExprKind::kBinary && expr->binary_op == sql::BinaryOp::kOr) {
    SplitOr(std::move(expr->left), out);
    SplitOr(std::move(expr->right), out);
    return;
  }
  out->push_back(std::move(expr));
}

// (a AND b AND x) OR (a AND c AND y) -> a, (b AND x) OR (c AND y): the terms every branch
// shares are conjuncts of their own, so that an equality repeated in each branch (TPC-H Q19)
// can drive a hash join instead of leaving a cross product under the OR.
void FactorOr(sql::ExprPtr expr, std::vector<sql::ExprPtr>* out) {
  if (!(expr->kind == sql::ExprKind::kBinary && expr->binary_op == sql::BinaryOp::kOr)) {
    out->push_back(std::move(expr));
    return;
  }
  std::vector<sql::ExprPtr> branches;
  SplitOr(std::move(expr), &branches);
  std::vector<std::vector<sql::ExprPtr>> terms(branches.size());
  for (size_t b = 0; b < branches.size(); ++b) SplitAnd(std::move(branches[b]), &terms[b]);
  std::vector<std::string> common;
  for (const sql::ExprPtr& t : terms[0]) {
    const std::string text = sql::ToString(*t);
    bool everywhere = true;
    for (size_t b = 1; b < terms.size() && everywhere; ++b) {
      bool found = false;
      for (const sql::ExprPtr& u : terms[b]) found = found || sql::ToString(*u) == text;
      everywhere = found;
    }
    if (everywhere && std::find(common.begin(), common.end(), text) == common.end()) common.push_back(text);
  }
  for (const sql::ExprPtr& t : terms[0]) {
    if (std::find(common.begin(), common.end(), sql::ToString(*t)) != common.end()) {
      out->push_back(sql::Clone(*t));
    }
  }
  sql::ExprPtr rebuilt;
  bool some_branch_empty = false;
  for (auto& branch : terms) {
    std::vector<sql::ExprPtr> rest;
    for (sql::ExprPtr& t : branch) {
      if (std::find(common.begin(), common.end(), sql::ToString(*t)) == common.end()) rest.push_back(std::move(t));
    }
    if (rest.empty()) some_branch_empty = true;
    sql::ExprPtr joined = JoinAnd(std::move(rest));
    if (!joined) continue;
    rebuilt = rebuilt ? MakeBinary(sql::BinaryOp::kOr, std::move(rebuilt), std::move(joined)) : std::move(joined);
  }
  // A branch made only of common terms is true whenever they are: the OR adds nothing.
  if (rebuilt && !some_branch_empty) out->push_back(std::move(rebuilt));
}

struct Conjunct {
  sql::ExprPtr expr;
  uint64_t mask = 0;
  bool unknown = false;
  bool used = false;
};

}  // namespace

bool QueryTreeRunner::Evaluate(const Relation& relation, const std::vector<const sql::Expr*>& exprs,
                               Result* out) {
  sql::SelectStatement select;
  select.has_from = true;
  for (size_t i = 0; i < exprs.size(); ++i) {
    sql::SelectItem item;
    item.expr = sql::Clone(*exprs[i]);
    item.alias = RelationColumnName(i);
    select.select_list.push_back(std::move(item));
  }
  *out = BindAndExecute(select, &relation);
  return out->ok();
}

bool QueryTreeRunner::Filter(Relation* relation, const sql::Expr& predicate, Result* error) {
  Result value;
  if (!Evaluate(*relation, {&predicate}, &value)) {
    *error = std::move(value);
    return false;
  }
  const Column& mask = value.column(0);
  if (mask.type() != TypeId::kBool) {
    *error = ErrorAt(predicate.pos, "type", std::string("WHERE needs a BOOLEAN condition, not ") +
                                               DuckDbTypeName(mask.type()));
    return false;
  }
  std::vector<uint32_t> rows;
  for (size_t r = 0; r < mask.length(); ++r) {
    if (mask.IsValid(r) && mask.Values<uint8_t>()[r] != 0) rows.push_back(static_cast<uint32_t>(r));
  }
  if (rows.size() == relation->table->num_rows()) return true;
  std::string message;
  if (!KeepRelationRows(relation, rows, &message)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

bool QueryTreeRunner::MakeJoinedFrom(sql::SelectStatement* select, Relation* out, Result* error) {
  std::vector<sql::TableRef*> leaves;
  std::vector<sql::ExprPtr> exprs;
  Flatten(&select->from, &leaves, &exprs);
  SplitAnd(std::move(select->where), &exprs);
  if (leaves.size() > 63) {
    *error = ErrorAt(select->from.pos, "binder", "more than 63 tables joined in one FROM clause");
    return false;
  }
  std::vector<Relation> sources(leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (!MakeFrom(*leaves[i], &sources[i], error)) return false;
  }
  std::vector<sql::ExprPtr> factored;
  for (sql::ExprPtr& expr : exprs) FactorOr(std::move(expr), &factored);
  exprs = std::move(factored);
  std::vector<Conjunct> conjuncts;
  for (sql::ExprPtr& expr : exprs) {
    Conjunct c;
    c.mask = Mask(expr.get(), sources, &c.unknown);
    c.expr = std::move(expr);
    conjuncts.push_back(std::move(c));
  }
  // Conjuncts that read one source filter it before any join.
  for (size_t i = 0; i < sources.size(); ++i) {
    std::vector<sql::ExprPtr> own;
    for (Conjunct& c : conjuncts) {
      if (!c.used && !c.unknown && c.mask == (uint64_t{1} << i)) {
        own.push_back(sql::Clone(*c.expr));
        c.used = true;
      }
    }
    if (!own.empty() && !Filter(&sources[i], *JoinAnd(std::move(own)), error)) return false;
  }
  // Greedy: start from the smallest source; join the smallest one connected to what is joined
  // by an equality, else the smallest of the rest (a cross join).
  std::vector<bool> joined(sources.size(), false);
  size_t first = 0;
  for (size_t i = 1; i < sources.size(); ++i) {
    if (sources[i].table->num_rows() < sources[first].table->num_rows()) first = i;
  }
  Relation current = sources[first];
  uint64_t current_mask = uint64_t{1} << first;
  joined[first] = true;
  for (size_t step = 1; step < sources.size(); ++step) {
    size_t pick = sources.size();
    bool connected = false;
    for (size_t i = 0; i < sources.size(); ++i) {
      if (joined[i]) continue;
      bool has_equality = false;
      for (const Conjunct& c : conjuncts) {
        if (c.used || c.unknown || c.expr->kind != sql::ExprKind::kBinary ||
            c.expr->binary_op != sql::BinaryOp::kEquals) {
          continue;
        }
        bool u = false;
        const uint64_t l = Mask(c.expr->left.get(), sources, &u), r = Mask(c.expr->right.get(), sources, &u);
        const uint64_t bit = uint64_t{1} << i;
        if (!u && l != 0 && r != 0 && ((l & ~current_mask) == 0 && r == bit || (r & ~current_mask) == 0 && l == bit)) {
          has_equality = true;
        }
      }
      const bool better = pick == sources.size() || (has_equality && !connected) ||
                          (has_equality == connected && sources[i].table->num_rows() < sources[pick].table->num_rows());
      if (better) {
        pick = i;
        connected = has_equality;
      }
    }
    const uint64_t bit = uint64_t{1} << pick;
    std::vector<const sql::Expr*> left_keys, right_keys;
    for (Conjunct& c : conjuncts) {
      if (c.used || c.unknown || c.expr->kind != sql::ExprKind::kBinary ||
          c.expr->binary_op != sql::BinaryOp::kEquals) {
        continue;
      }
      bool u = false;
      const uint64_t l = Mask(c.expr->left.get(), sources, &u), r = Mask(c.expr->right.get(), sources, &u);
      if (u || l == 0 || r == 0) continue;
      if ((l & ~current_mask) == 0 && r == bit) {
        left_keys.push_back(c.expr->left.get());
        right_keys.push_back(c.expr->right.get());
        c.used = true;
      } else if ((r & ~current_mask) == 0 && l == bit) {
        left_keys.push_back(c.expr->right.get());
        right_keys.push_back(c.expr->left.get());
        c.used = true;
      }
    }
    Relation next;
    if (!JoinRelations(current, sources[pick], left_keys, right_keys, nullptr,
                       left_keys.empty() ? sql::JoinType::kCross : sql::JoinType::kInner,
                       select->from.pos, &next, error)) {
      return false;
    }
    current = std::move(next);
    current_mask |= bit;
    joined[pick] = true;
    // Conjuncts whose sources are all joined now filter the rows at once.
    std::vector<sql::ExprPtr> ready;
    for (Conjunct& c : conjuncts) {
      if (!c.used && !c.unknown && c.mask != 0 && (c.mask & ~current_mask) == 0) {
        ready.push_back(sql::Clone(*c.expr));
        c.used = true;
      }
    }
    if (!ready.empty() && !Filter(&current, *JoinAnd(std::move(ready)), error)) return false;
  }
  std::vector<sql::ExprPtr> rest;
  for (Conjunct& c : conjuncts) {
    if (!c.used) rest.push_back(std::move(c.expr));
  }
  select->where = JoinAnd(std::move(rest));
  *out = std::move(current);
  return true;
}

bool QueryTreeRunner::MakeJoin(const sql::TableRef& ref, Relation* out, Result* error) {
  Relation left, right;
  if (!MakeFrom(*ref.left, &left, error) || !MakeFrom(*ref.right, &right, error)) return false;
  std::vector<std::string> using_columns = ref.using_columns;
  if (ref.natural) {
    for (const plan::ScopeColumn& l : left.scope) {
      if (l.hidden) continue;
      for (const plan::ScopeColumn& r : right.scope) {
        if (!r.hidden && ascii::EqualsIgnoreCase(l.name, r.name)) using_columns.push_back(l.name);
      }
    }
  }
  std::vector<sql::ExprPtr> owned;
  std::vector<const sql::Expr*> left_keys, right_keys;
  const sql::Expr* residual = nullptr;
  std::vector<sql::ExprPtr> conjuncts;
  if (ref.on) {
    // Equalities between a left-only and a right-only expression become hash keys.
    SplitAnd(sql::Clone(*ref.on), &conjuncts);
    std::vector<Relation> sides{left, right};
    std::vector<sql::ExprPtr> residuals;
    for (sql::ExprPtr& c : conjuncts) {
      bool u = false;
      if (c->kind == sql::ExprKind::kBinary && c->binary_op == sql::BinaryOp::kEquals) {
        const uint64_t l = Mask(c->left.get(), sides, &u), r = Mask(c->right.get(), sides, &u);
        if (!u && l == 1 && r == 2) {
          left_keys.push_back(c->left.get());
          right_keys.push_back(c->right.get());
          owned.push_back(std::move(c));
          continue;
        }
        if (!u && l == 2 && r == 1) {
          left_keys.push_back(c->right.get());
          right_keys.push_back(c->left.get());
          owned.push_back(std::move(c));
          continue;
        }
      }
      residuals.push_back(std::move(c));
    }
    owned.push_back(JoinAnd(std::move(residuals)));
    residual = owned.back().get();
  }
  for (const std::string& name : using_columns) {
    auto key = [&](const Relation& side, const char* which) -> sql::ExprPtr {
      for (const plan::ScopeColumn& column : side.scope) {
        if (!column.hidden && ascii::EqualsIgnoreCase(column.name, name)) {
          return MakeColumnRef(column.qualifier, column.name, ref.pos);
        }
      }
      *error = ErrorAt(ref.pos, "binder", "column \"" + name + "\" of USING is not in the " + which + " table");
      return nullptr;
    };
    sql::ExprPtr l = key(left, "left"), r = key(right, "right");
    if (!l || !r) return false;
    left_keys.push_back(l.get());
    right_keys.push_back(r.get());
    owned.push_back(std::move(l));
    owned.push_back(std::move(r));
  }
  if (!JoinRelations(left, right, left_keys, right_keys, residual,
                     left_keys.empty() && residual == nullptr ? sql::JoinType::kCross : ref.join_type,
                     ref.pos, out, error)) {
    return false;
  }
  // USING / NATURAL: the right side's copies of the keys are found only when qualified.
  if (!using_columns.empty() && ref.join_type != sql::JoinType::kSemi && ref.join_type != sql::JoinType::kAnti) {
    for (size_t c = left.scope.size(); c < out->scope.size(); ++c) {
      for (const std::string& name : using_columns) {
        if (ascii::EqualsIgnoreCase(out->scope[c].name, name)) out->scope[c].hidden = true;
      }
    }
  }
  return true;
}

bool QueryTreeRunner::JoinRelations(const Relation& left, const Relation& right,
                                    const std::vector<const sql::Expr*>& left_keys,
                                    const std::vector<const sql::Expr*>& right_keys,
                                    const sql::Expr* residual, sql::JoinType type, sql::SourcePos pos,
                                    Relation* out, Result* error) {
  const size_t n_left = left.table->num_rows(), n_right = right.table->num_rows();
  std::vector<uint32_t> left_rows, right_rows;
  if (left_keys.empty()) {
    if (static_cast<double>(n_left) * static_cast<double>(n_right) > kMaxCrossRows) {
      *error = ErrorAt(pos, "out of memory", "the join would make " +
                                                 std::to_string(static_cast<double>(n_left) * n_right) +
                                                 " rows (a cross product; join on an equality?)");
      return false;
    }
    for (size_t l = 0; l < n_left; ++l) {
      for (size_t r = 0; r < n_right; ++r) {
        left_rows.push_back(static_cast<uint32_t>(l));
        right_rows.push_back(static_cast<uint32_t>(r));
      }
    }
  } else {
    Result lk, rk;
    if (!Evaluate(left, left_keys, &lk)) {
      *error = std::move(lk);
      return false;
    }
    if (!Evaluate(right, right_keys, &rk)) {
      *error = std::move(rk);
      return false;
    }
    Relation lr, rr;
    std::string message;
    if (!RelationFromResult(std::move(lk), "", &lr, &message) ||
        !RelationFromResult(std::move(rk), "", &rr, &message)) {
      *error = Result::Error(message);
      return false;
    }
    std::vector<TypeId> types;
    for (size_t k = 0; k < left_keys.size(); ++k) {
      types.push_back(CommonSuperType(lr.table->column(k).type(), rr.table->column(k).type()));
    }
    if (!CastColumns(&lr, types, error) || !CastColumns(&rr, types, error)) return false;
    // The hash join core (hash_join.h): pairs sorted by probe (left) row, then build row.
    std::vector<const Column*> build_keys, probe_keys;
    for (size_t k = 0; k < left_keys.size(); ++k) {
      probe_keys.push_back(&lr.table->column(k));
      build_keys.push_back(&rr.table->column(k));
    }
    MatchPairs pairs;
    if (!HashJoinPairs(build_keys, probe_keys, ctx_, &pairs, &message)) {
      *error = Result::Error(message);
      return false;
    }
    left_rows = std::move(pairs.probe_rows);
    right_rows = std::move(pairs.build_rows);
  }
  auto gather = [&](const std::vector<uint32_t>& lrows, const std::vector<uint32_t>& rrows,
                    bool with_right, Relation* joined) {
    auto table = std::make_shared<Table>();
    std::string message;
    joined->scope = left.scope;
    size_t c_out = 0;
    for (size_t c = 0; c < left.table->num_columns(); ++c) {
      Column column;
      if (!TakeRows(left.table->column(c), lrows, &column, &message) ||
          !table->AddColumn(RelationColumnName(c_out++), std::move(column), &message)) {
        *error = Result::Error(message);
        return false;
      }
    }
    if (with_right) {
      for (size_t c = 0; c < right.table->num_columns(); ++c) {
        Column column;
        if (!TakeRows(right.table->column(c), rrows, &column, &message) ||
            !table->AddColumn(RelationColumnName(c_out++), std::move(column), &message)) {
          *error = Result::Error(message);
          return false;
        }
      }
      joined->scope.insert(joined->scope.end(), right.scope.begin(), right.scope.end());
    }
    joined->table = std::move(table);
    return true;
  };
  if (residual != nullptr) {
    // The residual condition decides which candidate pairs match (before outer rows are added).
    Relation candidates;
    if (!gather(left_rows, right_rows, true, &candidates)) return false;
    Result value;
    if (!Evaluate(candidates, {residual}, &value)) {
      *error = std::move(value);
      return false;
    }
    const Column& keep = value.column(0);
    std::vector<uint32_t> l2, r2;
    for (size_t i = 0; i < left_rows.size(); ++i) {
      if (keep.IsValid(i) && keep.Values<uint8_t>()[i] != 0) {
        l2.push_back(left_rows[i]);
        r2.push_back(right_rows[i]);
      }
    }
    left_rows = std::move(l2);
    right_rows = std::move(r2);
  }
  if (type == sql::JoinType::kSemi || type == sql::JoinType::kAnti) {
    std::vector<bool> matched(n_left, false);
    for (uint32_t l : left_rows) matched[l] = true;
    std::vector<uint32_t> rows;
    for (size_t l = 0; l < n_left; ++l) {
      if (matched[l] == (type == sql::JoinType::kSemi)) rows.push_back(static_cast<uint32_t>(l));
    }
    return gather(rows, {}, false, out);
  }
  if (type == sql::JoinType::kLeft || type == sql::JoinType::kFull) {
    std::vector<bool> matched(n_left, false);
    for (uint32_t l : left_rows) matched[l] = true;
    std::vector<uint32_t> l2, r2;
    size_t i = 0;
    for (size_t l = 0; l < n_left; ++l) {
      if (!matched[l]) {
        l2.push_back(static_cast<uint32_t>(l));
        r2.push_back(kMissingRow);
        continue;
      }
      while (i < left_rows.size() && left_rows[i] == l) {
        l2.push_back(left_rows[i]);
        r2.push_back(right_rows[i]);
        ++i;
      }
    }
    left_rows = std::move(l2);
    right_rows = std::move(r2);
  }
  if (type == sql::JoinType::kRight || type == sql::JoinType::kFull) {
    std::vector<bool> matched(n_right, false);
    for (uint32_t r : right_rows) {
      if (r != kMissingRow) matched[r] = true;
    }
    for (size_t r = 0; r < n_right; ++r) {
      if (!matched[r]) {
        left_rows.push_back(kMissingRow);
        right_rows.push_back(static_cast<uint32_t>(r));
      }
    }
  }
  return gather(left_rows, right_rows, true, out);
}

}  // namespace exec
}  // namespace laneql
