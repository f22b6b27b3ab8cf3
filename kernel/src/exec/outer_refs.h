// The outer columns a correlated subquery reads, found by running it (query_apply_bindings.cc):
// a run fails on the first name it cannot resolve in its own scopes, and that position is one
// of the outer query's columns when the outer rows have it.
#ifndef LANEQL_EXEC_OUTER_REFS_H_
#define LANEQL_EXEC_OUTER_REFS_H_

#include <string>
#include <vector>

#include "laneql/result.h"
#include "laneql/table.h"
#include "src/exec/exec_context.h"
#include "src/exec/relation.h"
#include "src/plan/binder.h"
#include "src/sql/ast.h"

namespace laneql {
namespace exec {

// The innermost failure of a located message: its last "line L, column C" (outer layers wrap
// the message of the failure inside them).
bool LastPosition(const std::string& message, sql::SourcePos* pos);
bool SamePos(const sql::SourcePos& a, const sql::SourcePos& b);

// An outer column the subquery reads, at one position of it.
struct OuterRef {
  sql::SourcePos pos;
  size_t column;  // in the outer relation
};

// `query` with every outer reference replaced by the outer relation's value at `row` (of
// `values`: the outer relation's table, or a row of NULLs).
sql::QueryPtr Substituted(const sql::QueryNode& query, const std::vector<OuterRef>& refs, const Table& values,
                          size_t row);
// `query` with every outer reference replaced by a reference to `qualifier`.`names[i]`, i the
// reference's place in `columns` (the outer columns read, each once).
sql::QueryPtr ReferringTo(const sql::QueryNode& query, const std::vector<OuterRef>& refs,
                          const std::vector<size_t>& columns, const std::string& qualifier,
                          const std::vector<std::string>& names);
// Each row of `outer` numbered by the distinct values of its `columns` (binding[r]), numbered
// in order of their first row (representative[b]); every row binding 0 without columns.
bool NumberBindings(const Relation& outer, const std::vector<size_t>& columns, const ExecContext& ctx,
                    std::vector<uint32_t>* binding, std::vector<uint32_t>* representative, std::string* error);
// The qualifier and name of the column reference at `pos` in `query`; false when no column
// reference starts there.
bool ColumnRefAt(sql::QueryNode* query, sql::SourcePos pos, sql::Expr* out);
// The error for a name at `pos` that neither the subquery nor the outer rows have: for a column
// the outer query's table lacks, that; otherwise the binder's own words where it failed
// (without the layers of the subqueries around it).
Result UnknownName(Result failure, const sql::Expr& ref, sql::SourcePos pos, const plan::ColumnScope& outer);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_OUTER_REFS_H_
