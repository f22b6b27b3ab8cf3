// The general fallback for correlated subqueries: what the joins of DecorrelateExpr do not
// unnest (a subquery with its own GROUP BY, LIMIT, ORDER BY, WITH or set operation; IN, ANY or
// ALL over an aggregate; correlation inside a derived table; a subquery correlated with a query
// two levels out), and derived tables in FROM that read the items left of them (LATERAL), run
// once per distinct binding of the outer columns they read, as uncorrelated queries with those
// values as literals; the answers are joined back to the outer rows by binding. It is the
// dependent join over the distinct bindings that Neumann and Kemper then unnest further into
// set operations; here the inner query runs once per binding, never once per row (a million
// outer rows with 30 distinct keys run it 30 times).
//
// Which names of the subquery are the outer query's is found by running it: a run fails on the
// first name it cannot resolve in its own scopes (every nested scope has had its chance, so SQL's
// innermost-first rule holds), and a name the outer rows have becomes a literal at that position
// before the next run. A name the outer rows do not have is the query's own error.
#include <cstdio>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "src/common/ascii.h"
#include "src/exec/decorrelate.h"
#include "src/exec/hash_join.h"
#include "src/exec/outer_refs.h"
#include "src/exec/query_tree.h"
#include "src/optimize/optimizer.h"
#include "src/sql/ast_clone.h"
#include "src/sql/ast_walk.h"

