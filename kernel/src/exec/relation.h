// A relation the query runner made (the answer of a subquery, a CTE, a VALUES list, a join, a
// set operation): a table whose columns have internal names (#0, #1, ...) and the scope that
// says what SQL calls them (a name may repeat: SELECT 1, 1), with helpers to build, combine and
// cut such tables by rows.
#ifndef LANEQL_EXEC_RELATION_H_
#define LANEQL_EXEC_RELATION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "laneql/result.h"
#include "laneql/table.h"
#include "src/plan/binder.h"

namespace laneql {
namespace exec {

struct ExecContext;

struct Relation {
  std::shared_ptr<const Table> table;
  plan::ColumnScope scope;  // one entry per table column
};

// The internal name of column i.
std::string RelationColumnName(size_t i);

// A relation holding `result`'s columns, each qualified by `qualifier`.
bool RelationFromResult(Result result, const std::string& qualifier, Relation* out,
                        std::string* error);
// A relation over a table as it is (no copy), its columns qualified by `qualifier`.
Relation RelationOverTable(std::shared_ptr<const Table> table, const std::string& qualifier);
// The relation of `in`'s columns at `columns`, in that order, sharing their bytes (read-only
// views kept alive by `in`'s table): no copy.
bool ShareColumns(const Relation& in, const std::vector<size_t>& columns, Relation* out, std::string* error);
// `in`'s bytes as a new column, read-only views kept alive by `owner`.
bool ShareColumn(const Column& in, const std::shared_ptr<const void>& owner, Column* out, std::string* error);
// `relation` with `column` added at the end under `name` (the others shared, not copied).
bool AddRelationColumn(Relation* relation, Column column, plan::ScopeColumn name, std::string* error);
// The relation's visible columns as a Result (the SQL names).
Result RelationToResult(const Relation& relation);

// A copy of `in`; a large_string's with int32 offsets where its text fits them.
bool CopyColumn(const Column& in, Column* out, std::string* error);
// `in`'s rows appended to `out` (of the same type; a string column passing 2 GiB becomes a
// large_string, as Column::AppendString makes it).
bool AppendColumn(const Column& in, Column* out, std::string* error);
// The rows of `in` at `rows`, in that order; a row of kMissingRow is NULL.
inline constexpr uint32_t kMissingRow = 0xFFFFFFFFu;
bool TakeRows(const Column& in, const std::vector<uint32_t>& rows, Column* out,
              std::string* error);
// `relation` cut to its rows at `rows` (every column; the scope unchanged); with `ctx`, the
// columns are gathered on its threads.
bool KeepRelationRows(Relation* relation, const std::vector<uint32_t>& rows, std::string* error,
                      const ExecContext* ctx = nullptr);
// The joined rows of the pairs (left_rows[i], right_rows[i]): every column of `left`, then every
// column of `right` (kMissingRow on either side gives NULLs), under both scopes.
bool GatherJoinedRows(const Relation& left, const Relation& right, const std::vector<uint32_t>& left_rows,
                      const std::vector<uint32_t>& right_rows, Relation* out, std::string* error);
// An all-NULL column of `type` and `length` rows.
bool NullColumn(TypeId type, size_t length, Column* out, std::string* error);

// One byte string per row holding every column's value (NULL distinct from any value, -0.0
// equal to 0.0, NaNs equal), so that rows are equal exactly when their keys are: DISTINCT and
// the set operations compare rows this way.
std::vector<std::string> RowKeys(const Table& table);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_RELATION_H_
