#include "src/exec/outer_refs.h"

#include <cstdio>
#include <string_view>

#include "src/common/ascii.h"
#include "src/exec/decorrelate.h"
#include "src/exec/window_partitions.h"
#include "src/plan/query_ast.h"
#include "src/sql/ast_clone.h"
#include "src/sql/ast_walk.h"

namespace laneql {
namespace exec {

bool LastPosition(const std::string& message, sql::SourcePos* pos) {
  const std::string key = "at line ";
  const size_t at = message.rfind(key);
  if (at == std::string::npos) return false;
  int line = 0, column = 0;
  if (std::sscanf(message.c_str() + at + key.size(), "%d, column %d", &line, &column) != 2) return false;
  pos->line = line;
  pos->column = column;
  return true;
}

bool SamePos(const sql::SourcePos& a, const sql::SourcePos& b) { return a.line == b.line && a.column == b.column; }

sql::QueryPtr Substituted(const sql::QueryNode& query, const std::vector<OuterRef>& refs, const Table& values,
                          size_t row) {
  sql::QueryPtr copy = sql::Clone(query);
  sql::WalkExprs(copy.get(), [&](sql::ExprPtr* slot) {
    if ((*slot)->kind != sql::ExprKind::kColumnRef) return;
    for (const OuterRef& ref : refs) {
      if (SamePos((*slot)->pos, ref.pos)) {
        *slot = LiteralOf(values.column(ref.column), row, **slot);
        return;
      }
    }
  });
  return copy;
}

bool ColumnRefAt(sql::QueryNode* query, sql::SourcePos pos, sql::Expr* out) {
  bool found = false;
  sql::WalkExprs(query, [&](sql::ExprPtr* slot) {  // reads only
    if (!found && (*slot)->kind == sql::ExprKind::kColumnRef && SamePos((*slot)->pos, pos)) {
      found = true;
      out->kind = sql::ExprKind::kColumnRef;
      out->text = (*slot)->text;
      out->qualifier = (*slot)->qualifier;
    }
  });
  return found;
}

Result UnknownName(Result failure, const sql::Expr& ref, sql::SourcePos pos, const plan::ColumnScope& outer) {
  if (!ref.qualifier.empty()) {
    for (const plan::ScopeColumn& column : outer) {
      if (ascii::EqualsIgnoreCase(column.qualifier, ref.qualifier)) {
        return plan::ErrorAt(pos, "binder", "column \"" + ref.text + "\" not found in table \"" + ref.qualifier + "\"");
      }
    }
  }
  const std::string& message = failure.error();
  const size_t innermost = message.rfind("binder error at line ");
  if (innermost == std::string::npos) return failure;
  return Result::Error(message.substr(innermost), pos.line, pos.column);
}

bool NumberBindings(const Relation& outer, const std::vector<size_t>& columns, const ExecContext& ctx,
                    std::vector<uint32_t>* binding, std::vector<uint32_t>* representative, std::string* error) {
  const size_t rows = outer.table->num_rows();
  binding->assign(rows, 0);
  representative->assign(1, 0);
  if (columns.empty() || rows == 0) return true;
  // The rows numbered by their values as GROUP BY numbers groups (the grouper on the query's
  // threads: NULLs equal, -0 = 0, NaNs one value), then renumbered in order of first rows.
  // Rows serialised to strings in a hash map took 16 % of a correlated subquery over 150,000
  // distinct bindings.
  std::vector<const Column*> keys;
  for (size_t c : columns) keys.push_back(&outer.table->column(c));
  PartitionIdList ids;
  size_t groups = 0;
  if (!ColumnPartitionIds(keys, ctx, &ids, &groups, error)) return false;
  std::vector<uint32_t> number(groups, UINT32_MAX);
  representative->clear();
  for (size_t r = 0; r < rows; ++r) {
    uint32_t& n = number[ids[r]];
    if (n == UINT32_MAX) {
      n = static_cast<uint32_t>(representative->size());
      representative->push_back(static_cast<uint32_t>(r));
    }
    (*binding)[r] = n;
  }
  return true;
}

sql::QueryPtr ReferringTo(const sql::QueryNode& query, const std::vector<OuterRef>& refs,
                          const std::vector<size_t>& columns, const std::string& qualifier,
                          const std::vector<std::string>& names) {
  sql::QueryPtr copy = sql::Clone(query);
  sql::WalkExprs(copy.get(), [&](sql::ExprPtr* slot) {
    if ((*slot)->kind != sql::ExprKind::kColumnRef) return;
    for (const OuterRef& ref : refs) {
      if (!SamePos((*slot)->pos, ref.pos)) continue;
      for (size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == ref.column) *slot = plan::MakeColumnRef(qualifier, names[i], ref.pos);
      }
      return;
    }
  });
  return copy;
}

}  // namespace exec
}  // namespace laneql
