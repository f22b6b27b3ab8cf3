// Statement-level binding: which scope each clause binds in, GROUP BY keys (expressions,
// aliases, positions), aggregates (shared when equal), ORDER BY (aliases,
// positions, hidden keys), LIMIT / OFFSET.
#include <algorithm>

#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {
namespace {

std::string DefaultName(const sql::Expr& expr) { return DefaultOutputName(expr); }

bool SameName(const std::string& a, const std::string& b) {
  return LowerAscii(a) == LowerAscii(b);
}

// A bare integer literal used as a GROUP BY / ORDER BY position.
bool IsPosition(const sql::Expr& expr) { return expr.kind == sql::ExprKind::kIntegerLiteral; }

}  // namespace

std::string DefaultOutputName(const sql::Expr& expr) {
  if (expr.kind == sql::ExprKind::kColumnRef) return expr.text;
  if (expr.kind == sql::ExprKind::kFunctionCall && expr.star_argument &&
      LowerAscii(expr.text) == "count") {
    return "count_star()";
  }
  return sql::ToString(expr);
}

std::nullptr_t Binder::Fail(SourcePos pos, const std::string& kind, const std::string& message) {
  if (!failed_) {
    failed_ = true;
    if (silent_ == 0) {
      error_.line = pos.line;
      error_.column = pos.column;
      error_.message = kind + " error at line " + std::to_string(pos.line) + ", column " +
                       std::to_string(pos.column) + ": " + message;
    }
  }
  return nullptr;
}

BoundExprPtr Binder::TryBindBase(const sql::Expr& expr) {
  const bool was_failed = failed_;
  ++silent_;
  BoundExprPtr bound = Bind(expr, Scope::kBase);
  --silent_;
  failed_ = was_failed;
  return bound;
}

void Binder::RememberBaseBinding(const sql::Expr& expr, const BoundExpr* bound) {
  BaseBinding& entry = base_bindings_[&expr];
  entry = BaseBinding();
  if (bound == nullptr || failed_) return;  // a failure anywhere below fails this subtree too
  entry.ok = true;
  entry.type = bound->type;
  entry.nullable = bound->nullable;
  entry.constant = bound->IsConstant();
  // Only as long as the longest key's: a deep subtree's whole fingerprint costs its size.
  size_t longest = 0;
  for (const std::string& key : group_fingerprints_) longest = std::max(longest, key.size());
  std::string fingerprint;
  if (!FingerprintUpTo(*bound, longest, &fingerprint)) return;
  for (size_t i = 0; i < group_fingerprints_.size(); ++i) {
    if (group_fingerprints_[i] == fingerprint) {
      entry.group_key = static_cast<int>(i);
      break;
    }
  }
}

const Binder::BaseBinding& Binder::TryBindBaseOnce(const sql::Expr& expr) {
  auto found = base_bindings_.find(&expr);
  if (found != base_bindings_.end()) return found->second;
  TryBindBase(expr);  // remembers expr and every subtree of it
  return base_bindings_[&expr];
}

int Binder::AddAggregate(Aggregate aggregate) {
  std::string key = AggregateKey(aggregate);
  for (size_t i = 0; i < aggregate_fingerprints_.size(); ++i) {
    if (aggregate_fingerprints_[i] == key) return static_cast<int>(i);
  }
  aggregate_fingerprints_.push_back(std::move(key));
  plan_->aggregates.push_back(std::move(aggregate));
  return static_cast<int>(plan_->aggregates.size() - 1);
}

