// Deep copies of syntax trees: the query runner rewrites copies (a subquery's answer put in as
// a literal, GROUP BY ALL spelled out) and never the statement it was given.
#include "src/sql/ast_clone.h"

#include <utility>

namespace laneql {
namespace sql {
namespace {

std::vector<ExprPtr> CloneList(const std::vector<ExprPtr>& list) {
  std::vector<ExprPtr> out;
  out.reserve(list.size());
  for (const ExprPtr& e : list) out.push_back(e ? Clone(*e) : nullptr);
  return out;
}

std::vector<std::vector<ExprPtr>> CloneRows(const std::vector<std::vector<ExprPtr>>& rows) {
  std::vector<std::vector<ExprPtr>> out;
  out.reserve(rows.size());
  for (const auto& row : rows) out.push_back(CloneList(row));
  return out;
}

std::vector<OrderItem> CloneOrder(const std::vector<OrderItem>& order) {
  std::vector<OrderItem> out;
  for (const OrderItem& item : order) {
    OrderItem copy;
    copy.expr = item.expr ? Clone(*item.expr) : nullptr;
    copy.descending = item.descending;
    copy.nulls = item.nulls;
    out.push_back(std::move(copy));
  }
  return out;
}

FrameBound CloneBound(const FrameBound& bound) {
  FrameBound out;
  out.kind = bound.kind;
  out.offset = bound.offset ? Clone(*bound.offset) : nullptr;
  out.pos = bound.pos;
  return out;
}

}  // namespace

WindowSpec Clone(const WindowSpec& spec) {
  WindowSpec out;
  out.base = spec.base;
  out.copies_base = spec.copies_base;
  out.pos = spec.pos;
  out.partition_by = CloneList(spec.partition_by);
  out.order_by = CloneOrder(spec.order_by);
  out.frame = spec.frame;
  out.start = CloneBound(spec.start);
  out.end = CloneBound(spec.end);
  out.exclude = spec.exclude;
  out.frame_pos = spec.frame_pos;
  return out;
}

ExprPtr Clone(const Expr& expr) {
  auto out = std::make_unique<Expr>();
  out->kind = expr.kind;
  out->pos = expr.pos;
  out->offset = expr.offset;
  out->text = expr.text;
  out->qualifier = expr.qualifier;
  out->unary_op = expr.unary_op;
  out->binary_op = expr.binary_op;
  out->bool_value = expr.bool_value;
  out->negated = expr.negated;
  out->filtered = expr.filtered;
  out->null_treatment = expr.null_treatment;
  out->order_by_args = expr.order_by_args;
  out->order_descending = expr.order_descending;
  out->order_nulls = expr.order_nulls;
  out->try_cast = expr.try_cast;
  out->case_insensitive = expr.case_insensitive;
  out->distinct = expr.distinct;
  out->star_argument = expr.star_argument;
  out->quantifier_all = expr.quantifier_all;
  out->height = expr.height;
  if (expr.operand) out->operand = Clone(*expr.operand);
  if (expr.left) out->left = Clone(*expr.left);
  if (expr.right) out->right = Clone(*expr.right);
  out->args = CloneList(expr.args);
  for (const CaseBranch& branch : expr.branches) {
    out->branches.push_back(CaseBranch{Clone(*branch.when), Clone(*branch.then)});
  }
  if (expr.else_result) out->else_result = Clone(*expr.else_result);
  out->star_exclude = expr.star_exclude;
  if (expr.subquery) out->subquery = Clone(*expr.subquery);
  if (expr.window) out->window = std::make_unique<WindowSpec>(Clone(*expr.window));
  return out;
}

TableRefPtr Clone(const TableRef& ref) {
  auto out = std::make_unique<TableRef>();
  out->kind = ref.kind;
  out->name = ref.name;
  out->path = ref.path;
  out->function = ref.function;
  for (const TableOption& option : ref.options) {
    TableOption copy;
    copy.name = option.name;
    copy.value = option.value ? Clone(*option.value) : nullptr;
    copy.pos = option.pos;
    out->options.push_back(std::move(copy));
  }
  out->alias = ref.alias;
  out->column_aliases = ref.column_aliases;
  out->pos = ref.pos;
  if (ref.subquery) out->subquery = Clone(*ref.subquery);
  out->values = CloneRows(ref.values);
  out->join_type = ref.join_type;
  out->comma_join = ref.comma_join;
  out->natural = ref.natural;
  out->lateral = ref.lateral;
  if (ref.left) out->left = Clone(*ref.left);
  if (ref.right) out->right = Clone(*ref.right);
  if (ref.on) out->on = Clone(*ref.on);
  out->using_columns = ref.using_columns;
  return out;
}

void CloneInto(const SelectStatement& in, SelectStatement* out) {
  out->pos = in.pos;
  out->distinct = in.distinct;
  out->select_list.clear();
  for (const SelectItem& item : in.select_list) {
    SelectItem copy;
    copy.expr = Clone(*item.expr);
    copy.alias = item.alias;
    copy.alias_pos = item.alias_pos;
    out->select_list.push_back(std::move(copy));
  }
  out->distinct_on = CloneList(in.distinct_on);
  out->has_from = in.has_from;
  out->from = std::move(*Clone(in.from));
  out->where = in.where ? Clone(*in.where) : nullptr;
  out->group_by = CloneList(in.group_by);
  out->group_by_all = in.group_by_all;
  out->having = in.having ? Clone(*in.having) : nullptr;
  out->windows.clear();
  for (const NamedWindow& window : in.windows) out->windows.push_back(NamedWindow{window.name, window.pos, Clone(window.spec)});
  out->qualify = in.qualify ? Clone(*in.qualify) : nullptr;
  out->order_by = CloneOrder(in.order_by);
  out->order_by_all = in.order_by_all;
  out->has_limit = in.has_limit;
  out->limit = in.limit;
  out->limit_pos = in.limit_pos;
  out->has_offset = in.has_offset;
  out->offset = in.offset;
  out->offset_pos = in.offset_pos;
}

QueryPtr Clone(const QueryNode& query) {
  auto out = std::make_unique<QueryNode>();
  out->kind = query.kind;
  out->pos = query.pos;
  out->recursive = query.recursive;
  for (const CommonTableExpr& cte : query.ctes) {
    CommonTableExpr copy;
    copy.name = cte.name;
    copy.pos = cte.pos;
    copy.columns = cte.columns;
    copy.query = Clone(*cte.query);
    out->ctes.push_back(std::move(copy));
  }
  CloneInto(query.select, &out->select);
  out->set_op = query.set_op;
  out->all = query.all;
  if (query.left) out->left = Clone(*query.left);
  if (query.right) out->right = Clone(*query.right);
  out->values = CloneRows(query.values);
  out->order_by = CloneOrder(query.order_by);
  out->order_by_all = query.order_by_all;
  out->has_limit = query.has_limit;
  out->limit = query.limit;
  out->limit_pos = query.limit_pos;
  out->has_offset = query.has_offset;
  out->offset = query.offset;
  out->offset_pos = query.offset_pos;
  return out;
}

}  // namespace sql
}  // namespace laneql
