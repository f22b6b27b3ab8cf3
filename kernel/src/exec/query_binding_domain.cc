// Correlated subqueries that the joins do not unnest and that are not tied to the outer query by
// equalities of their WHERE alone (a non-equality, a read in the SELECT list, HAVING or ORDER BY)
// while having a shape of their own (GROUP BY, DISTINCT, ORDER BY ... LIMIT, a scalar aggregate):
//   (SELECT y FROM i WHERE i.y < o.x GROUP BY y ORDER BY count(*) DESC LIMIT 1)
// run once for every binding together. The distinct values of the outer columns they read, the
// domain D with a binding number, join their FROM; every outer reference becomes a reference to
// D's column, and the binding number joins the SELECT list (and the GROUP BY, with D's columns;
// a LIMIT is cut per binding):
//   SELECT y, d.bid FROM d, i WHERE i.y < d.x GROUP BY y, d.bid, d.x ...
// That is the dependent join over the domain pushed into the subquery (Neumann and Kemper); its
// rows join back to the outer rows by binding number. The names the subquery reads from the
// outer query are found as query_apply_bindings.cc finds them, by running it once. Where its
// WITH, derived tables or set operations read the outer query, D is pushed into them too
// (query_domain_push.cc).
#include <string>
#include <utility>
#include <vector>

#include "src/common/ascii.h"
#include "src/exec/decorrelate.h"
#include "src/exec/outer_refs.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"
#include "src/sql/ast_walk.h"