BoundExprPtr Binder::BindAggregate(const sql::Expr& expr) {
  const std::string name = LowerAscii(expr.text);
  if (in_aggregate_) {
    return Fail(expr.pos, "binder", "aggregate function calls cannot be nested (" + name + ")");
  }
  Aggregate aggregate;
  const AggregateFunctionInfo* info = FindAggregateFunction(name);
  if (info != nullptr && (info->fn != AggFn::kNone || (expr.distinct && (name == "sum" || name == "avg" || name == "mean")))) {
    bool always_null = false;
    if (!BindFunctionAggregate(expr, *info, &aggregate, &always_null)) return nullptr;
    if (always_null) return MakeConstant(Value::Null(aggregate.type), expr.pos);
  } else if (expr.star_argument) {
    if (name != "count") return Fail(expr.pos, "binder", name + "(*) is not a function; only count(*) is");
    aggregate.kind = AggKind::kCountStar;
  } else {
    const size_t given = expr.args.size() - static_cast<size_t>(expr.order_by_args);  // ORDER BY: no effect here
    if (given != 1) {
      return Fail(expr.pos, "binder", name + " takes exactly one argument, got " + std::to_string(given));
    }
    if (expr.distinct && name != "count" && name != "min" && name != "max") {
      // (count_if / bool_and / bool_or of DISTINCT values give what they give over all rows;
      // min and max of DISTINCT values are min and max.)
      return Fail(expr.pos, "binder", "DISTINCT is not supported in " + name + "; it is in count, sum, avg, min and max");
    }
    in_aggregate_ = true;
    aggregate.arg = Bind(*expr.args[0], Scope::kBase);
    in_aggregate_ = false;
    if (!aggregate.arg) return nullptr;
    const TypeId type = aggregate.arg->type;
    if (IsList(type) && (name != "count" || expr.distinct)) {
      return Fail(aggregate.arg->pos, "binder", ListRefusal(type));
    }
    if (name == "count") {
      aggregate.kind = expr.distinct ? AggKind::kCountDistinct : AggKind::kCount;
    } else if (name == "count_if" || name == "countif" || name == "bool_and" || name == "bool_or") {
      // count_if(c): how many rows c is true on, as DuckDB 2.0 has it: sum(CAST(c AS INTEGER)),
      // a HUGEINT that is NULL where c never is non-NULL; bool_and / bool_or: min / max of a
      // BOOLEAN (NULLs skipped).
      if (type != TypeId::kBool) {
        if (!IsNullLiteral(*aggregate.arg) && !IsNumeric(type)) {
          return Fail(expr.args[0]->pos, "type", name + " needs a BOOLEAN argument, not " + DuckDbTypeName(type));
        }
        aggregate.arg = CastTo(std::move(aggregate.arg), TypeId::kBool, expr.pos);
        if (!aggregate.arg) return nullptr;
      }
      if (name == "count_if" || name == "countif") {
        aggregate.arg = CastTo(std::move(aggregate.arg), TypeId::kInt32, expr.pos);
        if (!aggregate.arg) return nullptr;
        aggregate.kind = AggKind::kSum;
      } else {
        aggregate.kind = name == "bool_and" ? AggKind::kMin : AggKind::kMax;
      }
    } else if ((name == "avg" || name == "mean") && AveragesAsTemporal(type)) {
      // avg of INTERVAL / TIMESTAMP / TIME values, in their type as DuckDB: exact sums
      // (exec/aggregate_temporal_avg.cc).
      AggregateTyping typing;
      std::string message;
      int error_arg = 0;
      if (!TypeAggregateFunction(AggFn::kAvgTemporal, name, type, false, TypeId::kInt64, false, false, &typing,
                                 &message, &error_arg)) {
        return Fail(expr.args[0]->pos, "type", message);
      }
      if (typing.arg != type) {
        aggregate.arg = CastTo(std::move(aggregate.arg), typing.arg, expr.pos);
        if (!aggregate.arg) return nullptr;
      }
      aggregate.kind = AggKind::kFunction;
      aggregate.function = AggFn::kAvgTemporal;
      aggregate.type = typing.result;
    } else if (name == "sum" || name == "avg" || name == "mean") {
      if (!IsNumeric(type) && !IsDecimal(type)) {
        return Fail(expr.args[0]->pos, "type",
                    name + "(" + DuckDbTypeName(type) + ") is not supported: " + name +
                        " needs a numeric argument");
      }
      aggregate.kind = name == "sum" ? AggKind::kSum : AggKind::kAvg;
    } else {
      aggregate.kind = name == "min" ? AggKind::kMin : AggKind::kMax;
    }
  }
  const SourcePos pos = expr.pos;
  switch (aggregate.kind) {
    case AggKind::kCountStar:
    case AggKind::kCount:
    case AggKind::kCountDistinct: aggregate.type = TypeId::kInt64; break;
    case AggKind::kAvg: aggregate.type = TypeId::kFloat64; break;
    case AggKind::kFunction: break;  // typed by BindFunctionAggregate
    case AggKind::kSum:
      // SUM of DECIMAL(p, s) is DECIMAL(38, s), as in DuckDB.
      aggregate.type = IsFloat(aggregate.arg->type)     ? TypeId::kFloat64
                       : IsDecimal(aggregate.arg->type) ? DecimalType(kMaxDecimalPrecision, DecimalScale(aggregate.arg->type))
                                                        : TypeId::kInt128;
      break;
    case AggKind::kMin:
    case AggKind::kMax:
      aggregate.type =
          IsString(aggregate.arg->type) ? TypeId::kString : aggregate.arg->type;
      break;
  }
  const bool nullable = AggregateNullable(aggregate);
  const int index = AddAggregate(std::move(aggregate));
  const TypeId type = plan_->aggregates[index].type;
  return MakeColumn(static_cast<int>(plan_->group_keys.size()) + index, type, nullable, pos);
}

