// A SELECT with window functions runs in two levels, as query_aggregate_subqueries.cc does for
// groups: first the rows below its windows (FROM, WHERE; an aggregate query is grouped first,
// HAVING applied) made into a relation with every column of the FROM clause and its names;
// then each window call of the SELECT list, QUALIFY and ORDER BY evaluated over that relation
// into a hidden column (__win.__wN, window_functions.cc); then the rest of the query over the
// relation as a query without windows: the SELECT list and ORDER BY read those columns,
// QUALIFY is its WHERE. EXPLAIN shows the windows as a WINDOW line above the plan of the rows.
#include <utility>

#include "src/common/ascii.h"
#include "src/exec/query_tree.h"
#include "src/exec/window_functions.h"
#include "src/sql/ast_clone.h"
#include "src/sql/ast_walk.h"

namespace laneql {
namespace exec {
namespace {

using sql::ExprKind;

// The first window call in `expr`, outside subqueries.
const sql::Expr* FindWindowCall(const sql::Expr* expr) {
  if (expr == nullptr) return nullptr;
  if (expr->kind == ExprKind::kWindowCall) return expr;
  if (expr->subquery) return FindWindowCall(expr->operand.get());
  for (const sql::Expr* child : {expr->operand.get(), expr->left.get(), expr->right.get(), expr->else_result.get()}) {
    if (const sql::Expr* found = FindWindowCall(child)) return found;
  }
  for (const sql::ExprPtr& arg : expr->args) {
    if (const sql::Expr* found = FindWindowCall(arg.get())) return found;
  }
  for (const sql::CaseBranch& branch : expr->branches) {
    if (const sql::Expr* found = FindWindowCall(branch.when.get())) return found;
    if (const sql::Expr* found = FindWindowCall(branch.then.get())) return found;
  }
  return nullptr;
}

// The window calls of *slot (outside subqueries), each slot once, outermost first.
void CollectWindowSlots(sql::ExprPtr* slot, std::vector<sql::ExprPtr*>* out) {
  sql::Expr* expr = slot->get();
  if (expr == nullptr) return;
  if (expr->kind == ExprKind::kWindowCall) {
    out->push_back(slot);
    return;
  }
  if (expr->subquery) {
    CollectWindowSlots(&expr->operand, out);
    return;
  }
  for (sql::ExprPtr* child : {&expr->operand, &expr->left, &expr->right, &expr->else_result}) {
    CollectWindowSlots(child, out);
  }
  for (sql::ExprPtr& arg : expr->args) CollectWindowSlots(&arg, out);
  for (sql::CaseBranch& branch : expr->branches) {
    CollectWindowSlots(&branch.when, out);
    CollectWindowSlots(&branch.then, out);
  }
}

// A call's window with its named base filled in, as DuckDB's parser does: the call may add a
// PARTITION BY, ORDER BY or frame the base lacks; OVER (w ...) may not copy a frame.
bool ResolveBase(sql::WindowSpec* spec, const std::vector<sql::NamedWindow>& named, Result* error) {
  if (spec->base.empty()) return true;
  const sql::NamedWindow* base = nullptr;
  for (const sql::NamedWindow& window : named) {
    if (ascii::EqualsIgnoreCase(window.name, spec->base)) base = &window;
  }
  if (base == nullptr) {
    *error = ErrorAt(spec->pos, "syntax", "window \"" + spec->base + "\" does not exist");
    return false;
  }
  const sql::WindowSpec& from = base->spec;
  if (!spec->partition_by.empty() && !from.partition_by.empty()) {
    *error = ErrorAt(spec->pos, "syntax", "Cannot override PARTITION BY clause of window \"" + spec->base + "\"");
    return false;
  }
  if (!spec->order_by.empty() && !from.order_by.empty()) {
    *error = ErrorAt(spec->pos, "syntax", "Cannot override ORDER BY clause of window \"" + spec->base + "\"");
    return false;
  }
  if (spec->copies_base && from.frame != sql::FrameUnit::kDefault) {
    *error = ErrorAt(spec->pos, "syntax", "cannot copy window \"" + spec->base + "\" because it has a frame clause");
    return false;
  }
  sql::WindowSpec copy = sql::Clone(from);
  if (!spec->partition_by.empty()) copy.partition_by = std::move(spec->partition_by);
  if (!spec->order_by.empty()) copy.order_by = std::move(spec->order_by);
  if (spec->frame != sql::FrameUnit::kDefault) {
    copy.frame = spec->frame;
    copy.start = std::move(spec->start);
    copy.end = std::move(spec->end);
    copy.exclude = spec->exclude;
    copy.frame_pos = spec->frame_pos;
  }
  copy.base.clear();
  copy.copies_base = false;
  copy.pos = spec->pos;
  *spec = std::move(copy);
  return true;
}

sql::ExprPtr CastExpr(sql::ExprPtr operand, TypeId type) {
  auto cast = std::make_unique<sql::Expr>();
  cast->kind = ExprKind::kCast;
  cast->pos = operand->pos;
  cast->offset = operand->offset;
  cast->text = DuckDbTypeName(type == TypeId::kLargeString ? TypeId::kString : type);
  cast->height = operand->height + 1;
  cast->operand = std::move(operand);
  return cast;
}

// Whether `name` (lower case) is an aggregate run as a window function.
bool IsWindowAggregate(const std::string& name) {
  const plan::AggregateFunctionInfo* library = plan::FindAggregateFunction(name);
  if (library != nullptr && library->fn != plan::AggFn::kNone) return true;
  WindowFn fn = WindowFn::kRowNumber;
  size_t min_args = 0, max_args = 0;
  return FindWindowFn(name, &fn, &min_args, &max_args) && fn >= WindowFn::kCountStar;
}

// The WHERE / GROUP BY / HAVING check: none may hold a window call.
bool RefuseWindowIn(const sql::Expr* expr, const char* clause, Result* error) {
  const sql::Expr* call = FindWindowCall(expr);
  if (call == nullptr) return true;
  *error = ErrorAt(call->pos, "binder", std::string(clause) + " clause cannot contain window functions!");
  return false;
}

// The texts of row_number() calls that a conjunct of QUALIFY bounds by a constant
// (row_number() OVER (...) <= n, < n, n >= ..., = 1) and the bound: rows numbered past it are
// dropped, so only the first n of each partition need numbers (WindowCall::top_rows).
void TopRowBounds(const sql::Expr* expr, std::vector<std::pair<std::string, size_t>>* out) {
  if (expr == nullptr || expr->kind != ExprKind::kBinary) return;
  if (expr->binary_op == sql::BinaryOp::kAnd) {
    TopRowBounds(expr->left.get(), out);
    TopRowBounds(expr->right.get(), out);
    return;
  }
  const sql::Expr* call = expr->left.get();
  const sql::Expr* bound = expr->right.get();
  sql::BinaryOp op = expr->binary_op;
  if (call->kind != ExprKind::kWindowCall) {
    std::swap(call, bound);
    switch (op) {  // n >= row_number() is row_number() <= n
      case sql::BinaryOp::kGreaterEquals: op = sql::BinaryOp::kLessEquals; break;
      case sql::BinaryOp::kGreater: op = sql::BinaryOp::kLess; break;
      case sql::BinaryOp::kEquals: break;
      default: return;
    }
  }
  if (call->kind != ExprKind::kWindowCall || !ascii::EqualsIgnoreCase(call->text, "row_number") ||
      bound->kind != ExprKind::kIntegerLiteral || bound->text.size() > 9 || bound->text[0] == '-') {
    return;
  }
  const size_t n = static_cast<size_t>(std::stoll(bound->text));
  size_t keep = 0;
  if (op == sql::BinaryOp::kLessEquals) keep = n;
  if (op == sql::BinaryOp::kLess) keep = n > 0 ? n - 1 : 0;
  if (op == sql::BinaryOp::kEquals && n == 1) keep = 1;
  if (keep > 0 && keep <= 4096) out->push_back({sql::ToString(*call), keep});
}

// The row_number() item of a derived table's SELECT list that the outer query's `ref` names
// (by its alias alone: two items of that name are ambiguous), or null.
const sql::Expr* RowNumberItem(const sql::SelectStatement& inner, const std::string& alias, const sql::Expr& ref) {
  if (ref.kind != ExprKind::kColumnRef || (!ref.qualifier.empty() && !ascii::EqualsIgnoreCase(ref.qualifier, alias))) {
    return nullptr;
  }
  const sql::Expr* found = nullptr;
  for (const sql::SelectItem& item : inner.select_list) {
    if (item.expr->kind == ExprKind::kStar) return nullptr;  // the name may be a FROM column
    if (!ascii::EqualsIgnoreCase(item.alias, ref.text)) continue;
    if (found != nullptr) return nullptr;
    found = item.expr.get();
  }
  if (found == nullptr || found->kind != ExprKind::kWindowCall || !ascii::EqualsIgnoreCase(found->text, "row_number")) {
    return nullptr;
  }
  return found;
}

void BoundsOnRowNumber(const sql::Expr* expr, const sql::SelectStatement& inner, const std::string& alias,
                       std::vector<sql::ExprPtr>* out) {
  if (expr == nullptr || expr->kind != ExprKind::kBinary) return;
  if (expr->binary_op == sql::BinaryOp::kAnd) {
    BoundsOnRowNumber(expr->left.get(), inner, alias, out);
    BoundsOnRowNumber(expr->right.get(), inner, alias, out);
    return;
  }
  for (const bool left : {true, false}) {
    const sql::Expr& ref = left ? *expr->left : *expr->right;
    const sql::Expr& bound = left ? *expr->right : *expr->left;
    if (bound.kind != ExprKind::kIntegerLiteral) continue;
    const sql::Expr* call = RowNumberItem(inner, alias, ref);
    if (call == nullptr) continue;
    sql::ExprPtr copy = sql::Clone(*expr);
    (left ? copy->left : copy->right) = sql::Clone(*call);
    out->push_back(std::move(copy));
  }
}

}  // namespace

bool PushRowNumberBounds(const sql::SelectStatement& select, sql::SelectStatement* out) {
  if (!select.has_from || select.from.kind != sql::TableRefKind::kSubquery || select.where == nullptr ||
      select.from.subquery == nullptr || select.from.subquery->kind != sql::QueryKind::kSelect ||
      !select.from.column_aliases.empty()) {
    return false;
  }
  const sql::SelectStatement& inner = select.from.subquery->select;
  if (inner.has_limit || inner.has_offset || inner.distinct || !inner.distinct_on.empty()) return false;
  std::vector<sql::ExprPtr> bounds;
  BoundsOnRowNumber(select.where.get(), inner, select.from.alias, &bounds);
  if (bounds.empty()) return false;
  sql::CloneInto(select, out);
  sql::SelectStatement& pushed = out->from.subquery->select;
  for (sql::ExprPtr& bound : bounds) {
    if (pushed.qualify == nullptr) {
      pushed.qualify = std::move(bound);
      continue;
    }
    auto both = std::make_unique<sql::Expr>();
    both->kind = ExprKind::kBinary;
    both->binary_op = sql::BinaryOp::kAnd;
    both->pos = bound->pos;
    both->offset = bound->offset;
    both->height = std::max(pushed.qualify->height, bound->height) + 1;
    both->left = std::move(pushed.qualify);
    both->right = std::move(bound);
    pushed.qualify = std::move(both);
  }
  // The outer WHERE stays: it names the derived table's column, which QUALIFY cannot see.
  return true;
}

bool HasWindows(const sql::SelectStatement& select) {
  if (select.qualify || !select.windows.empty()) return true;
  for (const sql::SelectItem& item : select.select_list) {
    if (FindWindowCall(item.expr.get())) return true;
  }
  for (const sql::OrderItem& item : select.order_by) {
    if (FindWindowCall(item.expr.get())) return true;
  }
  if (FindWindowCall(select.where.get()) || FindWindowCall(select.having.get())) return true;
  for (const sql::ExprPtr& key : select.group_by) {
    if (FindWindowCall(key.get())) return true;
  }
  return false;
}

Result QueryTreeRunner::RunWindows(const sql::SelectStatement& select) {
  Result error;
  if (!RefuseWindowIn(select.where.get(), "WHERE", &error) || !RefuseWindowIn(select.having.get(), "HAVING", &error)) {
    return error;
  }
  for (const sql::ExprPtr& key : select.group_by) {
    if (!RefuseWindowIn(key.get(), "GROUP BY", &error)) return error;
  }
  sql::SelectStatement query;
  sql::CloneInto(select, &query);
  if (query.group_by_all) {
    // GROUP BY ALL: the items without aggregates nor window calls (a window is over groups).
    for (const sql::SelectItem& item : query.select_list) {
      if (item.expr->kind != ExprKind::kStar && !plan::ContainsAggregate(item.expr.get()) &&
          FindWindowCall(item.expr.get()) == nullptr) {
        query.group_by.push_back(sql::Clone(*item.expr));
      }
    }
    query.group_by_all = false;
  }
  // Named windows may start from earlier ones; then every call's window is spelled out.
  for (size_t w = 0; w < query.windows.size(); ++w) {
    std::vector<sql::NamedWindow> before;
    for (size_t e = 0; e < w; ++e) before.push_back(sql::NamedWindow{query.windows[e].name, query.windows[e].pos,
                                                                     sql::Clone(query.windows[e].spec)});
    if (!ResolveBase(&query.windows[w].spec, before, &error)) return error;
  }
  std::vector<sql::ExprPtr*> slots;
  for (sql::SelectItem& item : query.select_list) {
    if (item.alias.empty() && FindWindowCall(item.expr.get())) {
      // The name it has (DuckDB names a window call by its text, the named window spelled out).
      std::vector<sql::ExprPtr*> calls;
      CollectWindowSlots(&item.expr, &calls);
      for (sql::ExprPtr* call : calls) {
        if (!ResolveBase((*call)->window.get(), query.windows, &error)) return error;
      }
      item.alias = plan::DefaultOutputName(*item.expr);
    }
    CollectWindowSlots(&item.expr, &slots);
  }
  if (query.qualify) {
    // QUALIFY may name a SELECT item by its alias (SELECT row_number() OVER (...) AS rn ...
    // QUALIFY rn <= 2), as DuckDB allows.
    sql::WalkExprs(&query.qualify, [&query](sql::ExprPtr* slot) {
      const sql::Expr& ref = **slot;
      if (ref.kind != ExprKind::kColumnRef || !ref.qualifier.empty()) return;
      for (const sql::SelectItem& item : query.select_list) {
        if (!item.alias.empty() && ascii::EqualsIgnoreCase(item.alias, ref.text) && FindWindowCall(item.expr.get())) {
          *slot = sql::Clone(*item.expr);
          return;
        }
      }
    });
    CollectWindowSlots(&query.qualify, &slots);
  }
  for (sql::OrderItem& item : query.order_by) CollectWindowSlots(&item.expr, &slots);
  if (slots.empty() && !query.qualify) {  // a WINDOW clause no call uses
    query.windows.clear();
    return RunSelect(query);
  }
  if (slots.empty()) {
    return ErrorAt(query.qualify ? query.qualify->pos : query.pos, "binder",
                   "at least one window function must appear in the SELECT column or QUALIFY clause");
  }
  for (sql::ExprPtr* slot : slots) {
    sql::Expr& call = **slot;
    if (!ResolveBase(call.window.get(), query.windows, &error)) return error;
    // Checked before equal calls are merged: sum(x RESPECT NULLS) is spelled as sum(x) is.
    if (call.null_treatment != sql::NullTreatment::kDefault && IsWindowAggregate(ascii::Lower(call.text))) {
      return ErrorAt(call.pos, "binder", "RESPECT/IGNORE NULLS is not supported for windowed aggregates");
    }
    for (const sql::ExprPtr& arg : call.args) {
      if (const sql::Expr* nested = FindWindowCall(arg.get())) {
        return ErrorAt(nested->pos, "binder", "window function calls cannot be nested");
      }
    }
    for (const sql::ExprPtr& key : call.window->partition_by) {
      if (const sql::Expr* nested = FindWindowCall(key.get())) {
        return ErrorAt(nested->pos, "binder", "window function calls cannot be nested");
      }
    }
    for (const sql::OrderItem& item : call.window->order_by) {
      if (const sql::Expr* nested = FindWindowCall(item.expr.get())) {
        return ErrorAt(nested->pos, "binder", "window function calls cannot be nested");
      }
    }
  }
  // An aggregate query: its groups first, then this over them.
  if (plan::Aggregates(query) && query.has_from) {
    sql::SelectStatement outer;
    if (!GroupFirst(query, &outer, &error)) return error;
    outer.windows.clear();  // spelled out in every call already
    Result result = RunSelect(outer);
    ctes_.pop_back();
    return result;
  }
  // The rows below the windows: FROM and WHERE as a relation, with the FROM clause's names.
  Relation rows;
  std::string plan_text;
  {
    sql::SelectStatement base;
    sql::CloneInto(query, &base);
    base.select_list.clear();
    sql::SelectItem star;
    star.expr = std::make_unique<sql::Expr>();
    star.expr->kind = ExprKind::kStar;
    star.expr->pos = query.pos;
    base.select_list.push_back(std::move(star));
    base.qualify.reset();
    base.windows.clear();
    base.order_by.clear();
    base.has_limit = base.has_offset = base.distinct = false;
    base.distinct_on.clear();
    if (!base.has_from) {
      // SELECT row_number() OVER (): over one row without columns.
      base.select_list[0].expr = MakeColumnRef("", "1", query.pos);
      base.select_list[0].expr->kind = ExprKind::kIntegerLiteral;
      Result one = RunSelect(base);
      std::string message;
      if (!one.ok()) return one;
      if (!RelationFromResult(std::move(one), "__win", &rows, &message)) return Result::Error(message);
      for (plan::ScopeColumn& column : rows.scope) column.hidden = true;
    } else if (base.where == nullptr && base.from.kind == sql::TableRefKind::kNamed && !explaining_) {
      // FROM one table and nothing else: its columns as they are, not a copy of every row.
      if (!MakeFrom(base.from, &rows, &error)) return error;
    } else {
      SelectPlan base_plan;
      if (!PlanSelect(base, &base_plan, &error)) return error;
      plan::LogicalOperator* lowest = base_plan.root.get();
      while (!lowest->children.empty() && lowest->children[0]->select_clause) lowest = lowest->children[0].get();
      if (lowest->children.empty() || !ExecuteLogical(lowest->children[0].get(), explain_analyze_, &rows, &error)) {
        return error;
      }
      if (explaining_) plan_text = plan::ExplainText(*lowest->children[0]);
    }
  }
  std::vector<std::pair<std::string, size_t>> top_rows;
  TopRowBounds(query.qualify.get(), &top_rows);
  // Each distinct window call into a hidden column __win.__wN.
  std::vector<std::string> texts;
  std::string window_list;
  for (sql::ExprPtr* slot : slots) {
    const std::string text = sql::ToString(**slot);
    size_t index = 0;
    while (index < texts.size() && texts[index] != text) ++index;
    if (index == texts.size()) {
      texts.push_back(text);
      window_list += (index > 0 ? ", " : "") + text;
      size_t keep = 0;
      for (const auto& [call_text, bound] : top_rows) {
        if (call_text == text && (keep == 0 || bound < keep)) keep = bound;
      }
      Column column;
      if (!EvaluateWindowCall(rows, **slot, keep, &column, &error)) return error;
      std::string message;
      if (!AddRelationColumn(&rows, std::move(column), plan::ScopeColumn{"__win", "__w" + std::to_string(index), true},
                             &message)) {
        return Result::Error(message);
      }
    }
    *slot = MakeColumnRef("__win", "__w" + std::to_string(index), (*slot)->pos);
  }
  // The rest over the relation: QUALIFY is its WHERE.
  sql::SelectStatement outer;
  sql::CloneInto(query, &outer);
  outer.where = std::move(outer.qualify);
  outer.qualify.reset();
  outer.windows.clear();
  outer.group_by.clear();
  outer.having.reset();
  outer.from = sql::TableRef();
  outer.from.kind = sql::TableRefKind::kNamed;
  outer.from.name = "__win_rows";
  outer.from.pos = query.from.pos;
  outer.has_from = true;
  if (explaining_) {
    std::string indented;
    size_t at = 0;
    while (at < plan_text.size()) {
      const size_t end = plan_text.find('\n', at);
      indented += "  " + plan_text.substr(at, end == std::string::npos ? std::string::npos : end - at + 1);
      if (end == std::string::npos) break;
      at = end + 1;
    }
    plan_text = "WINDOW " + window_list + "\n" + indented;
  }
  ctes_.push_back(CteEntry{"__win_rows", std::move(rows), std::move(plan_text), /*keep_qualifiers=*/true});
  Result result = RunSelect(outer);
  ctes_.pop_back();
  return result;
}

bool QueryTreeRunner::LibraryWindowCall(const Relation& rows, const sql::Expr& call,
                                        const plan::AggregateFunctionInfo& info, WindowCall* spec,
                                        plan::Aggregate* aggregate, Result* cast_args, bool* always_null,
                                        Result* error) {
  using plan::AggFn;
  const std::string name = info.name;
  const bool two = spec->args.size() > 1;
  const bool keeps_second = two && ((info.fn >= AggFn::kStddevSamp && info.fn <= AggFn::kRegrCount) ||
                                    info.fn == AggFn::kArgMin || info.fn == AggFn::kArgMax);
  plan::AggregateTyping typing;
  std::string message;
  int error_arg = 0;
  if (!plan::TypeAggregateFunction(info.fn, name, spec->args[0]->type(), keeps_second,
                                   two ? spec->args[1]->type() : TypeId::kInt64, false, false, &typing, &message,
                                   &error_arg)) {
    *error = ErrorAt(call.args[static_cast<size_t>(error_arg)]->pos, "type", message);
    return false;
  }
  // The arguments the aggregate reads, cast where it takes another type.
  std::vector<sql::ExprPtr> casts;
  std::vector<const sql::Expr*> exprs;
  for (size_t a = 0; a < (keeps_second ? 2u : 1u); ++a) {
    const TypeId want = a == 0 ? typing.arg : typing.arg2;
    casts.push_back(spec->args[a]->type() == want ? sql::Clone(*call.args[a]) : CastExpr(sql::Clone(*call.args[a]), want));
    exprs.push_back(casts.back().get());
  }
  if (!Evaluate(rows, exprs, cast_args)) {
    *error = std::move(*cast_args);
    return false;
  }
  spec->args.clear();
  for (size_t a = 0; a < exprs.size(); ++a) spec->args.push_back(&cast_args->column(a));
  aggregate->kind = plan::AggKind::kFunction;
  aggregate->function = typing.fn;
  aggregate->type = spec->result_type = typing.result;
  aggregate->arg = plan::MakeColumn(0, typing.arg, true, call.pos);
  if (keeps_second) aggregate->arg2 = plan::MakeColumn(1, typing.arg2, true, call.pos);
  if (typing.fn == AggFn::kStringAgg) aggregate->separator = ",";
  if (two && !keeps_second && rows.table->num_rows() > 0) {
    // A fraction or a separator: a constant, so its first row stands for all.
    const bool separator = typing.fn == AggFn::kStringAgg;
    const sql::ExprPtr cast = CastExpr(sql::Clone(*call.args[1]), separator ? TypeId::kString : TypeId::kFloat64);
    Result parameter;
    if (!Evaluate(rows, {cast.get()}, &parameter)) {
      *error = std::move(parameter);
      return false;
    }
    const Column& value = parameter.column(0);
    if (separator) {
      *always_null = !value.IsValid(0);
      if (!*always_null) aggregate->separator = std::string(value.StringAt(0));
    } else {
      const double q = value.IsValid(0) ? value.Values<double>()[0] : 2.0;
      if (!(q >= -1 && q <= 1)) {
        *error = ErrorAt(call.args[1]->pos, "binder", "QUANTILE can only take parameters in the range [-1, 1]");
        return false;
      }
      aggregate->fraction = q;
    }
  }
  spec->library = aggregate;
  return true;
}

bool QueryTreeRunner::EvaluateWindowCall(const Relation& rows, const sql::Expr& call, size_t top_rows, Column* out,
                                         Result* error) {
  const sql::WindowSpec& window = *call.window;
  const std::string name = ascii::Lower(call.text);
  WindowCall spec;
  size_t min_args = 0, max_args = 0;
  const plan::AggregateFunctionInfo* library = plan::FindAggregateFunction(name);
  if (library != nullptr && library->fn != plan::AggFn::kNone) {
    spec.fn = WindowFn::kLibrary;
    min_args = static_cast<size_t>(library->min_args);
    max_args = static_cast<size_t>(library->max_args);
  } else if (!FindWindowFn(name, &spec.fn, &min_args, &max_args)) {
    sql::Expr probe;  // another aggregate (string_agg, ...) or no aggregate at all
    probe.kind = ExprKind::kFunctionCall;
    probe.text = name;
    *error = plan::IsAggregateCall(probe)
                 ? ErrorAt(call.pos, "not implemented", name + "() is not supported as a window function")
                 : ErrorAt(call.pos, "catalog", name + " is not an aggregate function");
    return false;
  }
  const bool aggregate_fn = spec.fn >= WindowFn::kCountStar;
  // agg(x ORDER BY k) OVER (...): the keys are the last order_by_args arguments. They decide
  // the answer of the aggregates that depend on the order of their rows (string_agg, first,
  // ...); the others ignore them, as DuckDB does.
  const size_t order_args = static_cast<size_t>(call.order_by_args);
  const size_t value_args = call.args.size() - order_args;
  if (order_args != 0 && !aggregate_fn) {
    *error = ErrorAt(call.pos, "not implemented", "ORDER BY inside the call is only supported for aggregates, not " + name + "()");
    return false;
  }
  const bool feeds_in_order = spec.fn == WindowFn::kLibrary && plan::OrderedByCallKeys(library->fn);
  if (order_args != 0 && feeds_in_order && call.distinct) {
    *error = ErrorAt(call.pos, "binder", name + " with both DISTINCT and ORDER BY is not supported");
    return false;
  }
  if (call.distinct && !aggregate_fn) {
    *error = ErrorAt(call.pos, "binder", "DISTINCT is not implemented for the window function \"" + name + "\"");
    return false;
  }
  if (call.null_treatment != sql::NullTreatment::kDefault && aggregate_fn) {
    *error = ErrorAt(call.pos, "binder", "RESPECT/IGNORE NULLS is not supported for windowed aggregates");
    return false;
  }
  // IGNORE NULLS changes the value functions alone; the ranking functions and ntile take it
  // and ignore it, as DuckDB does.
  spec.ignore_nulls = call.null_treatment == sql::NullTreatment::kIgnore;
  // min, max, bool_and and bool_or give the same over the distinct values.
  spec.distinct = call.distinct && spec.fn != WindowFn::kMin && spec.fn != WindowFn::kMax &&
                  spec.fn != WindowFn::kBoolAnd && spec.fn != WindowFn::kBoolOr;
  if (spec.fn == WindowFn::kCount && (call.star_argument || call.args.empty())) spec.fn = WindowFn::kCountStar;
  // The inputs, evaluated over the rows: arguments, partition keys, order keys, frame offsets.
  std::vector<const sql::Expr*> exprs;
  for (const sql::ExprPtr& arg : call.args) exprs.push_back(arg.get());
  for (const sql::ExprPtr& key : window.partition_by) exprs.push_back(key.get());
  for (const sql::OrderItem& item : window.order_by) exprs.push_back(item.expr.get());
  const bool offsets[2] = {window.start.offset != nullptr, window.end.offset != nullptr};
  // ROWS and GROUPS count rows and peer groups: their offsets are BIGINTs.
  const bool rows_frame = window.frame == sql::FrameUnit::kRows || window.frame == sql::FrameUnit::kGroups;
  std::vector<sql::ExprPtr> offset_exprs;
  for (const sql::FrameBound* bound : {&window.start, &window.end}) {
    if (bound->offset == nullptr) continue;
    // RANGE offsets keep their type.
    offset_exprs.push_back(rows_frame ? CastExpr(sql::Clone(*bound->offset), TypeId::kInt64)
                                      : sql::Clone(*bound->offset));
    exprs.push_back(offset_exprs.back().get());
  }
  Result inputs;
  if (!exprs.empty() && !Evaluate(rows, exprs, &inputs)) {
    *error = std::move(inputs);
    return false;
  }
  const size_t n = rows.table->num_rows();
  size_t at = 0;
  std::string types;
  for (size_t a = 0; a < value_args; ++a, ++at) {
    spec.args.push_back(&inputs.column(at));
    types += (a > 0 ? ", " : "") + std::string(DuckDbTypeName(inputs.column(at).type()));
  }
  for (size_t k = 0; k < order_args; ++k, ++at) {
    if (!feeds_in_order) continue;
    spec.arg_order.push_back(&inputs.column(at));
    spec.arg_descending.push_back(call.order_descending[k]);
    spec.arg_nulls_first.push_back(call.order_nulls[k] == static_cast<uint8_t>(sql::NullsOrder::kFirst));
  }
  const bool star = spec.fn == WindowFn::kCountStar;
  if (!star && (value_args < min_args || value_args > max_args)) {
    *error = ErrorAt(call.pos, "binder", "No function matches the given name and argument types '" + name + "(" +
                                             types + ")'. You might need to add explicit type casts.");
    return false;
  }
  for (size_t k = 0; k < window.partition_by.size(); ++k, ++at) spec.partition.push_back(&inputs.column(at));
  for (const sql::OrderItem& item : window.order_by) {
    spec.order.push_back(&inputs.column(at++));
    spec.descending.push_back(item.descending);
    spec.nulls_first.push_back(item.nulls == sql::NullsOrder::kFirst);
  }
  if (offsets[0]) spec.start_offset = &inputs.column(at++);
  if (offsets[1]) spec.end_offset = &inputs.column(at++);
  // The frame: none written is RANGE UNBOUNDED PRECEDING to CURRENT ROW.
  if (window.frame != sql::FrameUnit::kDefault) {
    spec.unit = window.frame;
    spec.start = window.start.kind;
    spec.end = window.end.kind;
    spec.exclude = window.exclude;
  }
  if (spec.unit == sql::FrameUnit::kRange && (offsets[0] || offsets[1])) {
    if (window.order_by.size() != 1) {
      *error = ErrorAt(call.pos, "binder", "RANGE frames must have only one ORDER BY expression");
      return false;
    }
    const TypeId key = spec.order[0]->type();
    const TypeId offset = (spec.start_offset != nullptr ? spec.start_offset : spec.end_offset)->type();
    const auto numeric = [](TypeId t) { return IsInteger(t) || IsFloat(t) || IsDecimal(t); };
    if (!(numeric(key) || key == TypeId::kDate32) || !numeric(offset) ||
        (key == TypeId::kDate32 && !IsInteger(offset))) {
      *error = ErrorAt(window.frame_pos, "binder",
                       std::string("RANGE with an offset needs a numeric or DATE ORDER BY key and a number offset, not ") +
                           DuckDbTypeName(key) + " and " + DuckDbTypeName(offset));
      return false;
    }
  }
  const TypeId arg_type = spec.args.empty() ? TypeId::kInt64 : spec.args[0]->type();
  std::string message;
  plan::Aggregate aggregate;
  Result cast_args;
  // avg of INTERVAL / TIMESTAMP / TIME values: the library aggregate the binder gives it too.
  static const plan::AggregateFunctionInfo kAvgTemporal = {"avg", plan::AggFn::kAvgTemporal, 1, 1, "avg(x)", ""};
  if (spec.fn == WindowFn::kAvg && plan::AveragesAsTemporal(arg_type)) {
    spec.fn = WindowFn::kLibrary;
    library = &kAvgTemporal;
  }
  if (spec.fn == WindowFn::kLibrary) {
    bool always_null = false;
    if (!LibraryWindowCall(rows, call, *library, &spec, &aggregate, &cast_args, &always_null, error)) return false;
    if (always_null) {  // string_agg with a NULL separator
      if (NullColumn(TypeId::kString, n, out, &message)) return true;
      *error = Result::Error(message);
      return false;
    }
  } else if (!WindowResultType(spec.fn, name, arg_type, &spec.result_type, &message)) {
    *error = ErrorAt(call.pos, "binder", message);
    return false;
  }
  // lag / lead's default in the value's type.
  Result default_value;
  if ((spec.fn == WindowFn::kLag || spec.fn == WindowFn::kLead) && call.args.size() == 3) {
    const sql::ExprPtr cast = CastExpr(sql::Clone(*call.args[2]), arg_type);
    if (!Evaluate(rows, {cast.get()}, &default_value)) {
      *error = std::move(default_value);
      return false;
    }
    spec.args[2] = &default_value.column(0);
  }
  spec.top_rows = top_rows;
  if (!ComputeWindow(spec, n, ctx_, out, &message)) {
    *error = ctx_.Interrupted() ? Result::Error(message) : ErrorAt(call.pos, "invalid input", message);
    return false;
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