namespace laneql {
namespace exec {

bool Runnable(const plan::LogicalOperator& op) {
  if (op.kind == plan::LogicalKind::kGet && op.table == nullptr) return false;
  for (const plan::LogicalPtr& child : op.children) {
    if (!Runnable(*child)) return false;
  }
  return true;
}

bool UnnestingUnsupported(const Result& error) {
  return error.error().find("not supported yet") != std::string::npos || LooksCorrelated(error);
}

bool QueryTreeRunner::MakeOuterRows(plan::LogicalPtr* from, Relation* out, std::string* subplan, Result* error) {
  plan::LogicalPtr tree = std::move(*from);
  optimize::Optimize(&tree, /*prune_columns=*/false);
  if (!ExecuteLogical(tree.get(), explain_analyze_, out, error)) {
    *from = std::move(tree);
    return false;
  }
  if (explaining_) *subplan = plan::ExplainText(*tree);
  return true;
}

bool QueryTreeRunner::RunPerBinding(const sql::QueryNode& query, const Relation& outer, BindingAnswers* out,
                                    Result* error) {
  std::string message;
  const size_t rows = outer.table->num_rows();
  out->empty_outer = rows == 0;
  // Without outer rows the query still runs once, on NULLs, for its answer's columns.
  std::shared_ptr<Table> null_row;
  if (rows == 0) {
    null_row = std::make_shared<Table>();
    for (size_t c = 0; c < outer.table->num_columns(); ++c) {
      Column column;
      if (!NullColumn(outer.table->column(c).type(), 1, &column, &message) ||
          !null_row->AddColumn(RelationColumnName(c), std::move(column), &message)) {
        *error = Result::Error(message);
        return false;
      }
    }
  }
  const Table& first_values = rows == 0 ? *null_row : *outer.table;
  const std::string saved_plan_text = last_plan_text_;
  auto run = [&](const sql::QueryNode& q) {
    Result answer = Run(q);
    last_plan_text_ = saved_plan_text;
    return answer;
  };
  // The outer references: each failure naming an outer column adds it. A name can hide from the
  // first binding's run (x IN (an empty answer) is FALSE without reading x), so a later
  // binding's run may still name one: then the bindings are made again with it and rerun.
  sql::QueryPtr original = sql::Clone(query);
  std::vector<OuterRef> refs;
  auto add_ref = [&](Result* failure) {
    if (!LooksCorrelated(*failure)) return false;
    sql::SourcePos pos;
    sql::Expr ref;
    const bool located = LastPosition(failure->error(), &pos) && ColumnRefAt(original.get(), pos, &ref);
    bool known = false;
    for (const OuterRef& r : refs) known = known || SamePos(r.pos, pos);
    const int column = !located || known ? -1 : LookupScopeColumn(ref, outer.scope);
    if (column < 0) {  // not the outer query's either: the query's own error
      if (located && !known) *failure = UnknownName(std::move(*failure), ref, pos, outer.scope);
      return false;
    }
    refs.push_back(OuterRef{pos, static_cast<size_t>(column)});
    return true;
  };
  for (;;) {
    // Found by runs over no rows first (they bind, they do not run joins), then the first
    // binding's real run, which may still name one.
    Result first;
    do {
      first = RunDry(*Substituted(query, refs, first_values, 0));
    } while (!first.ok() && add_ref(&first));
    do {
      first = run(*Substituted(query, refs, first_values, 0));
    } while (!first.ok() && add_ref(&first));
    if (!first.ok()) {
      *error = std::move(first);
      return false;
    }
    // The distinct bindings, numbered in order of their first row.
    std::vector<size_t> columns;
    for (const OuterRef& r : refs) {
      bool seen = false;
      for (size_t c : columns) seen = seen || c == r.column;
      if (!seen) columns.push_back(r.column);
    }
    std::vector<uint32_t> representative;
    if (!NumberBindings(outer, columns, ctx_, &out->binding, &representative, &message)) {
      *error = Result::Error(message);
      return false;
    }
    out->bindings = representative.size();
    // Every binding's rows, one after another, in the first answer's column types.
    if (!RelationFromResult(std::move(first), "", &out->answers, &message)) {
      *error = Result::Error(message);
      return false;
    }
    std::vector<TypeId> types;
    for (size_t c = 0; c < out->answers.table->num_columns(); ++c) {
      types.push_back(out->answers.table->column(c).type());
    }
    out->offsets = {0, out->answers.table->num_rows()};
    if (representative.size() == 1) return true;
    std::vector<Column> combined(types.size());
    for (size_t c = 0; c < types.size(); ++c) {
      if (!CopyColumn(out->answers.table->column(c), &combined[c], &message)) {
        *error = Result::Error(message);
        return false;
      }
    }
    bool more_refs = false;
    for (size_t b = 1; b < representative.size() && !more_refs; ++b) {
      if (ctx_.Interrupted()) {
        *error = Result::Error(ctx_.StopMessage());
        return false;
      }
      Result answer = run(*Substituted(query, refs, *outer.table, representative[b]));
      if (!answer.ok()) {
        if (add_ref(&answer)) {
          more_refs = true;
          break;
        }
        *error = std::move(answer);
        return false;
      }
      Relation part;
      if (!RelationFromResult(std::move(answer), "", &part, &message)) {
        *error = Result::Error(message);
        return false;
      }
      if (!CastColumns(&part, types, error, query.pos)) return false;
      for (size_t c = 0; c < types.size(); ++c) {
        if (!AppendColumn(part.table->column(c), &combined[c], &message)) {
          *error = Result::Error(message);
          return false;
        }
      }
      out->offsets.push_back(combined.empty() ? 0 : combined[0].length());
    }
    if (more_refs) continue;  // made again with the name found
    auto table = std::make_shared<Table>();
    for (size_t c = 0; c < types.size(); ++c) {
      if (!table->AddColumn(RelationColumnName(c), std::move(combined[c]), &message)) {
        *error = Result::Error(message);
        return false;
      }
    }
    out->answers.table = std::move(table);
    return true;
  }
}

bool QueryTreeRunner::ApplyPerBinding(plan::LogicalPtr* from, sql::ExprPtr* slot, Result* error) {
  if (!Runnable(**from)) return false;
  const sql::SourcePos pos = (*slot)->pos;
  Relation outer;
  std::string subplan, message;
  if (!MakeOuterRows(from, &outer, &subplan, error)) return false;
  // SELECT <the subquery expression>: one row per binding.
  sql::QueryNode value;
  value.pos = value.select.pos = pos;
  sql::SelectItem item;
  item.expr = sql::Clone(**slot);
  value.select.select_list.push_back(std::move(item));
  BindingAnswers answers;
  const std::string qualifier = "__b" + std::to_string(++derived_count_);
  auto finish = [&](const std::string& how) {
    plan::LogicalPtr get =
        GetOver(outer, how.empty() ? "rows made for a subquery" : "outer rows with subquery " + qualifier + " " + how);
    get->subplan = subplan;
    *from = std::move(get);
  };
  if ((*slot)->subquery) {
    // All bindings in one run where the shape allows it (query_binding_domain.cc).
    DomainRows domain;
    if (!RunOverDomain(*(*slot)->subquery, outer, &domain, error)) {
      finish("");
      return false;
    }
    if (domain.made && (domain.value || (*slot)->kind == sql::ExprKind::kExists)) {
      plan::LogicalPtr numbered = GetOver(
          domain.outer, "outer rows numbered by the " + std::to_string(domain.bindings) + " bindings of a subquery");
      numbered->subplan = subplan;
      if (!JoinSubqueryRows(&numbered, slot, std::move(domain.rows), std::move(domain.conditions), domain.value.get(),
                            error)) {
        finish("");
        return false;
      }
      *from = std::move(numbered);
      return true;
    }
  }
  if (!RunPerBinding(value, outer, &answers, error)) {
    if (outer.table->num_rows() != 0 || LooksCorrelated(*error)) {
      finish("");  // *from keeps the same rows, made
      return false;
    }
    // Its failure on NULLs is no error of the query: no outer row reads its answer. Its type
    // still is the column's: a scalar failing on its rows (more than one) is run again with
    // LIMIT 1 for it.
    TypeId type = TypeId::kInt32;
    bool typed = false;
    if ((*slot)->kind == sql::ExprKind::kSubquery && (*slot)->subquery->kind == sql::QueryKind::kSelect) {
      sql::QueryNode first;
      first.pos = first.select.pos = pos;
      sql::SelectItem limited;
      limited.expr = sql::Clone(**slot);
      sql::SelectStatement& inner = limited.expr->subquery->select;
      if (!inner.has_limit) {
        inner.has_limit = true;
        inner.limit = 1;
      }
      first.select.select_list.push_back(std::move(limited));
      BindingAnswers typing;
      Result ignored;
      if (RunPerBinding(first, outer, &typing, &ignored)) {
        type = typing.answers.table->column(0).type();
        typed = true;
      }
    }
    finish("(no outer rows)");
    auto null = std::make_unique<sql::Expr>();
    null->kind = sql::ExprKind::kNullLiteral;
    null->pos = pos;
    if (typed) {
      auto cast = std::make_unique<sql::Expr>();
      cast->kind = sql::ExprKind::kCast;
      cast->pos = pos;
      cast->text = DuckDbTypeName(type == TypeId::kLargeString ? TypeId::kString : type);
      cast->height = 2;
      cast->operand = std::move(null);
      *slot = std::move(cast);
    } else {
      *slot = std::move(null);
    }
    return true;
  }
  Column per_row;
  if (!TakeRows(answers.answers.table->column(0), answers.binding, &per_row, &message) ||
      !AddRelationColumn(&outer, std::move(per_row), plan::ScopeColumn{qualifier, "__v", true}, &message)) {
    *error = Result::Error(message);
    return false;
  }
  finish("run per distinct binding (" + std::to_string(answers.bindings) + ")");
  *slot = MakeColumnRef(qualifier, "__v", pos);
  return true;
}

bool QueryTreeRunner::ApplyLateral(const sql::TableRef& ref, plan::LogicalPtr left, plan::LogicalPtr* out,
                                   Result* error) {
  const sql::JoinType type = ref.join_type;
  if (type != sql::JoinType::kInner && type != sql::JoinType::kCross && type != sql::JoinType::kLeft) {
    *error = ErrorAt(ref.pos, "binder", "a subquery that reads the tables left of it (LATERAL) is supported in inner, "
                                        "cross and left joins only");
    return false;
  }
  if (!ref.using_columns.empty() || ref.natural) {
    *error = ErrorAt(ref.pos, "binder", "a LATERAL join takes ON conditions, not USING or NATURAL");
    return false;
  }
  const sql::TableRef& right = *ref.right;
  {
    // Tied to the left side by equalities of its WHERE only: run once for every key and joined
    // on the keys (query_keyed_subquery.cc), LEFT keeping rows without a match.
    Relation keyed;
    std::vector<sql::ExprPtr> conditions;
    std::vector<std::string> names;
    sql::ExprPtr value;
    bool made = false;
    if (!MakeKeyedRelation(*right.subquery, left->scope, &keyed, &conditions, &value, &made, error, &names)) {
      return false;
    }
    if (made) {
      if (right.column_aliases.size() > names.size()) {
        *error = ErrorAt(right.pos, "binder", "the subquery has " + std::to_string(names.size()) + " columns but " +
                                                  std::to_string(right.column_aliases.size()) + " names were given");
        return false;
      }
      for (size_t c = 0; c < names.size(); ++c) {
        keyed.scope[c] = plan::ScopeColumn{right.alias, c < right.column_aliases.size() ? right.column_aliases[c] : names[c],
                                           false};
      }
      Correlation c = Split(std::move(conditions), keyed.scope, left->scope);
      if (ref.on) c.residual.push_back(sql::Clone(*ref.on));
      const std::string source = "lateral " + right.alias + " (run for every key)";
      JoinAbove(&left, GetOver(keyed, source), type == sql::JoinType::kLeft ? type : sql::JoinType::kInner,
                std::move(c.outer_keys), std::move(c.inner_keys), std::move(c.residual));
      left->pos = ref.pos;
      *out = std::move(left);
      return true;
    }
  }
  Relation outer;
  std::string subplan, message;
  if (!MakeOuterRows(&left, &outer, &subplan, error)) return false;
  {
    // All bindings in one run where the shape allows it (query_binding_domain.cc).
    DomainRows domain;
    if (!RunOverDomain(*right.subquery, outer, &domain, error)) return false;
    if (domain.made) {
      if (right.column_aliases.size() > domain.names.size()) {
        *error = ErrorAt(right.pos, "binder", "the subquery has " + std::to_string(domain.names.size()) +
                                                  " columns but " + std::to_string(right.column_aliases.size()) +
                                                  " names were given");
        return false;
      }
      for (size_t c = 0; c < domain.names.size(); ++c) {
        domain.rows.scope[c] = plan::ScopeColumn{
            right.alias, c < right.column_aliases.size() ? right.column_aliases[c] : domain.names[c], false};
      }
      plan::LogicalPtr numbered = GetOver(
          domain.outer, "outer rows numbered by the " + std::to_string(domain.bindings) + " bindings of a subquery");
      numbered->subplan = subplan;
      Correlation c = Split(std::move(domain.conditions), domain.rows.scope, domain.outer.scope);
      if (ref.on) c.residual.push_back(sql::Clone(*ref.on));
      JoinAbove(&numbered, GetOver(domain.rows, "lateral " + right.alias + " (run for all bindings)"),
                type == sql::JoinType::kLeft ? type : sql::JoinType::kInner, std::move(c.outer_keys),
                std::move(c.inner_keys), std::move(c.residual));
      numbered->pos = ref.pos;
      *out = std::move(numbered);
      return true;
    }
  }
  BindingAnswers answers;
  if (!RunPerBinding(*right.subquery, outer, &answers, error)) return false;
  const std::string qualifier = right.alias;
  for (plan::ScopeColumn& column : answers.answers.scope) column.qualifier = qualifier;
  if (right.column_aliases.size() > answers.answers.scope.size()) {
    *error = ErrorAt(right.pos, "binder", "the subquery has " + std::to_string(answers.answers.scope.size()) +
                                              " columns but " + std::to_string(right.column_aliases.size()) +
                                              " names were given");
    return false;
  }
  for (size_t i = 0; i < right.column_aliases.size(); ++i) answers.answers.scope[i].name = right.column_aliases[i];
  // Every outer row beside each row of its binding's answer.
  std::vector<uint32_t> left_rows, right_rows;
  const size_t rows = answers.empty_outer ? 0 : outer.table->num_rows();
  for (size_t r = 0; r < rows; ++r) {
    const uint32_t b = answers.binding[r];
    for (size_t j = answers.offsets[b]; j < answers.offsets[b + 1]; ++j) {
      if (left_rows.size() >= kMaxJoinRows) {
        *error = ErrorAt(ref.pos, "out of memory", "a LATERAL join of more than 2^32 - 2 rows");
        return false;
      }
      left_rows.push_back(static_cast<uint32_t>(r));
      right_rows.push_back(static_cast<uint32_t>(j));
    }
  }
  auto joined = [&](Relation* relation) {
    auto table = std::make_shared<Table>();
    relation->scope = outer.scope;
    relation->scope.insert(relation->scope.end(), answers.answers.scope.begin(), answers.answers.scope.end());
    size_t c = 0;
    for (const Relation* side : {&outer, &answers.answers}) {
      const std::vector<uint32_t>& at = side == &outer ? left_rows : right_rows;
      for (size_t k = 0; k < side->table->num_columns(); ++k, ++c) {
        Column column;
        if (!TakeRows(side->table->column(k), at, &column, &message) ||
            !table->AddColumn(RelationColumnName(c), std::move(column), &message)) {
          *error = Result::Error(message);
          return false;
        }
      }
    }
    relation->table = std::move(table);
    return true;
  };
  if (type == sql::JoinType::kLeft) {
    // The ON condition picks the pairs; an outer row left without one gets NULLs.
    std::vector<uint32_t> kept;
    if (ref.on) {
      Relation pairs;
      if (!joined(&pairs) || !FilterRows(pairs, *ref.on, &kept, error)) return false;
    } else {
      for (size_t p = 0; p < left_rows.size(); ++p) kept.push_back(static_cast<uint32_t>(p));
    }
    std::vector<uint32_t> l, r;
    size_t next = 0;
    for (size_t row = 0; row < rows; ++row) {
      bool any = false;
      for (; next < kept.size() && left_rows[kept[next]] == row; ++next) {
        l.push_back(static_cast<uint32_t>(row));
        r.push_back(right_rows[kept[next]]);
        any = true;
      }
      if (!any) {
        l.push_back(static_cast<uint32_t>(row));
        r.push_back(kMissingRow);
      }
    }
    left_rows = std::move(l);
    right_rows = std::move(r);
  }
  Relation result;
  if (!joined(&result)) return false;
  plan::LogicalPtr get = GetOver(result, "lateral join with subquery " + qualifier + " run per distinct binding (" +
                                                   std::to_string(answers.bindings) + ")");
  get->subplan = subplan;
  *out = std::move(get);
  if (type != sql::JoinType::kLeft && ref.on) {
    std::vector<sql::ExprPtr> conditions;
    SplitAnd(sql::Clone(*ref.on), &conditions);
    plan::FilterAbove(out, std::move(conditions));
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