BoundExprPtr Binder::BindGroupScope(const sql::Expr& expr) {
  if (expr.kind == sql::ExprKind::kFunctionCall && IsAggregateName(LowerAscii(expr.text))) {
    return BindAggregate(expr);
  }
  if (expr.kind == sql::ExprKind::kColumnRef) {
    if (BoundExprPtr alias; BindAlias(expr, Scope::kGroup, &alias)) return alias;
  }
  if (!ContainsAggregate(expr)) {
    const BaseBinding base = TryBindBaseOnce(expr);
    if (base.ok) {
      if (base.group_key >= 0) {
        return MakeColumn(base.group_key, base.type, base.nullable, expr.pos);
      }
      if (base.constant) return TryBindBase(expr);  // small: constants are folded
    }
    if (!base.ok && expr.kind != sql::ExprKind::kColumnRef) {
      // A name that is nowhere is the error, before any column that is not grouped.
      if (const sql::Expr* unknown = FirstUnknownColumn(expr)) return Bind(*unknown, Scope::kBase);
    }
    if (expr.kind == sql::ExprKind::kColumnRef) {
      if (!base.ok) return Bind(expr, Scope::kBase);  // reports the unknown column
      if (statement_->group_by.empty()) {
        return Fail(expr.pos, "binder",
                    "column \"" + expr.text + "\" must be used in an aggregate function: the query " +
                        "aggregates (it has aggregates or HAVING) and has no GROUP BY");
      }
      return Fail(expr.pos, "binder",
                  "column \"" + expr.text +
                      "\" must appear in the GROUP BY clause or be used in an aggregate function");
    }
  }
  std::vector<BoundExprPtr> children = BindChildren(expr, Scope::kGroup);
  if (failed_) return nullptr;
  return BuildNode(expr, std::move(children));
}