namespace laneql {
namespace exec {
namespace {

// Whether no outer reference is in the clauses above the FROM and WHERE (the SELECT list,
// GROUP BY, HAVING, QUALIFY, ORDER BY): then an ungrouped aggregate's answer over no rows (its
// items over an empty input) is the same for every binding.
bool OnlyWhereOrFromReads(const sql::QueryNode& query, const std::vector<OuterRef>& refs) {
  sql::QueryPtr copy = sql::Clone(query);
  sql::SelectStatement& s = copy->select;
  size_t found = 0;
  auto count = [&](sql::ExprPtr* slot) {
    for (const OuterRef& r : refs) found += SamePos(r.pos, (*slot)->pos) && (*slot)->kind == sql::ExprKind::kColumnRef;
  };
  for (sql::SelectItem& item : s.select_list) sql::WalkExprs(&item.expr, count);
  for (sql::ExprPtr& key : s.group_by) sql::WalkExprs(&key, count);
  for (sql::ExprPtr& key : s.distinct_on) sql::WalkExprs(&key, count);
  for (sql::OrderItem& item : s.order_by) {
    if (item.expr) sql::WalkExprs(&item.expr, count);
  }
  if (s.having) sql::WalkExprs(&s.having, count);
  if (s.qualify) sql::WalkExprs(&s.qualify, count);
  return found == 0;
}

// The bindings of [0, bindings) without a row in `rows` (the items' values, then the binding
// number).
std::vector<int64_t> MissingBindings(const Relation& rows, size_t bindings) {
  const Column& bid = rows.table->column(rows.table->num_columns() - 1);
  std::vector<uint8_t> seen(bindings, 0);
  for (size_t r = 0; r < bid.length(); ++r) seen[static_cast<size_t>(bid.Values<int64_t>()[r])] = 1;
  std::vector<int64_t> missing;
  for (size_t b = 0; b < bindings; ++b) {
    if (!seen[b]) missing.push_back(static_cast<int64_t>(b));
  }
  return missing;
}

// `rows` with the row of `none` (the answer over no rows, of `rows`' types) for each of the
// `missing` bindings.
bool AddEmptyBindings(Relation* rows, const std::vector<int64_t>& missing, const Table& none, std::string* error) {
  if (none.num_rows() == 0) return true;
  const size_t width = rows->table->num_columns() - 1;
  const Column& bid = rows->table->column(width);
  auto table = std::make_shared<Table>();
  const std::vector<uint32_t> first(missing.size(), 0);
  for (size_t c = 0; c < width; ++c) {
    Column all, added;
    if (!CopyColumn(rows->table->column(c), &all, error) || !TakeRows(none.column(c), first, &added, error) ||
        !AppendColumn(added, &all, error) ||
        !table->AddColumn(RelationColumnName(c), std::move(all), error)) {
      return false;
    }
  }
  Column number, more;
  if (!CopyColumn(bid, &number, error) ||
      !Column::FromFixed(TypeId::kInt64, missing.data(), missing.size(), nullptr, &more, error) ||
      !AppendColumn(more, &number, error) || !table->AddColumn(RelationColumnName(width), std::move(number), error)) {
    return false;
  }
  rows->table = std::move(table);
  return true;
}

}  // namespace

bool QueryTreeRunner::RunOverDomain(const sql::QueryNode& query, const Relation& outer,
                                    DomainRows* out, Result* error) {
  out->made = false;
  const sql::SelectStatement& select = query.select;
  // GROUP BY ALL groups by the items without aggregates: none makes it no GROUP BY.
  bool grouped = !select.group_by.empty();
  if (select.group_by_all) {
    for (const sql::SelectItem& item : select.select_list) {
      grouped |= item.expr->kind != sql::ExprKind::kStar && !ContainsAggregate(item.expr.get());
    }
  }
  // A set operation: each branch gets D (query_domain_push.cc), its ORDER BY / LIMIT per
  // binding is left to the per-binding path.
  const bool set_operation = query.kind == sql::QueryKind::kSetOperation;
  if (outer.table->num_rows() == 0) return true;
  if (set_operation ? !query.order_by.empty() || query.order_by_all || query.has_limit || query.has_offset
                    : query.kind != sql::QueryKind::kSelect || !select.distinct_on.empty() || select.order_by_all ||
                          !OrderPositionsValid(select)) {
    return true;
  }
  // An aggregate without GROUP BY answers one row even for a binding without rows: the rows of
  // such bindings are added after the run, its answer over no rows, when that is the same for
  // every binding (the outer query read nowhere above its FROM and WHERE).
  const bool ungrouped_aggregate = !set_operation && !grouped && plan::Aggregates(select);
  // (HAVING would drop a binding's group, which then looks like a binding without rows.)
  if (ungrouped_aggregate && (select.has_limit || select.has_offset || select.having)) return true;
  // The outer columns it reads: each run (bound over no rows) failing on one adds it.
  sql::QueryPtr original = sql::Clone(query);
  std::vector<OuterRef> refs;
  for (;;) {
    Result run = RunDry(*Substituted(query, refs, *outer.table, 0));
    if (run.ok()) break;
    sql::SourcePos pos;
    sql::Expr ref;
    if (!LooksCorrelated(run) || !LastPosition(run.error(), &pos) || !ColumnRefAt(original.get(), pos, &ref)) {
      return true;  // the per-binding path reports what is wrong
    }
    const int column = LookupScopeColumn(ref, outer.scope);
    bool known = false;
    for (const OuterRef& r : refs) known = known || SamePos(r.pos, pos);
    if (column < 0 || known) return true;
    refs.push_back(OuterRef{pos, static_cast<size_t>(column)});
  }
  if (refs.empty() || (ungrouped_aggregate && !OnlyWhereOrFromReads(*original, refs))) return true;
  std::vector<size_t> columns;
  for (const OuterRef& r : refs) {
    bool seen = false;
    for (size_t c : columns) seen = seen || c == r.column;
    if (!seen) columns.push_back(r.column);
  }
  std::vector<uint32_t> binding, representative;
  std::string message;
  if (!NumberBindings(outer, columns, ctx_, &binding, &representative, &message)) {
    *error = Result::Error(message);
    return false;
  }
  // D: the outer columns at each binding's first row, and the binding number.
  const std::string domain = "__d" + std::to_string(++derived_count_);
  Relation d;
  std::vector<std::string> names;
  auto table = std::make_shared<Table>();
  for (size_t i = 0; i < columns.size(); ++i) {
    Column column;
    names.push_back("__b" + std::to_string(i));
    if (!TakeRows(outer.table->column(columns[i]), representative, &column, &message) ||
        !table->AddColumn(RelationColumnName(i), std::move(column), &message)) {
      *error = Result::Error(message);
      return false;
    }
    d.scope.push_back(plan::ScopeColumn{domain, names.back(), true});
  }
  std::vector<int64_t> numbers(representative.size());
  for (size_t b = 0; b < numbers.size(); ++b) numbers[b] = static_cast<int64_t>(b);
  Column bid;
  if (!Column::FromFixed(TypeId::kInt64, numbers.data(), numbers.size(), nullptr, &bid, &message) ||
      !table->AddColumn(RelationColumnName(columns.size()), std::move(bid), &message)) {
    *error = Result::Error(message);
    return false;
  }
  d.scope.push_back(plan::ScopeColumn{domain, "__bid", true});
  d.table = std::move(table);
  // The subquery over D and its own FROM: its WITH made derived tables, and D pushed into
  // those that read it (query_domain_push.cc).
  sql::QueryPtr over = ReferringTo(query, refs, columns, domain, names);
  std::vector<sql::ExprPtr> order_exprs;
  bool limited = false;
  if (set_operation) {
    if (!PushDomainInto(over.get(), domain, names)) return true;
  } else {
    sql::SelectStatement& s = over->select;
    limited = s.has_limit || s.has_offset;
    if (limited) {
      sql::SelectStatement unlimited = WithoutLimit(s, &order_exprs);
      s = std::move(unlimited);
    }
    if (!InlineCtes(over.get())) return true;
    ExpandAllClauses(&s);
    if (!JoinDomainIntoFrom(&s, domain, names, s.has_from ? s.from.pos : query.pos)) return true;
    sql::SelectItem bid_item;
    bid_item.expr = MakeColumnRef(domain, "__bid", query.pos);
    bid_item.alias = "__bid";
    s.select_list.push_back(std::move(bid_item));
    if (grouped || ungrouped_aggregate) GroupByDomain(&s, domain, names, query.pos);
  }
  cte_marks_.push_back(ctes_.size());
  ctes_.push_back(CteEntry{domain, d, "", true});
  Result answer = Run(*over);
  PopCtes();
  if (!answer.ok()) {
    if (UnnestingUnsupported(answer)) return true;  // read where D does not reach: per binding
    *error = std::move(answer);
    return false;
  }
  const std::string rows_qualifier = "__r" + std::to_string(derived_count_);
  if (!RelationFromResult(std::move(answer), rows_qualifier, &out->rows, &message)) {
    *error = Result::Error(message);
    return false;
  }
  // The SELECT's own columns: all but the binding number and the ORDER BY keys of a LIMIT.
  const size_t visible = out->rows.scope.size() - 1 - order_exprs.size();
  out->names.clear();
  for (size_t c = 0; c < out->rows.scope.size(); ++c) {
    if (c < visible) out->names.push_back(out->rows.scope[c].name);
    out->rows.scope[c] = plan::ScopeColumn{rows_qualifier, "__c" + std::to_string(c), true};
  }
  const size_t bid_column = out->rows.scope.size() - 1;
  const sql::SourcePos pos = query.pos;
  if (limited) {
    sql::ExprPtr key = MakeColumnRef(rows_qualifier, out->rows.scope[bid_column].name, pos);
    std::vector<sql::ExprPtr> order_refs;
    for (size_t o = 0; o < order_exprs.size(); ++o) {
      order_refs.push_back(MakeColumnRef(rows_qualifier, out->rows.scope[visible + o].name, pos));
    }
    if (!KeepFirstRowsPerKey(&out->rows, {key.get()}, order_refs, select, error)) return false;
  }
  const std::vector<int64_t> missing =
      ungrouped_aggregate ? MissingBindings(out->rows, representative.size()) : std::vector<int64_t>();
  if (!missing.empty()) {
    // The answer over no rows: the subquery with its WHERE false (the outer values of any
    // binding in it, read nowhere else).
    sql::QueryPtr empty = Substituted(query, refs, *outer.table, 0);
    empty->select.where = std::make_unique<sql::Expr>();
    empty->select.where->kind = sql::ExprKind::kBooleanLiteral;
    empty->select.where->bool_value = false;
    empty->select.where->pos = query.pos;
    Result none = Run(*empty);
    if (!none.ok()) return true;  // the per-binding path reports what is wrong
    Relation filler;
    std::vector<TypeId> types;
    for (size_t c = 0; c + 1 < out->rows.table->num_columns(); ++c) types.push_back(out->rows.table->column(c).type());
    if (none.num_columns() != types.size()) {
      *error = Result::Error("internal error: a subquery's answer over no rows has other columns");
      return false;
    }
    if (!RelationFromResult(std::move(none), "", &filler, &message)) {
      *error = Result::Error(message);
      return false;
    }
    if (!CastColumns(&filler, types, error, query.pos)) return false;
    if (!AddEmptyBindings(&out->rows, missing, *filler.table, &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  // The outer rows with their binding numbers.
  out->outer = outer;
  Column numbered;
  std::vector<int64_t> per_row(binding.begin(), binding.end());
  const std::string outer_qualifier = "__o" + std::to_string(derived_count_);
  if (!Column::FromFixed(TypeId::kInt64, per_row.data(), per_row.size(), nullptr, &numbered, &message) ||
      !AddRelationColumn(&out->outer, std::move(numbered), plan::ScopeColumn{outer_qualifier, "__bid", true}, &message)) {
    *error = Result::Error(message);
    return false;
  }
  out->conditions.clear();
  out->conditions.push_back(MakeBinary(sql::BinaryOp::kEquals, MakeColumnRef(outer_qualifier, "__bid", pos),
                                       MakeColumnRef(rows_qualifier, out->rows.scope[bid_column].name, pos)));
  out->value = visible == 1 ? MakeColumnRef(rows_qualifier, out->rows.scope[0].name, pos) : nullptr;
  out->bindings = representative.size();
  out->made = true;
  return true;
}

}  // namespace exec
}  // namespace laneql
