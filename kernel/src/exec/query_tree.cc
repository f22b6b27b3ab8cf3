#include "src/exec/query_tree.h"

#include "src/plan/query_ast.h"

#include <memory>
#include <utility>

#include "src/common/ascii.h"
#include "src/common/decimal.h"
#include "src/common/query_budget.h"
#include "src/exec/decorrelate.h"
#include "src/exec/executor.h"
#include "src/exec/file_tables.h"
#include "src/exec/series_table.h"
#include "src/optimize/optimizer.h"
#include "src/plan/binder.h"
#include "src/sql/ast_clone.h"
#include "src/sql/parser.h"

namespace laneql {
namespace exec {
namespace {


// Views that name views: past this depth the view is taken to name itself.
constexpr int kMaxViewDepth = 32;

Result FromBindError(const plan::BindError& error) {
  return Result::Error(error.message, error.line, error.column);
}

void CollectColumns(const plan::BoundExpr* expr, std::vector<bool>* used) {
  if (expr == nullptr) return;
  if (expr->kind == plan::BoundKind::kColumn && expr->column >= 0 &&
      static_cast<size_t>(expr->column) < used->size()) {
    (*used)[static_cast<size_t>(expr->column)] = true;
  }
  for (const plan::BoundExprPtr& arg : expr->args) CollectColumns(arg.get(), used);
}

// Columns whose buffers are views of a .laneql file are checked against their checksums the
// first time a query reads them (Column::Verify); in-memory columns pass at no cost. Only the
// expressions in the table's scope name table columns: WHERE, the GROUP BY keys, aggregate
// arguments, and a plain query's outputs (an aggregate query's outputs name groups).
bool VerifyColumnsRead(const plan::Plan& plan, std::string* error) {
  if (plan.table == nullptr) return true;
  std::vector<bool> used(plan.table->num_columns(), false);
  CollectColumns(plan.where.get(), &used);
  for (const plan::BoundExprPtr& key : plan.group_keys) CollectColumns(key.get(), &used);
  for (const plan::Aggregate& aggregate : plan.aggregates) {
    CollectColumns(aggregate.arg.get(), &used);
    CollectColumns(aggregate.arg2.get(), &used);
    for (const auto& key : aggregate.order_keys) CollectColumns(key.get(), &used);
  }
  if (!plan.aggregate) {
    for (const plan::BoundExprPtr& output : plan.outputs) CollectColumns(output.get(), &used);
  }
  for (size_t i = 0; i < used.size(); ++i) {
    if (used[i] && !plan.table->column(i).Verify(error)) return false;
  }
  return true;
}

sql::ExprPtr BoolLiteral(bool value, const sql::Expr& at) {
  auto node = std::make_unique<sql::Expr>();
  node->kind = sql::ExprKind::kBooleanLiteral;
  node->bool_value = value;
  node->pos = at.pos;
  node->offset = at.offset;
  return node;
}

}  // namespace

// A literal holding row `row` of `column`, typed as the column is: CAST('text' AS TYPE).
sql::ExprPtr LiteralOf(const Column& column, size_t row, const sql::Expr& at) {
  auto cast = std::make_unique<sql::Expr>();
  cast->kind = sql::ExprKind::kCast;
  cast->pos = at.pos;
  cast->offset = at.offset;
  const TypeId type = column.type() == TypeId::kLargeString ? TypeId::kString : column.type();
  cast->text = DuckDbTypeName(type);
  auto value = std::make_unique<sql::Expr>();
  value->pos = at.pos;
  value->offset = at.offset;
  if (column.IsValid(row)) {
    value->kind = sql::ExprKind::kStringLiteral;
    value->text = FormatValue(column, row, ValueStyle::kText);
  } else {
    value->kind = sql::ExprKind::kNullLiteral;
  }
  cast->operand = std::move(value);
  cast->height = 2;
  return cast;
}

bool LooksCorrelated(const Result& result) {
  const std::string& m = result.error();
  return m.find("binder error") != std::string::npos &&
         (m.find("not found") != std::string::npos || m.find("is not in the FROM clause") != std::string::npos);
}

TypeId CommonSuperType(TypeId a, TypeId b) {
  if (a == TypeId::kLargeString) a = TypeId::kString;
  if (b == TypeId::kLargeString) b = TypeId::kString;
  if (a == b) return a;
  if (IsString(a) || IsString(b)) return TypeId::kString;
  const auto decimal_like = [](TypeId t) { return IsDecimal(t) || IsInteger(t) || IsBool(t); };
  if ((IsDecimal(a) || IsDecimal(b)) && decimal_like(a) && decimal_like(b)) return decimal::CommonType(a, b);
  if (IsFloat(a) || IsFloat(b)) return TypeId::kFloat64;
  if (IsTemporal(a) && IsTemporal(b)) return TypeId::kTimestampMicros;
  if (IsInteger(a) && IsInteger(b)) {
    const bool sa = IsSignedInteger(a), sb = IsSignedInteger(b);
    const size_t wa = TypeByteWidth(a), wb = TypeByteWidth(b);
    if (sa == sb) return wa >= wb ? a : b;
    // Mixed signs: a signed type wider than the unsigned one, else HUGEINT.
    const TypeId s = sa ? a : b, u = sa ? b : a;
    if (TypeByteWidth(s) > TypeByteWidth(u)) return s;
    static const TypeId kSigned[] = {TypeId::kInt16, TypeId::kInt32, TypeId::kInt64, TypeId::kInt128};
    for (TypeId t : kSigned) {
      if (TypeByteWidth(t) > TypeByteWidth(u)) return t;
    }
    return TypeId::kInt128;
  }
  if (a == TypeId::kBool) return b;
  if (b == TypeId::kBool) return a;
  return TypeId::kString;
}

bool QueryTreeRunner::PushCtes(const sql::QueryNode& query, Result* error) {
  cte_marks_.push_back(ctes_.size());
  for (const sql::CommonTableExpr& cte : query.ctes) {
    Relation relation;
    const bool ok = query.recursive && IsRecursive(cte) ? RunRecursive(cte, &relation, error)
                                                        : RunToRelation(*cte.query, cte.name, &relation, error);
    if (!ok) {
      PopCtes();
      return false;
    }
    if (cte.columns.size() > relation.scope.size()) {
      PopCtes();
      *error = ErrorAt(cte.pos, "binder", "WITH query \"" + cte.name + "\" has " +
                                              std::to_string(relation.scope.size()) + " columns but " +
                                              std::to_string(cte.columns.size()) + " names were given");
      return false;
    }
    for (size_t i = 0; i < cte.columns.size(); ++i) relation.scope[i].name = cte.columns[i];
    ctes_.push_back(CteEntry{cte.name, std::move(relation), std::move(last_plan_text_), false});
    last_plan_text_.clear();
  }
  return true;
}

Result QueryTreeRunner::RunDry(const sql::QueryNode& query) {
  const bool was_dry = dry_run_;
  const std::string saved_plan_text = last_plan_text_;
  dry_run_ = true;
  Result answer = Run(query);
  dry_run_ = was_dry;
  last_plan_text_ = saved_plan_text;
  return answer;
}

Result QueryTreeRunner::Run(const sql::QueryNode& query) {
  {
    Result error;
    if (!PushCtes(query, &error)) return error;
  }
  Result result;
  switch (query.kind) {
    case sql::QueryKind::kSelect:
      result = RunSelect(query.select);
      break;
    case sql::QueryKind::kSetOperation:
      result = RunSetOperation(query);
      break;
    case sql::QueryKind::kValues: {
      Result rows = RunValues(query.values, query.pos);
      Relation relation;
      std::string error;
      if (!rows.ok()) {
        result = std::move(rows);
      } else if (!RelationFromResult(std::move(rows), "valueslist", &relation, &error)) {
        result = Result::Error(error);
      } else {
        result = ApplyModifiers(query, std::move(relation));
      }
      break;
    }
  }
  PopCtes();
  if (ctx_.Interrupted()) return Result::Error(ctx_.StopMessage());
  return result;
}

bool QueryTreeRunner::RunToRelation(const sql::QueryNode& query, const std::string& qualifier,
                                    Relation* out, Result* error) {
  Result result = Run(query);
  if (!result.ok()) {
    *error = std::move(result);
    return false;
  }
  std::string message;
  if (!RelationFromResult(std::move(result), qualifier, out, &message)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

const Relation* QueryTreeRunner::FindCte(const std::string& name) const {
  const CteEntry* entry = FindCteEntry(name);
  return entry == nullptr ? nullptr : &entry->relation;
}

const QueryTreeRunner::CteEntry* QueryTreeRunner::FindCteEntry(const std::string& name) const {
  for (size_t i = ctes_.size(); i-- > 0;) {
    if (ascii::EqualsIgnoreCase(ctes_[i].name, name)) return &ctes_[i];
  }
  return nullptr;
}

bool QueryTreeRunner::IsPlainSelect(const sql::SelectStatement& select) {
  if (select.group_by_all || select.order_by_all || !select.distinct_on.empty()) return false;
  if (select.has_from) {
    const sql::TableRef& from = select.from;
    if (from.kind == sql::TableRefKind::kNamed) {
      if (FindCte(from.name) != nullptr) return false;
      ViewDef view;
      if (catalog_->FindView(from.name, &view)) return false;
    } else if ((from.kind != sql::TableRefKind::kFile && from.kind != sql::TableRefKind::kFunction) ||
               IsSeriesFunction(from)) {
      return false;
    }
    if (!from.column_aliases.empty()) return false;
  }
  for (const sql::SelectItem& item : select.select_list) {
    if (FindAnySubquery(item.expr.get()) != nullptr) return false;
  }
  if (FindAnySubquery(select.where.get()) || FindAnySubquery(select.having.get())) return false;
  for (const sql::ExprPtr& key : select.group_by) {
    if (FindAnySubquery(key.get())) return false;
  }
  for (const sql::OrderItem& item : select.order_by) {
    if (FindAnySubquery(item.expr.get()) != nullptr) return false;
  }
  return true;
}

bool QueryTreeRunner::BindPredicateOver(const Relation& relation, const sql::Expr& predicate, plan::Plan* plan,
                                        Result* error) {
  sql::SelectStatement select;
  select.pos = predicate.pos;
  select.has_from = true;
  sql::SelectItem item;
  item.expr = std::make_unique<sql::Expr>();
  item.expr->kind = sql::ExprKind::kBooleanLiteral;
  item.expr->bool_value = true;
  item.expr->pos = predicate.pos;
  select.select_list.push_back(std::move(item));
  select.where = sql::Clone(predicate);
  plan::BindError bind_error;
  if (!plan::BindSelectOver(select, relation.table.get(), relation.scope, plan, &bind_error)) {
    *error = FromBindError(bind_error);
    return false;
  }
  optimize::OptimizeSelect(plan);
  std::string message;
  if (!VerifyColumnsRead(*plan, &message)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

Result QueryTreeRunner::BindAndExecute(const sql::SelectStatement& select, const Relation* relation) {
  plan::BindError bind_error;
  plan::Plan plan;
  std::shared_ptr<const Table> held;  // the table the plan reads, alive for the query
  if (relation != nullptr) {
    held = relation->table;
    if (!plan::BindSelectOver(select, held.get(), relation->scope, &plan, &bind_error)) {
      return FromBindError(bind_error);
    }
  } else {
    plan::TableResolver resolver = [this, &held](std::string_view name) -> const Table* {
      held = catalog_->FindTable(name);
      return held.get();
    };
    if (select.has_from && select.from.kind != sql::TableRefKind::kNamed) {
      // A file the query reads is not its working memory (as registered tables are not).
      const ScopedQueryBudget outside_the_budget(nullptr);
      if (!LoadFileTable(select.from, ctx_.threads, &held, &bind_error)) return FromBindError(bind_error);
      resolver = [&held](std::string_view) -> const Table* { return held.get(); };
    }
    if (!plan::BindSelect(select, resolver, &plan, &bind_error)) return FromBindError(bind_error);
  }
  optimize::OptimizeSelect(&plan);
  std::string error;
  if (!VerifyColumnsRead(plan, &error)) return Result::Error(error);
  // The execution's memory counts against the query's limit (query_budget.h); parsing, binding
  // and the tables the query reads do not.
  const ScopedQueryBudget scope(ctx_.budget, "running the query");
  return Execute(plan, ctx_);
}

Result QueryTreeRunner::RunSelect(const sql::SelectStatement& query) {
  sql::SelectStatement pushed;
  const sql::SelectStatement& select = PushRowNumberBounds(query, &pushed) ? pushed : query;
  if (HasWindows(select)) return RunWindows(select);
  if (!select.distinct_on.empty()) return RunDistinctOn(select);
  if (IsPlainSelect(select) && !explaining_) return BindAndExecute(select, nullptr);
  SelectPlan select_plan;
  Result error;
  if (!PlanSelect(select, &select_plan, &error)) {
    // Correlated subqueries that read an aggregate query's groups: grouped first, then the rest.
    if (error.error().find(kCorrelatedMarker) != std::string::npos ||
        error.error().find(kAggregateCorrelated) != std::string::npos) {
      if (plan::Aggregates(select) && select.has_from) return RunAggregateThenSubqueries(select);
    }
    return error;
  }
  Result result = select_plan.plain ? BindAndExecute(select, nullptr) : RunPlan(&select_plan, explain_analyze_);
  if (explaining_) {
    if (select_plan.plain && result.ok() && explain_analyze_) {
      select_plan.root->analyzed = true;
      select_plan.root->actual_rows = result.num_rows();
    }
    last_plan_text_ = plan::ExplainText(*select_plan.root);
  }
  return result;
}

bool QueryTreeRunner::MakeFrom(const sql::TableRef& ref, Relation* out, Result* error) {
  const std::string qualifier = ref.alias.empty() ? ref.name : ref.alias;
  switch (ref.kind) {
    case sql::TableRefKind::kNamed: {
      if (const CteEntry* cte = FindCteEntry(ref.name)) {
        *out = cte->relation;
        if (!cte->keep_qualifiers) {
          for (plan::ScopeColumn& column : out->scope) column.qualifier = qualifier;
        }
        break;
      }
      ViewDef view;
      if (catalog_->FindView(ref.name, &view)) {
        if (view_depth_ >= kMaxViewDepth) {
          *error = ErrorAt(ref.pos, "binder", "view \"" + view.name + "\" refers to itself");
          return false;
        }
        sql::Statement statement;
        sql::ParseError parse_error;
        if (!sql::ParseStatement(view.sql, &statement, &parse_error) ||
            statement.kind != sql::StatementKind::kSelect) {
          *error = ErrorAt(ref.pos, "binder", "view \"" + view.name + "\" no longer parses: " +
                                                  parse_error.ToString());
          return false;
        }
        ++view_depth_;
        const std::vector<CteEntry> outer = std::move(ctes_);  // a view sees no CTE of the query
        ctes_.clear();
        const bool ok = RunToRelation(*statement.query, qualifier, out, error);
        ctes_ = std::move(outer);
        --view_depth_;
        if (!ok) {
          // The view's own error points into the view's text: say whose text it is.
          if (error->error().find("refers to itself") == std::string::npos) {
            *error = ErrorAt(ref.pos, "binder", "view \"" + view.name + "\" cannot be read: " + error->error());
          }
          return false;
        }
        for (size_t i = 0; i < view.columns.size() && i < out->scope.size(); ++i) {
          out->scope[i].name = view.columns[i];
        }
        break;
      }
      std::shared_ptr<const Table> table = catalog_->FindTable(ref.name);
      if (table == nullptr) {
        *error = ErrorAt(ref.pos, "binder", "table \"" + ref.name + "\" does not exist");
        return false;
      }
      *out = RelationOverTable(std::move(table), qualifier);
      break;
    }
    case sql::TableRefKind::kFunction:
      if (IsSeriesFunction(ref)) {
        Result args = RunValues(ref.values, ref.pos);
        if (!args.ok()) {
          *error = std::move(args);
          return false;
        }
        std::shared_ptr<const Table> table;
        std::string message;
        if (!MakeSeriesTable(ref.function, args, &table, &message)) {
          *error = ErrorAt(ref.pos, "binder", message);
          return false;
        }
        *out = RelationOverTable(std::move(table), qualifier);
        break;
      }
      [[fallthrough]];
    case sql::TableRefKind::kFile: {
      std::shared_ptr<const Table> table;
      plan::BindError bind_error;
      const ScopedQueryBudget outside_the_budget(nullptr);  // a table read, not working memory
      if (!LoadFileTable(ref, ctx_.threads, &table, &bind_error)) {
        *error = FromBindError(bind_error);
        return false;
      }
      *out = RelationOverTable(std::move(table), qualifier);
      break;
    }
    case sql::TableRefKind::kSubquery:
      if (!RunToRelation(*ref.subquery, ref.alias.empty() ? "unnamed_subquery" : ref.alias, out, error)) {
        return false;
      }
      break;
    case sql::TableRefKind::kValues: {
      Result rows = RunValues(ref.values, ref.pos);
      std::string message;
      if (!rows.ok()) {
        *error = std::move(rows);
        return false;
      }
      if (!RelationFromResult(std::move(rows), ref.alias.empty() ? "valueslist" : ref.alias, out, &message)) {
        *error = Result::Error(message);
        return false;
      }
      break;
    }
    case sql::TableRefKind::kJoin: {
      plan::LogicalPtr tree;
      if (!PlanJoin(ref, &tree, error)) return false;
      optimize::Optimize(&tree, /*prune_columns=*/false);
      return ExecuteLogical(tree.get(), false, out, error);
    }
  }
  if (ref.column_aliases.size() > out->scope.size()) {
    *error = ErrorAt(ref.pos, "binder", "table \"" + qualifier + "\" has " +
                                            std::to_string(out->scope.size()) + " columns available but " +
                                            std::to_string(ref.column_aliases.size()) + " columns specified");
    return false;
  }
  for (size_t i = 0; i < ref.column_aliases.size(); ++i) out->scope[i].name = ref.column_aliases[i];
  return true;
}

bool QueryTreeRunner::InlineSubqueries(sql::SelectStatement* select,
                                       std::vector<sql::ExprPtr>* correlated,
                                       std::vector<size_t>* correlated_items, Result* error,
                                       std::vector<size_t>* correlated_order) {
  for (size_t i = 0; i < select->select_list.size(); ++i) {
    sql::SelectItem& item = select->select_list[i];
    if (correlated_items == nullptr || !FindAnySubquery(item.expr.get()) || !select->has_from) {
      if (!InlineSubqueries(&item.expr, error)) return false;
      continue;
    }
    sql::ExprPtr attempt = sql::Clone(*item.expr);
    if (InlineSubqueries(&attempt, error)) {
      item.expr = std::move(attempt);
    } else if (error->error().find(kCorrelatedMarker) != std::string::npos) {
      correlated_items->push_back(i);
    } else {
      return false;
    }
  }
  if (select->where && FindAnySubquery(select->where.get())) {
    std::vector<sql::ExprPtr> conjuncts, kept;
    SplitAnd(std::move(select->where), &conjuncts);
    for (sql::ExprPtr& conjunct : conjuncts) {
      if (conjunct->kind == sql::ExprKind::kInSubquery && select->has_from && correlated_items != nullptr) {
        // x [NOT] IN (subquery) as a condition of WHERE becomes a semi (anti) join on x, not a
        // list of literals (ApplyCorrelated): a hash probe per row instead of a list scan.
        correlated->push_back(std::move(conjunct));
        continue;
      }
      sql::ExprPtr attempt = sql::Clone(*conjunct);
      if (InlineSubqueries(&attempt, error)) {
        kept.push_back(std::move(attempt));
      } else if (error->error().find(kCorrelatedMarker) != std::string::npos && select->has_from) {
        correlated->push_back(std::move(conjunct));
      } else {
        return false;
      }
    }
    select->where = JoinAnd(std::move(kept));
  }
  if (!InlineSubqueries(&select->having, error)) return false;
  for (sql::ExprPtr& key : select->group_by) {
    if (!InlineSubqueries(&key, error)) return false;
  }
  // ORDER BY of a query without aggregates may read a correlated subquery (unnested below the
  // SELECT's clauses, beside the FROM's columns); with aggregates it would need the groups.
  const bool aggregates = plan::Aggregates(*select);
  for (size_t i = 0; i < select->order_by.size(); ++i) {
    sql::ExprPtr& expr = select->order_by[i].expr;
    if (correlated_order == nullptr || aggregates || select->distinct || !select->has_from || !FindAnySubquery(expr.get())) {
      if (!InlineSubqueries(&expr, error)) return false;
      continue;
    }
    sql::ExprPtr attempt = sql::Clone(*expr);
    if (InlineSubqueries(&attempt, error)) {
      expr = std::move(attempt);
    } else if (error->error().find(kCorrelatedMarker) != std::string::npos) {
      correlated_order->push_back(i);
    } else {
      return false;
    }
  }
  return true;
}

bool QueryTreeRunner::InlineSubqueries(sql::ExprPtr* slot, Result* error) {
  sql::Expr* expr = slot->get();
  if (expr == nullptr) return true;
  if (!InlineSubqueries(&expr->operand, error) || !InlineSubqueries(&expr->left, error) ||
      !InlineSubqueries(&expr->right, error) || !InlineSubqueries(&expr->else_result, error)) {
    return false;
  }
  for (sql::ExprPtr& arg : expr->args) {
    if (!InlineSubqueries(&arg, error)) return false;
  }
  for (sql::CaseBranch& branch : expr->branches) {
    if (!InlineSubqueries(&branch.when, error) || !InlineSubqueries(&branch.then, error)) return false;
  }
  if (!expr->subquery) return true;
  // A correlated subquery is found by binding it, not by running its joins first.
  Result answer = RunDry(*expr->subquery);
  if (answer.ok() || !LooksCorrelated(answer)) answer = dry_run_ ? std::move(answer) : Run(*expr->subquery);
  if (!answer.ok()) {
    if (LooksCorrelated(answer)) {
      *error = ErrorAt(expr->pos, "binder",
                       std::string(kCorrelatedMarker) + " are not supported here yet: " + answer.error());
    } else {
      *error = std::move(answer);
    }
    return false;
  }
  const size_t rows = answer.num_rows();
  if (expr->kind == sql::ExprKind::kExists) {
    *slot = BoolLiteral(rows > 0, *expr);
    return true;
  }
  if (answer.num_columns() != 1) {
    *error = ErrorAt(expr->pos, "binder", "subquery returns " + std::to_string(answer.num_columns()) +
                                              " columns - expected 1");
    return false;
  }
  const Column& column = answer.column(0);
  if (expr->kind == sql::ExprKind::kSubquery) {
    if (rows > 1) {
      *error = ErrorAt(expr->pos, "invalid input",
                       "More than one row returned by a subquery used as an expression - scalar "
                       "subqueries can only return a single row.");
      return false;
    }
    if (rows == 0) {
      // No row: NULL of the column's type.
      Column null_column;
      std::string message;
      if (!NullColumn(column.type(), 1, &null_column, &message)) {
        *error = Result::Error(message);
        return false;
      }
      *slot = LiteralOf(null_column, 0, *expr);
    } else {
      *slot = LiteralOf(column, 0, *expr);
    }
    return true;
  }
  // x IN (empty) is false, even for NULL x; x op ANY (empty) false, ALL true. Written
  // (x IS NULL) AND FALSE or (x IS NULL) OR TRUE, so that x is still bound: a name it reads
  // that does not exist is the query's error, as DuckDB binds before it runs.
  auto constant_reading_operand = [&](bool value) {
    auto is_null = std::make_unique<sql::Expr>();
    is_null->kind = sql::ExprKind::kIsNull;
    is_null->pos = expr->pos;
    is_null->height = expr->operand->height + 1;
    is_null->operand = std::move(expr->operand);
    return MakeBinary(value ? sql::BinaryOp::kOr : sql::BinaryOp::kAnd, std::move(is_null), BoolLiteral(value, *expr));
  };
  if (expr->kind == sql::ExprKind::kInSubquery) {
    if (rows == 0) {
      *slot = constant_reading_operand(expr->negated);
      return true;
    }
    expr->kind = sql::ExprKind::kInList;
    expr->args.clear();
    for (size_t r = 0; r < rows; ++r) expr->args.push_back(LiteralOf(column, r, *expr));
    expr->subquery.reset();
    return true;
  }
  // kQuantified: x op ANY (...) is an OR of the comparisons, ALL an AND (three-valued, as SQL).
  if (rows == 0) {
    *slot = constant_reading_operand(expr->quantifier_all);
    return true;
  }
  std::vector<sql::ExprPtr> terms;
  for (size_t r = 0; r < rows; ++r) {
    terms.push_back(MakeBinary(expr->binary_op, sql::Clone(*expr->operand), LiteralOf(column, r, *expr)));
  }
  // Combined pairwise, so the tree is log2(rows) high, far below the parser's height limit.
  const sql::BinaryOp join = expr->quantifier_all ? sql::BinaryOp::kAnd : sql::BinaryOp::kOr;
  while (terms.size() > 1) {
    std::vector<sql::ExprPtr> next;
    for (size_t i = 0; i + 1 < terms.size(); i += 2) {
      next.push_back(MakeBinary(join, std::move(terms[i]), std::move(terms[i + 1])));
    }
    if (terms.size() % 2 == 1) next.push_back(std::move(terms.back()));
    terms = std::move(next);
  }
  *slot = std::move(terms[0]);
  return true;
}

}  // namespace exec
}  // namespace laneql