bool Binder::BindStatement(const sql::SelectStatement& statement, Plan* plan) {
  plan_ = plan;
  statement_ = &statement;
  plan->table = table_;
  if (statement.where) {
    if (ContainsAggregate(*statement.where)) {
      Fail(statement.where->pos, "binder", "aggregate functions are not allowed in WHERE");
      return false;
    }
    plan->where = Bind(*statement.where, Scope::kBase);
    if (!plan->where) return false;
    if (plan->where->type != TypeId::kBool) {
      Fail(statement.where->pos, "type",
           std::string("WHERE needs a BOOLEAN condition, not ") + DuckDbTypeName(plan->where->type));
      return false;
    }
  }
  bool any_aggregate = statement.having != nullptr;
  for (const auto& item : statement.select_list) {
    if (item.expr->kind != sql::ExprKind::kStar && ContainsAggregate(*item.expr)) any_aggregate = true;
  }
  for (const auto& item : statement.order_by) any_aggregate |= ContainsAggregate(*item.expr);
  plan->aggregate = any_aggregate || !statement.group_by.empty() || statement.distinct;

  if (plan->aggregate) {
    // GROUP BY keys: a position, a SELECT alias (when no table column has the name), or an
    // expression over the table. SELECT DISTINCT groups by every SELECT item.
    std::vector<const sql::Expr*> key_asts;
    for (const auto& key : statement.group_by) {
      const sql::Expr* target = key.get();
      if (IsPosition(*key)) {
        const long long position = std::atoll(key->text.c_str());
        if (position < 1 || position > static_cast<long long>(statement.select_list.size())) {
          Fail(key->pos, "binder", "GROUP BY position " + key->text + " is not in the select list (1.." +
                                       std::to_string(statement.select_list.size()) + ")");
          return false;
        }
        target = statement.select_list[position - 1].expr.get();
      } else if (key->kind == sql::ExprKind::kColumnRef && key->qualifier.empty() &&
                 !HasColumnNamed(key->text)) {
        for (const auto& item : statement.select_list) {
          if (!item.alias.empty() && SameName(item.alias, key->text)) target = item.expr.get();
        }
      }
      if (target->kind == sql::ExprKind::kStar) {
        Fail(key->pos, "binder", "GROUP BY cannot refer to *");
        return false;
      }
      if (ContainsAggregate(*target)) {
        Fail(key->pos, "binder", "GROUP BY cannot contain aggregates");
        return false;
      }
      key_asts.push_back(target);
    }
    if (statement.distinct && statement.group_by.empty()) {
      for (const auto& item : statement.select_list) {
        if (item.expr->kind == sql::ExprKind::kStar) {
          Fail(item.expr->pos, "binder", "SELECT DISTINCT * is not supported");
          return false;
        }
        key_asts.push_back(item.expr.get());
      }
    }
    for (const sql::Expr* key_ast : key_asts) {
      BoundExprPtr key = Bind(*key_ast, Scope::kBase);
      if (!key) return false;
      if (IsList(key->type)) {
        Fail(key->pos, "binder", "GROUP BY or DISTINCT on a list is not supported (" + std::string(DuckDbTypeName(key->type)) + ")");
        return false;
      }
      group_fingerprints_.push_back(Fingerprint(*key));
      plan->group_keys.push_back(std::move(key));
    }
    for (const auto& item : statement.select_list) {
      if (item.expr->kind == sql::ExprKind::kStar) {
        Fail(item.expr->pos, "binder", "SELECT * cannot be combined with GROUP BY or aggregates");
        return false;
      }
      BoundExprPtr output = BindGroupScope(*item.expr);
      if (!output) return false;
      plan->outputs.push_back(std::move(output));
      plan->names.push_back(item.alias.empty() ? DefaultName(*item.expr) : item.alias);
    }
    if (statement.having) {
      plan->having = BindGroupScope(*statement.having);
      if (!plan->having) return false;
      if (plan->having->type != TypeId::kBool) {
        Fail(statement.having->pos, "type", std::string("HAVING needs a BOOLEAN condition, not ") +
                                                DuckDbTypeName(plan->having->type));
        return false;
      }
    }
  } else {
    for (const auto& item : statement.select_list) {
      if (item.expr->kind == sql::ExprKind::kStar) {
        std::vector<size_t> columns;
        std::vector<std::string> names;
        if (!ExpandStar(*item.expr, &columns, &names)) return false;
        for (size_t i = 0; i < columns.size(); ++i) {
          const Column& column = table_->column(columns[i]);
          plan->outputs.push_back(MakeColumn(static_cast<int>(columns[i]),
                                             column.type() == TypeId::kLargeString ? TypeId::kString : column.type(),
                                             column.null_count() != 0, item.expr->pos));
          plan->names.push_back(std::move(names[i]));
        }
        continue;
      }
      BoundExprPtr output = Bind(*item.expr, Scope::kBase);
      if (!output) return false;
      plan->outputs.push_back(std::move(output));
      plan->names.push_back(item.alias.empty() ? DefaultName(*item.expr) : item.alias);
    }
  }
  plan->num_visible = plan->outputs.size();
  if (!BindOrderBy(statement, plan)) return false;
  if (statement.has_limit) {
    if (statement.limit < 0) {
      Fail(statement.limit_pos, "binder", "LIMIT must not be negative");
      return false;
    }
    plan->limit = statement.limit;
  }
  if (statement.has_offset) {
    if (statement.offset < 0) {
      Fail(statement.offset_pos, "binder", "OFFSET must not be negative");
      return false;
    }
    plan->offset = statement.offset;
  }
  return !failed_;
}

bool Binder::BindOrderBy(const sql::SelectStatement& statement, Plan* plan) {
  for (const auto& item : statement.order_by) {
    SortKey key;
    key.descending = item.descending;
    // DuckDB's default: NULLS LAST in both directions.
    key.nulls_first = item.nulls == sql::NullsOrder::kFirst;
    const sql::Expr& expr = *item.expr;
    int output = -1;
    if (IsPosition(expr)) {
      const long long position = std::atoll(expr.text.c_str());
      if (position < 1 || position > static_cast<long long>(plan->num_visible)) {
        Fail(expr.pos, "binder", "ORDER BY position " + expr.text + " is not in the select list (1.." +
                                     std::to_string(plan->num_visible) + ")");
        return false;
      }
      output = static_cast<int>(position - 1);
    } else if (expr.kind == sql::ExprKind::kColumnRef && expr.qualifier.empty()) {
      for (size_t i = 0; i < statement.select_list.size() && output < 0; ++i) {
        const auto& alias = statement.select_list[i].alias;
        if (!alias.empty() && SameName(alias, expr.text)) {
          // Select items before i may have expanded from *, so count visible outputs by name.
          for (size_t o = 0; o < plan->num_visible; ++o) {
            if (SameName(plan->names[o], alias)) { output = static_cast<int>(o); break; }
          }
        }
      }
    }
    if (output < 0) {
      BoundExprPtr bound = plan->aggregate ? BindGroupScope(expr) : Bind(expr, Scope::kBase);
      if (!bound) return false;
      const std::string fingerprint = Fingerprint(*bound);
      for (size_t o = 0; o < plan->outputs.size(); ++o) {
        if (Fingerprint(*plan->outputs[o]) == fingerprint) { output = static_cast<int>(o); break; }
      }
      if (output < 0) {
        plan->outputs.push_back(std::move(bound));
        plan->names.push_back(DefaultName(expr));
        output = static_cast<int>(plan->outputs.size() - 1);
      }
    }
    if (IsList(plan->outputs[static_cast<size_t>(output)]->type)) {
      Fail(expr.pos, "binder", "ORDER BY a list is not supported (" +
                                   std::string(DuckDbTypeName(plan->outputs[static_cast<size_t>(output)]->type)) + ")");
      return false;
    }
    key.output = output;
    plan->order.push_back(key);
  }
  return true;
}

// What SELECT without FROM runs over, as in DuckDB: one row, and no column a query can name
// (the one column Table needs to hold a row count has a name no identifier spells).
const Table* OneRowTable() {
  static const Table* const table = [] {
    auto* one_row = new Table;
    const int8_t zero = 0;
    Column column;
    std::string ignored;
    Column::FromFixed(TypeId::kInt8, &zero, 1, nullptr, &column, &ignored);
    one_row->AddColumn("\x01", std::move(column), &ignored);
    return one_row;
  }();
  return table;
}

bool BindSelect(const sql::SelectStatement& statement, const TableResolver& tables, Plan* plan,
                BindError* error) {
  if (!statement.has_from) {
    for (const sql::SelectItem& item : statement.select_list) {
      if (item.expr->kind != sql::ExprKind::kStar) continue;
      *error = BindError{"binder error at line " + std::to_string(item.expr->pos.line) + ", column " +
                             std::to_string(item.expr->pos.column) +
                             ": SELECT * needs FROM (without it there are no columns to expand)",
                         item.expr->pos.line, item.expr->pos.column};
      return false;
    }
  }
  const Table* table = statement.has_from ? tables(statement.from.name) : OneRowTable();
  if (table == nullptr) {
    const SourcePos pos = statement.from.pos;
    *error = BindError{"binder error at line " + std::to_string(pos.line) + ", column " +
                           std::to_string(pos.column) + ": table \"" + statement.from.name +
                           "\" does not exist",
                       pos.line, pos.column};
    return false;
  }
  Binder binder(table, statement.from.alias.empty() ? statement.from.name : statement.from.alias);
  if (!binder.BindStatement(statement, plan)) {
    *error = binder.error();
    return false;
  }
  return true;
}

bool BindSelectOver(const sql::SelectStatement& statement, const Table* table,
                    const ColumnScope& scope, Plan* plan, BindError* error) {
  Binder binder(table, &scope);
  if (!binder.BindStatement(statement, plan)) {
    *error = binder.error();
    return false;
  }
  return true;
}

}  // namespace plan
}  // namespace laneql
